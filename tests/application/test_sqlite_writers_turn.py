"""Commands on a SQLite file take turns on a lock file beside it (``<db>.writers``,
infrastructure/sqlite_recorder.py); where that file cannot be made, SQLite's own lock still
keeps them apart and no command fails for it. A command that gets no turn in time, or whose
commit the store refuses, is answered "store busy" and leaves its thread's connection usable."""
from __future__ import annotations

import fcntl
import multiprocessing
import os
import sqlite3
import stat
import threading
from uuid import UUID

import pytest
from eventsourcing.persistence import ConnectionUnavailableError

from api import create_app
from application.dice import DiceChoice
from infrastructure.bootstrap import build_ledger
from tests.conftest import ChaseClient

HARVEY = {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6}
FARMER = {"name": "Farmer", "role": "pursuer", "dex": 50, "con": 55, "mov": 7}
WIDOW = {"name": "Widow", "role": "pursuer", "dex": 45, "con": 50, "mov": 7}


def sqlite_ledger(path, **env):
    return build_ledger({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path), **env})


def _hold_the_writers_turn(lock_file, held, release):
    """Another process of the same deployment, in the middle of its write."""
    fd = os.open(lock_file, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    held.set()
    release.wait(60)
    os.close(fd)


def test_the_lock_file_is_made_with_the_database_files_permissions(tmp_path):
    # Given a ledger on a SQLite file that only its owner may read and write
    database = tmp_path / "chase.sqlite3"
    ledger = sqlite_ledger(database)
    try:
        os.chmod(database, 0o600)
        # When the Keeper starts a chase and rolls
        view, _ = ledger.start_chase("Behind a lock", dice="server")
        ledger.commands["coc7e"].roll_dice(UUID(view["chase_id"]), "1D6", dice=DiceChoice())
    finally:
        ledger.close()
    # Then the writers' lock file is there, no more open to others than the database itself
    assert stat.S_IMODE(os.stat(f"{database}.writers").st_mode) == 0o600


def test_commands_go_on_when_the_lock_file_cannot_be_made(tmp_path):
    # Given a SQLite file whose lock file's name is taken by a folder (as a file of another
    # account, or a read-only folder, would refuse it)
    database = tmp_path / "chase.sqlite3"
    (tmp_path / "chase.sqlite3.writers").mkdir()
    ledger = sqlite_ledger(database)
    try:
        # When the Keeper starts a chase and rolls twice
        view, _ = ledger.start_chase("No lock file", dice="server")
        chase_id = UUID(view["chase_id"])
        for _ in range(2):
            ledger.commands["coc7e"].roll_dice(chase_id, "1D6", dice=DiceChoice())
        # Then every roll is recorded
        assert len(ledger.rolls(chase_id)) == 2
        assert ledger.track(chase_id)["version"] == 3
    finally:
        ledger.close()


def test_a_command_that_gets_no_turn_while_another_process_writes_is_answered_store_busy(tmp_path):
    # Given the API on a SQLite file, whose writers wait for their turn as long as SQLite waits
    # for its lock (one second here), and a chase on it
    database = tmp_path / "chase.sqlite3"
    ledger = sqlite_ledger(database, SQLITE_LOCK_TIMEOUT="1")
    app = create_app(lambda: ledger)
    keeper = ChaseClient(app.test_client())
    keeper.create("Two processes")
    keeper.add(**HARVEY)
    # And another process holding the writers' turn
    forked = multiprocessing.get_context("fork")
    held, release = forked.Event(), forked.Event()
    other = forked.Process(target=_hold_the_writers_turn, args=(f"{database}.writers", held, release))
    other.start()
    adding = []
    try:
        assert held.wait(30)
        # When two participants are added at once from this process (one of them waits on the
        # other process, the other waits behind it)
        answers = {}

        def add(spec):
            client = ChaseClient(app.test_client())
            client.chase_id, client.http.token = keeper.chase_id, keeper.http.token
            answers[spec["name"]] = client.post("/participants", spec)

        adding += [threading.Thread(target=add, args=(spec,)) for spec in (FARMER, WIDOW)]
        for thread in adding:
            thread.start()
        while len(answers) < 1:  # the first answer: the one that gave up waiting
            adding[0].join(0.05)
        busy = next(iter(answers.values()))
        # Then it is answered 503 "store busy", to be retried, not a server error
        assert busy.status_code == 503, busy.get_json()
        assert busy.get_json()["type"] == "/problems/store-busy"
        assert busy.headers["Retry-After"] == "1"
    finally:
        # And once the other process's write is done, the one that waited for it is recorded
        release.set()
        other.join(30)
        for thread in adding:
            thread.join(30)
    assert sorted(r.status_code for r in answers.values()) == [201, 503]
    names = sorted(p["name"] for p in keeper.track()["participants"].values())
    added = [name for name, r in answers.items() if r.status_code == 201]
    assert names == sorted(["Harvey", *added])
    ledger.close()


def test_a_commit_the_store_refuses_leaves_the_threads_next_command_working(tmp_path):
    # Given a chase on a SQLite file, and a store that refuses this thread's next commit as busy
    ledger = sqlite_ledger(tmp_path / "chase.sqlite3")
    try:
        view, _ = ledger.start_chase("Refused once", dice="server")
        chase_id = UUID(view["chase_id"])
        connection = ledger.recorder._reader()

        def refuse_once():
            del connection.commit  # (the next one commits)
            refused = sqlite3.OperationalError("database is locked")
            refused.sqlite_errorcode = sqlite3.SQLITE_BUSY
            raise refused

        connection.commit = refuse_once
        # When the Keeper rolls, is told the store is busy, and rolls again
        roll = ledger.commands["coc7e"].roll_dice
        with pytest.raises(ConnectionUnavailableError):
            roll(chase_id, "1D6", dice=DiceChoice())
        roll(chase_id, "1D6", dice=DiceChoice())
        # Then the second roll is recorded, once, and the first not at all
        assert len(ledger.rolls(chase_id)) == 1
        assert ledger.track(chase_id)["version"] == 2
    finally:
        ledger.close()


def test_a_connection_that_cannot_roll_back_a_refused_commit_is_replaced(tmp_path):
    # Given a chase on a SQLite file, and this thread's connection, whose next commit and
    # rollback both fail (a disk gone away and back)
    ledger = sqlite_ledger(tmp_path / "chase.sqlite3")
    try:
        view, _ = ledger.start_chase("Broken connection", dice="server")
        chase_id = UUID(view["chase_id"])
        connection = ledger.recorder._reader()

        def fail(*_):
            raise sqlite3.OperationalError("disk I/O error")

        connection.commit = connection.rollback = fail
        # When the Keeper rolls, is refused, and rolls again
        roll = ledger.commands["coc7e"].roll_dice
        with pytest.raises(Exception, match="disk I/O error"):
            roll(chase_id, "1D6", dice=DiceChoice())
        roll(chase_id, "1D6", dice=DiceChoice())
        # Then the second roll is recorded, on a fresh connection, and the first not at all
        assert ledger.recorder._reader() is not connection
        assert len(ledger.rolls(chase_id)) == 1
        assert ledger.track(chase_id)["version"] == 2
    finally:
        ledger.close()
