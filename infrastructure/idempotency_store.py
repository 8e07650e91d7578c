"""Idempotency keys beside the events, on SQLite and PostgreSQL (application/retries.py).

A key is stored only as a hash of its scope (the hash of the token that sent it; empty for no
token) and the key itself, so the table names no key a client chose. The answer kept for a key
may hold a token shown once (``POST /chases`` answers with the Keeper's, ``POST .../tokens``
with a player's), and tokens are otherwise stored only hashed: so the answer is sealed with
AES-256-GCM under a key derived from the idempotency key, which only the client knows. The
database alone cannot show it; the same request with the same key can.
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import threading
from collections.abc import Sequence
from typing import Any

from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from eventsourcing.postgres import PostgresDatastore, PostgresRecorder
from eventsourcing.sqlite import SQLiteDatastore, SQLiteRecorder
from psycopg.sql import SQL, Identifier

from application.retries import ClaimLost

PURGE_EVERY = 256  # claims between deletions of expired keys, per process

COLUMNS = "key_hash, fingerprint, claim_id, claimed_at, expires_at, chase_id, version, answer"
# Taken when absent (the insert), expired, or claimed long ago with nothing recorded nor answered.
CLAIM = (
    "INSERT INTO {t} AS k (key_hash, fingerprint, claim_id, claimed_at, expires_at) VALUES ({p}, {p}, {p}, {p}, {p}) "
    "ON CONFLICT (key_hash) DO UPDATE SET fingerprint = excluded.fingerprint, claim_id = excluded.claim_id, "
    "claimed_at = excluded.claimed_at, expires_at = excluded.expires_at, chase_id = NULL, version = NULL, answer = NULL "
    "WHERE k.expires_at <= {p} OR (k.answer IS NULL AND k.version IS NULL AND k.claimed_at <= {p})"
)

# A request still running shows its claim alive; never one answered, or left unanswered after a
# failure (claimed_at 0: no longer in flight).
RENEW = "UPDATE {t} SET claimed_at = {p} WHERE key_hash = {p} AND claim_id = {p} AND answer IS NULL AND claimed_at > 0"


# PostgreSQL takes the key's write in a pipeline, its result unread until the commit: so the
# statement itself fails when it updated no row (the claim lapsed and another request took the
# key over), casting a text that names the fault to an integer; the recorder then raises
# ClaimLost (``claim_lost``). The text depends on the row count, so the planner cannot fail it early.
LOST = "idempotency claim lost"
RECORD_IN_PG = (
    "WITH recorded AS (UPDATE {0} SET chase_id = %s, version = %s WHERE key_hash = %s AND claim_id = %s RETURNING 1) "
    f"SELECT CASE WHEN count(*) = 1 THEN 1 ELSE ('{LOST}: ' || count(*))::int END FROM recorded"
)


def claim_lost(error: BaseException) -> bool:
    """Whether ``error`` (or what caused it) is PostgreSQL failing the key's write of RECORD_IN_PG."""
    e: BaseException | None = error
    for _ in range(8):
        if e is None:
            return False
        if LOST in str(e):
            return True
        e = e.__cause__
    return False


def key_hash(scope: str, key: str) -> str:
    return hashlib.sha256(f"chase-ledger idempotency key\0{scope}\0{key}".encode()).hexdigest()


def _sealing_key(scope: str, key: str) -> bytes:
    return hashlib.sha256(f"chase-ledger idempotency answer\0{scope}\0{key}".encode()).digest()


def seal(scope: str, key: str, answer: dict[str, Any]) -> bytes:
    """The answer (status, headers, body bytes, and its shape's version when it has one),
    encrypted and authenticated under the key."""
    plain = json.dumps({**answer, "body": base64.b64encode(answer["body"]).decode()})
    nonce = os.urandom(12)
    return nonce + AESGCM(_sealing_key(scope, key)).encrypt(nonce, plain.encode(), key_hash(scope, key).encode())


def unseal(scope: str, key: str, sealed: bytes | None) -> dict[str, Any] | None:
    if sealed is None:
        return None
    sealed = bytes(sealed)
    plain = json.loads(AESGCM(_sealing_key(scope, key)).decrypt(sealed[:12], sealed[12:], key_hash(scope, key).encode()))
    # Sealed before answers had versions: version 1 (api/idempotency.py upcasts it).
    return {"status": plain["status"], "headers": plain["headers"], "body": base64.b64decode(plain["body"]), "version": plain.get("version", 1)}


class _Purge:
    """Counts claims, saying when expired keys are due for deletion."""

    def __init__(self) -> None:
        self.claims = 0
        self.lock = threading.Lock()

    def due(self) -> bool:
        with self.lock:
            self.claims += 1
            return self.claims % PURGE_EVERY == 1


