"""Webhooks: a Keeper registers a URL on a chase; every event (or those of the kinds chosen) is sent to it.

Each event is POSTed as Standard Webhooks specifies (the sender, infrastructure/webhook_sender.py,
signs it): ``webhook-id`` is the event id (``<chase id>:<version>``, the same on every retry,
for the receiver to drop duplicates), ``webhook-timestamp`` and ``webhook-signature``. The body
is ``{"type": "chase.<EventName>", "timestamp": ..., "data": <the event as in /events>}``.

Delivery is a job on a lane of its own (application/jobs.py), submitted after each command that
records events on a chase with webhooks. A delivery job first takes the webhook's lease, so two
jobs never send to one webhook at once (each event reaches the receiver once per attempt); a
job that finds it taken leaves its events to the job holding it, which sends up to the latest
version any job asked for before it lets go. The holder sends the events after the webhook's
last delivered version, one by one in order; each success moves that version on (a
compare-and-set), and a failure (no answer within the deadline, or not 2xx) counts one more
failed attempt of that event and fails the job, which the queue retries with its backoff. Until
that backoff has passed, jobs for newer events send nothing, so a receiver that is down is not
hammered. So events arrive in order, each at least once: event n+1 is never sent before the
receiver acknowledged event n. Every attempt is kept as a delivery, numbered as the event's
attempt, listed to the Keeper; after ``disable_after`` failed attempts in a row the webhook is
switched off, saying why, until the Keeper switches it on again.

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
from dataclasses import dataclass
from typing import Any, Callable, TypedDict
from uuid import UUID, uuid4

from application.access import Principal
from application.permissions import permit_record
from application.job_run import JobRun
from application.plugins import JobKind
from application.ports import WebhookSender, WebhookStore
from domain.errors import InvalidInput

KIND = "webhook"
LANE = "webhooks"  # its own lane: a slow receiver holds up no other job (infrastructure/queues.py)
BATCH = 100  # events read from the log at a time
DELIVERIES_LISTED = 100
CACHED_CHASES = 10_000  # chases remembered as having no webhooks (forgotten all at once past it)
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class WebhookSettings:
    most_per_chase: int = 5  # each webhook is a delivery job after every command on the chase
    disable_after: int = 10  # failed attempts in a row that switch a webhook off
    backoff: tuple[int, ...] = (2, 10, 30, 60)  # seconds before the 2nd, 3rd, ... attempt (the job queue's)
    deadline: float = 10.0  # seconds a whole delivery of one event may take (the sender keeps it)
    job_seconds: float = 60.0  # a job hands the rest to a new job after this, freeing its lane's worker


class WebhookChange(TypedDict, total=False):
    """What a Keeper changes of a webhook: each key given is changed (``events`` None: every kind)."""

    url: str
    events: list[str] | None
    enabled: bool


class WebhookFailed(Exception):
    """The receiver did not take an event: the job's attempt fails and is retried."""


class WebhookNotFound(LookupError):
    """No webhook with that id on this chase."""


class TooManyWebhooks(Exception):
    """The chase has as many webhooks as one chase may have (409)."""


