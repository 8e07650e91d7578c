"""Webhooks (issue 18 part 6): a Keeper registers a URL on a chase; every event is sent to it.

Each event is POSTed as Standard Webhooks specifies (the sender, infrastructure/webhook_sender.py,
signs it): ``webhook-id`` is the event id (``<chase id>:<version>``, the same on every retry,
for the receiver to drop duplicates), ``webhook-timestamp`` and ``webhook-signature``. The body
is ``{"type": "chase.<EventName>", "timestamp": ..., "data": <the event as in /events>}``.

Delivery is a job (application/jobs.py), submitted after each command that records events on a
chase with webhooks. The job sends the events after the webhook's last delivered version, one
by one in order; each success moves that version on (a compare-and-set), and a failure (no
answer, or not 2xx) fails the attempt, which the job queue retries with its backoff, starting
again from the first event not delivered. So events arrive in order, each at least once: event
n+1 is never sent before the receiver acknowledged event n. Every attempt is kept as a delivery,
listed to the Keeper with its status.

Looking a chase's webhooks up after every command cost a query per command (about a tenth of a
roll's time on SQLite, measured on a busy machine), so each process remembers for
``cache_seconds`` which chases have none, and, while no chase has any, that none has (one query a
second for all chases rather than one per chase). A webhook registered in another process is seen here
within that time; so that events recorded meanwhile are not left waiting for the chase's next
event, registration looks again once the remembered answers have all expired.
"""
from __future__ import annotations

import json
import logging
import threading
import time
from typing import Any, Callable
from uuid import UUID, uuid4

from application.access import Principal
from application.permissions import permit_record
from application.job_run import JobRun
from application.plugins import JobKind
from application.ports import WebhookSender, WebhookStore

KIND = "webhook"
BATCH = 100  # events read from the log at a time
DELIVERIES_LISTED = 100
CACHED_CHASES = 10_000  # chases remembered as having no webhooks (forgotten all at once past it)
log = logging.getLogger(__name__)


class WebhookFailed(Exception):
    """The receiver did not take an event: the job's attempt fails and is retried."""


def event_id(chase_id: str, version: int) -> str:
    return f"{chase_id}:{version}"