class SQLiteIdempotencyKeys(SQLiteRecorder):
    """Idempotency keys in the SQLite file."""

    def __init__(self, datastore: SQLiteDatastore) -> None:
        super().__init__(datastore)
        self.purge = _Purge()

    def construct_create_table_statements(self) -> list[str]:
        return [
            "CREATE TABLE IF NOT EXISTS idempotency_keys (key_hash TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, "
            "claim_id TEXT NOT NULL, claimed_at REAL NOT NULL, expires_at REAL NOT NULL, chase_id TEXT, version INTEGER, answer BLOB)",
            "CREATE INDEX IF NOT EXISTS idempotency_keys_expiry ON idempotency_keys (expires_at)",
        ]

    def claim(self, scope: str, key: str, fingerprint: str, claim_id: str, now: float, expires_at: float, stale_before: float) -> dict[str, Any]:
        h = key_hash(scope, key)
        with self.datastore.transaction(commit=True) as c:
            if self.purge.due():
                c.execute("DELETE FROM idempotency_keys WHERE expires_at <= ?", (now,))
            c.execute(CLAIM.format(t="idempotency_keys", p="?"), (h, fingerprint, claim_id, now, expires_at, now, stale_before))
            c.execute(f"SELECT {COLUMNS} FROM idempotency_keys WHERE key_hash = ?", (h,))
            row = dict(c.fetchone())
        return dict(row, answer=unseal(scope, key, row["answer"]))

    def record_in(self, cursor: Any, scope: str, key: str, claim_id: str, chase_id: str, version: int) -> None:
        cursor.execute(
            "UPDATE idempotency_keys SET chase_id = ?, version = ? WHERE key_hash = ? AND claim_id = ?",
            (chase_id, version, key_hash(scope, key), claim_id),
        )
        if cursor.sqlite_cursor.rowcount != 1:  # another request took the key over: its command stands, not this one
            raise ClaimLost("the claim on this Idempotency-Key lapsed and another request took it over")

    def answer(self, scope: str, key: str, claim_id: str, answer: dict[str, Any]) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.execute(
                "UPDATE idempotency_keys SET answer = ? WHERE key_hash = ? AND claim_id = ?",
                (seal(scope, key, answer), key_hash(scope, key), claim_id),
            )

    def release(self, scope: str, key: str, claim_id: str) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.execute("DELETE FROM idempotency_keys WHERE key_hash = ? AND claim_id = ? AND version IS NULL", (key_hash(scope, key), claim_id))

    def unanswered(self, scope: str, key: str, claim_id: str) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.execute(
                "UPDATE idempotency_keys SET claimed_at = 0 WHERE key_hash = ? AND claim_id = ? AND version IS NOT NULL AND answer IS NULL",
                (key_hash(scope, key), claim_id),
            )

    def renew(self, claims: Sequence[tuple[str, str, str]], now: float) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.executemany(RENEW.format(t="idempotency_keys", p="?"), [(now, key_hash(scope, key), claim_id) for scope, key, claim_id in claims])


class PostgresIdempotencyKeys(PostgresRecorder):
    """Idempotency keys in PostgreSQL."""

    def __init__(self, datastore: PostgresDatastore) -> None:
        super().__init__(datastore)
        self.purge = _Purge()
        self.table = SQL("{0}.{1}").format(Identifier(datastore.schema), Identifier("idempotency_keys"))
        self.sql_create_statements += [
            SQL(
                "CREATE TABLE IF NOT EXISTS {0} (key_hash text PRIMARY KEY, fingerprint text NOT NULL, claim_id text NOT NULL, "
                "claimed_at double precision NOT NULL, expires_at double precision NOT NULL, chase_id text, version bigint, answer bytea)"
            ).format(self.table),
            SQL("CREATE INDEX IF NOT EXISTS idempotency_keys_expiry ON {0} (expires_at)").format(self.table),
        ]

    def claim(self, scope: str, key: str, fingerprint: str, claim_id: str, now: float, expires_at: float, stale_before: float) -> dict[str, Any]:
        h = key_hash(scope, key)
        with self.datastore.transaction(commit=True) as c:
            if self.purge.due():
                c.execute(SQL("DELETE FROM {0} WHERE expires_at <= %s").format(self.table), (now,))
            c.execute(SQL(CLAIM.format(t="{t}", p="%s")).format(t=self.table), (h, fingerprint, claim_id, now, expires_at, now, stale_before))
            c.execute(SQL(f"SELECT {COLUMNS} FROM {{0}} WHERE key_hash = %s").format(self.table), (h,))
            row = dict(c.fetchone())
        return dict(row, answer=unseal(scope, key, row["answer"]))

    def record_in(self, cursor: Any, scope: str, key: str, claim_id: str, chase_id: str, version: int) -> None:
        cursor.execute(SQL(RECORD_IN_PG).format(self.table), (chase_id, version, key_hash(scope, key), claim_id))

    def answer(self, scope: str, key: str, claim_id: str, answer: dict[str, Any]) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.execute(
                SQL("UPDATE {0} SET answer = %s WHERE key_hash = %s AND claim_id = %s").format(self.table),
                (seal(scope, key, answer), key_hash(scope, key), claim_id),
            )

    def release(self, scope: str, key: str, claim_id: str) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.execute(SQL("DELETE FROM {0} WHERE key_hash = %s AND claim_id = %s AND version IS NULL").format(self.table), (key_hash(scope, key), claim_id))

    def unanswered(self, scope: str, key: str, claim_id: str) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.execute(
                SQL("UPDATE {0} SET claimed_at = 0 WHERE key_hash = %s AND claim_id = %s AND version IS NOT NULL AND answer IS NULL").format(self.table),
                (key_hash(scope, key), claim_id),
            )

    def renew(self, claims: Sequence[tuple[str, str, str]], now: float) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.executemany(SQL(RENEW.format(t="{t}", p="%s")).format(t=self.table), [(now, key_hash(scope, key), claim_id) for scope, key, claim_id in claims])
