"""The ASGI host that ``chase serve`` runs under gunicorn (uvicorn workers): ``api.asgi:app``.

Each worker process has one event loop and a pool of ``CHASE_LEDGER_THREADS`` threads. Every
request runs in Flask on the pool, as under gunicorn's threaded workers: its body is read on the
event loop, then a thread makes the whole answer, which the loop sends (``answer``; a body not
read whole, one refused for its size, goes through a2wsgi, which reads it from the thread). A live stream
(``GET /chases/<id>/stream``, ``GET /chases/<id>/replays/<job>/stream``) is opened the same way:
Flask checks it like any request and answers a ``LiveStream`` (api/stream.py) or a problem. The
stream itself is then sent from the event loop (api/live_streams.py), so it holds no thread:
a thousand open streams leave the pool to the commands, on the same port and URL as before.
"""
from __future__ import annotations

import asyncio
import contextvars
import io
import logging
import os
import re
import sys
from typing import Any

from a2wsgi import WSGIMiddleware
from a2wsgi.wsgi import build_environ
from flask import Flask, Response

from api import create_app
from api.live_streams import ChaseEvents, ChaseFeeds, chase_events, replay_frames
from api.runtime import ledger_of
from api.stream import LiveStream

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
        self.wsgi = WSGIMiddleware(self.terminated, workers=threads)  # a body not read whole: read from the thread
        self.executor = self.wsgi.executor
        self._feeds: ChaseFeeds | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["method"] == "GET" and STREAMS.match(scope["path"]):
            await self.stream(scope, receive, send)
        elif scope["type"] == "http":
            received = await whole_body(scope, receive, self.flask.config.get("MAX_CONTENT_LENGTH"))
            if isinstance(received, bytes):
                await self.answer(scope, received, send)
            elif received is not None:  # (None: the client left while sending it)
                await self.wsgi(scope, received, send)
        elif scope["type"] == "lifespan":
            await self.lifespan(receive, send)
        else:
            await self.wsgi(scope, receive, send)

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

    async def answer(self, scope: Any, body: bytes, send: Any) -> None:
        """A request whose body is read: Flask answers it on a thread in one go, and the answer is
        sent from the event loop. a2wsgi would cross between the thread and the loop four times
        (the body, the status, the body, its end), each a wake-up of the other thread and a wait
        for the GIL. An answer of unknown length (none is, but for the streams, sent apart) is
        sent as Flask makes it, piece by piece."""
        loop, context = asyncio.get_running_loop(), contextvars.copy_context()
        environ = build_environ(scope, io.BytesIO(body))
        status, headers, pieces, rest = await loop.run_in_executor(self.executor, context.run, self.respond, environ)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        if rest is None:
            await send({"type": "http.response.body", "body": pieces})
            return
        try:
            if pieces:
                await send({"type": "http.response.body", "body": pieces, "more_body": True})
            piece_by_piece = iter(rest)
            while (piece := await loop.run_in_executor(self.executor, context.run, next, piece_by_piece, None)) is not None:
                await send({"type": "http.response.body", "body": piece, "more_body": True})
            await send({"type": "http.response.body", "body": b""})
        finally:
            if hasattr(rest, "close"):
                await loop.run_in_executor(self.executor, context.run, rest.close)

    def respond(self, environ: dict[str, Any]) -> tuple[int, list[tuple[bytes, bytes]], bytes, Any]:
        """Flask's answer (on a pool thread): its status, headers, and body, whole when its length
        is known; else what was written so far and the rest still to read (Flask's iterable)."""
        started: list[Any] = []
        written: list[bytes] = []

        def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            started[:] = (status, headers)  # (called again with exc_info: nothing is sent yet, so it replaces)
            return written.append

        answer = self.terminated(environ, start_response)
        status, headers = started
        code = int(status.split(" ", 1)[0])
        encoded = [(name.strip().encode("latin-1").lower(), value.strip().encode("latin-1")) for name, value in headers]
        if code in (204, 304) or environ["REQUEST_METHOD"] == "HEAD" or any(name == b"content-length" for name, _ in encoded):
            try:
                return code, encoded, b"".join([*written, *answer]), None
            finally:
                if hasattr(answer, "close"):
                    answer.close()
        return code, encoded, b"".join(written), answer

    def terminated(self, environ: dict[str, Any], start_response: Any) -> Any:
        """Flask, told that the server ends the body: one sent in chunks (no Content-Length) is
        read to its end (Werkzeug reads none of it otherwise), up to the limit (api/guards.py)."""
        environ["wsgi.input_terminated"] = True
        return self.flask(environ, start_response)

    def open(self, scope: Any) -> tuple[Response, bytes]:
        """Flask's answer to the request that opens a stream (on a pool thread, like any request)."""
        with self.flask.request_context(build_environ(scope, io.BytesIO(b""))):
            try:
                response = self.flask.full_dispatch_request()
            except Exception as e:  # noqa: BLE001 - answered as Flask answers it (a problem)
                response = self.flask.make_response(self.flask.handle_exception(e))
            return response, b"" if isinstance(response, LiveStream) else response.get_data()

    async def stream(self, scope: Any, receive: Any, send: Any) -> None:
        response, body = await asyncio.get_running_loop().run_in_executor(self.wsgi.executor, self.open, scope)
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
        self.wsgi.executor.shutdown(wait=True, cancel_futures=True)

    def feeds(self) -> ChaseFeeds:
        """This process's chase feeds, made on first use in its event loop (after the fork)."""
        if self._feeds is None:
            self._feeds = ChaseFeeds(ledger_of(self.flask))
        return self._feeds


async def whole_body(scope: Any, receive: Any, limit: int | None) -> Any:
    """The request's body, read on the event loop before a thread takes the request: a client
    that sends its body slowly (or never finishes it) holds a socket, never one of the threads.
    A body declared over ``limit`` is left unread (refused 413); one sent in chunks is read to
    one byte past it, and Flask reads on from there to refuse it. Returns the body when it was
    read whole, else the ``receive`` the request is served with, or None when the client left."""
    declared = next((value for name, value in scope.get("headers", ()) if name.lower() == b"content-length"), None)
    if limit is None or (declared is not None and (not declared.isdigit() or int(declared) > limit)):
        return receive
    chunks, size, more = [], 0, True
    while more and size <= limit:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        size += len(chunks[-1])
        more = message.get("more_body", False)
    if not more:
        return b"".join(chunks)
    first: Any = {"type": "http.request", "body": b"".join(chunks), "more_body": more}

    async def replay() -> Any:
        nonlocal first
        message, first = first, None
        return message if message is not None else await receive()

    return replay


async def disconnected(receive: Any) -> None:
    """Returns when the client has gone."""
    while (await receive())["type"] != "http.disconnect":
        pass


def create_host(flask_app: Flask | None = None, threads: int | None = None) -> ChaseLedgerHost:
    threads = threads or int(os.environ.get("CHASE_LEDGER_THREADS", "4"))
    sys.setswitchinterval(SWITCH_INTERVAL)
    return ChaseLedgerHost(flask_app or create_app(), threads)


app = create_host()