class Webhooks:
    """Registers webhooks, lists their deliveries, and has new events delivered."""

    def __init__(self, ledger: Any, store: WebhookStore, sender: WebhookSender, clock: Callable[[], float] = time.time,
                 cache_seconds: float = 1.0) -> None:
        """``cache_seconds``: how long a chase without webhooks is remembered as such (0: never)."""
        self.ledger = ledger
        self.store = store
        self.sender = sender
        self.clock = clock
        self.cache_seconds = cache_seconds
        self._none_until: dict[str, float] = {}  # chases without webhooks, until when that is trusted
        self._nowhere_until = 0.0  # no chase has a webhook, until when that is trusted
        self._timers: set[threading.Timer] = set()

    def register(self, chase_id: UUID, url: str, by: Principal, after: int | None = None) -> dict[str, Any]:
        """A new webhook on the chase, with its secret (shown this once). Events after version
        ``after`` are sent (by default the chase's version now: only what happens next)."""
        permit_record(by, "register_webhook")
        version = self.ledger.runner.load(chase_id).version
        hook = {
            "webhook_id": str(uuid4()), "chase_id": str(chase_id), "url": url, "secret": self.sender.new_secret(),
            "delivered_version": min(version, after) if after is not None else version, "created_at": self.clock(),
        }
        self.store.add(hook)
        self._none_until.pop(hook["chase_id"], None)
        self._nowhere_until = 0.0
        if hook["delivered_version"] < version:
            self._submit(hook, version)
        if self.cache_seconds:
            # Other processes may still believe the chase has no webhooks: look once they cannot.
            later = threading.Timer(2 * self.cache_seconds, self._catch_up, [chase_id])
            later.daemon = True
            self._timers.add(later)
            later.start()
        return hook

    def list(self, chase_id: UUID, by: Principal) -> list[dict[str, Any]]:
        permit_record(by, "see_webhooks")
        return [public(hook) for hook in self.store.for_chase(str(chase_id))]

    def deliveries(
        self, chase_id: UUID, webhook_id: str, by: Principal, limit: int = DELIVERIES_LISTED, before: int | None = None,
    ) -> list[dict[str, Any]]:
        permit_record(by, "see_deliveries")
        self.get(chase_id, webhook_id)
        return self.store.deliveries(webhook_id, limit, before)

    def one(self, chase_id: UUID, webhook_id: str, by: Principal) -> dict[str, Any]:
        """One webhook of the chase, as the Keeper lists it (no secret)."""
        permit_record(by, "see_webhooks")
        return public(self.get(chase_id, webhook_id))

    def get(self, chase_id: UUID, webhook_id: str) -> dict[str, Any]:
        hook = self.store.get(webhook_id)
        if hook is None or hook["chase_id"] != str(chase_id):
            raise WebhookNotFound(f"no webhook {webhook_id} on chase {chase_id}")
        return hook

    def recorded(self, versions: dict[str, int]) -> None:
        """After a save: have the new events of each chase sent to its webhooks."""
        for chase_id, version in versions.items():
            for hook in self._hooks(chase_id):
                if hook["delivered_version"] < version:
                    self._submit(hook, version)

    def _hooks(self, chase_id: str) -> list[dict[str, Any]]:
        now = time.monotonic()
        if self._none_until.get(chase_id, 0.0) > now or self._nowhere_until > now:
            return []
        # While no chase has a webhook (most ledgers), one query a second answers for every chase,
        # rather than one a second for each chase played (bench/http.py: 50 chases).
        if self.cache_seconds and not self.store.any_hooks():
            self._nowhere_until = now + self.cache_seconds
            return []
        hooks = self.store.for_chase(chase_id)
        if not hooks and self.cache_seconds:
            if len(self._none_until) > CACHED_CHASES:
                self._none_until.clear()
            self._none_until[chase_id] = now + self.cache_seconds
        return hooks

    def close(self) -> None:
        for timer in list(self._timers):
            timer.cancel()

    def _catch_up(self, chase_id: UUID) -> None:
        self._timers = {t for t in self._timers if t.is_alive() and t is not threading.current_thread()}
        try:
            self.recorded({str(chase_id): self.ledger.runner.load(chase_id).version})
        except Exception:  # noqa: BLE001 - a timer's thread: the chase's next event sends them anyway
            log.warning("webhooks of chase %s not caught up", chase_id, exc_info=True)

    def _submit(self, hook: dict[str, Any], version: int) -> None:
        # One job per webhook and version: submitting again for the same version finds it.
        self.ledger.jobs.submit(KIND, {"webhook_id": hook["webhook_id"]}, chase_id=hook["chase_id"],
                                job_id=f"webhook-{hook['webhook_id']}-{version}")

    def deliver(self, run: JobRun, webhook_id: str) -> dict[str, Any]:
        """Send the events after the last delivered one, in order; raise at the first refused."""
        hook = self.store.get(webhook_id)
        if hook is None:
            return {"webhook_id": webhook_id, "sent": 0}
        chase_id, sent = hook["chase_id"], 0
        while True:
            events = self.ledger.history.chase_events(UUID(chase_id), after=hook["delivered_version"], limit=BATCH)
            if not events:
                return {"webhook_id": webhook_id, "sent": sent, "delivered_version": hook["delivered_version"]}
            for event in events:
                run.check()
                self._send(run, hook, event)
                sent += 1
                if not self.store.advance(webhook_id, hook["delivered_version"], event["version"]):
                    break  # another job moved it on meanwhile: read where it is, go on from there
                hook["delivered_version"] = event["version"]
            hook = self.store.get(webhook_id) or hook

    def _send(self, run: JobRun, hook: dict[str, Any], event: dict[str, Any]) -> None:
        message_id = event_id(hook["chase_id"], event["version"])
        now = int(self.clock())
        body = json.dumps({"type": f"chase.{event['name']}", "timestamp": event["recorded_at"], "data": event}, separators=(",", ":"))
        status, error = self.sender.send(hook["url"], hook["secret"], message_id, now, body)
        ok = error is None and status is not None and 200 <= status < 300
        self.store.record({
            "webhook_id": hook["webhook_id"], "event_id": message_id, "version": event["version"],
            "event_type": f"chase.{event['name']}", "attempt": run.job["attempts"], "status": "delivered" if ok else "failed",
            "response_status": status, "error": None if ok else (error or f"the receiver answered {status}"), "at": self.clock(),
        })
        if not ok:
            raise WebhookFailed(f"{hook['url']} did not take event {message_id}: {error or status}")


class WebhookNotFound(LookupError):
    """No webhook with that id on this chase."""


def public(hook: dict[str, Any]) -> dict[str, Any]:
    """A webhook as the Keeper lists it: never its secret."""
    return {k: hook[k] for k in ("webhook_id", "chase_id", "url", "delivered_version", "created_at")}


def deliver(ledger: Any, run: JobRun, params: dict[str, Any]) -> dict[str, Any]:
    return ledger.webhooks.deliver(run, params["webhook_id"])


JOB_KIND = JobKind(deliver, "interactive")
