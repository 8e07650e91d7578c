"""Ports the application needs; infrastructure supplies the adapters."""
from __future__ import annotations

from typing import Any, Callable, Iterable, Protocol, Sequence
from uuid import UUID

from domain.dice import DiceSource


class SeedVault(Protocol):
    """Keeps each chase's secret server-dice seed and makes its server dice."""

    def new_seed(self, chase_id: UUID) -> str:
        """Create and keep a secret seed for the chase; return its SHA-256 commitment."""
        ...

    def server_dice(self, chase_id: UUID, commitment: str, entropy: str = "", epoch: int = 0) -> DiceSource:
        """Server dice from the seed with that commitment, mixing in the players' entropy."""
        ...

    def seed_to_reveal(self, chase_id: UUID, commitment: str) -> str:
        """The seed with that commitment, in hex, only for the event that reveals it."""
        ...


class PositionMoved(Exception):
    """The tracking position was not where the projector read it: another process moved it."""


class AlongWrite(Protocol):
    """A write made in the transaction that records a command's events (the event recorder
    calls it: infrastructure/sqlite_recorder.py, postgres_recorder.py). ``optional``: when the
    store refuses it, the events are recorded without it and ``drop`` is told why; otherwise the
    events are not recorded either."""

    optional: bool

    def send(self, cursor: Any) -> None:
        """Make the write with the transaction's cursor (its result may come later)."""
        ...

    def receive(self) -> None:
        """The transaction was committed: take the write's result."""
        ...

    def drop(self, error: BaseException) -> None:
        """The events were recorded without this write, which the store refused."""
        ...


class ChaseViews(Protocol):
    """The read models of chases: each chase's views at a version, its roll history, the
    chases set aside because their events could not be projected, and the position in the
    notification log the projector has read up to (tracking).

    Every write of a chase's views is a compare-and-set on the chase's view version, so two
    writers (a command's process and the projector, or two projectors) never apply an event
    twice nor move a chase's views backwards (DESIGN.md section 7).
    """

    def max_tracking_id(self, application_name: str) -> int | None: ...

    def view_versions(self, chase_ids: Iterable[str]) -> dict[str, int]:
        """The version each chase's views are at (chases with no views are left out)."""
        ...

    def write_views(self, updates: Sequence[dict[str, Any]], tracking: tuple[str, int | None, int] | None = None) -> set[str]:
        """In one transaction, for each update (chase_id, expected, version, doc, rolls, marks):
        if the chase's views are at ``expected`` (0: none yet), write ``doc`` at ``version``,
        add the roll rows (idempotent by chase and sequence) and apply the undo marks in order;
        then move the tracking (application name, from, to) when given, or raise PositionMoved.
        Returns the chases whose views were not at ``expected`` (nothing written for them).
        Any other error (the store refusing a row) rolls the whole transaction back."""
        ...

    def encode(self, update: dict[str, Any]) -> Any:
        """One chase's update made ready for ``write_in`` (encoded before the transaction opens)."""
        ...

    def write_in(self, cursor: Any, encoded: Any) -> Callable[[], bool]:
        """The same write for one chase (``encode``d), made with ``cursor`` in the transaction
        that records its events (the event recorder's, infrastructure/*_recorder.py): one commit
        per command. Returns what tells, once the transaction is sent, whether the views were
        written (False: they were not at ``expected``). An error leaves the transaction to the
        recorder."""
        ...

    def read_views(self, chase_id: str, name: str | None = None, *, take_kept: bool = True) -> dict[str, Any] | None:
        """``{"version", "doc", "set_aside"}``: the chase's views (all, or the one named, in
        ``doc``; None when never written) and whether the chase is set aside; None when
        neither. ``take_kept=False``: every part as the store holds it, never what this process
        remembers writing (a check of the stored views)."""
        ...

    def chase_view(self, chase_id: str, name: str) -> dict[str, Any] | None:
        """A view rendered from the chase's state, by name ("track", "vehicles")."""
        ...

    def track_view(self, chase_id: str) -> dict[str, Any] | None: ...

    def roll_history(self, chase_id: str, filters: dict[str, Any]) -> list[dict[str, Any]]: ...

    def analytics_facts(self, chase_ids: Sequence[str]) -> list[dict[str, Any]]:
        """The chases' analytics facts (application/analytics/facts.py), by chase, version and
        index, each with ``undone`` and ``undone_by`` as the undo marks left them."""
        ...

    def set_aside(self, chase_id: str, version: int, notification_id: int | None, error: str, now: float, retry_at: float) -> dict[str, Any]:
        """Record (or record again: one more attempt) that the chase's event at ``version``
        could not be projected; the record: chase_id, version, notification_id, error,
        first_seen, last_seen, attempts, retry_at (epoch seconds)."""
        ...

    def set_aside_chases(self, chase_ids: Iterable[str] | None = None, due_by: float | None = None) -> list[dict[str, Any]]:
        """The set-aside records (of those chases; due for a retry by then), oldest first."""
        ...

    def release(self, chase_id: str) -> None:
        """The chase's views caught up: it is no longer set aside."""
        ...

    def clear(self, application_name: str) -> None:
        """Empty the views, their tracking and the set-aside records, for a rebuild by replay."""
        ...


