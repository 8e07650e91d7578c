"""Name lookups for webhooks: a few threads for all of a worker's webhooks, fenced so that one
Keeper's slow names cannot get other Keepers' webhooks switched off.

``getaddrinfo`` has no timeout of its own, so lookups run on a small pool of threads and a
delivery waits only as long as its deadline allows; a lookup given up on goes on in the
background and holds its thread for the resolver's whole timeout. A Keeper whose names resolve
through a nameserver that never answers could so fill the pool, and every other webhook's
lookup would wait in the queue, time out, and count as its receiver's failure. So:

* one lookup per host at a time: a delivery to a host already being looked up waits for that
  lookup's answer and takes no other thread;
* a lookup still waiting in the queue when its delivery gave up never asked anybody anything:
  it is no failure of the receiver (``LookupQueued``), and the delivery is tried again later
  without counting it.
"""
from __future__ import annotations

import socket
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

THREADS = 4  # lookups at once in a worker (each waits on a DNS server, not on the processor)


class LookupFailed(Exception):
    """The host's name did not resolve (in time); the message never names it."""


class LookupQueued(LookupFailed):
    """The lookup never started: other hosts' lookups held every thread until the deadline."""


class Lookups:
    """Looks names up on a few threads, one lookup per host at a time."""

    def __init__(self, threads: int = THREADS) -> None:
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="webhook-dns")
        self._lock = threading.RLock()  # cancel() runs _forget in the thread holding it
        self._asked: dict[str, Future[list[str]]] = {}  # the lookup in flight (or queued) per host
        self._waiting: dict[str, int] = {}  # deliveries waiting for it

    def addresses(self, host: str, timeout: float) -> list[str]:
        """The addresses ``host`` resolves to, in the resolver's order (as text, without a zone)."""
        with self._lock:
            lookup = self._asked.get(host)
            if lookup is None:
                lookup = self._pool.submit(_getaddrinfo, host)
                self._asked[host] = lookup
                lookup.add_done_callback(lambda done: self._forget(host, done))
            self._waiting[host] = self._waiting.get(host, 0) + 1
        try:
            return lookup.result(timeout=max(timeout, 0.001))
        except FutureTimeout:
            if lookup.running() or lookup.done():
                raise LookupFailed("the host's name did not resolve in time") from None
            raise LookupQueued("the server's name lookups were all busy; the delivery is tried again later") from None
        except OSError as e:
            raise LookupFailed(f"the host's name does not resolve ({type(e).__name__})") from None
        finally:
            with self._lock:
                self._waiting[host] -= 1
                if not self._waiting[host]:
                    del self._waiting[host]
                    lookup.cancel()  # nobody waits for it any more: if it has not started, it never will

    def _forget(self, host: str, done: Future[list[str]]) -> None:
        with self._lock:
            if self._asked.get(host) is done:
                del self._asked[host]


def _getaddrinfo(host: str) -> list[str]:
    # Looked up on the module at each call, so that a test can stand in for the resolver.
    return [str(info[4][0]).split("%")[0] for info in socket.getaddrinfo(host, None, 0, socket.SOCK_STREAM)]


LOOKUPS = Lookups()
