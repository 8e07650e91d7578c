"""Retries are safe: a POST sent again with the same ``Idempotency-Key`` is answered, not run again.

The semantics are the IETF httpapi draft's (draft-ietf-httpapi-idempotency-key-header), as
Stripe implements them. A request with a key first claims the key, scoped to the token that
sent it (its hash; no token: the key alone, as for ``POST /chases``), with a fingerprint of the
request (method, path, canonical body). Then:

* the command's events record the key (chase id and resulting version) in their own
  transaction (a write along, application/ports.py ``AlongWrite``), so no crash can ever record
  the command without its key;
* the answer (status, the headers that describe it, body, and the version of that shape, the
  API's) is stored once sent; a request arriving with the key later gets it again, byte for
  byte, marked ``Idempotent-Replayed: true``; when the
  process died between the commit and storing the answer (or the answer was a server error),
  the retry is told that the command was recorded, and where (the chase and its version): its
  rolls and outcome were in the lost answer, and no answer is made up without them;
* the same key with another request (fingerprint) is refused (422), and while the first is
  still in flight (claimed, not answered) a duplicate is refused (409);
* a key lives ``ttl`` seconds (CHASE_LEDGER_IDEMPOTENCY_TTL, 24 hours by default);
* a claim is a lease of IN_FLIGHT_LEASE seconds, renewed by its process RENEWALS times within it
  while the request runs (``Leases``: one thread per process, one statement per round). A claim
  left by a process that died is no longer renewed: a retry takes it over (nothing recorded) or
  is told what it recorded within IN_FLIGHT_LEASE, instead of meeting 409 for minutes;
* a claim that lapsed all the same (renewals failed, the store too busy) and was taken over by a
  retry records nothing for the first request: writing the key with its command's events fails
  that transaction (``ClaimLost``), so the command is rolled back and answered as in flight,
  never recorded twice.

The request in hand is known through a context variable (one per thread or task), set by the
API for the request's duration, so the command services need no parameter for it.
"""
from __future__ import annotations

import logging
import os
import secrets
import threading
import time
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Callable

from application.ports import IdempotencyKeys

log = logging.getLogger(__name__)

TTL = 24 * 3600.0  # seconds a key is kept (CHASE_LEDGER_IDEMPOTENCY_TTL)
# Seconds a claim stays in flight unless its process renews it: a retry after a crash waits no
# longer than this. A live process renews it RENEWALS times within it (every 3 s), so
# that a renewal waiting long for the store (SQLite's write lock, a pooled PostgreSQL connection),
# or a few failing, does not let the claim lapse.
IN_FLIGHT_LEASE = 30.0
RENEWALS = 10


class ClaimLost(Exception):
    """The request's claim on its key lapsed and another request took the key over: its command
    is not recorded (the key's write fails the transaction of its events)."""


@dataclass
class Claim:
    """A key this process holds for the request in hand."""

    scope: str
    key: str
    claim_id: str
    recorded: tuple[str, int] | None = None  # (chase id, version) once the command's events are committed


@dataclass(frozen=True)
class Begun:
    """What a request with a key comes to: ``run`` it (holding ``claim``), ``replay`` a stored
    answer, say a command was ``recorded`` (at ``chase_id``, ``version``) whose answer was lost,
    or refuse it: ``mismatch`` (another request used this key) or ``in_flight``."""

    outcome: str
    claim: Claim | None = None
    answer: dict[str, Any] | None = None
    chase_id: str | None = None
    version: int | None = None


@dataclass
class KeyRecorded:
    """The key, recorded in the transaction of the command's events (an AlongWrite)."""

    keys: IdempotencyKeys
    claim: Claim
    chase_id: str
    version: int
    optional: bool = field(default=False, init=False)  # without it the events are not recorded either

    def send(self, cursor: Any) -> None:
        self.keys.record_in(cursor, self.claim.scope, self.claim.key, self.claim.claim_id, self.chase_id, self.version)

    def receive(self) -> None:
        self.claim.recorded = (self.chase_id, self.version)

    def drop(self, error: BaseException) -> None:  # never called: not optional
        raise error


PENDING: ContextVar[Claim | None] = ContextVar("idempotency_claim", default=None)


