"""uvicorn's HTTP/1.1 protocol with the bounds a server facing the open network puts on a connection.

uvicorn closes a kept-alive connection after an idle while, and nothing else: a client trickling
its headers a byte at a time, or sending a body shorter than its Content-Length, held a socket
(and a file) for as long as it liked, and one address could open sockets until the worker had no
file left for anyone. gunicorn's own limits (``limit_request_line`` and the like) are not applied
to its uvicorn workers, and neither server has a time limit on a request's headers. So here,
per connection, as nginx's ``client_header_timeout``, ``client_body_timeout`` and ``limit_conn``:

- a request's line and headers must be complete within ``header_timeout`` seconds, counted from
  the connection's opening (or from the first byte of the next request on a kept-alive one), and
  be at most ``HEADER_BYTES`` long; else ``408`` (or ``431``) and the connection is closed;
- its body must be complete within ``body_timeout`` seconds of its headers; else ``408`` and
  closed (a body shorter than its Content-Length no longer holds the connection);
- an answer sent before its request's body was read (``413``: a body over the limit) says
  ``Connection: close``, and the rest of the body is read and thrown away (up to
  ``DISCARDED_BYTES``, within the body timeout) before closing: closed at once, the socket's
  unread bytes made the system reset the connection, and a client still sending read a reset
  instead of the ``413``;
- one client address may hold ``per_address`` connections in this worker process (0: any
  number); one more is answered ``429`` and closed at once, its file freed.

Each refusal is a problem document (application/problem+json), as every other answer.
"""
from __future__ import annotations

import asyncio
import json
import os
from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from uvicorn.protocols.http.httptools_impl import (
    HttpToolsProtocol,
    RequestResponseCycle,
)

from infrastructure.server_settings import ServerSettings

HEADER_BYTES = 32 * 1024  # nginx's default room for a request's headers (4 buffers of 8 KiB)
# Enough to let a client send a body of a few megabytes to its end and read the 413 (uploads of
# a file picked by mistake); past it, the client is sending for nothing and is cut off.
DISCARDED_BYTES = 16 * 1024 * 1024


@dataclass
class ConnectionBounds:
    """One worker's bounds, and the connections each client address holds open in it."""

    header_timeout: float
    body_timeout: float
    per_address: int
    open: Counter[str] = field(default_factory=Counter)


def guarded_http(settings: ServerSettings) -> Any:
    """The protocol factory uvicorn's ``Config(http=...)`` takes: one bounds object per worker."""
    bounds = ConnectionBounds(settings.header_timeout, settings.body_timeout, settings.connections_per_address)
    return partial(GuardedHttp, bounds=bounds)


def refusal(status: int, phrase: str, kind: str, detail: str) -> bytes:
    """A whole answer (a problem document, ``Connection: close``), written before any app runs."""
    body = json.dumps({"type": f"/problems/{kind}", "title": phrase, "status": status, "detail": detail}).encode()
    head = (f"HTTP/1.1 {status} {phrase}\r\ncontent-type: application/problem+json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n")
    return head.encode("latin-1") + body


async def closing_if_unread(app: Any, cycle: RequestResponseCycle, scope: Any, receive: Any, send: Any) -> None:
    """``app``, whose answer ends the connection when it starts before the request's body is all
    read (a body over the limit is answered 413 unread): uvicorn then says ``Connection: close``."""

    async def sending(message: Any) -> None:
        if cycle.more_body and message["type"] == "http.response.start":
            cycle.keep_alive = False
        await send(message)

    await app(scope, receive, sending)


class ClosingAfterBody:
    """The connection as a request's cycle sees it: its ``close`` (an answer with ``Connection:
    close`` sent) first lets the client finish sending the body (GuardedHttp.close_after_body)."""

    def __init__(self, protocol: GuardedHttp, transport: asyncio.Transport, cycle: RequestResponseCycle) -> None:
        self.protocol = protocol
        self.transport = transport
        self.cycle = cycle

    def write(self, data: bytes) -> None:
        self.transport.write(data)

    def is_closing(self) -> bool:
        return self.transport.is_closing()

    def close(self) -> None:
        self.protocol.close_after_body(self.cycle)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.transport, name)


