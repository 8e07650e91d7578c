"""The SQLite event recorder: a command's views (and other writes along) in its events' transaction.

eventsourcing's recorder commits a command's events in a transaction of their own; the views
were then written in a second one, and on SQLite, where writers take turns on one lock, waiting
for that second turn was the largest cost of a command beyond the floor (bench/http_profile.py).
This recorder makes the writes handed to ``save(..., along=...)`` (application/ports.py
``AlongWrite``) in the transaction that inserts the events: one commit per command, or one for
the commands that waited meanwhile (sqlite_write_groups.py: each in a savepoint of its own).

The lock is held from the first insert to the commit, and every statement in between lets go
of Python's GIL and waits to take it back from the process's other threads: so the writes along
are encoded before the transaction opens, and a command alone takes no savepoint. When the store
refuses an optional write (the views), the command's writes are rolled back and its events
recorded again without it, and the write is told why (the read side then sets the chase aside):
a refused view never loses or fails the command's events.

Reads of a chase's events (three a command: the runner's, and the affordances') and a
command's write go on a connection of the thread's own, outside eventsourcing's connection
pool: taking a connection from the pool and putting it back cost more than the query (locks,
conditions and a semaphore, contended by every thread of the process). A file in WAL mode lets
any number of connections read beside the one writer, each statement seeing every commit
before it; writers take turns (``_take_turn``). An in-memory database has one connection,
shared through the pool as before. Every connection keeps its statements prepared (sqlite_connections.py).
"""
from __future__ import annotations

import fcntl
import functools
import logging
import os
import sqlite3
import threading
import weakref
from typing import Any, Callable, Sequence
from uuid import UUID

from eventsourcing.persistence import (
    ConnectionPoolClosedError,
    ConnectionUnavailableError,
    StoredEvent,
)
from eventsourcing.sqlite import (
    SQLITE3_DEFAULT_LOCK_TIMEOUT,
    SQLiteApplicationRecorder,
    SQLiteConnection,
    SQLiteCursor,
    SQLiteDatastore,
    SQLiteTransaction,
)

from infrastructure.sqlite_connections import connect
from infrastructure.store_refusals import BUSY, refusal
from infrastructure.sqlite_write_groups import (
    Write,
    WriteGroups,
    translated,
    write_each,
)

log = logging.getLogger(__name__)


def _close_quietly(fd: int) -> None:
    try:
        os.close(fd)
    except OSError:  # (the process is ending: nothing more to do)
        pass


class _Refused(Exception):
    """An optional write the store refused: the events go again without it."""


def _as_raised(error: BaseException) -> BaseException:
    """A failed write's error as a command is told it: the store busy as eventsourcing's pool
    says it (ConnectionUnavailableError: nothing recorded), a refused view as it is (it goes
    again without it), SQLite's own errors as eventsourcing's transaction translates them."""
    if isinstance(error, _Refused):
        return error
    if refusal(error) == BUSY:  # SQLite gave up waiting for its lock (SQLITE_BUSY, SQLITE_LOCKED)
        busy = ConnectionUnavailableError(f"the store is busy: {error}")
        busy.__cause__ = error
        return busy
    return translated(error)


