"""Rate limits counted in memory hold up when the API's threads hit them at once.

limits 5.8.0's in-memory store could start one expiry timer twice when two requests counted at
the same moment: a 500 ("threads can only be started once") or a traceback in the server's log
(api/limits_memory.py). Here the moment is made wide on purpose: looking at the timer takes a
while, so every thread reaches it together.
"""
from __future__ import annotations

import threading
import time

from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from api.limits_memory import make_thread_safe

THREADS = 8


class BusyHostStorage(MemoryStorage):
    """The in-memory counts on a busy host: each look at the expiry timer takes a moment."""

    @property
    def timer(self) -> threading.Timer:
        time.sleep(0.005)
        return self.__dict__["_timer"]

    @timer.setter
    def timer(self, timer: threading.Timer) -> None:
        self.__dict__["_timer"] = timer


def test_requests_counted_at_once_each_count_and_nothing_breaks():
    make_thread_safe()
    # Given the API's in-memory counts, with no expiry timer running
    storage = BusyHostStorage()
    storage.timer.join()
    limiter, limit = MovingWindowRateLimiter(storage), parse("1000 per minute")
    crashed: list[BaseException] = []
    hook, threading.excepthook = threading.excepthook, lambda args: crashed.append(args.exc_value)
    together = threading.Barrier(THREADS)

    def request(n: int) -> None:
        together.wait()
        try:
            limiter.hit(limit, "token:abc")
        except BaseException as e:  # noqa: BLE001 - what a request would have answered 500 for
            crashed.append(e)

    try:
        # When eight requests are counted at the same moment
        threads = [threading.Thread(target=request, args=(n,)) for n in range(THREADS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        time.sleep(0.1)  # the timers have run
    finally:
        threading.excepthook = hook

    # Then none failed, none broke a thread, and every one was counted
    assert crashed == []
    assert limiter.get_window_stats(limit, "token:abc").remaining == 1000 - THREADS


def test_the_lock_is_put_in_only_on_a_release_of_limits_without_its_own():
    from api.limits_memory import needs_the_lock

    # The release installed (5.8.0) lacks it; a later one, carrying upstream's fix, is left alone
    assert needs_the_lock("5.8.0") and needs_the_lock("4.7")
    assert not needs_the_lock("5.9.0") and not needs_the_lock("6.0.0.dev1")


def test_requests_one_after_another_start_one_expiry_not_a_thread_every_few(monkeypatch):
    from api import limits_memory

    make_thread_safe()
    monkeypatch.setattr(limits_memory, "EXPIRE_EVERY", 3600.0, raising=False)  # (a second on a server: one hour here, however slow the host)
    # Given the API's in-memory counts, whose first expiry has run
    storage = MemoryStorage()
    storage.timer.join()
    started: list[threading.Timer] = []

    class CountedTimer(threading.Timer):
        def start(self) -> None:
            started.append(self)
            super().start()

    monkeypatch.setattr(threading, "Timer", CountedTimer)
    limiter, limit = MovingWindowRateLimiter(storage), parse("1000 per minute")

    # When fifty requests are counted, each after the last one's expiry has run
    for _ in range(50):
        assert limiter.hit(limit, "token:abc")
        storage.timer.join()

    # Then one expiry thread was started for them all (limits starts one per hit it finds none
    # running), and every request was counted
    assert len(started) == 1
    assert limiter.get_window_stats(limit, "token:abc").remaining == 1000 - 50