class GuardedHttp(HttpToolsProtocol):
    """HttpToolsProtocol with header and body time limits, a header size limit, a lingering
    close after an early answer, and a cap on the connections of one address."""

    def __init__(self, *args: Any, bounds: ConnectionBounds, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.bounds = bounds
        self.address: str | None = None  # counted against its cap while open
        self.header_deadline: asyncio.TimerHandle | None = None
        self.body_deadline: asyncio.TimerHandle | None = None
        self.header_bytes = 0  # received since the request under way began, while its headers are incomplete
        self.reading_headers = True
        self.discarding = -1  # bytes of a body thrown away after its answer was sent (-1: none is)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = self.client[0] if self.client else None
        if self.bounds.per_address and address is not None:
            if self.bounds.open[address] >= self.bounds.per_address:
                self.refuse(429, "Too Many Requests", "too-many-connections",
                            f"at most {self.bounds.per_address} connections from one address")
                return
            self.bounds.open[address] += 1
            self.address = address
        self.header_deadline = self.loop.call_later(self.bounds.header_timeout, self.headers_too_slow)

    def connection_lost(self, exc: Exception | None) -> None:
        self.cancel_deadlines()
        if self.address is not None:
            self.bounds.open[self.address] -= 1
            if not self.bounds.open[self.address]:
                del self.bounds.open[self.address]
            self.address = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.discarding >= 0:
            self.discarding += len(data)
            if self.discarding > DISCARDED_BYTES:
                self.transport.close()
                return
        elif self.reading_headers:
            self.header_bytes += len(data)
        super().data_received(data)  # (while discarding, the parser reads the body to its end; nothing keeps it)
        if self.reading_headers and self.header_bytes > HEADER_BYTES and not self.transport.is_closing():
            self.refuse(431, "Request Header Fields Too Large", "headers-too-large",
                        f"a request's line and headers may be at most {HEADER_BYTES} bytes")

    # The parser's calls, in a request's order

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self.header_deadline is None:  # the next request on a kept-alive connection: timed from its first byte
            self.header_deadline = self.loop.call_later(self.bounds.header_timeout, self.headers_too_slow)

    def on_headers_complete(self) -> None:
        self.cancel_deadlines()
        self.reading_headers, self.header_bytes = False, 0
        super().on_headers_complete()
        if self.cycle is not None and self.cycle.scope is self.scope:
            self.cycle.transport = ClosingAfterBody(self, self.transport, self.cycle)  # type: ignore[assignment]

    def _start_asgi_task(self, cycle: RequestResponseCycle, app: Any) -> None:
        super()._start_asgi_task(cycle, partial(closing_if_unread, app, cycle))
        # The body is timed once its request is taken (a request queued behind another on the
        # same connection is not read meanwhile), unless it has all come already.
        if cycle.more_body and self.body_deadline is None:
            self.body_deadline = self.loop.call_later(self.bounds.body_timeout, self.body_too_slow)

    def on_message_complete(self) -> None:
        self.cancel_deadlines()
        self.reading_headers = True
        super().on_message_complete()
        if self.discarding >= 0:  # the body thrown away is at its end: the answer was the last
            self.transport.close()

    def on_response_complete(self) -> None:
        if self.discarding >= 0:  # no keep-alive wait: the connection closes once the body is read
            self.server_state.total_requests += 1
            self.flow.resume_reading()
            return
        super().on_response_complete()

    # Ends

    def close_after_body(self, cycle: RequestResponseCycle) -> None:
        """``cycle``'s answer is sent with ``Connection: close``: close now if its request's body
        is all read, else read the rest and throw it away first (within the body timeout)."""
        if not cycle.more_body or self.transport.is_closing():
            self.transport.close()
            return
        self.discarding = 0
        self.flow.resume_reading()

    def headers_too_slow(self) -> None:
        self.header_deadline = None
        if self.header_bytes == 0:  # nothing sent yet: a connection left idle, closed quietly
            self.transport.close()
            return
        self.refuse(408, "Request Timeout", "request-timeout",
                    f"a request's line and headers must come within {self.bounds.header_timeout:g} seconds")

    def body_too_slow(self) -> None:
        self.body_deadline = None
        if self.discarding >= 0 or self.cycle is None or self.cycle.response_started:
            self.transport.close()
            return
        self.cycle.disconnected = True  # the app, waiting for the body, is told the client left
        self.cycle.message_event.set()
        self.refuse(408, "Request Timeout", "request-timeout",
                    f"a request's body must come within {self.bounds.body_timeout:g} seconds of its headers")

    def refuse(self, status: int, phrase: str, kind: str, detail: str) -> None:
        """Answers and closes, after reading what has come and is not read yet: a socket closed
        with unread bytes is reset by the system, and the client may never read the answer."""
        self.cancel_deadlines()
        self.transport.write(refusal(status, phrase, kind, detail))
        sock = self.transport.get_extra_info("socket")
        try:
            for _ in range(4):  # (a request's headers fit in the first read; the rest is the client's to lose)
                if sock is None or not os.read(sock.fileno(), HEADER_BYTES):
                    break
        except OSError:  # nothing more has come (the socket does not block), or it is gone
            pass
        self.transport.close()

    def cancel_deadlines(self) -> None:
        for deadline in (self.header_deadline, self.body_deadline):
            if deadline is not None:
                deadline.cancel()
        self.header_deadline = self.body_deadline = None
