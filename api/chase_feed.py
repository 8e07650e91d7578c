"""One chase's feed of live events, shared by every stream of this process that follows it.

Each process keeps one ``ChaseFeed`` per chase with open streams (api/live_streams.py). The feed
reads the chase's new events from the store once, however many streams follow it, and keeps the
latest ones for them: a thousand streams on one chase cost one read per new event. A stream
behind the feed (resuming from an old ``Last-Event-ID``) reads its backlog from the store first.
Events are always read from the store, so a stream misses none and repeats none.

The feed's reads and sends give way to the requests the process is serving (``Requests``): a
thousand sends on the event loop hold Python's GIL, which a command's thread must take back after
each of its store calls, so a roll sent to a thousand streams of its own process answered in 8 ms
instead of 1.7 (bench/streams.py). The feed reads and sends between requests: events that come
meanwhile are read at once and sent to each stream in one write. For the same reason a feed reads
new events ``SPACING`` seconds apart at least: a process whose streams hear another's commands
(through Redis, or the log's poll) sends a busy chase's events a few at a time, so its CPU for a
thousand streams stays bounded however fast the chase is played. An event waits ``GIVE_WAY``
seconds at most in all, from its announcement to its streams' wake, the spacing included: its
read and its sends share one deadline, so a process that is never without a request sends it
``GIVE_WAY`` after it is heard (and then at the pace of the read and the sends themselves).
"""
from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from uuid import UUID

log = logging.getLogger(__name__)

PAGE = 100  # events (or frames) per read
KEPT = 256  # latest events a feed keeps for its streams
PAGES_KEPT = 50  # full pages of older events a feed keeps for streams catching up
NOTIFICATIONS = 500  # notifications per read of the log
WAKE_SLICE = 50  # streams woken per turn of the event loop
GIVE_WAY = 0.25  # seconds an event waits at most in all (for the spacing, and a pause in the requests) to be sent
SPACING = 0.05  # seconds at least between a feed's reads of new events (so, between its sends); under GIVE_WAY
_running: set[asyncio.Task[Any]] = set()


def background(work: Awaitable[Any]) -> None:
    """Run ``work`` as a task, held until it is done (the loop itself holds tasks only weakly)."""
    task = asyncio.ensure_future(work)
    _running.add(task)
    task.add_done_callback(_running.discard)


class Requests:
    """The requests this process is serving (counted by the ASGI host), which the feeds give way to."""

    def __init__(self) -> None:
        self.serving = 0
        self._pause: asyncio.Future[None] | None = None

    def started(self) -> None:
        self.serving += 1

    def finished(self) -> None:
        self.serving -= 1
        if self.serving == 0 and self._pause is not None:
            if not self._pause.done():
                self._pause.set_result(None)
            self._pause = None

    async def pause(self, deadline: float) -> None:
        """Returns when no request is being served, or at the loop's time ``deadline``."""
        loop = asyncio.get_running_loop()
        if self.serving <= 0 or loop.time() >= deadline:
            return
        if self._pause is None:
            self._pause = loop.create_future()
        try:
            await asyncio.wait_for(asyncio.shield(self._pause), deadline - loop.time())
        except TimeoutError:
            pass  # the streams have waited long enough: send now, beside the requests


async def wake(waiting: list[asyncio.Future[None]], requests: Requests, deadline: float) -> None:
    for start in range(0, len(waiting), WAKE_SLICE):
        await requests.pause(deadline)
        for waiter in waiting[start:start + WAKE_SLICE]:
            if not waiter.done():  # (a stream whose client left was cancelled)
                waiter.set_result(None)
        await asyncio.sleep(0)


def sse(event_id: int, kind: str, data: Any) -> bytes:
    return f"id: {event_id}\nevent: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


