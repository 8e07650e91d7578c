"""Commands on a SQLite file take turns on a lock file beside it (``<db>.writers``,
infrastructure/sqlite_recorder.py); where that file cannot be made, SQLite's own lock still
keeps them apart and no command fails for it."""
from __future__ import annotations

import os
import stat
from uuid import UUID

from application.dice import DiceChoice
from infrastructure.bootstrap import build_ledger


def sqlite_ledger(path):
    return build_ledger({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)})


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
