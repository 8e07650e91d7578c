"""This process's cache of the latest saved state of each chase (the command runner's).

eventsourcing's aggregate cache keeps one live aggregate per chase, fast-forwards it in place
and hands out a ``deepcopy`` of it. The deepcopy was the largest cost of a command beyond the
floor (bench/http_profile.py), and it ran outside the fast-forward lock, so one thread could
copy the cached chase while another was folding new events into it: "RuntimeError: dictionary
changed size during iteration" (a 500).

This cache keeps each chase as its pickled bytes instead, taken right after a save. Bytes never
change, so no thread can see a chase half-updated; every load unpickles a private copy (C code,
several times cheaper than deepcopy) that the command may mutate freely. A newer version
replaces an older one, never the reverse. The runner still reads the events saved after the
cached version (by this process or another) and folds them into its copy before the command
runs, so the cache never makes a command act on stale state: a save with a stale version is
refused by the store and the command is re-run (application/runner.py).
"""
from __future__ import annotations

import pickle
import threading
from collections import OrderedDict
from typing import Any
from uuid import UUID

DEFAULT_SIZE = 500  # chases kept per process (AGGREGATE_CACHE_MAXSIZE)


class ChaseCache:
    """The latest saved state of up to ``size`` chases, least recently used dropped first."""

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        self.size = size
        self._kept: OrderedDict[UUID, tuple[int, bytes]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, chase_id: UUID) -> Any | None:
        """A private copy of the chase as last kept; None when not kept."""
        with self._lock:
            kept = self._kept.get(chase_id)
            if kept is None:
                return None
            self._kept.move_to_end(chase_id)
        return pickle.loads(kept[1])

    def keep(self, chase: Any) -> None:
        """Keep the chase as it is now (just saved, or just loaded and up to date), unless a
        newer version is kept already. A chase that cannot be pickled is simply not kept."""
        if self.size <= 0:
            return
        try:
            data = pickle.dumps(chase, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # noqa: BLE001 - not cacheable: loads fall back to the store
            return
        with self._lock:
            kept = self._kept.get(chase.id)
            if kept is not None and kept[0] >= chase.version:
                return
            self._kept[chase.id] = (chase.version, data)
            self._kept.move_to_end(chase.id)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)

    def forget(self, chase_id: UUID) -> None:
        with self._lock:
            self._kept.pop(chase_id, None)