def event_id(chase_id: str, version: int) -> str:
    return f"{chase_id}:{version}"


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
        self._check_url(url)
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
            self._submit(hook["webhook_id"], hook["chase_id"], version)
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
            self._check_url(asked["url"])
            changes.update(url=asked["url"], failures=0, retry_at=0.0)
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
            self._submit(webhook_id, hook["chase_id"], version, f"webhook-{webhook_id}-{version}-{uuid4().hex[:8]}")
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

    def _check_url(self, url: str) -> None:
        refusal = self.sender.refusal(url)
        if refusal is not None:
            raise InvalidInput("url", f"the URL {refusal}")

    # -- reading -----------------------------------------------------------------------------

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

    # -- after each command ------------------------------------------------------------------

    def recorded(self, versions: dict[str, int]) -> None:
        """After a save: have the new events of each chase sent to its webhooks."""
        for chase_id, version in versions.items():
            for hook in self._hooks(chase_id):
                if hook["enabled"] and hook["delivered_version"] < version:
                    self._submit(hook["webhook_id"], chase_id, version)

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

    def _submit(self, webhook_id: str, chase_id: str, version: int, job_id: str | None = None) -> None:
        # Asked for first, so that a job holding the webhook's lease sends this version too.
        self.store.want(webhook_id, version)
        # One job per webhook and version: submitting again for the same version finds it.
        self.ledger.jobs.submit(KIND, {"webhook_id": webhook_id}, chase_id=chase_id, job_id=job_id or f"webhook-{webhook_id}-{version}")

    # -- the delivery job --------------------------------------------------------------------

    def deliver(self, run: JobRun, webhook_id: str) -> dict[str, Any]:
        """Send the events after the last delivered one, in order; raise at the first refused."""
        s, me = self.settings, run.job_id
        started = self.clock()
        if not self.store.claim(webhook_id, me, started, started + s.deadline + 30):
            return {"webhook_id": webhook_id, "sent": 0, "left_to": "the job sending to it now"}
        sent, done = 0, False
        try:
            while not done:
                hook = self.store.get(webhook_id)
                if hook is None or not hook["enabled"]:
                    break
                if hook["failures"] and hook["retry_at"] > self.clock() + 1:
                    break  # backing off after a failure: the failed job's retry sends, not this one
                if self.clock() - started > s.job_seconds:
                    # Long enough on one lane's worker: a new job (at the back of the lane) goes on.
                    self._submit(webhook_id, hook["chase_id"], hook["delivered_version"] + 1,
                                 f"webhook-{webhook_id}-from-{hook['delivered_version']}")
                    break
                sent, done = self._send_batch(run, hook, sent, started)
                if done and not self.store.release(webhook_id, me, when_done=True):
                    done = False  # a job asked for newer events meanwhile: send those too
        finally:
            self.store.release(webhook_id, me, when_done=False)
        return {"webhook_id": webhook_id, "sent": sent}

    def _send_batch(self, run: JobRun, hook: dict[str, Any], sent: int, started: float) -> tuple[int, bool]:
        """Send a batch of events in order; (events sent so far, whether none was left)."""
        events = self.ledger.history.chase_events(UUID(hook["chase_id"]), after=hook["delivered_version"], limit=BATCH)
        if not events:
            return sent, True
        for event in events:
            run.check()
            self.store.claim(hook["webhook_id"], run.job_id, self.clock(), self.clock() + self.settings.deadline + 30)
            wanted = hook["events"] is None or f"chase.{event['name']}" in hook["events"]
            if wanted:
                self._send(run, hook, event)
                sent += 1
            if not self.store.advance(hook["webhook_id"], hook["delivered_version"], event["version"]):
                break  # moved on elsewhere (a lease that ran out): read where it is, go on from there
            hook["delivered_version"], hook["failures"], hook["tries"] = event["version"], 0, 0
            if self.clock() - started > self.settings.job_seconds:
                break
        return sent, False

    def _send(self, run: JobRun, hook: dict[str, Any], event: dict[str, Any]) -> None:
        message_id = event_id(hook["chase_id"], event["version"])
        now = int(self.clock())
        body = json.dumps({"type": f"chase.{event['name']}", "timestamp": event["recorded_at"], "data": event}, separators=(",", ":"))
        status, error = self.sender.send(hook["url"], hook["secret"], message_id, now, body)
        ok = error is None and status is not None and 200 <= status < 300
        attempt = hook["tries"] + 1  # the attempts so far are all this event's: it is the first not taken
        self.store.record({
            "webhook_id": hook["webhook_id"], "event_id": message_id, "version": event["version"],
            "event_type": f"chase.{event['name']}", "attempt": attempt, "status": "delivered" if ok else "failed",
            "response_status": status, "error": None if ok else (error or f"the receiver answered {status}"), "at": self.clock(),
        })
        if not ok:
            reason = error or f"the receiver answered {status}"
            # The queue retries this job after the backoff, unless its attempts are spent: then
            # the chase's next event tries again, and need not wait.
            last = run.job["attempts"] >= run.jobs.settings.max_attempts
            backoff = self.settings.backoff[min(run.job["attempts"], len(self.settings.backoff)) - 1] if self.settings.backoff else 0
            self.store.failed(hook["webhook_id"], 0.0 if last else self.clock() + backoff, self.settings.disable_after,
                              f"switched off after {self.settings.disable_after} failed attempts in a row (the last: {reason})")
            # The URL is never in the message: job errors are shown to every player of the chase.
            raise WebhookFailed(f"webhook {hook['webhook_id']} did not take event {message_id} (attempt {attempt}): {reason}")


def public(hook: dict[str, Any]) -> dict[str, Any]:
    """A webhook as the Keeper lists it: never its secret."""
    return {
        **{k: hook[k] for k in ("webhook_id", "chase_id", "url", "delivered_version", "created_at", "events", "enabled", "disabled_reason")},
        "failed_attempts": hook["failures"],
    }


def deliver(ledger: Any, run: JobRun, params: dict[str, Any]) -> dict[str, Any]:
    return ledger.webhooks.deliver(run, params["webhook_id"])


JOB_KIND = JobKind(deliver, LANE)
