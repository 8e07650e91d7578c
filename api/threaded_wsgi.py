"""A Flask app served from an event loop on a pool of threads: how ``chase serve`` serves every
request but the live streams (api/asgi.py), and how bench/floor_app.py's floor is served, so that
bench/http.py compares the two apps under one server.

Each request's body is read on the event loop before a thread takes the request: a client that
sends its body slowly (or never finishes it) holds a socket, never one of the threads. A thread
then makes the whole answer, which the loop sends. a2wsgi serves what is left: a body declared
over the limit (refused 413 unread) or sent in chunks past it, which Flask reads on the thread.
"""
from __future__ import annotations

import asyncio
import contextvars
import io
from typing import Any

from a2wsgi import WSGIMiddleware
from a2wsgi.wsgi import build_environ
from flask import Flask


class Uncounted:
    """Requests nobody gives way to."""

    def started(self) -> None:
        pass

    def finished(self) -> None:
        pass


class ThreadedWsgi:
    """A Flask app's HTTP requests, each answered on a pool thread and sent from the event loop."""

    def __init__(self, flask_app: Flask, threads: int, requests: Any = None) -> None:
        self.flask = flask_app
        self.streamed = WSGIMiddleware(self.terminated, workers=threads)  # a body not read whole: read from the thread
        self.executor = self.streamed.executor
        # Told when a request (its body read) starts and ends on the threads: the live streams
        # give way to them (api/chase_feed.py Requests).
        self.requests = requests or Uncounted()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":  # a worker's start and stop (lifespan): a2wsgi's answer
            await self.streamed(scope, receive, send)
            return
        received = await whole_body(scope, receive, self.flask.config.get("MAX_CONTENT_LENGTH"))
        if received is None:  # the client left while sending it
            return
        self.requests.started()
        try:
            if isinstance(received, bytes):
                await self.answer(scope, received, send)
            else:
                await self.streamed(scope, received, send)
        finally:
            self.requests.finished()

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

    def close(self) -> None:
        """Waits for the requests under way."""
        self.executor.shutdown(wait=True, cancel_futures=True)


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
