"""A Flask app served from an event loop on a pool of threads: how ``chase serve`` serves every
request but the live streams (api/asgi.py), and how bench/floor_app.py's floor is served, so that
bench/http.py compares the two apps under one server.

Each request's body is read on the event loop before a thread takes the request: a client that
sends its body slowly (or never finishes it) holds a socket, never one of the threads. A thread
then makes the whole answer, which the loop sends as the pieces Flask made it of (never joined
into one copy); the answer's iterable is closed exactly once, however the request ends (PEP 3333).
a2wsgi serves what is left: a body declared over the limit (refused 413 unread) or sent in
chunks past it, which Flask reads on the thread. A request that waits for something (a job's
``?wait=``, api/job_waits.py) gives its thread back and waits on the loop; Flask then answers it.
"""
from __future__ import annotations

import asyncio
import contextvars
import io
from concurrent.futures import Executor, Future
from typing import Any

from a2wsgi import WSGIMiddleware
from a2wsgi.wsgi import build_environ
from flask import Flask

from api.job_waits import CAN_PARK, PARK, WAITED


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
                await self.answer(scope, received, send, receive)
            else:
                await self.streamed(scope, received, send)
        finally:
            self.requests.finished()

    async def answer(self, scope: Any, body: bytes, send: Any, receive: Any = None) -> None:
        """A request whose body is read: Flask answers it on a thread in one go, and the answer is
        sent from the event loop. a2wsgi would cross between the thread and the loop four times
        (the body, the status, the body, its end), each a wake-up of the other thread and a wait
        for the GIL. An answer of known length is sent as the pieces Flask made it of (a big
        chase's answer is a list of encoded blocks, api/joined.py), never joined into one copy;
        one of unknown length (none is, but for the streams, sent apart) is sent as Flask makes
        it, piece by piece."""
        context = contextvars.copy_context()
        environ = build_environ(scope, io.BytesIO(body))
        environ[CAN_PARK] = True
        while True:
            made = self.executor.submit(context.run, self.respond, environ)
            try:
                status, headers, pieces, rest = await asyncio.wrap_future(made)
            except asyncio.CancelledError:
                made.add_done_callback(close_unsent)  # an answer made for nobody is closed all the same
                raise
            parked = environ.pop(PARK, None)
            if parked is None:
                break
            if not await self.park(parked, rest, receive):
                return  # the client left while it waited: nothing to send
            context = contextvars.copy_context()
            environ = build_environ(scope, io.BytesIO(body))
            environ[WAITED] = True
        if rest is None:  # (closed on the thread)
            await send({"type": "http.response.start", "status": status, "headers": headers})
            for piece in pieces[:-1]:
                await send({"type": "http.response.body", "body": piece, "more_body": True})
            await send({"type": "http.response.body", "body": pieces[-1] if pieces else b""})
            return
        unsent = Unsent(rest, self.executor, context)
        try:
            await send({"type": "http.response.start", "status": status, "headers": headers})
            for piece in pieces:
                await send({"type": "http.response.body", "body": piece, "more_body": True})
            while (piece := await unsent.next()) is not None:
                await send({"type": "http.response.body", "body": piece, "more_body": True})
            await send({"type": "http.response.body", "body": b""})
        except BaseException:
            unsent.close()  # the client gone, or the task cancelled: closed all the same, not waited for
            raise
        closing = unsent.close()
        if closing is not None:
            await asyncio.wrap_future(closing)

    async def park(self, parked: Any, unsent: Any, receive: Any) -> bool:
        """A request that waits for something (a job's end, api/job_waits.py) waits here, on the
        event loop, holding no thread; its first answer is not sent (Flask answers it again).
        False when the client left meanwhile (its wait ends then, giving its place back)."""
        if unsent is not None and hasattr(unsent, "close"):
            unsent.close()
        self.requests.finished()  # a waiting request is not served: the live streams need not give way to it
        waiting = asyncio.ensure_future(parked.ready(self.executor))
        gone = asyncio.ensure_future(client_gone(receive))
        try:
            await asyncio.wait({waiting, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiting.cancel()
            gone.cancel()
            await asyncio.gather(waiting, gone, return_exceptions=True)
            self.requests.started()
        return gone.cancelled()

    def respond(self, environ: dict[str, Any]) -> tuple[int, list[tuple[bytes, bytes]], list[bytes], Any]:
        """Flask's answer (on a pool thread): its status, headers, and body as the pieces Flask
        made it of, all of them when its length is known (Flask's iterable then closed); else
        those written so far and the rest still to read (Flask's iterable)."""
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
                return code, encoded, [*written, *answer], None
            finally:
                if hasattr(answer, "close"):
                    answer.close()
        return code, encoded, written, answer

    def terminated(self, environ: dict[str, Any], start_response: Any) -> Any:
        """Flask, told that the server ends the body: one sent in chunks (no Content-Length) is
        read to its end (Werkzeug reads none of it otherwise), up to the limit (api/guards.py)."""
        environ["wsgi.input_terminated"] = True
        return self.flask(environ, start_response)

    def close(self) -> None:
        """Waits for the requests under way."""
        self.executor.shutdown(wait=True, cancel_futures=True)


class Unsent:
    """The rest of a WSGI answer of unknown length: read a piece at a time on the pool, and closed
    exactly once whatever becomes of the request (PEP 3333: ``close()`` is called whenever the
    iterable has one; the client gone, the task cancelled and the pool shut down included)."""

    def __init__(self, iterable: Any, executor: Executor, context: contextvars.Context) -> None:
        self.iterable = iterable
        self.pieces = iter(iterable)
        self.executor = executor
        self.context = context
        self.reading: Future[Any] | None = None  # the pool's read of the next piece
        self.closed = False

    async def next(self) -> bytes | None:
        """The next piece (read on the pool), or None at the end."""
        self.reading = self.executor.submit(self.context.run, next, self.pieces, None)
        return await asyncio.wrap_future(self.reading)

    def close(self) -> Future[Any] | None:
        """Closes the iterable, the first time only: on the pool, after the read under way if any
        (a generator cannot be closed while it runs). Returns the pool's close to wait for, or
        None when there is none to wait for."""
        if self.closed or not hasattr(self.iterable, "close"):
            return None
        self.closed = True
        if self.reading is not None and not self.reading.done():
            # Run where the read ends (its pool thread), or where it is cancelled before it runs
            self.reading.add_done_callback(lambda _: self.iterable.close())
            return None
        try:
            closing = self.executor.submit(self.context.run, self.iterable.close)
        except RuntimeError:  # the pool is shut down: close here
            self.iterable.close()
            return None
        # Cancelled before it ran (the pool shut down with work queued): close where it was cancelled
        closing.add_done_callback(lambda done: done.cancelled() and self.iterable.close())
        return closing


async def client_gone(receive: Any) -> None:
    """Returns when the client has gone (the body is read: what comes next is its leaving);
    never, with no ``receive`` to ask."""
    if receive is None:
        await asyncio.Event().wait()
    while (await receive())["type"] != "http.disconnect":
        pass


def close_unsent(made: Future[Any]) -> None:
    """Closes the iterable of an answer (``respond``'s) whose request was cancelled meanwhile."""
    if made.cancelled() or made.exception() is not None:
        return  # never made
    rest = made.result()[3]
    if rest is not None and hasattr(rest, "close"):
        rest.close()


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
