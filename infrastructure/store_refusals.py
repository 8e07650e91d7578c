"""When the store refuses a request for now, and why: the errors of PostgreSQL and SQLite that
no fault of the request caused and that pass without anyone changing the code.

- ``BUSY``: another holds what the command needs past the lock timeout (PostgreSQL's
  ``lock_timeout``, SQLite's busy timeout): nothing was recorded, retry in a moment.
- ``UNAVAILABLE``: the store takes no writes now (a read-only server, such as a standby after a
  failover; a full disk; a read-only database file) or the server ended the connection (a
  restart, an operator's ``pg_terminate_backend``) or cannot take one (starting up, too many).

Both are answered 503 with Retry-After (api/problems.py), and ``/ready`` says not ready while a
write is refused (infrastructure/readiness.py). Any other error is a defect, answered 500.
"""
from __future__ import annotations

import functools
import sqlite3
import time
from typing import Any, Callable, Literal, TypeVar, cast

import psycopg
from eventsourcing.persistence import InterfaceError, OperationalError

BUSY: Literal["busy"] = "busy"
UNAVAILABLE: Literal["unavailable"] = "unavailable"
Refusal = Literal["busy", "unavailable"]

# PostgreSQL's SQLSTATEs (Appendix A, "PostgreSQL Error Codes"), by code or by class.
_PG_BUSY = ("55P03",)  # lock_not_available: the lock timeout passed
_PG_UNAVAILABLE = (
    "25006",  # read_only_sql_transaction: a standby, or default_transaction_read_only
    "08",  # connection exception
    "53",  # insufficient resources: disk full, out of memory, too many connections
    "57P",  # operator intervention: admin or crash shutdown, cannot connect now, idle session timeout
)

# SQLite's primary result codes (the low byte of the extended code).
_SQLITE_BUSY = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
_SQLITE_UNAVAILABLE = (sqlite3.SQLITE_FULL, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN)


def _chain(error: BaseException) -> list[BaseException]:
    """``error`` and what caused it (eventsourcing raises its own errors from the driver's, ``from``
    it): not what was being handled when it was raised, which a defect could be raised during."""
    seen: list[BaseException] = []
    e: BaseException | None = error
    while e is not None and e not in seen and len(seen) < 8:
        seen.append(e)
        e = e.__cause__
    return seen


def _one(e: BaseException) -> Refusal | None:
    if isinstance(e, psycopg.Error):
        state = e.sqlstate or ""
        if state.startswith(_PG_BUSY):
            return BUSY
        if state.startswith(_PG_UNAVAILABLE):
            return UNAVAILABLE
        # No SQLSTATE: the connection failed on the client's side (lost, refused, closed).
        if not state and isinstance(e, (psycopg.OperationalError, psycopg.InterfaceError)):
            return UNAVAILABLE
        return None
    if isinstance(e, sqlite3.Error):
        code = getattr(e, "sqlite_errorcode", 0) & 0xFF
        if code in _SQLITE_BUSY:
            return BUSY
        if code in _SQLITE_UNAVAILABLE:
            return UNAVAILABLE
    return None


def refusal(error: BaseException) -> Refusal | None:
    """``BUSY`` or ``UNAVAILABLE`` when the store refused for now, here or as the cause; else None."""
    for e in _chain(error):
        found = _one(e)
        if found is not None:
            return found
    return None


def reason(error: BaseException) -> str:
    """The store's own words for the refusal (its first line), for the operator's log only: they
    name hosts, ports and file paths, which no client is told (``sentence`` is what it is told)."""
    for e in _chain(error):
        if _one(e) is not None:
            error = e
            break
    return (str(error).strip().splitlines() or [type(error).__name__])[0][:200]


# What a client is told of a refusal: a fixed sentence per kind, never the store's own words.
SENTENCES = {
    "busy": "other writers held the store past its lock timeout",
    "read-only": "the store is read-only now (a standby, or a database set read-only)",
    "disk-full": "the store's disk is full",
    "connection-lost": "the connection to the store was lost or refused (a restart, or too many connections)",
    "unavailable": "the store cannot take writes now",
}


def _kind(e: BaseException) -> str:
    """Which of ``SENTENCES`` a refusal of ``refusal``'s is."""
    if _one(e) == BUSY:
        return "busy"
    if isinstance(e, psycopg.Error):
        state = e.sqlstate or ""
        if state == "25006":
            return "read-only"
        if state == "53100":  # disk_full
            return "disk-full"
        if not state or state.startswith(("08", "57P", "53300")):  # too_many_connections: none to be had
            return "connection-lost"
    if isinstance(e, sqlite3.Error):
        code = getattr(e, "sqlite_errorcode", 0) & 0xFF
        if code == sqlite3.SQLITE_READONLY:
            return "read-only"
        if code == sqlite3.SQLITE_FULL:
            return "disk-full"
    return "unavailable"


def sentence(error: BaseException) -> str:
    """What the client is told of a refusal (``refusal`` is not None): its kind in fixed words."""
    for e in _chain(error):
        if _one(e) is not None:
            return SENTENCES[_kind(e)]
    return SENTENCES["unavailable"]


TRIES = 10  # eventsourcing's own, for the errors it tries again
WAIT = 0.2  # seconds between tries

Method = TypeVar("Method", bound=Callable[..., Any])


def retried(method: Method) -> Method:
    """eventsourcing's ``retry`` of a store's operational errors (``TRIES``, ``WAIT``: a deadlock,
    a serialization failure, after which the server rolled the transaction back), except of a
    refusal: the lock timeout passed, the server read-only, the disk full, answered 503 at once
    rather than after ten more waits; and a connection lost, whose COMMIT may have been made.

    The events' key (chase, version) keeps a retried append from recording the same events
    twice: it would be refused. But the command would not: a command refused by that key lost
    a race, and the runner runs it again on the chase as it now is (application/runner.py), so
    a roll whose answer was lost after its COMMIT would be rolled twice. A lost connection is
    answered 503 instead, "nothing recorded unless its events show"; the pool lends no
    connection the server has ended (postgres_startup.py), so a restart costs no command."""

    @functools.wraps(method)
    def tried(*args: Any, **kwargs: Any) -> Any:
        attempt = 1
        while True:
            try:
                return method(*args, **kwargs)
            except (OperationalError, InterfaceError) as e:
                if attempt >= TRIES or refusal(e) is not None:
                    raise
            attempt += 1
            time.sleep(WAIT)

    return cast(Method, tried)
