"""A webhook's delivery job (application/webhooks.py registers webhooks and submits these).

Delivery is a job on a lane of its own (application/jobs.py). It first takes the webhook's
lease, so two jobs never send to one webhook at once (each event reaches the receiver once per
attempt); a
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
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol
from uuid import UUID

from application.job_run import JobRun
from application.ports import SendPostponed, WebhookSender, WebhookStore

BATCH = 100  # events read from the log at a time
# Seconds a job's lease on a webhook lasts past the delivery deadline: a worker that died while
# sending lets go of the webhook after this, and another job takes over.
LEASE_SLACK = 30


@dataclass(frozen=True)
class WebhookSettings:
    most_per_chase: int = 5  # each webhook is a delivery job after every command on the chase
    disable_after: int = 10  # failed attempts in a row that switch a webhook off
    backoff: tuple[int, ...] = (2, 10, 30, 60)  # seconds before the 2nd, 3rd, ... attempt (the job queue's)
    deadline: float = 10.0  # seconds a whole delivery of one event may take (the sender keeps it)
    job_seconds: float = 60.0  # a job hands the rest to a new job after this, freeing its lane's worker


class WebhookService(Protocol):
    """What a delivery needs of the webhooks service (application/webhooks.py Webhooks)."""

    ledger: Any  # the ChaseLedger: its history of events
    store: WebhookStore
    sender: WebhookSender
    settings: WebhookSettings
    clock: Callable[[], float]

    def submit(self, webhook_id: str, chase_id: str, version: int, job_id: str | None = None) -> None: ...


class WebhookFailed(Exception):
    """The receiver did not take an event: the job's attempt fails and is retried."""


class WebhookPostponed(Exception):
    """The sender did not try the event (SendPostponed): the job's attempt fails and is retried."""


def event_id(chase_id: str, version: int) -> str:
    return f"{chase_id}:{version}"


class Delivery:
    """One run of a webhook's delivery job."""

    def __init__(self, webhooks: WebhookService, job: JobRun, webhook_id: str) -> None:
        self.webhooks = webhooks
        self.job = job
        self.webhook_id = webhook_id
        self.store = webhooks.store
        self.sender = webhooks.sender
        self.settings = webhooks.settings
        self.clock = webhooks.clock

    def run(self) -> dict[str, Any]:
        """Send the events after the last delivered one, in order; raise at the first refused."""
        job, webhook_id = self.job, self.webhook_id
        s, me = self.settings, job.job_id
        started = self.clock()
        if not self.store.claim(webhook_id, me, started, started + s.deadline + LEASE_SLACK):
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
                    self.webhooks.submit(webhook_id, hook["chase_id"], hook["delivered_version"] + 1,
                                         f"webhook-{webhook_id}-from-{hook['delivered_version']}")
                    break
                sent, done = self._send_batch(job, hook, sent, started)
                if done and not self.store.release(webhook_id, me, when_done=True):
                    done = False  # a job asked for newer events meanwhile: send those too
        finally:
            self.store.release(webhook_id, me, when_done=False)
        return {"webhook_id": webhook_id, "sent": sent}

    def _send_batch(self, run: JobRun, hook: dict[str, Any], sent: int, started: float) -> tuple[int, bool]:
        """Send a batch of events in order; (events sent so far, whether none was left)."""
        events = self.webhooks.ledger.history.chase_events(UUID(hook["chase_id"]), after=hook["delivered_version"], limit=BATCH)
        if not events:
            return sent, True
        for event in events:
            run.check()
            self.store.claim(hook["webhook_id"], run.job_id, self.clock(), self.clock() + self.settings.deadline + LEASE_SLACK)
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
        try:
            status, error = self.sender.send(hook["url"], hook["secret"], message_id, now, body)
        except SendPostponed as e:
            # Nothing was tried: no attempt is listed nor counted toward switching the webhook off;
            # the queue runs the job again after its backoff.
            raise WebhookPostponed(f"webhook {hook['webhook_id']} did not try event {message_id} yet: {e}") from None
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


