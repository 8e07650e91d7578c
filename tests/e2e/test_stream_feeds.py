"""The chase feeds of the live streams (api/live_streams.py), driven on an event loop of the test.

A stream whose client leaves while its feed is still being opened lets go of the feed: the
process keeps no feed, reads and polls nothing more for it, and counts no stream that is gone.
"""
from __future__ import annotations

import asyncio
from uuid import UUID

from api.live_streams import ChaseEvents, ChaseFeeds, chase_events


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
