"""The embedded default's job queue (infrastructure/queues.py InlineJobQueue) ends every thread it
started when it is closed: a lane of several threads (webhook deliveries) gets an end for each,
so closing a ledger never waits on a thread that was never told to stop."""
from __future__ import annotations

import threading

from infrastructure.queues import INLINE_THREADS, InlineJobQueue


def test_closing_ends_every_thread_of_every_lane():
    # Given a queue whose webhooks lane runs several threads, and one of a single thread
    queue = InlineJobQueue(sweep_interval=3600)
    assert INLINE_THREADS["webhooks"] > 1
    queue._lane("webhooks")
    queue._lane("interactive")
    started = [t for t in threading.enumerate() if t.name.startswith("inline-jobs-")]
    assert len(started) >= INLINE_THREADS["webhooks"] + 1
    # When it is closed
    queue.close(timeout=30)
    # Then none of its threads is left running
    assert [t.name for t in queue._threads if t.is_alive()] == []