class IdempotencyKeys(Protocol):
    """Idempotency keys beside the events (application/retries.py): each key, scoped, with the
    fingerprint of the request that claimed it, what it recorded and the answer it got. The key
    itself is stored only hashed; the answer only sealed under it (it may hold a token)."""

    def claim(self, scope: str, key: str, fingerprint: str, claim_id: str, now: float, expires_at: float, stale_before: float) -> dict[str, Any]:
        """Claim the key unless it is held: absent, expired, or claimed before ``stale_before``
        with nothing recorded. Returns the key's row (``claim_id``, ``fingerprint``, ``chase_id``,
        ``version``, ``answer``: the answer unsealed, or None): this claim's when it was taken."""
        ...

    def record_in(self, cursor: Any, scope: str, key: str, claim_id: str, chase_id: str, version: int) -> None:
        """In the transaction of the command's events (the event recorder's cursor): what the
        claimed key recorded. Fails that transaction when the claim is no longer this one (it
        lapsed and another request took the key over): application/retries.py ``ClaimLost``,
        raised here or, where the write is sent ahead (PostgreSQL's pipeline), by the recorder."""
        ...

    def answer(self, scope: str, key: str, claim_id: str, answer: dict[str, Any]) -> None:
        """Keep the answer (status, headers, body bytes) of the claimed key."""
        ...

    def release(self, scope: str, key: str, claim_id: str) -> None:
        """Free the claimed key, if nothing was recorded with it."""
        ...

    def unanswered(self, scope: str, key: str, claim_id: str) -> None:
        """The claimed key's command was recorded but its answer failed: no answer is kept, and
        the key is no longer in flight (a retry is told what it recorded, at once)."""
        ...

    def renew(self, claims: Sequence[tuple[str, str, str]], now: float) -> None:
        """The claims (scope, key, claim id) of requests still running: each still in flight is
        claimed ``now`` again, so that it is not taken for one left by a dead process."""
        ...


class TokenStore(Protocol):
    """Access tokens, kept only as their SHA-256 hashes."""

    def keep(self, token_hash: str, chase_id: str, role: str, participant_ids: Sequence[str], label: str) -> None: ...

    def find(self, token_hash: str) -> dict[str, Any] | None: ...

    def issued(self, chase_id: str) -> list[dict[str, Any]]:
        """Every token issued for the chase: role, participant_ids, label (never the hash)."""
        ...


class SessionLog(Protocol):
    """Sessions and campaigns (application/analytics/sessions.py) as an append-only log of
    entries per group: nothing is changed or deleted, so a group is the fold of its entries."""

    def append(self, group_id: str, entry: dict[str, Any]) -> int:
        """Add the entry (kind, member, name, by, at) after the group's last; its number."""
        ...

    def entries(self, group_id: str) -> list[dict[str, Any]]:
        """The group's entries in order, each with its number (``seq``)."""
        ...


