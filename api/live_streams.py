"""Live streams on the event loop: a chase's events, and replays at a pace, with no thread each.

The Flask views (api/stream.py) open a stream: the token, the query and ``Last-Event-ID`` are
checked there like every request's, and they answer a ``LiveStream`` naming what to send. The
ASGI host (api/asgi.py) then sends it from here, on its event loop: an open stream costs a socket
and a small task, never a worker thread, so a thousand open streams leave every thread to the
commands (issue 12).

Each process keeps one feed per chase with open streams (api/chase_feed.py). The feeds are woken
by the live feed's announcements (this process's commands; every process's through Redis) and by
a poll of the store's notification log every ``CHASE_LEDGER_STREAM_POLL`` seconds: one query per
process whatever the number of streams, which is how a stream hears the other workers on SQLite
without Redis, and anything an announcement missed.
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from api.chase_feed import PAGE, ChaseFeed, Requests, StoreReads, background, sse
from application.jobs import FINAL, FramesRemoved

log = logging.getLogger(__name__)

Emit = Callable[[bytes], Awaitable[None]]  # sends a piece of the response


@dataclass(frozen=True)
class ChaseEvents:
    """A stream of the chase's events after version ``after``."""

    chase_id: UUID
    after: int


@dataclass(frozen=True)
class ReplayFrames:
    """A stream of a replay's frames after step ``after``, ``pace`` seconds apart."""

    chase_id: UUID
    job_id: str
    after: int
    pace: float


class ChaseFeeds:
    """This process's feeds (one per chase with open streams) and what wakes them."""

    def __init__(self, ledger: Any, requests: Requests | None = None) -> None:
        self.ledger = ledger
        self.requests = requests or Requests()  # the process's requests, which the feeds give way to
        self.settings = ledger.worker
        self.store = StoreReads(ledger)
        self.feeds: dict[UUID, ChaseFeed] = {}
        self.loop = asyncio.get_running_loop()
        self._poller: asyncio.Task[None] | None = None
        self._clock: asyncio.Task[None] | None = None
        ledger.live.watch(self._announced)

    def _announced(self, chase_id: str) -> None:
        """From the thread that recorded (or relayed) the announcement: hand it to the loop."""
        try:
            self.loop.call_soon_threadsafe(self.wake, UUID(chase_id))
        except RuntimeError:  # the loop has closed (the worker is stopping)
            self.ledger.live.unwatch(self._announced)

    def wake(self, chase_id: UUID) -> None:
        feed = self.feeds.get(chase_id)
        if feed is not None:
            background(feed.refresh())

    async def follow(self, chase_id: UUID) -> ChaseFeed:
        feed = self.feeds.get(chase_id)
        if feed is None:
            feed = self.feeds[chase_id] = ChaseFeed(chase_id, self.store, self.requests)
            background(feed.start())
        feed.streams += 1
        if self._poller is None or self._poller.done():
            self._poller = self.loop.create_task(self._poll())
        if self._clock is None or self._clock.done():
            self._clock = self.loop.create_task(self._tick())
        try:
            await feed.ready.wait()
        except BaseException:  # the client left (or the worker stops) before the feed was ready
            self.leave(feed)
            raise
        return feed

    def close(self) -> None:
        """Stops listening and waits for the store reads under way (the worker is stopping)."""
        self.ledger.live.unwatch(self._announced)
        self.store.pool.shutdown(wait=True, cancel_futures=True)

    @property
    def open_streams(self) -> int:
        return sum(feed.streams for feed in list(self.feeds.values()))

    def leave(self, feed: ChaseFeed) -> None:
        feed.streams -= 1
        if feed.streams == 0 and self.feeds.get(feed.chase_id) is feed:
            del self.feeds[feed.chase_id]

    async def _poll(self) -> None:
        """Wake the feeds of the chases recorded in since the last poll, while any is open."""
        position: int | None = None
        while self.feeds:
            try:
                if position is None:
                    position = await self.store.last_notification()
                    for chase_id in list(self.feeds):  # what was recorded before that position
                        self.wake(chase_id)
                else:
                    position, chases, more = await self.store.notified_chases(position)
                    for chase_id in chases:
                        self.wake(chase_id)
                    if more:
                        continue  # read on before sleeping
            except Exception:  # noqa: BLE001 - the store is away: streams wait for it
                log.warning("live streams: polling the notification log failed", exc_info=True)
            await asyncio.sleep(self.settings.stream_poll)


    async def _tick(self) -> None:
        """Wake every stream twice per heartbeat, to send its keep-alive or end it on time."""
        while self.feeds:
            await asyncio.sleep(min(self.settings.stream_heartbeat, self.settings.stream_max_seconds) / 2)
            for feed in list(self.feeds.values()):
                feed.nudge()


async def chase_events(feeds: ChaseFeeds, plan: ChaseEvents, emit: Emit) -> None:
    """The stream's body: the backlog after ``plan.after``, then each event as it is recorded."""
    settings = feeds.settings
    after = plan.after
    feed = await feeds.follow(plan.chase_id)
    started = quiet_since = time.monotonic()
    try:
        await emit(f"retry: 1000\n: chase {plan.chase_id} after version {after}\n\n".encode())
        while True:
            seen = feed.generation  # taken before reading: no news is missed
            messages = feed.kept_after(after)  # (most wakes: no coroutine to make)
            if messages is None:
                messages = await feed.after(after)
            if messages:
                await emit(messages[0][1] if len(messages) == 1 else b"".join(message for _, message in messages))
                after = messages[-1][0]
                quiet_since = time.monotonic()
                continue
            now = time.monotonic()
            if now - started >= settings.stream_max_seconds:
                return  # the client reconnects with Last-Event-ID
            if now - quiet_since >= settings.stream_heartbeat:
                await emit(b": keep-alive\n\n")
                quiet_since = now
            await feed.news(seen)
    finally:
        feeds.leave(feed)


async def replay_frames(store: StoreReads, settings: Any, plan: ReplayFrames, emit: Emit) -> None:
    """A replay's frames at the chosen pace, then its end."""
    jobs = store.ledger.jobs
    after = plan.after
    started = quiet_since = time.monotonic()
    await emit(b"retry: 1000\n\n")
    while True:
        try:
            frames = await store.call(jobs.frames, plan.job_id, plan.chase_id, after, PAGE)
        except FramesRemoved as e:  # the retention removed them (application/replay_frames.py)
            await emit(sse(after, "end", {"status": "done", "frames": after, "error": str(e)}))
            return
        for frame in frames:
            await emit(sse(frame["step"], "frame", frame))
            after = frame["step"]
            if time.monotonic() - started >= settings.stream_max_seconds:
                return  # the client reconnects with Last-Event-ID
            if plan.pace:
                await asyncio.sleep(plan.pace)
        if frames:
            quiet_since = time.monotonic()
            continue
        job = await store.call(jobs.get, plan.job_id, plan.chase_id)
        if job["status"] in FINAL:
            await emit(sse(after, "end", {"status": job["status"], "frames": after, "error": job["error"]}))
            return
        now = time.monotonic()
        if now - started >= settings.stream_max_seconds:
            return
        if now - quiet_since >= settings.stream_heartbeat:
            await emit(b": keep-alive\n\n")
            quiet_since = now
        await asyncio.sleep(min(0.25, settings.stream_poll))
