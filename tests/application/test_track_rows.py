"""A big chase's command writes the participants' rows it changed, not its whole track view
(issue 12 part 6: infrastructure/track_rows.py), and the view read back is the whole view."""
from __future__ import annotations

import json
import sqlite3
from uuid import UUID

from infrastructure.bootstrap import build_ledger


def pursuer(n: int) -> dict[str, object]:
    return {"name": f"Pursuer {n}", "role": "pursuer", "dex": 40 + n, "con": 50, "mov": 7}


def watch_row_writes(path: str) -> sqlite3.Connection:
    """Every track row inserted or updated from now on, noted in ``row_writes``."""
    db = sqlite3.connect(path, isolation_level=None)
    db.executescript(
        "CREATE TABLE row_writes (participant_id TEXT);"
        "CREATE TRIGGER row_inserted AFTER INSERT ON track_rows BEGIN INSERT INTO row_writes VALUES (new.participant_id); END;"
        "CREATE TRIGGER row_updated AFTER UPDATE ON track_rows BEGIN INSERT INTO row_writes VALUES (new.participant_id); END;"
    )
    return db


def written(db: sqlite3.Connection) -> list[str]:
    found = [pid for (pid,) in db.execute("SELECT participant_id FROM row_writes")]
    db.execute("DELETE FROM row_writes")
    return found


def test_a_command_writes_the_rows_it_changed_and_the_view_reads_whole(tmp_path):
    env = {"SQLITE_DBNAME": str(tmp_path / "chase.sqlite3")}
    ledger = build_ledger(env)
    chase_id = UUID(ledger.create_chase("A pack of pursuers")["chase_id"])
    coc7e = ledger.commands["coc7e"]
    for n in range(5):
        coc7e.add_participant(chase_id, pursuer(n))
    db = watch_row_writes(env["SQLITE_DBNAME"])

    # Adding a sixth writes the sixth's row alone; the view read back has all six, in order.
    pid, view = coc7e.add_participant(chase_id, pursuer(5))
    assert written(db) == [pid]
    assert ledger.track(chase_id) == view and list(ledger.track(chase_id)["participants"])[-1] == pid

    # A roll that moves nobody writes no row.
    ledger.commands["coc7e"].roll_dice(chase_id, "1D6", purpose="flavour")
    assert written(db) == []

    # Undoing the roll and the addition takes the sixth's row away.
    ledger.history.undo(chase_id, 2)
    assert pid not in ledger.track(chase_id)["participants"] and len(ledger.track(chase_id)["participants"]) == 5
    assert db.execute("SELECT count(*) FROM track_rows WHERE chase_id = ?", (str(chase_id),)).fetchone() == (5,)

    # Another process, which did not write the rows it would build on, writes them all: the view
    # stays whole and right.
    other = build_ledger(env)
    other_pid, other_view = other.commands["coc7e"].add_participant(chase_id, pursuer(6))
    assert len(written(db)) == 6
    assert ledger.track(chase_id) == other_view and len(other_view["participants"]) == 6
    other.close()
    ledger.close()


def test_a_view_stored_whole_by_an_earlier_version_reads_and_is_stored_in_rows_by_the_next_command(tmp_path):
    env = {"SQLITE_DBNAME": str(tmp_path / "chase.sqlite3")}
    ledger = build_ledger(env)
    chase_id = UUID(ledger.create_chase("An old chase")["chase_id"])
    for n in range(3):
        ledger.commands["coc7e"].add_participant(chase_id, pursuer(n))
    before = ledger.track(chase_id)
    ledger.close()

    # As an earlier version stored it: the participants inside the one document, no rows.
    db = sqlite3.connect(env["SQLITE_DBNAME"], isolation_level=None)
    (doc,) = db.execute("SELECT doc FROM track_views WHERE chase_id = ?", (str(chase_id),)).fetchone()
    whole = json.loads(doc)
    whole["track"]["participants"] = before["participants"]
    db.execute("UPDATE track_views SET doc = ? WHERE chase_id = ?", (json.dumps(whole), str(chase_id)))
    db.execute("DELETE FROM track_rows")

    reopened = build_ledger(env)
    assert reopened.track(chase_id) == before
    pid, view = reopened.commands["coc7e"].add_participant(chase_id, pursuer(3))
    assert reopened.track(chase_id) == view and len(view["participants"]) == 4
    assert db.execute("SELECT count(*) FROM track_rows WHERE chase_id = ?", (str(chase_id),)).fetchone() == (4,)
    reopened.close()
