"""Waiting for a job (``GET .../jobs/<job>?wait=N``) without holding one of the API's threads.

A wait used to sleep on its request thread until the job ended: a few requests waiting on an
unfinished job took every thread of the process (2 workers x 4 threads), and every other client,
``/health`` included, queued behind them. Now the view reads the job first (a job of another
chase or group is 404 before any wait), then, under the ASGI host (api/threaded_wsgi.py, what
``chase serve`` runs), leaves a ``JobWait`` in the request's environ and gives its thread back.
The host waits on its event loop, where one poll every ``POLL`` seconds reads the status of
every job waited for in the process (one pool thread for a moment, whatever the number of
waits), and once the job has ended or the wait is over, Flask answers the request again, reading
the job at once. Under a plain WSGI server (and Flask's test client) the wait stays on the thread.

Open waits are capped per token and per client address in each process
(``CHASE_LEDGER_JOB_WAITS_PER_TOKEN``, ``CHASE_LEDGER_JOB_WAITS_PER_ADDRESS``): one more is
answered 429 (problem+json) with ``Retry-After``, the seconds until the soonest of its open
waits ends, so that no client fills the loop's memory or the poll with waits. A wait whose
client hangs up ends then, and gives its place back.
"""
from __future__ import annotations

import asyncio
import math
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, Response, current_app, request

from api.client_keys import address_key, bearer_token, token_key
from api.problems import problem
from application.jobs import FINAL
from infrastructure.edge_settings import EdgeSettings

PARK = "chase_ledger.park"  # the view's JobWait: what the host waits for on its loop
CAN_PARK = "chase_ledger.can_park"  # set by a host that waits on its loop (api/threaded_wsgi.py)
WAITED = "chase_ledger.waited"  # the request served again once its wait ended: read at once
POLL = 0.25  # seconds between reads of the jobs waited for (a job takes seconds at least)

Statuses = Callable[[Sequence[str]], dict[str, str | None]]  # job ids -> status (None: gone)


class TooManyWaits(Exception):
    """One more open wait than the cap for this token or client address."""

    def __init__(self, field_name: str, cap: int, retry_after: int) -> None:
        super().__init__(f"at most {cap} open job waits {'with this token' if field_name == 'Authorization' else 'from this client address'}")
        self.field_name = field_name
        self.cap = cap
        self.retry_after = retry_after


@dataclass
class Slots:
    """The open waits of this process, per token (its hash) and per client address: for each,
    when each of its waits ends (``time.monotonic``)."""

    ends: dict[str, list[float]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self, caps: Sequence[tuple[str, str, int]], seconds: float) -> Callable[[], None]:
        """A slot under each (key, field, cap) for ``seconds``, or TooManyWaits naming the field
        whose cap is reached; returns what gives the slots back (call it once)."""
        now = time.monotonic()
        end = now + seconds
        with self.lock:
            for key, field_name, cap in caps:
                open_ends = self.ends.get(key, [])
                if len(open_ends) >= cap:
                    raise TooManyWaits(field_name, cap, max(1, math.ceil(min(open_ends) - now)))
            for key, _, _ in caps:
                self.ends.setdefault(key, []).append(end)

        def give_back() -> None:
            with self.lock:
                for key, _, _ in caps:
                    open_ends = self.ends.get(key, [])
                    if end in open_ends:
                        open_ends.remove(end)
                    if not open_ends:
                        self.ends.pop(key, None)

        return give_back

    def open(self, key: str) -> int:
        with self.lock:
            return len(self.ends.get(key, ()))


@dataclass
class JobWait:
    """A request waiting for a job to end, left to the host's event loop."""

    job_id: str
    seconds: float
    statuses: Statuses
    give_back: Callable[[], None]

    async def ready(self, executor: Executor) -> None:
        """Returns once the job has ended (or is gone) or the wait is over; the slot given back."""
        try:
            watch = _watch(asyncio.get_running_loop(), self.statuses, executor)
            await watch.until_ended(self.job_id, self.seconds)
        finally:
            self.give_back()


