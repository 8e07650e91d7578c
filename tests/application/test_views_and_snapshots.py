"""The read side is a projection of the log: rebuildable, shared between processes, exact."""
from __future__ import annotations

from uuid import UUID


from application.chases import PARTICIPANTS_PER_EVENT
from application.dice import DiceChoice
from application.views import chase_update
from infrastructure.bootstrap import build_ledger


def play_long_chase(ledger, rounds: int = 40) -> UUID:
    """Harvey and the farmer, both on MOV 6, running round after round: a long log."""
    chase_id = UUID(ledger.create_chase("A long chase", dice="server")["chase_id"])
    harvey, _ = ledger.commands["coc7e"].add_participant(chase_id, {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6})
    farmer, _ = ledger.commands["coc7e"].add_participant(chase_id, {"name": "Farmer", "role": "pursuer", "dex": 50, "con": 55, "mov": 6})
    ledger.commands["coc7e"].roll_speed(chase_id, harvey, DiceChoice(faces=[40, 0]))  # regular: MOV stays 6
    ledger.commands["coc7e"].roll_speed(chase_id, farmer, DiceChoice(faces=[40, 0]))
    view = ledger.commands["coc7e"].cut_to_the_chase(chase_id)
    for _ in range(rounds):
        ledger.commands["coc7e"].roll_dice(chase_id, "1D6", purpose="flavour")
        for pid in view["turn_order"]:
            view = ledger.commands["coc7e"].move(chase_id, pid, 1)
    return chase_id


def test_views_rebuilt_from_the_log_equal_the_live_ones(ledger):
    # Given a chase of a few hundred events, with its views kept live.
    chase_id = play_long_chase(ledger)
    live_track, live_rolls = ledger.track(chase_id), ledger.rolls(chase_id)
    assert live_track["version"] > 200

    # When the views are cleared and caught up from the log again.
    ledger.views.clear(ledger.name)
    assert ledger.views.track_view(str(chase_id)) is None
    ledger.updater.catch_up()

    # Then they are exactly as they were.
    assert ledger.track(chase_id) == live_track
    assert ledger.rolls(chase_id) == live_rolls


def test_a_long_chase_reloads_from_its_snapshot_with_the_same_state(tmp_path):
    env = {"SQLITE_DBNAME": str(tmp_path / "chase.sqlite3")}
    writer = build_ledger(env)
    chase_id = play_long_chase(writer)

    # A snapshot was taken along the way.
    snapshots = list(writer.snapshots.get(chase_id, desc=True, limit=1))
    assert snapshots and snapshots[0].originator_version < writer.repository.get(chase_id).version

    # A fresh process loads the chase from that snapshot; it matches a full replay of the log.
    reader = build_ledger(env)
    from_snapshot = reader.repository.get(chase_id)
    replayed = None
    for event in reader.events.get(chase_id):
        replayed = event.mutate(replayed)
    assert vars(from_snapshot) == vars(replayed)
    writer.close()
    reader.close()


def test_a_chase_that_grows_crowded_still_has_a_snapshot_close_behind(ledger):
    # Given a chase that grows to 300 participants, one event each: its snapshots come further
    # apart as it grows (a snapshot costs as much as the chase is big).
    chase_id = UUID(ledger.create_chase("A crowd", dice="server")["chase_id"])
    ledger.commands["coc7e"].add_participant(chase_id, {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6})
    for n in range(299):
        ledger.commands["coc7e"].add_participant(chase_id, {"name": f"Cultist {n}", "role": "pursuer", "dex": 40 + n % 50, "con": 50, "mov": 7})
    roll, _ = ledger.commands["coc7e"].roll_dice(chase_id, "1D6", purpose="flavour")

    # Then the latest snapshot is at most two of its intervals (participants / 5) behind: an undo,
    # which loads the chase as it was, folds tens of events after it, not hundreds.
    version = ledger.track(chase_id)["version"]
    latest = next(ledger.snapshots.get(chase_id, desc=True, limit=1)).originator_version
    assert version - latest <= 2 * 300 // PARTICIPANTS_PER_EVENT

    # And the roll undone is marked so, the 300 participants as they were.
    before = ledger.track(chase_id)["participants"]
    after = ledger.history.undo(chase_id, 1)
    assert after["participants"] == before and after["version"] == version + 1
    assert [r["undone"] for r in ledger.rolls(chase_id) if r["sequence"] == roll["sequence"]] == [True]


def test_another_process_reads_the_writes_of_the_first(tmp_path):
    # Two API processes on one SQLite file (as gunicorn workers are).
    env = {"SQLITE_DBNAME": str(tmp_path / "chase.sqlite3")}
    first, second = build_ledger(env), build_ledger(env)
    chase_id = UUID(first.create_chase("Shared")["chase_id"])
    first.commands["coc7e"].add_participant(chase_id, {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6})

    # The second process sees the participant the first one added, and adds its own.
    assert len(second.track(chase_id)["participants"]) == 1
    second.commands["coc7e"].add_participant(chase_id, {"name": "Farmer", "role": "pursuer", "dex": 50, "con": 55, "mov": 7})
    assert {p["name"] for p in first.track(chase_id)["participants"].values()} == {"Harvey", "Farmer"}
    first.close()
    second.close()


def test_views_written_from_a_stale_version_are_refused(tmp_path):
    # Two API processes on one SQLite file; the second loaded the chase just after it was created.
    env = {"SQLITE_DBNAME": str(tmp_path / "chase.sqlite3")}
    first, second = build_ledger(env), build_ledger(env)
    chase_id = UUID(first.create_chase("Shared")["chase_id"])
    stale = second.repository.get(chase_id)
    first.commands["coc7e"].add_participant(chase_id, {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6})
    view = first.track(chase_id)

    # The second writes the views of the chase as it had it: refused, the views are newer.
    refused = second.views.write_views([chase_update(str(chase_id), 0, stale, [], second.renderers.all(stale))])
    assert refused == {str(chase_id)}

    # Its projector, following the log from the start, finds every event already in the views.
    assert second.updater.catch_up() == {}

    # The views are as the first process left them, with Harvey listed once.
    assert second.track(chase_id) == view
    assert len(view["participants"]) == 1
    first.close()
    second.close()


def test_a_command_writes_its_views_in_the_transaction_of_its_events(ledger, monkeypatch):
    # Given a store where a view write of its own (a second transaction) would fail.
    def no_second_transaction(*args, **kwargs):
        raise AssertionError("a command's views were written in a transaction of their own")

    chase_id = UUID(ledger.create_chase("One commit per command")["chase_id"])
    monkeypatch.setattr(ledger.views, "write_views", no_second_transaction)

    # When the Keeper adds a participant and rolls, and undoes the roll.
    harvey, _ = ledger.commands["coc7e"].add_participant(chase_id, {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6})
    roll, _ = ledger.commands["coc7e"].roll_dice(chase_id, "1D6", purpose="spot the farmer", dice=DiceChoice(faces=[3]))
    ledger.history.undo(chase_id, 1)

    # Then the stored views are at the chase's version, with the roll in the history, marked undone.
    stored = ledger.views.read_views(str(chase_id))
    assert stored["version"] == ledger.repository.get(chase_id).version and not stored["set_aside"]
    assert harvey in stored["doc"]["track"]["participants"]
    [row] = [r for r in ledger.views.roll_history(str(chase_id), {}) if r["roll"]["purpose"] == "spot the farmer"]
    assert row["undone"] and row["roll"]["sequence"] == roll["sequence"]
