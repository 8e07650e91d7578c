"""Webhooks: a Keeper registers a URL on a chase; every event (or those of the kinds chosen) is sent to it.

Each event is POSTed as Standard Webhooks specifies (the sender, infrastructure/webhook_sender.py,
signs it): ``webhook-id`` is the event id (``<chase id>:<version>``, the same on every retry,
for the receiver to drop duplicates), ``webhook-timestamp`` and ``webhook-signature``. The body
is ``{"type": "chase.<EventName>", "timestamp": ..., "data": <the event as in /events>}``.

Delivery is a job on a lane of its own, submitted after each command that records events on a
chase with webhooks (application/webhook_delivery.py says how it sends, once and in order).

Looking a chase's webhooks up after every command cost a query per command (about a tenth of a
roll's time on SQLite, measured on a busy machine), so each process remembers for
``cache_seconds`` which chases have none, and, while no chase has any, that none has (one query a
second for all chases rather than one per chase). A webhook registered in another process is seen here
within that time; so that events recorded meanwhile are not left waiting for the chase's next
event, registration looks again once the remembered answers have all expired.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable, TypedDict
from uuid import UUID, uuid4

from application.access import Principal
from application.permissions import permit_record
from application.job_run import JobRun
from application.plugins import JobKind
from application.ports import WebhookSender, WebhookStore
from application.webhook_delivery import Delivery, WebhookSettings
from domain.errors import InvalidInput

KIND = "webhook"
LANE = "webhooks"  # its own lane: a slow receiver holds up no other job (infrastructure/queues.py)
DELIVERIES_LISTED = 100
CACHED_CHASES = 10_000  # chases remembered as having no webhooks (forgotten all at once past it)
log = logging.getLogger(__name__)


class WebhookChange(TypedDict, total=False):
    """What a Keeper changes of a webhook: each key given is changed (``events`` None: every kind)."""

    url: str
    events: list[str] | None
    enabled: bool


class WebhookNotFound(LookupError):
    """No webhook with that id on this chase."""


class TooManyWebhooks(Exception):
    """The chase has as many webhooks as one chase may have (409)."""


class Webhooks:
    """Registers, changes and removes webhooks, lists their deliveries, and has new events delivered."""

    def __init__(self, ledger: Any, store: WebhookStore, sender: WebhookSender, clock: Callable[[], float] = time.time,
                 cache_seconds: float = 1.0, settings: WebhookSettings = WebhookSettings()) -> None:
        """``cache_seconds``: how long a chase without webhooks is remembered as such (0: never)."""
        self.ledger = ledger
        self.store = store
        self.sender = sender
        self.clock = clock
        self.cache_seconds = cache_seconds
        self.settings = settings
        self._none_until: dict[str, float] = {}  # chases without webhooks, until when that is trusted
        self._nowhere_until = 0.0  # no chase has a webhook, until when that is trusted
        self._timers: set[threading.Timer] = set()

    # -- the Keeper's commands ---------------------------------------------------------------

    def register(self, chase_id: UUID, url: str, by: Principal, after: int | None = None,
                 events: list[str] | None = None) -> dict[str, Any]:
        """A new webhook on the chase, with its secret (shown this once). Events after version
        ``after`` are sent (by default the chase's version now: only what happens next)."""
        permit_record(by, "register_webhook")
        url = self._check_url(url)
        version = self.ledger.runner.load(chase_id).version
        hook = {
            "webhook_id": str(uuid4()), "chase_id": str(chase_id), "url": url, "secret": self.sender.new_secret(),
            "delivered_version": min(version, after) if after is not None else version, "created_at": self.clock(),
            "events": events,
        }
        if not self.store.add(hook, self.settings.most_per_chase):
            raise TooManyWebhooks(f"chase {chase_id} has {self.settings.most_per_chase} webhooks, as many as a chase may have: "
                                  "delete one (DELETE .../webhooks/<id>) or change its URL (PATCH)")
        self._none_until.pop(hook["chase_id"], None)
        self._nowhere_until = 0.0
        if hook["delivered_version"] < version:
            self.submit(hook["webhook_id"], hook["chase_id"], version)
        if self.cache_seconds:
            # Other processes may still believe the chase has no webhooks: look once they cannot.
            later = threading.Timer(2 * self.cache_seconds, self._catch_up, [chase_id])
            later.daemon = True
            self._timers.add(later)
            later.start()
        return {**public(self.get(chase_id, hook["webhook_id"])), "secret": hook["secret"]}

    def change(self, chase_id: UUID, webhook_id: str, by: Principal, asked: WebhookChange) -> dict[str, Any]:
        """Change the URL or the kinds of event sent (``None``: all), or switch the webhook off or
        on; switched on again, it sends what was recorded meanwhile."""
        permit_record(by, "register_webhook")
        hook = self.get(chase_id, webhook_id)
        changes: dict[str, Any] = {}
        if "url" in asked:
            changes.update(url=self._check_url(asked["url"]), failures=0, retry_at=0.0)
        if "events" in asked:
            changes["events"] = asked["events"]
        if "enabled" in asked:
            enabled = asked["enabled"]
            changes.update(enabled=enabled, disabled_reason=None if enabled else "switched off by the Keeper")
            if enabled:
                changes.update(failures=0, retry_at=0.0)
        if changes:
            self.store.change(webhook_id, changes)
        if asked.get("enabled") or "url" in asked:
            # A job of its own: the one for this version may have run already, and failed for good.
            version = self.ledger.runner.load(chase_id).version
            self.submit(webhook_id, hook["chase_id"], version, f"webhook-{webhook_id}-{version}-{uuid4().hex[:8]}")
        return public(self.get(chase_id, webhook_id))

    def rekey(self, chase_id: UUID, webhook_id: str, by: Principal) -> dict[str, Any]:
        """A new secret for the webhook (shown this once); messages from now on are signed with it."""
        permit_record(by, "register_webhook")
        self.get(chase_id, webhook_id)
        secret = self.sender.new_secret()
        self.store.change(webhook_id, {"secret": secret})
        return {**public(self.get(chase_id, webhook_id)), "secret": secret}

    def delete(self, chase_id: UUID, webhook_id: str, by: Principal) -> None:
        """Remove the webhook and its delivery list; nothing more is sent to it."""
        permit_record(by, "register_webhook")
        self.get(chase_id, webhook_id)
        self.store.delete(webhook_id)

    def _check_url(self, url: str) -> str:
        """The URL as it is stored and sent, or InvalidInput naming ``url`` saying why it is refused."""
        refusal = self.sender.refusal(url)
        if refusal is not None:
            raise InvalidInput("url", f"the URL {refusal}")
        return self.sender.ascii_url(url)

    # -- reading -----------------------------------------------------------------------------

    def of_chase(self, chase_id: UUID, by: Principal) -> list[dict[str, Any]]:
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

    # -- after each command ------------------------------------------------------------------

    def recorded(self, versions: dict[str, int]) -> None:
        """After a save: have the new events of each chase sent to its webhooks."""
        for chase_id, version in versions.items():
            for hook in self._hooks(chase_id):
                if hook["enabled"] and hook["delivered_version"] < version:
                    self.submit(hook["webhook_id"], chase_id, version)

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

    def submit(self, webhook_id: str, chase_id: str, version: int, job_id: str | None = None) -> None:
        # Asked for first, so that a job holding the webhook's lease sends this version too.
        self.store.want(webhook_id, version)
        # One job per webhook and version: submitting again for the same version finds it.
        self.ledger.jobs.submit(KIND, {"webhook_id": webhook_id}, chase_id=chase_id, job_id=job_id or f"webhook-{webhook_id}-{version}")

    def deliver(self, run: JobRun, webhook_id: str) -> dict[str, Any]:
        """The delivery job (application/webhook_delivery.py)."""
        return Delivery(self, run, webhook_id).run()


def public(hook: dict[str, Any]) -> dict[str, Any]:
    """A webhook as the Keeper lists it: never its secret."""
    return {
        **{k: hook[k] for k in ("webhook_id", "chase_id", "url", "delivered_version", "created_at", "events", "enabled", "disabled_reason")},
        "failed_attempts": hook["failures"],
    }


def deliver(ledger: Any, run: JobRun, params: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = ledger.webhooks.deliver(run, params["webhook_id"])
    return result


JOB_KIND = JobKind(deliver, LANE)
