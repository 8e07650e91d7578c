"""This process's cache of the latest saved state of each chase (the command runner's).

eventsourcing's aggregate cache keeps one live aggregate per chase, fast-forwards it in place
and hands out a ``deepcopy`` of it, outside its lock: one thread could copy the cached chase
while another folded new events into it ("RuntimeError: dictionary changed size during
iteration", a 500). Keeping each chase pickled instead made every command unpickle a private
copy and pickle it back: at 1,000 participants some 10 ms a command (bench/big_chase.py).

This cache lends each chase out instead: ``check_out`` takes the live chase out of the cache,
so the command that took it owns it alone (it folds newer events into it, runs, saves), and
``check_in`` puts it back once saved. A chase is never in the cache while a command holds it,
so no two threads ever share it mutably (issue 12 part 2), and nothing is copied. A second
command on a chase that is out waits for it to come back (up to ``WAIT``): commands on one
chase in one process take turns instead of racing each other to the store, and the second
starts from the chase the first saved. Past the wait it loads its own from the store (snapshot
and events), as a command of another process would; of two chases checked in, the newer
version is kept. A chase whose command failed after changing it (events not saved) is not
checked in: ``release`` lets the next command go, to load it from the store.
The runner still reads the events saved after the cached version (by this process or
another) and folds them in before the command runs, so the cache never makes a command act on
stale state: a save with a stale version is refused by the store and the command is re-run
(application/runner.py).
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any
from uuid import UUID

DEFAULT_SIZE = 500  # chases kept per process (AGGREGATE_CACHE_MAXSIZE)
WAIT = 0.25  # seconds a command waits for its chase to come back from another command


class ChaseCache:
    """The latest saved state of up to ``size`` chases, least recently used dropped first."""

    def __init__(self, size: int = DEFAULT_SIZE, wait: float = WAIT) -> None:
        self.size = size
        self.wait = wait
        self._kept: OrderedDict[UUID, Any] = OrderedDict()
        # Chases out, each with the event set when it is back: made by the first command that
        # waits for it (most chases are never waited for: no event made and set per command).
        self._lent: dict[UUID, threading.Event | None] = {}
        self._lock = threading.Lock()

    def check_out(self, chase_id: UUID) -> Any | None:
        """The chase as last checked in, now the caller's alone; None when not kept (the caller
        loads it). The caller must ``check_in`` or ``release`` it when done."""
        if self.size <= 0:
            return None
        deadline = None
        while True:
            with self._lock:
                if chase_id not in self._lent:
                    self._lent[chase_id] = None
                    return self._kept.pop(chase_id, None)
                back = self._lent[chase_id]
                if back is None:
                    back = self._lent[chase_id] = threading.Event()
            if deadline is None:
                deadline = time.monotonic() + self.wait
            left = deadline - time.monotonic()
            if left <= 0 or not back.wait(left):
                return None  # out too long: load it from the store, as another process would

    def check_in(self, chase: Any) -> None:
        """Keep the chase as it is now (just saved, or up to date and unchanged), unless a newer
        version is kept already; the next command waiting for it goes. The caller must not
        change it afterwards."""
        chase_id = chase.id
        with self._lock:
            kept = self._kept.get(chase_id)
            if self.size > 0 and not chase.pending_events and (kept is None or kept.version < chase.version):
                self._kept[chase_id] = chase
                if kept is not None:  # (a chase not kept goes in last already)
                    self._kept.move_to_end(chase_id)
                while len(self._kept) > self.size:
                    self._kept.popitem(last=False)
            back = self._lent.pop(chase_id, None)
        if back is not None:
            back.set()

    def release(self, chase_id: UUID) -> None:
        """The chase checked out is not coming back (changed and not saved, or kept by a
        reader): the next command waiting for it goes, and loads it from the store."""
        with self._lock:
            back = self._lent.pop(chase_id, None)
        if back is not None:
            back.set()

    def forget(self, chase_id: UUID) -> None:
        with self._lock:
            self._kept.pop(chase_id, None)