class SQLiteChaseRecorder(SQLiteApplicationRecorder):
    """Records events, and the writes that go along with them, in one transaction."""

    def __init__(self, datastore: SQLiteDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        # Every connection the pool makes from now on (the first is made when the tables are
        # created, after this), and this recorder's own, keeps its statements prepared.
        datastore.pool._create_connection = functools.partial(connect, datastore.pool)  # type: ignore[method-assign]
        self._own = threading.local()  # each thread's reading connection
        self._readers: weakref.WeakSet[SQLiteConnection] = weakref.WeakSet()  # (a thread's goes with it)
        self._readers_lock = threading.Lock()
        # This process's writers, one at a time, before the file lock: the pool's writer lock,
        # so that eventsourcing's own writers (which take it) wait for a command's write too.
        self._turn: Any = getattr(datastore.pool, "_writer_lock", None) or threading.Lock()
        self._turn_file: tuple[int, int, Any] | None = None  # (pid, descriptor, its closer): never across a fork
        self._groups = WriteGroups()  # this process's commands' writes, gathered while the turn is taken

    def close(self) -> None:
        """Closes the threads' reading connections (the pool closes its own)."""
        with self._readers_lock:
            readers, self._readers = list(self._readers), weakref.WeakSet()
        for conn in readers:
            conn.close()
        if not self._turn.acquire(timeout=self._patience()):  # a writer still at it: its descriptor goes with the recorder
            return
        try:
            if self._turn_file is not None and self._turn_file[0] == os.getpid() and self._turn_file[2] is not None:
                self._turn_file[2]()  # (a finalizer runs once: never again on a reused number)
            self._turn_file = None
        finally:
            self._turn.release()

    def _reader(self) -> SQLiteConnection | None:
        """This thread's reading connection; None for an in-memory database (the pool's)."""
        pool = self.datastore.pool
        if pool.is_sqlite_memory_mode:
            return None
        if pool.closed:
            raise ConnectionPoolClosedError
        conn = getattr(self._own, "conn", None)
        if conn is None or conn.closed or self._own.pid != os.getpid():  # (a connection never crosses a fork)
            conn = self._own.conn = pool._create_connection()
            self._own.pid = os.getpid()
            with self._readers_lock:
                self._readers.add(conn)
        return conn

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        along = tuple(kwargs.pop("along", None) or ())
        try:
            return self._insert_along(stored_events, along, kwargs)
        except _Refused as refused:
            needed = [w for w in along if not w.optional]
            notification_ids = self._insert_along(stored_events, needed, kwargs)
            for write in along:
                if write.optional:
                    write.drop(refused.__cause__ or refused)
            return notification_ids

    def _take_turn(self) -> int | None:
        """One command's write at a time: in this process, on the pool's writer lock (which
        eventsourcing's own writers take, the projector's and the stores'), and across the
        processes sharing the file, on ``<db>.writers``. SQLite's own lock makes a writer that
        finds it taken sleep and try again (1, 2, 5, 10 ms ...): the turn went unused while every
        other writer slept. A lock file taken with ``flock`` wakes the next writer the moment the
        last one commits, in the kernel, without the GIL. Where the lock file cannot be opened
        (another account's, a read-only folder), SQLite's own lock alone keeps the processes'
        writes apart, as before. Returns the descriptor locked, for ``_end_turn``.

        The wait for this process's turn is bounded by SQLite's own lock timeout (``_patience``),
        not the pool's: a writer here queues behind the one waiting on another process's turn,
        and gives up as SQLite would have, the store busy (ConnectionUnavailableError, nothing
        recorded). The ``flock`` itself is not timed (the kernel has no timed flock): only one
        thread a process waits in it, for another process's one transaction, whose statements
        SQLite bounds by that same timeout."""
        if not self._turn.acquire(timeout=self._patience()):
            raise ConnectionUnavailableError("the store is busy: timed out waiting for this process's turn to write")
        try:
            fd = self._turn_descriptor()  # (under the turn: close() cannot take it away meanwhile)
            if fd is not None:
                fcntl.flock(fd, fcntl.LOCK_EX)
        except BaseException:
            self._turn.release()
            raise
        return fd

    def _end_turn(self, fd: int | None) -> None:
        try:
            if fd is not None:
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            self._turn.release()

    def _patience(self) -> float:
        """Seconds a writer waits for its turn: what SQLite lets it wait for its lock (sqlite_connections.py)."""
        return self.datastore.pool.lock_timeout or SQLITE3_DEFAULT_LOCK_TIMEOUT

    def _turn_descriptor(self) -> int | None:
        """This process's descriptor of ``<db>.writers`` (read-only: ``flock`` needs no more),
        made with the database file's permissions and owner, as SQLite makes its -wal file.
        Called holding the turn, which keeps one descriptor a process."""
        turn = self._turn_file
        if turn is None or turn[0] != os.getpid():
            database = self.datastore.pool.db_name.removeprefix("file:").split("?")[0]
            try:
                made = os.stat(database)
                fd = os.open(database + ".writers", os.O_RDONLY | os.O_CREAT | os.O_CLOEXEC, made.st_mode & 0o666)
                if os.geteuid() == 0 and os.fstat(fd).st_uid != made.st_uid:
                    os.fchown(fd, made.st_uid, made.st_gid)
            except OSError as e:
                log.warning("SQLite writers' lock file unusable (%s): writers take turns on SQLite's own lock", e)
                fd, closer = -1, None
            else:
                closer = weakref.finalize(self, _close_quietly, fd)
            turn = self._turn_file = (os.getpid(), fd, closer)
        return None if turn[1] < 0 else turn[1]

    def _insert_along(self, stored_events: Sequence[StoredEvent], along: Sequence[Any], kwargs: dict[str, Any]) -> Sequence[int] | None:
        if self.datastore.pool.is_sqlite_memory_mode:  # its one connection, through the pool
            with self.datastore.transaction(commit=True) as c:
                notification_ids = self._send(c, stored_events, along, kwargs)
        else:
            # On this thread's own connection, as its reads: taking the pool's and putting it back
            # (a semaphore, a condition and two context managers a command) cost more than the
            # inserts. The pool's writers still wait for this one, on the writer lock (_take_turn).
            # Writes that wait meanwhile go in with the next (infrastructure/sqlite_write_groups.py).
            notification_ids = self._groups.write(Write(stored_events, along, kwargs), self._lead, self._patience())
        for write in along:  # committed
            write.receive()
        return notification_ids

    def _lead(self, leader: Write, take: Callable[[Write], list[Write]]) -> None:
        """Takes this process's turn, then the writes waiting (``take``: ``leader`` first) and
        writes them on this thread's connection: one alone as it is, more in one transaction,
        each in a savepoint (sqlite_write_groups.py)."""
        conn = self._reader()
        fd = self._take_turn()
        try:
            group = take(leader)
            if len(group) == 1:
                leader.result = self._write(conn, self._send, *leader.args)
            else:
                self._write(conn, write_each, group, _as_raised, self._send)
        finally:
            self._end_turn(fd)

    def _write(self, conn: SQLiteConnection, send: Callable[..., Any], *args: Any) -> Any:
        """A transaction on the thread's connection. eventsourcing's transaction
        does not roll back a COMMIT that failed (SQLITE_BUSY, a constraint checked at commit):
        the connection stayed in it, and the thread's next command read that old snapshot or
        failed to BEGIN. A failed write leaves nothing open here; the store busy is said as
        eventsourcing's pool says it (ConnectionUnavailableError: nothing recorded)."""
        try:
            with SQLiteTransaction(conn, commit=True) as c, c:
                return send(c, *args)
        except BaseException as e:
            self._settle(conn)
            raised = _as_raised(e)
            if raised is e:
                raise
            raise raised from e

    def _settle(self, conn: SQLiteConnection) -> None:
        """Rolls back what a failed write left open; a connection that cannot is closed, and
        the thread's next command makes a fresh one (``_reader``)."""
        try:
            if conn._sqlite_conn.in_transaction:
                conn.rollback()
        except sqlite3.Error as e:
            log.warning("SQLite connection left in a failed transaction (%s): closed, a fresh one is made", e)
            conn.close()

    def _send(self, c: SQLiteCursor, stored_events: Sequence[StoredEvent], along: Sequence[Any], kwargs: dict[str, Any]) -> Sequence[int] | None:
        notification_ids = self._insert_events(c, stored_events, **kwargs)
        for write in along:
            try:
                write.send(c)
            except Exception as e:
                if write.optional and refusal(e) is None:  # (a full disk is no fault of the views: the command waits for room)
                    raise _Refused() from e
                raise
        return notification_ids

    def select_events(
        self, originator_id: UUID | str, *, gt: int | None = None, lte: int | None = None, desc: bool = False, limit: int | None = None,
    ) -> Sequence[StoredEvent]:
        """eventsourcing's query, as one statement in autocommit: without its BEGIN and ROLLBACK,
        which cost every command two more trips into SQLite (each command first asks for the
        events saved after the version it has cached, application/runner.py)."""
        statement = self.select_events_statement
        params: list[Any] = [originator_id.hex if isinstance(originator_id, UUID) else originator_id]
        if gt is not None:
            statement += "AND originator_version>? "
            params.append(gt)
        if lte is not None:
            statement += "AND originator_version<=? "
            params.append(lte)
        statement += "ORDER BY originator_version " + ("DESC " if desc else "ASC ")
        if limit is not None:
            statement += "LIMIT ? "
            params.append(limit)
        conn = self._reader()
        if conn is None:
            with self.datastore.get_connection(commit=False) as pooled:
                return self._select(pooled, statement, params)
        return self._select(conn, statement, params)

    def _select(self, conn: SQLiteConnection, statement: str, params: list[Any]) -> list[StoredEvent]:
        c = conn.cursor()
        try:
            c.execute(statement, params)
            rows = c.fetchall()
        finally:
            c.sqlite_cursor.close()
        return [StoredEvent(self.convert_originator_id(r["originator_id"]), r["originator_version"], r["topic"], r["state"]) for r in rows]
