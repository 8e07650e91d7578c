"""Many SSE streams held open at once by one event loop in a thread of its own (tests, bench).

Each stream is a raw HTTP/1.1 connection that remembers the last event id it was sent (read as
cheaply as can be, so that the crowd leaves the CPU to the server it measures). The crowd is bounded (``count``) and
closed by its owner, which can wait until every stream has seen a given event.
"""
from __future__ import annotations

import asyncio
import threading
import time
from typing import Any


class StreamCrowd:
    """``count`` streams of ``path`` on 127.0.0.1:``port``, each sending ``token``."""

    def __init__(self, port: int, path: str, token: str, count: int) -> None:
        self.port, self.path, self.token, self.count = port, path, token, count
        self.statuses: list[int | None] = [None] * count
        self.last_ids: list[int] = [0] * count
        self.ended = 0  # streams the server ended
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="sse-crowd", daemon=True)
        self.thread.start()
        self.tasks: list[asyncio.Task[None]] = []

    def open(self, batch: int = 100, timeout: float = 120) -> None:
        """Open every stream (``batch`` at a time) and wait until each has its response head."""
        asyncio.run_coroutine_threadsafe(self._open_all(batch), self.loop).result(timeout)

    async def _open_all(self, batch: int) -> None:
        for start in range(0, self.count, batch):
            heads = [asyncio.Event() for _ in range(start, min(start + batch, self.count))]
            for i, head in zip(range(start, start + len(heads)), heads):
                self.tasks.append(asyncio.create_task(self._follow(i, head)))
            await asyncio.gather(*(head.wait() for head in heads))

    async def _follow(self, i: int, head: asyncio.Event) -> None:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port, limit=1 << 20)
        except OSError:
            head.set()
            raise
        try:
            writer.write(
                f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                f"Authorization: Bearer {self.token}\r\n\r\n".encode()
            )
            status_line = await reader.readline()
            self.statuses[i] = int(status_line.split()[1]) if status_line else 0
            while (line := await reader.readline()) not in (b"\r\n", b""):
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
            self.ended += 1
        except (asyncio.IncompleteReadError, ConnectionError):
            self.ended += 1
        finally:
            head.set()
            writer.close()

    def seen_by_all(self, version: int, timeout: float = 30) -> bool:
        """Wait until every stream has been sent the event of ``version``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if min(self.last_ids) >= version:
                return True
            time.sleep(0.02)
        return min(self.last_ids) >= version

    def behind(self, version: int) -> list[int]:
        return [i for i, seen in enumerate(self.last_ids) if seen < version]

    def close(self) -> None:
        """Drop every connection and stop the loop."""
        async def cancel() -> Any:
            for task in self.tasks:
                task.cancel()
            return await asyncio.gather(*self.tasks, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(cancel(), self.loop).result(60)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()
