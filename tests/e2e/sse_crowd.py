"""Many SSE streams held open at once by one event loop in a process of its own (tests, bench).

Each stream is a raw HTTP/1.1 connection that remembers the last event id it was sent (read as
cheaply as can be, so that the crowd leaves the CPU to the server it measures). The crowd is
bounded (``count``) and closed by its owner, which can wait until every stream has seen a given
event. It runs in a child process, as a thousand browsers would run apart from the client that
sends the commands: in the owner's process, its reads after each roll held Python's GIL while the
owner's client waited to take it back after every socket call, and the owner timed that too.
"""
from __future__ import annotations

import asyncio
import multiprocessing
import time
from multiprocessing.connection import Connection
from typing import Any

UNANSWERED = -1  # a stream's status before its response head


class StreamCrowd:
    """``count`` streams of ``path`` on 127.0.0.1:``port``, each sending ``token``."""

    def __init__(self, port: int, path: str, token: str, count: int) -> None:
        self.count = count
        spawn = multiprocessing.get_context("spawn")  # (no fork of a process that runs threads)
        self._statuses = spawn.RawArray("q", [UNANSWERED] * count)
        self._last_ids = spawn.RawArray("q", count)
        self._ended = spawn.RawValue("q", 0)
        self._orders, orders = spawn.Pipe()
        self.process = spawn.Process(
            target=hold, args=(port, path, token, count, self._statuses, self._last_ids, self._ended, orders),
            name="sse-crowd", daemon=True,
        )
        self.process.start()
        orders.close()

    @property
    def statuses(self) -> list[int | None]:
        return [None if status == UNANSWERED else status for status in self._statuses]

    @property
    def last_ids(self) -> list[int]:
        return list(self._last_ids)

    @property
    def ended(self) -> int:
        """Streams the server ended."""
        return self._ended.value

    def open(self, batch: int = 100, timeout: float = 120) -> None:
        """Open every stream (``batch`` at a time) and wait until each has its response head."""
        self._orders.send(("open", batch))
        if not self._orders.poll(timeout):
            raise TimeoutError(f"the streams were not all answered in {timeout} s")
        self._orders.recv()

    def seen_by_all(self, version: int, timeout: float = 30) -> bool:
        """Wait until every stream has been sent the event of ``version``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if min(self._last_ids) >= version:
                return True
            time.sleep(0.02)
        return min(self._last_ids) >= version

    def behind(self, version: int) -> list[int]:
        return [i for i, seen in enumerate(self._last_ids) if seen < version]

    def close(self) -> None:
        """Drop every connection and end the crowd's process."""
        try:
            self._orders.send(("close", None))
            self._orders.poll(60)
        except (BrokenPipeError, ConnectionResetError):
            pass  # (the process has already gone)
        self.process.join(10)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(10)
        self._orders.close()


def hold(port: int, path: str, token: str, count: int, statuses: Any, last_ids: Any, ended: Any, orders: Connection) -> None:
    """The crowd's process: opens the streams when told, follows them, drops them when told."""
    asyncio.run(Crowd(port, path, token, count, statuses, last_ids, ended).serve(orders))


class Crowd:
    """The streams themselves, on the crowd process's event loop."""

    def __init__(self, port: int, path: str, token: str, count: int, statuses: Any, last_ids: Any, ended: Any) -> None:
        self.port, self.path, self.token, self.count = port, path, token, count
        self.statuses, self.last_ids, self.ended = statuses, last_ids, ended
        self.tasks: list[asyncio.Task[None]] = []

    async def serve(self, orders: Connection) -> None:
        loop = asyncio.get_running_loop()
        while True:
            order, batch = await loop.run_in_executor(None, orders.recv)
            if order == "open":
                await self.open_all(batch)
                orders.send("opened")
            else:
                for task in self.tasks:
                    task.cancel()
                await asyncio.gather(*self.tasks, return_exceptions=True)
                orders.send("closed")
                return

    async def open_all(self, batch: int) -> None:
        for start in range(0, self.count, batch):
            heads = [asyncio.Event() for _ in range(start, min(start + batch, self.count))]
            for i, head in zip(range(start, start + len(heads)), heads):
                self.tasks.append(asyncio.create_task(self.follow(i, head)))
            await asyncio.gather(*(head.wait() for head in heads))

    async def follow(self, i: int, head: asyncio.Event) -> None:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port, limit=1 << 20)
        except OSError:
            self.statuses[i] = 0
            head.set()
            raise
        try:
            writer.write(
                f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                f"Authorization: Bearer {self.token}\r\n\r\n".encode()
            )
            status_line = await reader.readline()
            self.statuses[i] = int(status_line.split()[1]) if status_line else 0
            while (await reader.readline()) not in (b"\r\n", b""):
                pass
            head.set()
            # Only the last event id matters: find it in the raw bytes (each SSE message is sent
            # whole in one chunk, so chunk sizes never split an "id:" line; a read may, so the
            # end of each read is carried over).
            carry = b""
            while data := await reader.read(65536):
                data = carry + data
                at = data.rfind(b"\nid: ")
                end = data.find(b"\n", at + 1) if at >= 0 else -1
                if end > 0:
                    self.last_ids[i] = int(data[at + 5:end])
                carry = data[-32:]
            self.ended.value += 1
        except (asyncio.IncompleteReadError, ConnectionError):
            self.ended.value += 1
        finally:
            head.set()
            writer.close()
