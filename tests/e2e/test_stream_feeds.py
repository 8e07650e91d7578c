"""The chase feeds of the live streams (api/live_streams.py), driven on an event loop of the test.

A stream whose client leaves while its feed is still being opened lets go of the feed: the
process keeps no feed, reads and polls nothing more for it, and counts no stream that is gone.
A feed gives way to the process's requests, but an event waits ``GIVE_WAY`` at most in all.
"""
from __future__ import annotations

import asyncio
import selectors
from typing import Any
from uuid import UUID, uuid4

import pytest

from api import chase_feed
from api.chase_feed import GIVE_WAY, ChaseFeed, background
from api.live_streams import ChaseEvents, ChaseFeeds, Requests, chase_events
from application.dice import DiceChoice
from infrastructure.bootstrap import build_ledger


def test_a_stream_that_leaves_while_its_feed_opens_leaves_no_feed_behind(ledger):
    view, _ = ledger.start_chase("Left at once", dice="server")
    chase_id = UUID(view["chase_id"])

    async def play() -> int:
        feeds = ChaseFeeds(ledger)
        opening = asyncio.Event()

        async def slow_last_version(_: UUID) -> int:  # the store is slow to answer the first read
            opening.set()
            await asyncio.sleep(60)
            return 0

        feeds.store.last_version = slow_last_version

        async def emit(_: bytes) -> None:
            pass

        # Given a stream opening on the chase, whose client leaves before the feed is ready
        stream = asyncio.ensure_future(chase_events(feeds, ChaseEvents(chase_id, 0), emit))
        await opening.wait()
        stream.cancel()
        await asyncio.gather(stream, return_exceptions=True)

        # Then no stream is counted and no feed is kept for the chase
        open_streams, kept = feeds.open_streams, chase_id in feeds.feeds
        feeds.close()  # as a stopping worker does: no read of the store outlives the test's ledger
        return open_streams + kept

    assert asyncio.run(play()) == 0


@pytest.fixture
def stored_ledger(tmp_path):
    """The application on a SQLite file, which the feeds' own threads read too."""
    app = build_ledger({"SQLITE_DBNAME": str(tmp_path / "chase.sqlite3")})
    yield app
    app.close()


def sent_ids(pieces: list[bytes]) -> list[int]:
    return [int(line[4:]) for piece in pieces for line in piece.decode().splitlines() if line.startswith("id: ")]


async def follow(ledger, chase_id: UUID, requests: Requests) -> tuple[ChaseFeeds, asyncio.Queue[bytes], asyncio.Future[None]]:
    """A stream of the chase from its current version, and what it is sent (its head taken)."""
    feeds = ChaseFeeds(ledger, requests)
    version = await feeds.store.last_version(chase_id)
    sent: asyncio.Queue[bytes] = asyncio.Queue()
    stream = asyncio.ensure_future(chase_events(feeds, ChaseEvents(chase_id, version), sent.put))
    await sent.get()  # "retry: ..."
    return feeds, sent, stream


def test_rolls_recorded_while_the_process_serves_requests_reach_the_stream_after_their_answers_all_in_order(stored_ledger, monkeypatch):
    ledger = stored_ledger
    monkeypatch.setattr(chase_feed, "GIVE_WAY", 60.0)  # only a pause in the requests lets the feed send
    view, _ = ledger.start_chase("Followed while busy", dice="server")
    chase_id = UUID(view["chase_id"])

    async def play() -> tuple[list[str], list[int]]:
        requests = Requests()
        feeds, sent, stream = await follow(ledger, chase_id, requests)
        happened: list[str] = []

        # Given the process serving requests, among them three rolls on the followed chase
        requests.started()
        for _ in range(3):
            ledger.commands["coc7e"].roll_dice(chase_id, "1D6", dice=DiceChoice())

        async def answered() -> None:
            await asyncio.sleep(0.2)
            happened.append("requests answered")
            requests.finished()

        asyncio.ensure_future(answered())
        # When the stream is sent the rolls
        pieces = [await asyncio.wait_for(sent.get(), 30)]
        happened.append("rolls sent")
        while len(sent_ids(pieces)) < 3:
            pieces.append(await asyncio.wait_for(sent.get(), 30))
        stream.cancel()
        await asyncio.gather(stream, return_exceptions=True)
        feeds.close()
        return happened, sent_ids(pieces)

    happened, ids = asyncio.run(play())
    # Then they were sent once the requests were answered, each once and in order
    assert happened == ["requests answered", "rolls sent"]
    assert ids == [ids[0], ids[0] + 1, ids[0] + 2]


