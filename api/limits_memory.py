"""The rate limits' in-memory counts, safe for the API's threads.

limits 5.8.0 (the newest release) starts a timer to expire old entries on every hit whose timer
is not running, without a lock: two threads that hit at once can both start the same timer
object, and the second start either raises "threads can only be started once" into the request
(a 500) or runs the timer twice, one copy dying with ``KeyError`` in ``threading`` (seen under
1,000 open streams, tests/e2e/test_streams_at_scale.py). Upstream fixed it with a lock
(alisaifee/limits pull request 352, merged after 5.8.0); until a release carries it, the same lock
is put here. flask-limiter builds its Redis fallback as ``MemoryStorage()`` itself, so the class
is fixed in place rather than a subclass registered beside it. The same patch starts an expiry at
most once a second (``EXPIRE_EVERY``), not a thread every few requests.
"""
from __future__ import annotations

import logging
import threading
import time

import limits
from limits.storage import MemoryStorage

log = logging.getLogger(__name__)
_lock = threading.Lock()
FIXED_AFTER = (5, 8, 0)  # the newest release without upstream's lock
EXPIRE_EVERY = 1.0  # seconds between expiries of old entries, at most
_NEXT = "_chase_ledger_next_expiry"  # when a hit may start the next one (on the storage)


def _schedule_expiry(self: MemoryStorage) -> None:
    # At most one expiry a second (limits runs one 10 ms after any hit when none is running: a
    # new thread every few requests, each start waiting for the thread to run). Expiring only
    # frees memory: a count or a moving window reads its own entries' times (limits' memory.py).
    if time.monotonic() < self.__dict__.get(_NEXT, 0.0):
        return
    with _lock:
        if not self.timer.is_alive():
            timer = threading.Timer(0.01, self._MemoryStorage__expire_events)  # type: ignore[attr-defined]
            timer.daemon = True  # an idle timer never holds a stopping worker
            self.timer = timer
            self.__dict__[_NEXT] = time.monotonic() + EXPIRE_EVERY
            timer.start()


def needs_the_lock(version: str = limits.__version__) -> bool:
    """Whether this release of limits is one without upstream's lock, shaped as the fix expects."""
    try:
        released = tuple(int(part) for part in version.split(".")[:3])
    except ValueError:  # a development build: left as it is
        return False
    shaped = hasattr(MemoryStorage, "_MemoryStorage__schedule_expiry") and hasattr(MemoryStorage, "_MemoryStorage__expire_events")
    return released <= FIXED_AFTER and shaped


def make_thread_safe() -> None:
    """Every MemoryStorage, made before or after, schedules its expiry under one lock; a later
    release of limits (with upstream's own lock) is left as it is."""
    if not needs_the_lock():
        log.info("limits %s: its in-memory counts are left as they are", limits.__version__)
        return
    MemoryStorage._MemoryStorage__schedule_expiry = _schedule_expiry  # type: ignore[attr-defined]
