"""The ASGI host that ``chase serve`` runs under gunicorn (uvicorn workers): ``api.asgi:app``.

Each worker process has one event loop and a pool of ``CHASE_LEDGER_THREADS`` threads. Every
request runs in Flask on the pool, as under gunicorn's threaded workers: its body is read on the
event loop, then a thread makes the whole answer, which the loop sends (api/threaded_wsgi.py). A live stream
(``GET /chases/<id>/stream``, ``GET /chases/<id>/replays/<job>/stream``) is opened the same way:
Flask checks it like any request and answers a ``LiveStream`` (api/stream.py) or a problem. The
stream itself is then sent from the event loop (api/live_streams.py), so it holds no thread:
a thousand open streams leave the pool to the commands, on the same port and URL as before.
"""
from __future__ import annotations

import asyncio
import io
import logging
import os
import re
import sys
from typing import Any

from a2wsgi.wsgi import build_environ
from flask import Flask, Response

from api import create_app
from api.live_streams import ChaseEvents, ChaseFeeds, Requests, chase_events, replay_frames
from api.runtime import ledger_of
from api.stream import LiveStream
from api.threaded_wsgi import ThreadedWsgi

log = logging.getLogger(__name__)

# How long a thread may keep Python's GIL while another waits for it (Python's default: 5 ms).
# A command holds the database's write lock (SQLite's one writer, PostgreSQL's events table)
# across several statements, and after each one waits to take the GIL back from the process's
# other threads: every writer of every process waited those milliseconds with it. At 0.5 ms the
# API served half as many commands again with 16 clients on SQLite (bench/http.py, 0.51 -> 0.75
# of the floor's throughput in back-to-back runs), for no more CPU per command.
SWITCH_INTERVAL = 0.0005

STREAMS = re.compile(r"^/chases/[^/]+/(?:stream|replays/[^/]+/stream)$")


class ChaseLedgerHost:
    """Sends opened streams from the event loop; every request is Flask's, on the threads."""

    def __init__(self, flask_app: Flask, threads: int) -> None:
        self.flask = flask_app
        self.requests = Requests()  # served on the threads: the streams' sends give way to them
        self.served = ThreadedWsgi(flask_app, threads, self.requests)
        self._feeds: ChaseFeeds | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["method"] == "GET" and STREAMS.match(scope["path"]):
            await self.stream(scope, receive, send)
        elif scope["type"] == "http":
            await self.served(scope, receive, send)
        elif scope["type"] == "lifespan":
            await self.lifespan(receive, send)
        else:
            await self.served.streamed(scope, receive, send)

    async def lifespan(self, receive: Any, send: Any) -> None:
        """The worker's start and stop: on stopping, wait for the stream reads and requests still
        under way, so that none outlives the process's store."""
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await asyncio.get_running_loop().run_in_executor(None, self.close)
                await send({"type": "lifespan.shutdown.complete"})
                return

    def open(self, scope: Any) -> tuple[Response, bytes]:
        """Flask's answer to the request that opens a stream (on a pool thread, like any request)."""
        with self.flask.request_context(build_environ(scope, io.BytesIO(b""))):
            try:
                response = self.flask.full_dispatch_request()
            except Exception as e:  # noqa: BLE001 - answered as Flask answers it (a problem)
                response = self.flask.make_response(self.flask.handle_exception(e))
            return response, b"" if isinstance(response, LiveStream) else response.get_data()

    async def stream(self, scope: Any, receive: Any, send: Any) -> None:
        response, body = await asyncio.get_running_loop().run_in_executor(self.served.executor, self.open, scope)
        live = isinstance(response, LiveStream)
        headers = [
            (name.lower().encode("latin-1"), value.encode("latin-1"))
            for name, value in response.headers.items()
            if not (live and name.lower() == "content-length")
        ]
        await send({"type": "http.response.start", "status": response.status_code, "headers": headers})
        if not live:
            await send({"type": "http.response.body", "body": body})
            return

        async def emit(piece: bytes) -> None:
            await send({"type": "http.response.body", "body": piece, "more_body": True})

        sending = asyncio.ensure_future(self.send_stream(response.plan, emit))
        gone = asyncio.ensure_future(disconnected(receive))
        try:
            await asyncio.wait({sending, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            sending.cancel()
            gone.cancel()
            await asyncio.gather(sending, gone, return_exceptions=True)
            if gone.cancelled():
                # Ended on time, or the worker is stopping: end the response cleanly, and the
                # client reconnects (to another worker) with Last-Event-ID.
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        if not sending.cancelled() and sending.exception() is not None:
            log.warning("live stream %s ended by an error; the client reconnects", scope["path"], exc_info=sending.exception())

    async def send_stream(self, plan: Any, emit: Any) -> None:
        feeds = self.feeds()
        if isinstance(plan, ChaseEvents):
            await chase_events(feeds, plan, emit)
        else:
            await replay_frames(feeds.store, feeds.settings, plan, emit)

    @property
    def open_streams(self) -> int:
        """The chase streams open in this process."""
        return 0 if self._feeds is None else self._feeds.open_streams

    def close(self) -> None:
        """Waits for the threads that read for streams or serve requests, so that none is left
        reading the store once it closes (a SQLite connection closed under a read crashes)."""
        if self._feeds is not None:
            self._feeds.close()
        self.served.close()

    def feeds(self) -> ChaseFeeds:
        """This process's chase feeds, made on first use in its event loop (after the fork)."""
        if self._feeds is None:
            self._feeds = ChaseFeeds(ledger_of(self.flask), self.requests)
        return self._feeds


async def disconnected(receive: Any) -> None:
    """Returns when the client has gone."""
    while (await receive())["type"] != "http.disconnect":
        pass


def create_host(flask_app: Flask | None = None, threads: int | None = None) -> ChaseLedgerHost:
    threads = threads or int(os.environ.get("CHASE_LEDGER_THREADS", "4"))
    sys.setswitchinterval(SWITCH_INTERVAL)
    return ChaseLedgerHost(flask_app or create_app(), threads)


app = create_host()