class Watch:
    """The jobs waited for on one event loop, read together every POLL seconds."""

    def __init__(self, statuses: Statuses, executor: Executor) -> None:
        self.statuses = statuses
        self.executor = executor
        self.waiting: dict[str, list[asyncio.Future[None]]] = {}
        self.task: asyncio.Task[None] | None = None

    async def until_ended(self, job_id: str, seconds: float) -> None:
        ended = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(job_id, []).append(ended)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.poll())
        try:
            await asyncio.wait_for(asyncio.shield(ended), seconds)
        except TimeoutError:
            pass  # the wait is over: the job is answered as it is
        finally:
            futures = self.waiting.get(job_id, [])
            if ended in futures:
                futures.remove(ended)
            if not futures:
                self.waiting.pop(job_id, None)

    async def poll(self) -> None:
        while self.waiting:
            await asyncio.sleep(POLL)
            job_ids = list(self.waiting)
            if not job_ids:
                return
            try:
                found = await asyncio.wrap_future(self.executor.submit(self.statuses, job_ids))
            except RuntimeError:  # the pool is shut down (the worker stops): every wait ends now
                found = {job_id: None for job_id in job_ids}
            except Exception:  # noqa: BLE001 - the store failed a read: each request reads (and answers) it itself
                found = {job_id: None for job_id in job_ids}
            for job_id, status in found.items():
                if status is None or status in FINAL:
                    for ended in self.waiting.get(job_id, []):
                        if not ended.done():
                            ended.set_result(None)


_watches: dict[tuple[int, int], Watch] = {}


def _watch(loop: asyncio.AbstractEventLoop, statuses: Statuses, executor: Executor) -> Watch:
    key = (id(loop), id(executor))
    watch = _watches.get(key)
    if watch is None:
        watch = _watches[key] = Watch(statuses, executor)
    return watch


def _caps() -> list[tuple[str, str, int]]:
    """Keyed as the rate limits key their counts (api/client_keys.py)."""
    caps = [(address_key(), "client address", int(current_app.config["JOB_WAITS_PER_ADDRESS"]))]
    if bearer_token():
        caps.insert(0, (token_key(), "Authorization", int(current_app.config["JOB_WAITS_PER_TOKEN"])))
    return caps


def slots(app: Flask) -> Slots:
    return app.extensions["chase_job_waits"]  # type: ignore[no-any-return]


def job_after_wait(job_id: str, seconds: float, read: Callable[[], dict[str, Any]], statuses: Statuses) -> dict[str, Any]:
    """The job, once ended or ``seconds`` on. ``read`` answers it as the route may show it (404
    for a job not of its chase or group): it is read before any wait."""
    job = read()
    if not seconds or job["status"] in FINAL or request.environ.get(WAITED):
        return job
    give_back = slots(current_app).take(_caps(), seconds)
    if request.environ.get(CAN_PARK):
        request.environ[PARK] = JobWait(job_id, seconds, statuses, give_back)
        return job  # not sent: the host waits on its loop, then Flask answers the request again
    try:  # a plain WSGI server: the wait holds this thread
        deadline = time.monotonic() + seconds
        while job["status"] not in FINAL and time.monotonic() < deadline:
            time.sleep(min(POLL, max(0.0, deadline - time.monotonic())))
            job = read()
        return job
    finally:
        give_back()


def install(app: Flask, settings: EdgeSettings) -> None:
    app.config.setdefault("JOB_WAITS_PER_TOKEN", settings.job_waits_per_token)
    app.config.setdefault("JOB_WAITS_PER_ADDRESS", settings.job_waits_per_address)
    app.extensions["chase_job_waits"] = Slots()

    @app.errorhandler(TooManyWaits)
    def too_many_waits(e: TooManyWaits) -> Response:
        answer = problem(
            429, "too-many-waits", "Too many open waits", f"{e}: read the job without ?wait=, or retry after the Retry-After seconds",
            errors=[{"field": e.field_name, "message": f"at most {e.cap} open job waits"}],
        )
        answer.headers["Retry-After"] = str(e.retry_after)
        return answer
