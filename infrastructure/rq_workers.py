"""The worker process of ``chase worker``: RQ's non-forking worker on the main thread, the
webhooks lane's worker in a thread beside it (ApartWorker: a slow receiver holds up no other
lane), and RQ's retry scheduler in another; each rides out Redis outages.
"""
from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Sequence

import redis
from rq import Queue, SimpleWorker
from rq.scheduler import RQScheduler
from rq.timeouts import TimerDeathPenalty

from infrastructure.queues import redis_client

log = logging.getLogger(__name__)


class ChaseWorker(SimpleWorker):
    """RQ's non-forking worker, reconnecting to Redis every few seconds when it goes away."""

    max_connection_wait_time = 5.0


class ApartWorker(ChaseWorker):
    """The same worker in a thread beside the main one (the webhooks lane): signals belong to the
    main thread, so an attempt's time limit is kept by a timer instead of SIGALRM."""

    death_penalty_class = TimerDeathPenalty

    def _install_signal_handlers(self) -> None:
        pass


class ThreadScheduler(RQScheduler):
    """RQ's scheduler (it enqueues the retries that ``Retry`` scheduled), run in a thread."""

    def _install_signal_handlers(self) -> None:  # signals belong to the main thread (the worker)
        pass


def run_scheduler(queues: Sequence[Queue], connection: redis.Redis, stop: threading.Event, interval: float = 1.0) -> None:
    """Enqueue due retries until ``stop``; rides out Redis outages."""
    while not stop.is_set():
        try:
            scheduler = ThreadScheduler(queues, connection=connection, interval=int(max(1, interval)))
            scheduler.acquire_locks()
            while not stop.wait(interval):
                if scheduler.should_reacquire_locks:
                    scheduler.acquire_locks()
                scheduler.heartbeat()  # keeps its locks (or learns another scheduler took them)
                scheduler.enqueue_scheduled_jobs()
        except redis.RedisError as e:
            log.warning("scheduler: Redis unavailable (%s); retrying", e)
            stop.wait(2.0)
        except Exception:
            log.exception("scheduler failed; restarting it")
            stop.wait(2.0)


def run_worker(
    url: str,
    names: Sequence[str],
    *,
    burst: bool = False,
    stop: threading.Event | None = None,
    name: str | None = None,
) -> None:
    """Run an RQ worker on ``names`` until asked to stop (SIGTERM/SIGINT), restarting it
    whenever it gives up on Redis (RQ quits its loop on some connection errors)."""
    stop = stop or threading.Event()
    backoff = 1.0
    main = threading.current_thread() is threading.main_thread()
    while not stop.is_set():
        if main:  # RQ installs its own handlers while it works; between its runs, these stop us
            signal.signal(signal.SIGTERM, lambda *_: stop.set())
            signal.signal(signal.SIGINT, lambda *_: stop.set())
        connection = redis_client(url, socket_timeout=None)
        try:
            kind = ChaseWorker if main else ApartWorker
            worker = kind([Queue(n, connection=connection) for n in names], connection=connection, name=name)
            worker.work(burst=burst, with_scheduler=False, logging_level="INFO")
            if burst or getattr(worker, "_shutdown_requested_date", None) is not None:
                return  # SIGTERM/SIGINT: a warm shutdown (after the job in hand, if any)
            log.warning("worker stopped (Redis unavailable?); starting again in %.0fs", backoff)
        except redis.RedisError as e:
            log.warning("worker: Redis unavailable (%s); retrying in %.0fs", e, backoff)
        except ValueError as e:  # "There exists an active worker named ..." after a restart
            log.warning("worker: %s", e)
            name = None
        finally:
            connection.close()
        stop.wait(backoff)
        backoff = min(backoff * 2, 5.0)
