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


class Quiet:
    """A job run that notes nothing (the check job reports its progress to it)."""

    def progress(self, done: int, total: int, force: bool = False) -> None:
        pass


def test_the_check_job_sees_a_row_spoiled_in_the_store_even_in_the_process_that_wrote_it(tmp_path):
    from application.job_kinds import check

    env = {"SQLITE_DBNAME": str(tmp_path / "chase.sqlite3")}
    ledger = build_ledger(env)
    chase_id = UUID(ledger.create_chase("A pack of pursuers")["chase_id"])
    pid, _ = ledger.commands["coc7e"].add_participant(chase_id, pursuer(0))
    assert check(ledger, Quiet(), {"chase_id": str(chase_id)})["equal"]

    # Someone changes a stored row behind the ledger's back (a bad disk, a hand-made fix)
    db = sqlite3.connect(env["SQLITE_DBNAME"], isolation_level=None)
    doc = json.loads(db.execute("SELECT doc FROM track_rows WHERE participant_id = ?", (pid,)).fetchone()[0])
    db.execute("UPDATE track_rows SET doc = ? WHERE participant_id = ?", (json.dumps({**doc, "name": "Spoiled"}), pid))

    # The check job run by the very process that wrote the row reports it, as another process would serve it
    found = check(ledger, Quiet(), {"chase_id": str(chase_id)})
    assert not found["equal"] and found["mismatches"][0]["views"] == ["track"]
    db.close()
    ledger.close()


def test_the_rows_remembered_are_bounded_in_all_and_a_chase_forgotten_is_written_whole_next():
    from infrastructure.track_rows import KeptRows, RowsWrite

    # A store that remembers at most 5 rows, over every chase
    kept = KeptRows(rows_kept=5)
    three = {f"p{n}": {"id": f"p{n}"} for n in range(3)}
    kept.written(RowsWrite("chase A", 2, three, [], [], True))
    kept.written(RowsWrite("chase B", 7, dict(three), [], [], True))

    # The older chase is forgotten: its next write diffs from nothing, so it writes every row
    assert kept.last_version("chase A") is None and kept.last_version("chase B") == 7
    _, rows = kept.split({"chase_id": "chase A", "expected": 2, "version": 3, "doc": {"track": {"participants": three}}})
    assert rows.full and len(rows.upserts) == 3
