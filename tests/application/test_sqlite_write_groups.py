"""Writes that wait while another process has the writers' turn go in together once it is free
(infrastructure/sqlite_write_groups.py): one commit, and each command still gets its own
outcome: recorded, lost to a rival (IntegrityError), or recorded without the views the store
refused."""
from __future__ import annotations

import multiprocessing
import sqlite3
import threading
import time
from uuid import uuid4

import pytest
from eventsourcing.persistence import (
    ConnectionUnavailableError,
    IntegrityError,
    StoredEvent,
)

from infrastructure.bootstrap import build_ledger
from infrastructure.sqlite_write_groups import Write, WriteGroups
from tests.application.test_sqlite_writers_turn import _hold_the_writers_turn


class RefusedViews:
    """An optional write along with the events, which the store refuses."""

    optional = True

    def __init__(self):
        self.dropped = None

    def send(self, cursor):
        cursor.execute("INSERT INTO no_such_table VALUES (1)")

    def receive(self):
        raise AssertionError("a refused write is never received")

    def drop(self, error):
        self.dropped = error


def event(originator, version=1):
    return StoredEvent(originator_id=originator, originator_version=version, topic="tests:Written", state=b"{}")


def ledger_written_once(database, **settings):
    """A ledger on the SQLite file ``database``, its first write made (the lock file is there)."""
    ledger = build_ledger({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(database), **settings})
    ledger.recorder.insert_events([event(uuid4())])
    return ledger


def test_writes_waiting_for_another_process_are_committed_together_each_with_its_own_outcome(tmp_path):
    # Given a ledger on a SQLite file, its first write made (the lock file is there)
    database = tmp_path / "chase.sqlite3"
    ledger = ledger_written_once(database, SQLITE_LOCK_TIMEOUT="30")
    recorder = ledger.recorder
    turns = []
    take_turn = recorder._take_turn
    recorder._take_turn = lambda: turns.append(1) or take_turn()
    # And another process in the middle of its write
    forked = multiprocessing.get_context("fork")
    held, release = forked.Event(), forked.Event()
    other = forked.Process(target=_hold_the_writers_turn, args=(f"{database}.writers", held, release))
    other.start()
    assert held.wait(30)
    x, y, z, w = uuid4(), uuid4(), uuid4(), uuid4()
    refused = RefusedViews()
    outcomes = {}

    def write(name, events, **kwargs):
        try:
            outcomes[name] = recorder.insert_events(events, **kwargs)
        except Exception as e:
            outcomes[name] = e

    try:
        # When four commands of this process write meanwhile: one that will have the turn, two
        # rivals recording the same version of one chase, and one whose views the store refuses
        threads = [threading.Thread(target=write, args=("first", [event(x)]))]
        threads[0].start()
        time.sleep(0.2)  # (the first waits on the other process's turn; the rest wait behind it)
        threads += [
            threading.Thread(target=write, args=("rival one", [event(y)])),
            threading.Thread(target=write, args=("rival two", [event(y)])),
            threading.Thread(target=write, args=("refused views", [event(z), event(z, 2)]), kwargs={"along": [refused]}),
        ]
        for thread in threads[1:]:
            thread.start()
        time.sleep(0.2)
        assert not outcomes  # all waiting
        # And the other process's write is done
        release.set()
        for thread in threads:
            thread.join(30)
    finally:
        release.set()
        other.join(30)
    # Then they went in with one turn of the writers' lock, and the one refused went again without its views
    assert len(turns) == 2
    # And the first and one rival are recorded, each told its place in the log
    rivals = [outcomes["rival one"], outcomes["rival two"]]
    assert isinstance(outcomes["first"], list) and len(outcomes["first"]) == 1
    assert sum(isinstance(o, list) for o in rivals) == 1
    # And the other rival lost the race, as when it writes alone
    assert sum(isinstance(o, IntegrityError) for o in rivals) == 1
    # And the command whose views were refused has its events recorded without them, and is told why
    assert isinstance(outcomes["refused views"], list) and len(outcomes["refused views"]) == 2
    assert "no_such_table" in str(refused.dropped)
    # And every recorded event is in the log once, in order of the places given
    recorded = [n for o in (outcomes["first"], *rivals, outcomes["refused views"]) if isinstance(o, list) for n in o]
    assert len(set(recorded)) == 4
    assert [len(recorder.select_events(o)) for o in (x, y, z, w)] == [1, 1, 2, 0]
    ledger.close()


def test_a_write_waiting_longer_than_sqlite_would_is_answered_store_busy():
    # Given a process whose writer has the turn and does not let it go
    groups = WriteGroups()
    has_turn, let_go = threading.Event(), threading.Event()

    def slow_lead(leader, take):
        has_turn.set()
        let_go.wait(30)
        for write in take(leader):
            write.result = "written"

    first = threading.Thread(target=groups.write, args=(Write(), slow_lead, 30))
    first.start()
    assert has_turn.wait(30)
    # When another write waits behind it for longer than its patience
    with pytest.raises(ConnectionUnavailableError, match="busy"):
        groups.write(Write(), slow_lead, 0.1)
    # Then it gave up without being written, and the next write after the first is written
    let_go.set()
    first.join(30)
    assert groups.write(Write(), slow_lead, 30) == "written"