def test_requests_that_never_pause_do_not_keep_a_roll_from_the_stream(stored_ledger, monkeypatch):
    ledger = stored_ledger
    monkeypatch.setattr(chase_feed, "GIVE_WAY", 0.05)
    view, _ = ledger.start_chase("Followed under load", dice="server")
    chase_id = UUID(view["chase_id"])

    async def play() -> tuple[int, list[int]]:
        requests = Requests()
        feeds, sent, stream = await follow(ledger, chase_id, requests)
        version = await feeds.store.last_version(chase_id)
        # Given the process never without a request under way
        requests.started()
        # When a roll is recorded
        ledger.commands["coc7e"].roll_dice(chase_id, "1D6", dice=DiceChoice())
        piece = await asyncio.wait_for(sent.get(), 30)
        stream.cancel()
        await asyncio.gather(stream, return_exceptions=True)
        feeds.close()
        return version, sent_ids([piece])

    # Then the stream is sent it all the same
    version, ids = asyncio.run(play())
    assert ids == [version + 1]


class SleeplessSelector(selectors.DefaultSelector):
    """Waits that pass at once: the clock (``now``) moves on by the wait instead."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0

    def select(self, timeout: float | None = None) -> list[Any]:
        ready = super().select(0)
        if ready or timeout is None:
            return ready or super().select(None)  # (nothing due on the clock: wait for real)
        self.now += timeout
        return []


class FakeClockLoop(asyncio.SelectorEventLoop):
    """An event loop on a fake clock: it never sleeps; its time jumps to its next timer instead."""

    def __init__(self) -> None:
        self.clock = SleeplessSelector()
        super().__init__(self.clock)

    def time(self) -> float:
        return self.clock.now


class ChaseLog:
    """A chase's log as the feed reads it, at once (no thread, no time passing)."""

    def __init__(self) -> None:
        self.events = 0
        self.while_read: Any = None  # called once, as a read is made

    async def last_version(self, _: UUID) -> int:
        return self.events

    async def messages(self, _: UUID, after: int, limit: int) -> list[tuple[int, bytes]]:
        page = [(v, f"id: {v}\n\n".encode()) for v in range(after + 1, min(self.events, after + limit) + 1)]
        if self.while_read is not None:
            self.while_read, happening = None, self.while_read
            happening()
        return page


def test_an_event_waits_for_the_requests_give_way_at_most_in_all():
    async def play() -> dict[int, float]:
        loop = asyncio.get_running_loop()
        log, requests = ChaseLog(), Requests()
        feed = ChaseFeed(uuid4(), log, requests)
        await feed.start()
        heard: dict[int, float] = {}

        def recorded() -> None:  # a command records an event and announces it, as the live feed does
            log.events += 1
            heard[log.events] = loop.time()
            background(feed.refresh())

        # Given a process that is never without a request under way (its count never drains)
        requests.started()
        # When an event is recorded, and another while the feed reads the first (its read must
        # then come SPACING after that one: the longest an event waited)
        log.while_read = recorded
        recorded()
        # Then a stream of the chase hears each, after how long the feed gave way for it
        waited: dict[int, float] = {}
        while len(waited) < 2:
            await feed.news(feed.generation)
            waited.update({v: loop.time() - heard[v] for v in range(len(waited) + 1, feed.version + 1)})
        return waited

    with asyncio.Runner(loop_factory=FakeClockLoop) as runner:
        waited = runner.run(play())

    # ... GIVE_WAY in all, the read's wait for a pause and its sends' wait sharing one deadline
    assert waited == {1: pytest.approx(GIVE_WAY), 2: pytest.approx(GIVE_WAY)}
