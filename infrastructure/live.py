"""Live updates: announcements that a chase has new events, for the SSE streams (api/stream.py).

An announcement carries only "chase X reached version V"; a stream woken by it reads the events
from the event store, after the last one it sent. So a lost announcement (Redis down, a message
dropped, another gunicorn worker on the embedded default) only delays an event until the
stream's next poll; it never loses or repeats one.

* ``LocalLiveFeed``: announcements within this process (the embedded default, no Redis).
* ``RedisLiveFeed``: also through Redis pub/sub, so a stream in one API process hears the
  commands of every other process and of the workers. Publishing never fails a command: when
  Redis is away the announcement is skipped (and Redis is left alone for a moment).
"""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Self

import redis

from infrastructure.queues import CircuitBreaker, redis_client

log = logging.getLogger(__name__)


class LocalSubscription:
    """Wakes a stream when its chase is announced; an announcement between two waits is kept."""

    def __init__(self, hub: LocalHub, chase_id: str) -> None:
        self.hub = hub
        self.chase_id = chase_id
        self.event = threading.Event()

    def wait(self, timeout: float) -> bool:
        announced = self.event.wait(timeout)
        self.event.clear()
        return announced

    def close(self) -> None:
        self.hub.remove(self)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class LocalHub:
    """This process's streams waiting on a chase, and its watchers of every chase."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscriptions: dict[str, set[LocalSubscription]] = {}
        self._watchers: list[Callable[[str], None]] = []

    def watch(self, announced: Callable[[str], None]) -> None:
        """Call ``announced(chase_id)`` on every announcement, from the announcing thread (it
        must return at once: the event loop's streams hand it to their loop)."""
        with self._lock:
            self._watchers.append(announced)

    def unwatch(self, announced: Callable[[str], None]) -> None:
        with self._lock:
            if announced in self._watchers:
                self._watchers.remove(announced)

    def subscribe(self, chase_id: str) -> LocalSubscription:
        subscription = LocalSubscription(self, chase_id)
        with self._lock:
            self._subscriptions.setdefault(chase_id, set()).add(subscription)
        return subscription

    def remove(self, subscription: LocalSubscription) -> None:
        with self._lock:
            subscriptions = self._subscriptions.get(subscription.chase_id)
            if subscriptions is not None:
                subscriptions.discard(subscription)
                if not subscriptions:
                    del self._subscriptions[subscription.chase_id]

    def notify(self, chase_id: str) -> None:
        with self._lock:
            subscriptions = list(self._subscriptions.get(chase_id, ()))
            watchers = list(self._watchers)
        for subscription in subscriptions:
            subscription.event.set()
        for announced in watchers:
            announced(chase_id)

    @property
    def streams(self) -> int:
        with self._lock:
            return sum(len(s) for s in self._subscriptions.values())


class LocalLiveFeed:
    """Announcements within this process only."""

    def __init__(self) -> None:
        self.hub = LocalHub()

    def publish(self, chase_id: str, version: int) -> None:
        self.hub.notify(chase_id)

    def subscribe(self, chase_id: str) -> LocalSubscription:
        return self.hub.subscribe(chase_id)

    def watch(self, announced: Callable[[str], None]) -> None:
        self.hub.watch(announced)

    def unwatch(self, announced: Callable[[str], None]) -> None:
        self.hub.unwatch(announced)

    def close(self) -> None:
        pass


class RedisLiveFeed:
    """Announcements through Redis pub/sub (channel ``<prefix>:live:<chase id>``), and locally."""

    def __init__(self, url: str, prefix: str = "chase-ledger") -> None:
        self.url = url
        self.pattern = f"{prefix}:live:"
        self.hub = LocalHub()
        self.connection = redis_client(url, socket_timeout=1.0)
        self.breaker = CircuitBreaker(cooldown=2.0)
        self._listener: threading.Thread | None = None
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self.listening = threading.Event()  # set while subscribed to Redis (tests wait on it)

    def publish(self, chase_id: str, version: int) -> None:
        self.hub.notify(chase_id)  # streams of this process need not wait for the round trip
        if not self.breaker.allows():
            return
        try:
            self.connection.publish(f"{self.pattern}{chase_id}", str(version))
            self.breaker.reset()
        except redis.RedisError as e:
            self.breaker.trip()
            log.warning("live update for chase %s not published (Redis: %s); streams will poll", chase_id, e)

    def subscribe(self, chase_id: str) -> LocalSubscription:
        self._listen()
        return self.hub.subscribe(chase_id)

    def watch(self, announced: Callable[[str], None]) -> None:
        """Hear every chase's announcements, this process's and (through Redis) every other's."""
        self._listen()
        self.hub.watch(announced)

    def unwatch(self, announced: Callable[[str], None]) -> None:
        self.hub.unwatch(announced)

    def _listen(self) -> None:
        with self._lock:
            if self._listener is None and not self._closed.is_set():
                self._listener = threading.Thread(target=self._relay, name="live-feed", daemon=True)
                self._listener.start()

    def _relay(self) -> None:
        """Relay every chase's announcements from Redis to this process's streams."""
        backoff = 0.5
        while not self._closed.is_set():
            client = redis_client(self.url, socket_timeout=None)
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            try:
                pubsub.psubscribe(f"{self.pattern}*")
                self.listening.set()
                backoff = 0.5
                while not self._closed.is_set():
                    message = pubsub.get_message(timeout=1.0)
                    if message and message.get("type") == "pmessage":
                        channel = message["channel"]
                        channel = channel.decode() if isinstance(channel, bytes) else channel
                        self.hub.notify(channel[len(self.pattern):])
            except (redis.RedisError, OSError, ValueError) as e:
                self.listening.clear()
                log.warning("live feed: Redis unavailable (%s); streams poll until it is back", e)
                self._closed.wait(backoff)
                backoff = min(backoff * 2, 5.0)
            finally:
                self.listening.clear()
                try:
                    pubsub.close()
                    client.close()
                except Exception:  # closing a connection that is already gone
                    log.debug("live feed: closing the Redis connection failed", exc_info=True)

    def close(self) -> None:
        self._closed.set()
        with self._lock:
            listener = self._listener
        if listener is not None:
            listener.join(timeout=3)
        self.connection.close()