# -- live updates; the background jobs' ports are in job_ports.py ------------------------------


class Subscription(Protocol):
    def wait(self, timeout: float) -> bool:
        """Block until something new was announced for the chase since the last wait, or
        ``timeout`` seconds; True when announced."""
        ...

    def close(self) -> None: ...


class LiveFeed(Protocol):
    """Announces new events per chase to streams: Redis pub/sub, or in this process only.

    An announcement only wakes a stream up; the stream reads the events from the store, so a
    lost announcement delays an event (until the stream's next poll) but never loses it.
    """

    def publish(self, chase_id: str, version: int) -> None:
        """Announce that the chase reached ``version``; never raises (a command has succeeded)."""
        ...

    def subscribe(self, chase_id: str) -> Subscription: ...

    def watch(self, announced: Callable[[str], None]) -> None:
        """Call ``announced(chase_id)`` on every chase's announcements (from the announcing
        thread; it must return at once). The live streams' event loop listens so."""
        ...

    def unwatch(self, announced: Callable[[str], None]) -> None: ...


class WebhookStore(Protocol):
    """The chases' webhooks and their deliveries, beside the events (infrastructure/webhook_store.py)."""

    def add(self, hook: dict[str, Any], most: int) -> bool:
        """Add the webhook unless its chase has ``most`` already (False then)."""
        ...

    def get(self, webhook_id: str) -> dict[str, Any] | None: ...

    def for_chase(self, chase_id: str) -> list[dict[str, Any]]:
        """The chase's webhooks, oldest first (one indexed query: asked after every command)."""
        ...

    def any_hooks(self) -> bool:
        """Whether any chase has a webhook (asked once a second by each process while none has)."""
        ...

    def change(self, webhook_id: str, changes: dict[str, Any]) -> bool:
        """Set some of url, secret, events, enabled, disabled_reason, failures, retry_at."""
        ...

    def delete(self, webhook_id: str) -> bool:
        """Remove the webhook and its deliveries."""
        ...

    def advance(self, webhook_id: str, delivered: int, to: int) -> bool:
        """Compare-and-set of the last version delivered: from ``delivered`` to ``to`` (failures cleared)."""
        ...

    def want(self, webhook_id: str, version: int) -> None:
        """Ask for the events up to ``version`` to be sent (the lease holder sends them before letting go)."""
        ...

    def claim(self, webhook_id: str, sender: str, now: float, until: float) -> bool:
        """Take (or renew) the lease to send to the webhook, unless another sender holds it."""
        ...

    def release(self, webhook_id: str, sender: str, when_done: bool) -> bool:
        """Let the lease go (``when_done``: only if every event asked for was delivered)."""
        ...

    def failed(self, webhook_id: str, retry_at: float, disable_after: int, reason: str) -> int:
        """Count one more failed attempt in a row (switching the webhook off at ``disable_after``)."""
        ...

    def record(self, delivery: dict[str, Any]) -> None:
        """Keep one attempt to deliver one event."""
        ...

    def deliveries(self, webhook_id: str, limit: int, before: int | None = None) -> list[dict[str, Any]]:
        """The latest attempts (before the attempt numbered ``before``), newest first, each with its ``delivery_id``."""
        ...


class SendPostponed(Exception):
    """The sender did not try this time, for a reason of its own and not the receiver's (its name
    lookups were all busy with other hosts): try again later, counting no failed attempt."""


class WebhookSender(Protocol):
    """Sends one signed webhook message (Standard Webhooks)."""

    def send(self, url: str, secret: str, message_id: str, timestamp: int, body: str) -> tuple[int | None, str | None]:
        """The receiver's status code (None when none came) and what went wrong, if anything;
        SendPostponed when it did not try."""
        ...

    def ascii_url(self, url: str) -> str:
        """The URL as it is stored and sent (a host name in another script in its ASCII form)."""
        ...

    def new_secret(self) -> str:
        """A fresh signing secret, in the form receivers expect (``whsec_...``)."""
        ...

    def refusal(self, url: str) -> str | None:
        """Why a webhook may not send to this URL (the server's target policy), or None."""
        ...
