"""The iterable of a WSGI answer is closed exactly once, however its request ends (PEP 3333:
"If the iterable returned by the application has a close() method, the server or gateway must
call that method upon completion of the current request, whether the request was completed
normally, or terminated early due to an application error during iteration or an early
disconnect of the browser").

An answer of unknown length is read piece by piece on the host's threads (api/threaded_wsgi.py).
Its client may leave mid-answer (the server's send then fails, as ASGI has it), the request's task
may be cancelled while a thread reads the next piece, or the worker may stop with a read still
queued: what the answer holds open (a cursor, a file) is let go in every case, and never while a
thread is still reading from it.
"""
from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from flask import Response

from api.asgi import ChaseLedgerHost
from tests.e2e.test_served_bodies import bounded_app, no_body, scope_of, sent_for


class Pieces:
    """An answer's pieces, made as they are read; notes each close, and whether a read ran then."""

    def __init__(self, count: int, hold_at: int | None = None) -> None:
        self.count, self.hold_at = count, hold_at
        self.made = 0
        self.closes = 0
        self.closed_while_reading = False
        self.reading = False
        self.holding = threading.Event()  # set while the read of piece ``hold_at`` waits
        self.release = threading.Event()
        self.closed = threading.Event()

    def __iter__(self) -> Pieces:
        return self

    def __next__(self) -> bytes:
        if self.made == self.count:
            raise StopIteration
        self.reading = True
        if self.made == self.hold_at:
            self.holding.set()
            self.release.wait(30)
        self.made += 1
        self.reading = False
        return f"piece {self.made}\n".encode()

    def close(self) -> None:
        self.closes += 1
        self.closed_while_reading |= self.reading
        self.closed.set()


def host_of(pieces: Pieces, threads: int = 1) -> ChaseLedgerHost:
    app = bounded_app("closed")
    app.get("/pieces")(lambda: Response(pieces, mimetype="text/plain"))  # not a list: no Content-Length
    return ChaseLedgerHost(app, threads)


def cancelled_at_work(host: ChaseLedgerHost, at_work: threading.Event, then: threading.Event, pieces: Pieces) -> None:
    """A GET of /pieces cancelled once a thread is ``at_work`` on it, its work then let end (``then``),
    and the answer's close waited for."""
    async def served() -> None:
        loop = asyncio.get_running_loop()

        async def send(message: dict) -> None:
            pass

        request = asyncio.ensure_future(host(scope_of("/pieces"), no_body, send))
        await loop.run_in_executor(None, at_work.wait, 30)
        request.cancel()
        await asyncio.gather(request, return_exceptions=True)
        then.set()
        await loop.run_in_executor(None, pieces.closed.wait, 30)

    try:
        asyncio.run(served())
    finally:
        host.close()


def test_an_answer_read_to_its_end_is_closed_once():
    # Given an answer of three pieces, when it is sent whole
    pieces = Pieces(3)
    sent = sent_for(host_of(pieces), "/pieces")

    # Then each piece is sent, and the answer closed once
    assert [m.get("body") for m in sent[1:]] == [b"piece 1\n", b"piece 2\n", b"piece 3\n", b""]
    assert pieces.closes == 1


@pytest.mark.parametrize("sends_before_gone", [0, 2], ids=["before-the-status", "mid-answer"])
def test_an_answer_whose_client_leaves_is_closed_once_and_read_no_further(sends_before_gone: int):
    pieces = Pieces(100)
    host = host_of(pieces)
    sends = 0

    async def send(message: dict) -> None:
        # Given a client that leaves: the server's send fails from then on (ASGI: an OSError)
        nonlocal sends
        sends += 1
        if sends > sends_before_gone:
            raise OSError("the client has gone")

    # When the host sends it the answer
    try:
        with pytest.raises(OSError):
            asyncio.run(host(scope_of("/pieces"), no_body, send))
    finally:
        host.close()

    # Then the answer is closed once, and no more of it is made than was sent
    assert pieces.closes == 1
    assert pieces.made <= sends_before_gone


def test_an_answer_whose_request_is_cancelled_mid_read_is_closed_once_after_the_read():
    pieces = Pieces(100, hold_at=1)
    host = host_of(pieces, threads=2)  # a thread free to close while the other reads

    # Given a request whose thread is reading the answer's second piece: when the request is
    # cancelled (the worker stopping, or its client gone), and the read then ends
    cancelled_at_work(host, pieces.holding, pieces.release, pieces)

    # Then the answer is closed once, after the read (never under it), and read no further
    assert pieces.closes == 1
    assert not pieces.closed_while_reading
    assert pieces.made == 2


def test_an_answer_made_after_its_request_was_cancelled_is_closed_once_unread():
    pieces = Pieces(100)
    viewing, go_on = threading.Event(), threading.Event()
    app = bounded_app("closed")

    @app.get("/pieces")
    def slow() -> Response:  # a view still at work on its thread
        viewing.set()
        go_on.wait(30)
        return Response(pieces, mimetype="text/plain")

    # Given a request whose answer a thread is still making: when the request is cancelled, and
    # the answer then made
    cancelled_at_work(ChaseLedgerHost(app, threads=1), viewing, go_on, pieces)

    # Then the answer nobody waits for is closed once, and none of it made
    assert pieces.closes == 1
    assert pieces.made == 0


def test_an_answer_whose_next_read_the_stopping_worker_drops_is_closed_once():
    pieces = Pieces(100)
    host = host_of(pieces)
    holding, busy = threading.Event(), threading.Event()

    def hold() -> None:  # work that holds the only thread
        holding.set()
        busy.wait(30)

    async def served() -> None:
        loop = asyncio.get_running_loop()
        sending, go_on = asyncio.Event(), asyncio.Event()

        async def send(message: dict) -> None:
            if message.get("body") == b"piece 1\n":
                sending.set()
                await go_on.wait()

        # Given a request whose next read waits in the queue behind work holding the only thread
        request = asyncio.ensure_future(host(scope_of("/pieces"), no_body, send))
        await sending.wait()
        held = loop.run_in_executor(host.served.executor, hold)
        await loop.run_in_executor(None, holding.wait, 30)
        go_on.set()
        await asyncio.sleep(0)  # (the request's turn comes first: its send returns and it queues the read)
        # When the worker stops, dropping the work queued
        with ThreadPoolExecutor(1) as stopping:
            stopped = loop.run_in_executor(stopping, host.close)
            await asyncio.gather(request, return_exceptions=True)
            busy.set()
            await asyncio.gather(held, stopped)

    asyncio.run(served())

    # Then the answer is closed once all the same, and read no further
    assert pieces.closes == 1
    assert pieces.made == 1
