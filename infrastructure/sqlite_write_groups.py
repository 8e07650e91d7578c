"""Commands' writes that wait for the writers' turn go in with the one that has it: one commit
for them all (group commit), each command in a savepoint of its own.

SQLite has one writer at a time, and what a writer holds the turn for is mostly its COMMIT: the
WAL's sync to disk and then, before Python can let the turn go, the wait for the GIL, which the
process's other threads keep busy. With 16 clients on two workers a command's COMMIT took
1.4-2 ms under the turn against 0.3 ms alone (bench/http.py, timed under the turn), and the
writers of both processes queued behind it. A thread that finds its process's writers taken
hands its write to them and waits; the thread that takes the turn next writes every write
waiting, up to MOST, in one transaction: each in a savepoint, so a command that loses its race
(IntegrityError) or whose optional views are refused is rolled back alone and told so, while the
others are committed. Each waiting thread gets its own outcome: what its write returned, or what
it raised (translated as eventsourcing's transaction translates it).
"""
from __future__ import annotations

import copy
import sqlite3
import threading
from typing import Any, Callable

from eventsourcing.persistence import (
    ConnectionUnavailableError,
    DatabaseError,
    DataError,
    IntegrityError,
    InterfaceError,
    InternalError,
    NotSupportedError,
    OperationalError,
    PersistenceError,
    ProgrammingError,
)

MOST = 8  # writes in one transaction: a command's own statements take about 0.1 ms under the turn

# sqlite3's errors as eventsourcing's (eventsourcing/sqlite.py SQLiteTransaction.__exit__), the first match
_TRANSLATED = (
    (sqlite3.InterfaceError, InterfaceError), (sqlite3.DataError, DataError), (sqlite3.OperationalError, OperationalError),
    (sqlite3.IntegrityError, IntegrityError), (sqlite3.InternalError, InternalError), (sqlite3.ProgrammingError, ProgrammingError),
    (sqlite3.NotSupportedError, NotSupportedError), (sqlite3.DatabaseError, DatabaseError), (sqlite3.Error, PersistenceError),
)


def translated(error: BaseException) -> BaseException:
    """``error`` as eventsourcing's transaction would raise it."""
    for theirs, ours in _TRANSLATED:
        if isinstance(error, theirs):
            made = ours(error)
            made.__cause__ = error
            return made
    return error


class Write:
    """One command's write (``args``, for the writer); its outcome once committed."""

    __slots__ = ("args", "error", "group", "lead", "result", "settled")

    def __init__(self, *args: Any) -> None:
        self.args = args
        self.settled: threading.Event | None = None  # made when it has to wait
        self.lead = False  # to write the waiting writes itself
        self.group: list[Write] = []  # those it writes, when it leads
        self.result: Any = None
        self.error: BaseException | None = None

    def outcome(self) -> Any:
        if self.error is not None:
            raise self.error
        return self.result


class WriteGroups:
    """One process's writes, gathered while its writers' turn is taken."""

    def __init__(self, most: int = MOST) -> None:
        self.most = most
        self._lock = threading.Lock()
        self._waiting: list[Write] = []
        self._writing = False

    def write(self, write: Write, lead: Callable[[Write, Callable[[Write], list[Write]]], None], patience: float) -> Any:
        """``write``'s outcome. ``lead(write, take)`` takes the writers' turn, then ``take(write)``
        for the group (``write`` first), and gives each its result or error, or raises when none
        was recorded. It runs on this thread when no other of the process is writing, or when the
        one that was hands over to it. A write not yet taken into a group gives up after
        ``patience`` seconds, the store busy, as a writer that got no turn does."""
        with self._lock:
            self._waiting.append(write)
            leading = write.lead = not self._writing
            if not leading:
                write.settled = threading.Event()
            self._writing = True
        if not leading:
            self._wait_for_turn(write, patience)
            if not write.lead:
                return write.outcome()
        try:
            lead(write, self._take)
        except BaseException as e:
            if write.group:  # nothing of the group was recorded
                for other in write.group:
                    other.result, other.error = None, e if other is write else fresh(e)
            else:  # no turn: this write gives up, the next waiting takes the lead
                with self._lock:
                    self._waiting.remove(write)
                write.error = e
        finally:
            with self._lock:
                if self._waiting:
                    following = self._waiting[0]
                    following.lead = True
                    following.settled.set()  # type: ignore[union-attr]  # (a waiting write has one)
                else:
                    self._writing = False
            for other in write.group:
                if other is not write:
                    other.settled.set()  # type: ignore[union-attr]
        return write.outcome()

    def _take(self, leader: Write) -> list[Write]:
        """The group ``leader`` writes: those waiting, itself first, up to ``most``."""
        with self._lock:
            if len(self._waiting) <= self.most:
                leader.group, self._waiting = self._waiting, []
            else:
                leader.group = self._waiting[: self.most]
                del self._waiting[: self.most]
        return leader.group

    def _wait_for_turn(self, write: Write, patience: float) -> None:
        """Until ``write`` is written with a group, or told to lead one; the store busy when it is
        neither within ``patience``."""
        assert write.settled is not None
        if write.settled.wait(patience):
            return
        with self._lock:
            if not write.lead and write in self._waiting:
                self._waiting.remove(write)
                raise ConnectionUnavailableError("the store is busy: timed out waiting for this process's turn to write")
        write.settled.wait()  # being written in a group, or just told to lead: no giving up now


def write_each(c: Any, group: list[Write], as_raised: Callable[[BaseException], BaseException], send: Callable[..., Any]) -> None:
    """Each write of ``group`` (``send(c, *write.args)``) in a savepoint of the transaction of
    cursor ``c``: one that fails
    (a lost race, refused views) is rolled back alone and told why (``as_raised``); the others
    go on. An error after which SQLite rolled back the whole transaction (a full disk, an I/O
    error) fails the group with it: nothing of it stands. The store busy (SQLite's lock held by
    a writer outside the turn, such as another process's projector) can only meet the first
    write, the one that asks for the lock: the rest are told so too, not made to wait as long
    again one after another."""
    for n, write in enumerate(group):
        c.execute("SAVEPOINT command")
        try:
            write.result = send(c, *write.args)
        except Exception as e:
            if not c.sqlite_cursor.connection.in_transaction:
                raise
            c.execute("ROLLBACK TO command")
            write.result, write.error = None, as_raised(e)
            if isinstance(write.error, ConnectionUnavailableError):
                for rest in group[n + 1:]:
                    rest.result, rest.error = None, fresh(write.error)
                c.execute("RELEASE command")
                return
        c.execute("RELEASE command")


def fresh(error: BaseException) -> BaseException:
    """``error`` for another thread to raise: the same exception raised in several threads would
    gather every thread's traceback in one."""
    try:
        made = copy.copy(error)
    except Exception:  # noqa: BLE001 - an exception that cannot be copied is said in one that can
        made = PersistenceError(str(error))
    made.__cause__ = error
    return made
