"""History that outlives the code (issue 11, DESIGN.md 3): stored events are never rewritten.

Undo, rewind and redo events first stored the whole state they restore without saying which
schema it had; since version 2 of those events they say so (``restored_schema``), and since
version 3 they store only the changes to the state (``changes``). A chase recorded by the
earlier code must still load, show the same views, take new undos and redos, and verify: its old
events are upcast on load, and keep the record (and so the hash) they were written with.
"""
from __future__ import annotations

import json
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent

from domain.chain import GENESIS, hash_record
from infrastructure.systems import verify
from infrastructure import cli
from infrastructure.bootstrap import build_ledger
from tests.application.test_history_scenarios import Table, game

RESTORING = (".Undone", ".Rewound", ".Redone")


def plain(value: Any) -> Any:
    """A stored JSON value as a log record shows it: transcoded values unwrapped (eventsourcing's
    ``{"_type_": ..., "_data_": ...}``), ids as text, value objects as the dict of their fields."""
    if isinstance(value, list):
        return [plain(v) for v in value]
    if not isinstance(value, dict):
        return value
    if "_type_" in value:
        data = plain(value["_data_"])
        if value["_type_"] == "uuid_hex":
            return str(UUID(data))
        # A value object's record is the dict of its fields: the schema version the transcoder
        # writes beside them (above 1, e.g. coc7e.Participant 2) is not one of them.
        return {k: v for k, v in data.items() if k != "class_version"} if isinstance(data, dict) else data
    return {k: plain(v) for k, v in value.items()}


def hash_as_first_written(stored: StoredEvent) -> str:
    """The hash the earlier code gave the event, from its stored record alone (domain/chain.py)."""
    state = plain(json.loads(stored.state))
    data = {k: v for k, v in state.items() if k not in ("timestamp", "originator_topic", "class_version")}
    return hash_record({
        "chase_id": str(stored.originator_id), "version": stored.originator_version, "type": stored.topic,
        "recorded_at": state["timestamp"], "data": data,
    })


def as_first_written(today: Any, previous: Any, chase_id: UUID) -> None:
    """Store the chase in ``previous`` as the code before restored_schema wrote it: undo, rewind
    and redo events with the whole state they restore (as the chase is just after them), without
    the field and without a class_version, each event chained to the record of the one before as
    that code hashed it. The seed vault comes along."""
    chain = GENESIS
    transcoder = today.mapper.transcoder
    for stored in today.recorder.select_events(chase_id):
        state = json.loads(stored.state)
        if stored.topic.endswith(RESTORING):
            del state["class_version"], state["restored_schema"], state["changes"]
            state["restored"] = json.loads(transcoder.encode(today.runner.load_at(chase_id, stored.originator_version).game_state()))
        state["previous_hash"] = chain
        old = StoredEvent(stored.originator_id, stored.originator_version, stored.topic, json.dumps(state).encode())
        previous.recorder.insert_events([old])
        chain = hash_as_first_written(old)
    commitment = today.events.get(chase_id, lte=1).__next__().seed_commitment
    previous.seeds._keep(str(chase_id), commitment, today.seeds._seed(str(chase_id), commitment))


def rolls(ledger: Any, chase_id: UUID) -> list[dict[str, Any]]:
    """The roll history, but for when each roll was recorded and undone (each ledger's own time)."""
    return [{k: v for k, v in row.items() if k not in ("recorded_at", "undone_at")} for row in ledger.rolls(chase_id)]


def back_and_forth(ledger: Any, chase_id: UUID, table: Table) -> None:
    """Undo the last action, redo it, undo it again and play on."""
    ledger.history.undo(chase_id, 1)
    ledger.history.redo(chase_id)
    ledger.history.undo(chase_id, 1)
    table.play(1)


def test_a_chase_recorded_by_the_earlier_code_loads_shows_the_same_views_and_verifies(tmp_path):
    # Step 1: with today's code the Keeper plays, undoes, redoes and rewinds, and ends on an undo.
    today = build_ledger({"SQLITE_DBNAME": ":memory:"})
    table = Table(today)
    table.play(2)
    mark = table.track()["version"]
    table.play(3)
    today.history.undo(table.id, 2)
    today.history.redo(table.id)
    today.history.rewind(table.id, mark)
    today.history.redo(table.id)
    table.play(1)
    today.history.undo(table.id, 1)

    # Step 2: the same chase as the code before restored_schema stored it, in a database of its own.
    previous = build_ledger({"SQLITE_DBNAME": str(tmp_path / "previous.db")})
    as_first_written(today, previous, table.id)
    old_events = list(previous.events.get(table.id))
    restoring = [e for e in old_events if type(e).TOPIC.endswith(RESTORING)]
    assert len(restoring) == 5

    # Step 3: the old events load upcast (their state is of schema 1) and show as written.
    assert all(e.restored_schema == 1 for e in restoring)
    export = previous.history.export(table.id)
    shown = [e["data"] for e in export["events"] if e["type"].endswith(RESTORING)]
    assert shown and all("restored_schema" not in data for data in shown)

    # Step 4: every view is as today's code shows its own log: now and at every version.
    now = previous.track(table.id)
    assert game(now) == game(today.track(table.id))
    assert previous.rolls(table.id) == today.rolls(table.id)
    for version in range(1, now["version"] + 1):
        assert game(previous.history.track_at(table.id, version)) == game(today.history.track_at(table.id, version)), version

    # Step 5: the old log verifies, online and with `chase verify`, to the chain head the API shows.
    report = verify(export, kept_head=now["chain_head"])
    assert report.head == now["chain_head"] and report.events == now["version"]
    file = tmp_path / "export.json"
    file.write_text(json.dumps(export))
    assert cli.main(["verify", str(file)]) == 0

    # Step 6: play goes on in both: redo the old undo, undo and redo again, play, end the chase.
    for ledger, chase in ((today, table), (previous, Table.__new__(Table))):
        chase.ledger, chase.id = ledger, table.id
        ledger.history.redo(table.id)
        back_and_forth(ledger, table.id, chase)
    assert game(previous.track(table.id)) == game(today.track(table.id))
    assert rolls(previous, table.id) == rolls(today, table.id)
    previous.history.reveal_seed(table.id)

    # Step 7: the new events say their schema, the old ones still do not, and everything verifies,
    # the revealed seed recomputing every server roll; a reopened database loads the same.
    export = previous.history.export(table.id)
    shown = [e["data"] for e in export["events"] if e["type"].endswith(RESTORING)]
    assert ["restored_schema" in data for data in shown] == [False] * 5 + [True] * 4
    report = verify(export, kept_head=now["chain_head"])
    assert report.server_rolls_verified == report.rolls - report.table_rolls == 7 and report.head == previous.track(table.id)["chain_head"]
    view = previous.track(table.id)
    previous.close()
    reopened = build_ledger({"SQLITE_DBNAME": str(tmp_path / "previous.db")})
    assert reopened.track(table.id) == view
    assert verify(reopened.history.export(table.id)).head == view["chain_head"]
    reopened.close()
    today.close()
