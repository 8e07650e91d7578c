"""The PostgreSQL event recorder: a command's views (and other writes along) in its events' transaction.

eventsourcing's recorder commits a command's events in a transaction of their own (the events
table locked, NOTIFY, the insert); the views were then written in a second one. This recorder
sends the writes handed to ``save(..., along=...)`` (application/ports.py ``AlongWrite``) in
the same transaction as the insert: one commit and one round trip per command (the stock
recorder takes two for the events alone). A command's usual writes (its events and its chase's
views) are one statement, a call of ``RECORD_FUNCTION``; other writes along (an idempotency
key, undo marks, a write the stand-in cursor ``FoldedWrites`` cannot take), and every write of
a process that found the function missing, go with BEGIN, the lock, the insert and its NOTIFY
(``_insert_notifying``) and COMMIT in one pipeline.

When the transaction fails, the error says why. The events' own unique key (a concurrent
command recorded that version first) and a store away or busy are raised as they were. Any
other error is a write along that the store refused (PostgreSQL's jsonb refuses ``\\u0000``, a
btree index a row over its size: class 54, an OperationalError that no retry would get past):
the events are then recorded again without the optional writes, which are told why (the read
side sets the chase aside), so a refused view never loses or fails the command's events.

A chase's events are read three times a command (the runner's, and the affordances'): the
query's text is composed once for each shape of query (eventsourcing composed it anew for every
read, and psycopg rendered it anew), and sent with the parameters alone; likewise the table lock
and the NOTIFY that go before each insert.
"""
from __future__ import annotations

import logging
import os
from typing import Any, ClassVar, Sequence
from uuid import UUID

import psycopg
from eventsourcing.persistence import InterfaceError, OperationalError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder
from eventsourcing.utils import retry
from psycopg.sql import SQL, Composable, Identifier, Literal

from application.retries import ClaimLost
from infrastructure import store_refusals
from infrastructure.idempotency_store import claim_lost
from infrastructure.postgres_startup import STARTUP_SETTINGS, StartupOptions, lend_live_connections
from infrastructure.postgres_tables import lasting, over_a_limit, table
from infrastructure.postgres_view_sql import VIEW_TABLES, WRITE_VIEWS_WITH

log = logging.getLogger(__name__)

# A command's whole transaction as one statement, in autocommit (a statement is a transaction):
# its views (the CAS write of infrastructure/postgres_view_sql.py; none when NULL), then the
# events table's lock (LOCK TABLE, refused outside a transaction block, is let in a function),
# the NOTIFY and the insert. One message and no BEGIN, COMMIT or pipeline: a pipeline's five
# statements each cost this process a psycopg execute and a send to the socket.
RECORD_FUNCTION = """
CREATE OR REPLACE FUNCTION {function}(views text, events {stored_event_type}[])
RETURNS TABLE (nid bigint, views_written boolean) LANGUAGE plpgsql AS $record$
DECLARE
    written_now boolean := false;
BEGIN
    IF views IS NOT NULL THEN
        {write_views}
        SELECT count(*) > 0 INTO written_now FROM written;
    END IF;
    PERFORM set_config('lock_timeout', {lock_timeout}, true);
    LOCK TABLE {events} IN EXCLUSIVE MODE;
    PERFORM pg_notify({channel}, '');
    RETURN QUERY INSERT INTO {events} AS t (originator_id, originator_version, topic, state)
        SELECT e.originator_id, e.originator_version, e.topic, e.state FROM unnest(events) AS e
        RETURNING t.notification_id, written_now;
END
$record$
"""


class FoldedWrites:
    """Stands for the transaction's cursor while the writes along are sent, to learn whether
    they fit the recording function: one chase's views write does (the views store hands its
    parameter to ``fold_views``); anything else sent is noted, and the writes go in a pipeline."""

    def __init__(self) -> None:
        self.views: str | None = None
        self.views_written = False
        self.foldable = True

    def fold_views(self, param: str, foldable: bool = True) -> None:
        self.foldable = self.foldable and foldable and self.views is None
        self.views = param

    def __getattr__(self, name: str) -> Any:  # execute, executemany, connection, cursor ...
        self.foldable = False
        return self

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self