def test_when_the_turn_never_comes_only_the_leader_gives_up_and_the_next_leads():
    # Given a writer of this process that will get no turn, and another waiting behind it
    groups = WriteGroups()
    tried, go_on = threading.Event(), threading.Event()
    tries = []

    def lead(leader, take):
        tries.append(threading.current_thread().name)
        if len(tries) == 1:
            tried.set()
            go_on.wait(30)
            raise ConnectionUnavailableError("the store is busy: no turn")
        for write in take(leader):
            write.result = "written"

    outcomes = {}

    def write(name):
        try:
            outcomes[name] = groups.write(Write(), lead, 30)
        except ConnectionUnavailableError as e:
            outcomes[name] = e

    leader = threading.Thread(target=write, args=("leader",), name="leader")
    leader.start()
    assert tried.wait(30)
    follower = threading.Thread(target=write, args=("follower",), name="follower")
    follower.start()
    time.sleep(0.1)
    # When the leader gives up
    go_on.set()
    for thread in (leader, follower):
        thread.join(30)
    # Then only it is answered busy; the one waiting took the lead and was written
    assert isinstance(outcomes["leader"], ConnectionUnavailableError)
    assert outcomes["follower"] == "written"
    assert tries == ["leader", "follower"]


def _group_of(recorder, database, writes):
    """Each of ``writes`` (name, events) sent from a thread of its own while another process has
    the writers' turn, then the turn let go: they go in as one group. Their outcomes by name."""
    forked = multiprocessing.get_context("fork")
    held, release = forked.Event(), forked.Event()
    other = forked.Process(target=_hold_the_writers_turn, args=(f"{database}.writers", held, release))
    other.start()
    assert held.wait(30)
    outcomes = {}

    def write(name, events):
        try:
            outcomes[name] = recorder.insert_events(events)
        except Exception as e:
            outcomes[name] = e

    threads = [threading.Thread(target=write, args=w) for w in writes]
    try:
        for thread in threads:
            thread.start()
            time.sleep(0.1)  # (in order: the first waits on the other process, the rest behind it)
    finally:
        release.set()
        for thread in threads:
            thread.join(30)
        other.join(30)
    return outcomes


def test_when_sqlites_own_lock_is_anothers_the_group_is_told_busy_after_one_wait(tmp_path):
    # Given a ledger on a SQLite file that waits a second for SQLite's lock
    database = tmp_path / "chase.sqlite3"
    ledger = ledger_written_once(database, SQLITE_LOCK_TIMEOUT="1")
    recorder = ledger.recorder
    sent = []
    send = recorder._send
    recorder._send = lambda *args, **kwargs: sent.append(1) or send(*args, **kwargs)
    # And a writer outside the turn (a tool, another process's projector) holding SQLite's lock
    outsider = sqlite3.connect(str(database), isolation_level=None)
    outsider.execute("BEGIN IMMEDIATE")
    try:
        # When three commands' writes go in as one group
        outcomes = _group_of(recorder, database, [(name, [event(uuid4())]) for name in ("one", "two", "three")])
    finally:
        outsider.rollback()
        outsider.close()
    # Then each is answered "store busy", and only the first waited for the lock: the others
    # were not sent, to wait as long again
    assert all(isinstance(o, ConnectionUnavailableError) for o in outcomes.values()), outcomes
    assert len(sent) == 1
    # And no two threads were given the same exception to raise
    assert len({id(o) for o in outcomes.values()}) == 3
    ledger.close()


def test_an_error_that_undoes_the_whole_transaction_fails_the_group_with_its_own_cause(tmp_path):
    # Given a ledger on a SQLite file with room for a little more than it holds
    database = tmp_path / "chase.sqlite3"
    ledger = ledger_written_once(database)
    recorder = ledger.recorder
    with sqlite3.connect(str(database)) as c:
        pages = c.execute("PRAGMA page_count").fetchone()[0]
    reader = recorder._reader

    def with_little_room():
        connection = reader()
        connection._sqlite_conn.execute(f"PRAGMA max_page_count = {pages + 2}")
        return connection
    recorder._reader = with_little_room
    small, big = uuid4(), uuid4()
    # When a small write and one too big for the room left go in as one group
    outcomes = _group_of(recorder, database, [("small", [event(small)]), ("big", [StoredEvent(big, 1, "tests:Written", b"x" * 200_000)])])
    # Then both fail with the store's own reason (the disk is full), and neither is recorded
    assert all("full" in str(o) for o in outcomes.values()), outcomes
    assert recorder.select_events(small) == [] and recorder.select_events(big) == []
    ledger.close()