class Leases:
    """The claims this process holds for requests still running, renewed every tenth of the
    lease by one thread (started on the first claim, in each process: a thread does not survive
    a fork)."""

    def __init__(self, keys: IdempotencyKeys, clock: Callable[[], float], lease: float = IN_FLIGHT_LEASE) -> None:
        self.keys = keys
        self.clock = clock
        self.lease = lease
        self.held: dict[str, Claim] = {}
        self.lock = threading.Lock()
        self.pid: int | None = None  # the process whose thread renews

    def hold(self, claim: Claim) -> None:
        with self.lock:
            self.held[claim.claim_id] = claim
            if self.pid != os.getpid():
                self.pid = os.getpid()
                threading.Thread(target=self._renew_while_running, name="idempotency-leases", daemon=True).start()

    def let_go(self, claim: Claim) -> None:
        with self.lock:
            self.held.pop(claim.claim_id, None)

    def renew(self) -> None:
        with self.lock:
            claims = [(c.scope, c.key, c.claim_id) for c in self.held.values()]
        if claims:
            self.keys.renew(claims, self.clock())

    def _renew_while_running(self) -> None:
        while True:
            time.sleep(self.lease / RENEWALS)
            try:
                self.renew()
            except Exception:  # noqa: BLE001 - the store failed a round: the next one tries again
                log.warning("could not renew the idempotency keys in flight", exc_info=True)


class Retries:
    """Claims keys, records them with the command's events, keeps and replays the answers."""

    def __init__(self, keys: IdempotencyKeys, ttl: float = TTL, clock: Callable[[], float] = time.time) -> None:
        self.keys = keys
        self.ttl = ttl
        self.clock = clock
        self.leases = Leases(keys, lambda: self.clock())

    @property
    def lease(self) -> float:
        return self.leases.lease

    def begin(self, scope: str, key: str, fingerprint: str) -> Begun:
        """Claim the key for this request, or say why not."""
        now = self.clock()
        claim_id = secrets.token_hex(16)
        row = self.keys.claim(scope, key, fingerprint, claim_id, now, now + self.ttl, now - self.lease)
        if row["claim_id"] == claim_id:
            claim = Claim(scope, key, claim_id)
            self.leases.hold(claim)
            return Begun("run", claim=claim)
        if row["fingerprint"] != fingerprint:
            return Begun("mismatch")
        if row["answer"] is not None:
            return Begun("replay", answer=row["answer"])
        # Recorded but not yet answered is the moment between a command's commit and its answer
        # being kept: in flight, unless its process no longer renews the claim (it died).
        if row["version"] is not None and row["claimed_at"] <= now - self.lease:
            return Begun("recorded", chase_id=row["chase_id"], version=row["version"])
        return Begun("in_flight")

    def along(self, chase: Any) -> tuple[KeyRecorded, ...]:
        """The key of the request in hand, to record with the chase's pending events."""
        claim = PENDING.get()
        if claim is None:
            return ()
        return (KeyRecorded(self.keys, claim, str(chase.id), chase.version),)

    def finish(self, claim: Claim, status: int, headers: dict[str, str], body: bytes, version: int) -> None:
        """Keep the answer sent for the claimed key. A server error or a conflict (409: the
        chase changed under the command, "try again") with nothing recorded releases the key
        instead, so that the request may be sent again (Stripe keeps no answer for a request
        that conflicted with another). A server error after the command was recorded is not kept
        either (a retry would be told of a failure when the command stands): the retry is told
        what the command recorded, as when its process died before keeping the answer."""
        self.leases.let_go(claim)
        if (status >= 500 or status == 409) and claim.recorded is None:
            self.keys.release(claim.scope, claim.key, claim.claim_id)
            return
        if status >= 500:
            self.keys.unanswered(claim.scope, claim.key, claim.claim_id)
            return
        self.keys.answer(claim.scope, claim.key, claim.claim_id, {"status": status, "headers": headers, "body": body, "version": version})

    def abandon(self, claim: Claim) -> None:
        """The request ended without an answer to keep: free the key unless it recorded something."""
        self.leases.let_go(claim)
        if claim.recorded is None:
            self.keys.release(claim.scope, claim.key, claim.claim_id)
        else:  # recorded, then the request failed: no longer in flight, a retry is told at once
            self.keys.unanswered(claim.scope, claim.key, claim.claim_id)