class PostgresChaseRecorder(PostgresApplicationRecorder):
    """Records events, and the writes that go along with them, in one transaction."""

    _selects: dict[tuple[bool, bool, bool, bool], bytes]
    _statements: dict[str, list[bytes]]
    startup_settings: ClassVar[dict[str, str]] = STARTUP_SETTINGS  # (none: PostgresChaseRecorderPlainStart)

    def __init__(self, datastore: Any, **kwargs: Any) -> None:
        # Before eventsourcing's recorder opens the pool (to register its types).
        self.startup_options = StartupOptions.start(datastore, self.startup_settings)
        if not datastore.pre_ping:  # (POSTGRES_PRE_PING checks every loan with a round trip already)
            lend_live_connections(datastore.pool)
        # The process that found the recording function missing (an older schema): its commands
        # go straight to the pipeline, not each through a failed call and an ERROR in the server's
        # log; tried again by a new process, or once the tables are created (``create_table``).
        self._function_missing_in: int | None = None
        super().__init__(datastore, **kwargs)
        self.record_function = table(datastore, f"{self.events_table_name}_record")
        self.sql_create_statements.append(SQL(RECORD_FUNCTION).format(
            function=self.record_function, stored_event_type=table(datastore, self.stored_event_type_name),
            write_views=SQL(WRITE_VIEWS_WITH).format(
                given=SQL("views"), unsynced=SQL(""), **{name: table(datastore, t) for name, t in VIEW_TABLES.items()}),
            lock_timeout=Literal(f"{datastore.lock_timeout}s"), events=table(datastore, self.events_table_name),
            channel=Literal(self.channel_name),
        ))

    def _rendered(self, curs: Any, name: str, compose: Any) -> list[bytes]:
        """Statements that never change, rendered once (psycopg renders a composed one per execute)."""
        statements = self.__dict__.setdefault("_statements", {})
        rendered = statements.get(name)
        if rendered is None:
            rendered = statements[name] = [s.as_bytes(curs.connection) if isinstance(s, Composable) else s for s in compose()]
        return rendered

    def create_table(self) -> None:
        super().create_table()
        self._function_missing_in = None  # made again: tried again

    def _lock_table(self, curs: Any) -> None:
        # eventsourcing's SET LOCAL lock_timeout and LOCK TABLE: for this transaction alone.
        for statement in self._rendered(curs, "lock", lambda: self.lock_table_statements):
            curs.execute(statement, prepare=True)

    def _notify_channel(self, curs: Any) -> None:
        curs.execute(self._rendered(curs, "notify", lambda: [SQL("NOTIFY {0}").format(Identifier(self.channel_name))])[0])

    def _insert_notifying(self) -> list[Composable]:
        """eventsourcing's insert and its NOTIFY as one statement (``pg_notify`` of the same
        channel, in a CTE that runs once): one statement fewer in every command's pipeline, where
        each costs this process some 100,000 instructions (counted with callgrind)."""
        return [SQL(
            "WITH notified AS (SELECT pg_notify({channel}, '')) "
            "INSERT INTO {schema}.{table} AS t (originator_id, originator_version, topic, state) "
            "SELECT originator_id, originator_version, topic, state FROM unnest(%s::{schema}.{stored_event_type}[]) CROSS JOIN notified "
            "RETURNING notification_id"
        ).format(
            channel=Literal(self.channel_name), schema=Identifier(self.datastore.schema), table=Identifier(self.events_table_name),
            stored_event_type=Identifier(self.stored_event_type_name),
        )]

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def select_events(
        self, originator_id: UUID | str, *, gt: int | None = None, lte: int | None = None, desc: bool = False, limit: int | None = None,
    ) -> Sequence[StoredEvent]:
        """eventsourcing's query, its text composed once per shape (which bounds it has)."""
        shape = (gt is not None, lte is not None, desc, limit is not None)
        params = [originator_id] + [p for p in (gt, lte, limit) if p is not None]
        with self.datastore.get_connection() as conn:
            selects = self.__dict__.setdefault("_selects", {})
            query = selects.get(shape)
            if query is None:
                statement = self.select_events_statement
                statement += SQL(" AND originator_version > %s") if shape[0] else SQL("")
                statement += SQL(" AND originator_version <= %s") if shape[1] else SQL("")
                statement += SQL(" ORDER BY originator_version DESC") if desc else SQL(" ORDER BY originator_version ASC")
                statement += SQL(" LIMIT %s") if shape[3] else SQL("")
                query = selects[shape] = statement.as_bytes(conn)
            with conn.cursor() as curs:
                curs.execute(query, params, prepare=True)
                return [
                    StoredEvent(originator_id=row["originator_id"], originator_version=row["originator_version"], topic=row["topic"], state=bytes(row["state"]))
                    for row in curs.fetchall()
                ]

    # Tried again as eventsourcing does, but never when the store refuses, nor when the
    # connection was lost: a COMMIT may have been made (store_refusals.retried says why).
    @store_refusals.retried
    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        try:
            return self._insert_events_along(stored_events, **kwargs)
        except Exception as e:
            if claim_lost(e):  # the request's idempotency key was taken over: nothing recorded
                raise ClaimLost(str(e)) from e
            raise

    def _insert_events_along(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        along = tuple(kwargs.pop("along", None) or ())
        if not stored_events or kwargs.get("tracking") is not None or self.datastore.enable_db_functions:
            return super().insert_events(stored_events, **kwargs)
        last_try = not any(w.optional for w in along)
        folded = self._folded(along)
        notification_ids, refused = self._record(stored_events, along, folded, last_try) if folded is not None else (None, None)
        if isinstance(refused, psycopg.errors.UndefinedFunction):  # (a database not given the function)
            self._function_missing_in, folded = os.getpid(), None
            log.warning("the recording function is missing: this process records commands without it until it restarts (%s)", refused)
        if folded is None:
            notification_ids, refused = self._insert_along(stored_events, along, last_try)  # the writes sent again, to its cursors
        if refused is None:
            return notification_ids
        # Again without the optional writes: an error now is not theirs, and is raised.
        notification_ids, _ = self._insert_along(stored_events, [w for w in along if not w.optional], last_try=True)
        for write in along:
            if write.optional:
                write.drop(refused)
        return notification_ids

    def _folded(self, along: Sequence[Any]) -> FoldedWrites | None:
        """The writes along, sent to the stand-in cursor; None when they do not all fit the
        recording function (or it is missing): they then go in the pipeline."""
        if self._function_missing_in is not None and self._function_missing_in == os.getpid():
            return None
        folded = FoldedWrites()
        try:
            for write in along:
                write.send(folded)
        except Exception:  # noqa: BLE001 - a write the stand-in cannot take: sent again in the pipeline, which answers for it
            return None
        return folded if folded.foldable else None

    def _insert_along(self, stored_events: Sequence[StoredEvent], along: Sequence[Any], last_try: bool) -> tuple[Sequence[int] | None, BaseException | None]:
        """Insert the events and send the writes in one pipelined transaction; the notification
        ids, or the error that refused a write (raised on the last try, and when the events'
        conflict or the store away or busy caused it).

        BEGIN to COMMIT go in one pipeline with one sync: one round trip, and the events table's
        lock (which makes every writer take turns) is held only while the server inserts and
        commits, never across a wait for this process (the stock recorder syncs before its
        COMMIT) nor while the writes along run: they go first. They wait for nothing that waits
        for the events table (the projector and rebuilds never lock it), so no deadlock; two
        commands on one chase meet on its view row, and the second then loses the events' race
        as it would have. After an error the server skipped the rest, COMMIT included, and the
        transaction is rolled back here."""
        exc: BaseException | None = None
        notification_ids: Sequence[int] | None = None
        with self.datastore.get_connection() as conn:
            curs = conn.cursor()
            try:
                with conn.pipeline():
                    curs.execute("BEGIN")
                    for write in along:  # before the events table's lock: it is held no longer for them
                        write.send(conn.cursor())
                    self._lock_table(curs)
                    curs.execute(self._rendered(curs, "insert", self._insert_notifying)[0], (
                        [self.construct_pg_stored_event(e.originator_id, e.originator_version, e.topic, e.state) for e in stored_events],
                    ), prepare=True)
                    conn.cursor().execute("COMMIT")
                notification_ids = self._fetch_ids_after_insert_events(curs, stored_events)
            except Exception as e:  # noqa: BLE001 - raised or answered below
                exc = e
                if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                    conn.execute("ROLLBACK")
            if exc is not None and (last_try or self._not_along(exc)):
                raise lasting(exc)  # inside get_connection: translated to eventsourcing's errors
        if exc is not None:
            return None, exc
        for write in along:  # committed
            write.receive()
        return notification_ids, None

    def _record(self, stored_events: Sequence[StoredEvent], along: Sequence[Any], folded: FoldedWrites, last_try: bool) -> tuple[Sequence[int] | None, BaseException | None]:
        """The events and the views folded into the recording function, in one statement; as
        ``_insert_along`` answers."""
        exc: BaseException | None = None
        with self.datastore.get_connection() as conn:
            curs = conn.cursor()
            statement = self._rendered(curs, "record", lambda: [SQL("SELECT nid, views_written FROM {0}(%s::text, %s::{1}[])").format(
                self.record_function, table(self.datastore, self.stored_event_type_name))])[0]
            try:
                rows = curs.execute(statement, (
                    folded.views,
                    [self.construct_pg_stored_event(e.originator_id, e.originator_version, e.topic, e.state) for e in stored_events],
                ), prepare=True).fetchall()
            except Exception as e:  # noqa: BLE001 - raised or answered below
                exc = e
            if exc is not None and (last_try or self._not_along(exc)) and not isinstance(exc, psycopg.errors.UndefinedFunction):
                raise lasting(exc)  # inside get_connection: translated to eventsourcing's errors
        if exc is not None:
            return None, exc
        folded.views_written = bool(rows and rows[0]["views_written"])
        for write in along:  # committed
            write.receive()
        return [row["nid"] for row in rows], None

    def _not_along(self, exc: BaseException) -> bool:
        """An error the writes along did not cause: the events' unique key, or the store away or busy."""
        if store_refusals.refusal(exc) is not None:  # (read-only too: no write goes in, with or without them)
            return True
        if isinstance(exc, psycopg.errors.UniqueViolation):
            return exc.diag.table_name == self.events_table_name
        if over_a_limit(exc):  # (an OperationalError, but no store busy: the write refused for good)
            return False
        return isinstance(exc, (psycopg.OperationalError, psycopg.InterfaceError, OperationalError, InterfaceError))


class PostgresChaseRecorderPlainStart(PostgresChaseRecorder):
    """The recorder whose connections start without settings (CHASE_LEDGER_POSTGRES_STARTUP_OPTIONS=off)."""

    startup_settings: ClassVar[dict[str, str]] = {}