class ChaseFeed:
    """One chase's latest events, read from the store once for every stream that follows it."""

    def __init__(self, chase_id: UUID, store: StoreReads, requests: Requests | None = None) -> None:
        self.chase_id = chase_id
        self.store = store
        self.requests = requests or Requests()
        self.version = 0  # the chase's last version read from the store
        self.recent: dict[int, bytes] = {}  # the latest events, each as its SSE message (made once)
        self.pages: OrderedDict[int, asyncio.Future[list[tuple[int, bytes]]]] = OrderedDict()
        self.streams = 0
        self.ready = asyncio.Event()  # set once the version is known
        self.generation = 0  # grows with the version, and with each tick of the clock
        self._waiting: list[asyncio.Future[None]] = []
        self._refreshing = False
        self._due: float | None = None  # (loop time) by which the events heard of and not yet read are sent
        self._read_at = float("-inf")  # (loop time) of the last read of new events

    async def start(self) -> None:
        try:
            self.version = await self.store.last_version(self.chase_id)
        finally:
            self.ready.set()

    async def news(self, seen: int) -> None:
        """Wait until the generation moves on from ``seen``: new events, or a tick of the clock
        (the streams' keep-alives and time limits: no timer per stream)."""
        if self.generation == seen:
            waiter = asyncio.get_running_loop().create_future()
            self._waiting.append(waiter)
            await waiter

    def nudge(self, deadline: float | None = None) -> None:
        """Wake every waiting stream, a slice at a time: the loop serves requests in between, so
        a thousand streams woken by one roll never hold up the next command for long. Each slice
        gives way to the requests until the loop's time ``deadline`` at most (new events: the one
        their read gave way until; else ``GIVE_WAY`` from now)."""
        self.generation += 1
        waiting, self._waiting = self._waiting, []
        if waiting:
            loop_time = asyncio.get_running_loop().time()
            background(wake(waiting, self.requests, loop_time + GIVE_WAY if deadline is None else deadline))

    def keep(self, messages: list[tuple[int, bytes]], deadline: float | None = None) -> None:
        for version, message in messages:
            self.recent[version] = message
        if messages and messages[-1][0] > self.version:
            self.version = messages[-1][0]
            self.nudge(deadline)
        for version in [v for v in self.recent if v <= self.version - KEPT]:
            del self.recent[version]

    def kept_after(self, version: int) -> list[tuple[int, bytes]] | None:
        """The events after ``version`` (a page) as (version, SSE message) when the feed keeps
        them all (nothing, past the feed's version: the feed reads what comes next for all);
        None when they must be read."""
        if version >= self.version:
            return []
        wanted = range(version + 1, min(self.version, version + PAGE) + 1)
        if all(v in self.recent for v in wanted):
            return [(v, self.recent[v]) for v in wanted]
        return None

    async def after(self, version: int) -> list[tuple[int, bytes]]:
        """The events after ``version``: the kept ones, else the page of the log holding the
        next one (a stream resuming from further back)."""
        kept = self.kept_after(version)
        if kept is not None:
            return kept
        page = await self.page(version - version % PAGE)
        if page and page[-1][0] > self.version - KEPT:
            self.keep(page)
        return [(v, message) for v, message in page if v > version]

    async def page(self, start: int) -> list[tuple[int, bytes]]:
        """The log's events ``start`` + 1 to ``start`` + PAGE. The log only grows, so a full page
        never changes: the last few read are kept, and streams asking for the same page at once
        share one read (a crowd of new streams on a long chase reads it once, not once each)."""
        reading = self.pages.get(start)
        if reading is None:
            reading = self.pages[start] = asyncio.ensure_future(self.store.messages(self.chase_id, start, PAGE))
        else:
            self.pages.move_to_end(start)
        try:
            page = await asyncio.shield(reading)
        except BaseException:
            if reading.done() and self.pages.get(start) is reading:
                del self.pages[start]  # a failed read is not kept
            raise
        if len(page) < PAGE and self.pages.get(start) is reading:
            del self.pages[start]  # not full yet: read it afresh next time
        while len(self.pages) > PAGES_KEPT:
            self.pages.popitem(last=False)
        return page

    async def refresh(self) -> None:
        """Read the events recorded since the feed's version; announcements that come while it
        waits or reads make it read once more, not once each. Reads are ``SPACING`` apart at
        least: a burst of events goes to each stream in a few writes, not one write per event.
        The spacing, the read's wait for a pause and the sends' share one deadline, ``GIVE_WAY``
        after the first announcement not yet read (so the waits never add up past it)."""
        loop = asyncio.get_running_loop()
        if self._due is None:
            self._due = loop.time() + GIVE_WAY
        if self._refreshing:
            return  # read next, by the deadline of the first announcement not read
        self._refreshing = True
        try:
            await self.ready.wait()
            while True:
                await asyncio.sleep(self._read_at + SPACING - loop.time())
                await self.requests.pause(self._due)
                due, self._due = self._due, None  # announcements from here on: the next read's
                self._read_at = loop.time()
                messages = await self.store.messages(self.chase_id, self.version, PAGE)
                self.keep(messages, due)
                if len(messages) == PAGE:
                    self._due = due  # more of the same news to read, by the same deadline
                if self._due is None:
                    return
        except Exception:  # noqa: BLE001 - a failed read only delays: the next wake reads again
            self._due = None  # (the next wake's announcements set their own deadline)
            log.warning("live streams: reading chase %s failed; its streams wait for the next wake", self.chase_id, exc_info=True)
        finally:
            self._refreshing = False


class StoreReads:
    """The store reads of the streams, each on a small pool of threads of their own (they are
    short; the commands' threads are never taken)."""

    def __init__(self, ledger: Any, threads: int = 4) -> None:
        self.ledger = ledger
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="stream-read")

    async def call(self, function: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.pool, function, *args)

    async def messages(self, chase_id: UUID, after: int, limit: int) -> list[tuple[int, bytes]]:
        """The chase's events after ``after``, each as (version, its SSE message)."""
        def read() -> list[tuple[int, bytes]]:
            events = self.ledger.history.chase_events(chase_id, after, limit)
            return [(e["version"], sse(e["version"], e["name"], e)) for e in events]
        return await self.call(read)

    async def last_version(self, chase_id: UUID) -> int:
        records = await self.call(lambda: self.ledger.recorder.select_events(chase_id, desc=True, limit=1))
        return records[0].originator_version if records else 0

    async def last_notification(self) -> int:
        return await self.call(lambda: self.ledger.recorder.max_notification_id() or 0)

    async def notified_chases(self, after: int) -> tuple[int, set[UUID], bool]:
        """The chases recorded in since notification ``after``, the last notification read, and
        whether more may follow it."""
        def read() -> tuple[int, set[UUID], bool]:
            notifications = self.ledger.recorder.select_notifications(after, NOTIFICATIONS, inclusive_of_start=False)
            last = notifications[-1].id if notifications else after
            return last, {n.originator_id for n in notifications}, len(notifications) == NOTIFICATIONS
        return await self.call(read)

