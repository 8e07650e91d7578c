"""Undo, rewind, redo, undo requests and time travel through the application layer (issue 4).

DESIGN.md section 5: the log is append-only; undo and rewind are new events that say which
earlier actions no longer count; redo restores them; the state at any earlier version can be
read without changing anything. Server dice throughout (the seed is secret until the end).
"""
from __future__ import annotations

import time
from itertools import pairwise
from typing import Any
from uuid import UUID

import pytest

from application.access import KEEPER, PLAYER, Forbidden, Principal
from application.dice import DiceChoice
from application.runner import VersionConflict
from application.systems.coc7e.track import render
from application.views import fold
from domain.recorded_chase import HistoryRefused
from infrastructure.systems import verify

# The track view's fields that are the record's bookkeeping, not the game: they legitimately
# differ between the chase as at version v and the chase restored to v (see
# tests/e2e/record_helpers.py for why each one).
RECORD_FIELDS = {
    "version", "chain_head", "can_redo", "rolls_made", "undo_requests",
    "seed_commitment", "seed_epoch", "revealed_seeds", "entropy",
}


def game(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in RECORD_FIELDS}


class Table:
    """Harvey and the farmer on equal MOV (5 each after failed speed rolls): the farmer never
    closes the two locations between them, so the chase can run as long as a test needs."""

    def __init__(self, ledger: Any) -> None:
        self.ledger = ledger
        self.id = UUID(ledger.create_chase("Harvey and the angry farmer", dice="server")["chase_id"])
        self.harvey, _ = ledger.commands["coc7e"].add_participant(self.id, {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6, "skills": {"Dodge": 40}})
        self.farmer, _ = ledger.commands["coc7e"].add_participant(self.id, {"name": "Farmer", "role": "pursuer", "dex": 50, "con": 55, "mov": 6})
        ledger.commands["coc7e"].roll_speed(self.id, self.harvey, DiceChoice(faces=[70, 2]))  # failure: MOV 5
        ledger.commands["coc7e"].roll_speed(self.id, self.farmer, DiceChoice(faces=[80, 0]))  # failure: MOV 5
        ledger.commands["coc7e"].cut_to_the_chase(self.id, 2)

    def track(self) -> dict[str, Any]:
        return self.ledger.track(self.id)

    def play(self, turns: int) -> dict[str, Any]:
        """Each turn: a server dice roll, then whoever's turn it is moves one location (ending the turn)."""
        for _ in range(turns):
            self.ledger.commands["coc7e"].roll_dice(self.id, "1D6", purpose="flavour")
            view = self.ledger.commands["coc7e"].move(self.id, self.track()["whose_turn"], 1)
        return view

    def events(self) -> list[Any]:
        return list(self.ledger.events.get(self.id))

    def folded(self, version: int) -> dict[str, Any]:
        state, _ = fold(self.ledger.events.get(self.id, lte=version))
        return render(state)


@pytest.fixture
def table(ledger) -> Table:
    return Table(ledger)


def test_a_long_chase_undone_one_action_at_a_time_returns_to_its_start(table, ledger):
    started = time.perf_counter()
    table.play(340)  # 2 + 2 + 2 + 2 + 340 x 3 events: over 1,000
    chase = table.track()
    assert chase["version"] > 1000 and chase["round"] > 100
    actions = chase["actions"]
    assert actions == 4 + 1 + 2 * 340  # participants, speed rolls, the cut, rolls and moves
    rolls = ledger.rolls(table.id)

    for remaining in range(actions - 1, -1, -1):
        view = ledger.history.undo(table.id, 1)
        assert view["actions"] == remaining
    undone = table.track()

    assert undone["phase"] == "setup" and undone["participants"] == {} and undone["round"] == 0
    assert game(undone) == game(table.folded(1))  # as the chase was when created
    assert undone["rolls_made"] == len(rolls)  # no roll number is ever reused
    history = ledger.rolls(table.id)
    assert [r["roll"] for r in history] == [r["roll"] for r in rolls]  # every roll kept, with its dice
    assert all(r["undone"] for r in history)
    with pytest.raises(HistoryRefused) as refused:
        ledger.history.undo(table.id, 1)
    assert refused.value.field == "count"
    assert table.events()[-1].originator_version == chase["version"] + actions
    assert time.perf_counter() - started < 60


def test_undo_of_each_count_equals_time_travel_to_before_the_undone_actions_and_redo_restores(table, ledger):
    table.play(12)
    chase = table.track()
    rolls = ledger.rolls(table.id)
    actions = [e for e in table.events() if not e.meta]
    starts = sorted({e.action for e in actions})
    assert len(starts) == chase["actions"]

    for count in range(1, chase["actions"] + 1):
        undone = ledger.history.undo(table.id, count)
        target = starts[-count] - 1
        assert game(undone) == game(ledger.history.track_at(table.id, target)) == game(table.folded(target)), count
        assert undone["rolls_made"] == chase["rolls_made"]
        redone = ledger.history.redo(table.id)
        assert game(redone) == game(chase)
        assert ledger.rolls(table.id) == rolls


def test_rewind_to_every_action_boundary_then_redo(table, ledger):
    table.play(6)
    chase = table.track()
    events = table.events()
    boundaries = [e.originator_version for e, after in pairwise(events) if after.action != e.action or after.meta]

    for version in boundaries:
        rewound = ledger.history.rewind(table.id, version)
        assert game(rewound) == game(table.folded(version)), version
        assert rewound["can_redo"]
        redone = ledger.history.redo(table.id)
        assert game(redone) == game(chase), version

    # Every version inside an action is refused, naming the action's first and last versions.
    inside = [e.originator_version for e, after in pairwise(events) if after.action == e.action and not after.meta]
    assert inside
    current = table.track()["version"]
    for version in inside:
        with pytest.raises(HistoryRefused) as refused:
            ledger.history.rewind(table.id, version)
        assert refused.value.field == "to_version" and "middle of an action" in str(refused.value)
    assert table.track()["version"] == current


def test_time_travel_to_every_version_equals_the_log_replayed_and_changes_nothing(table, ledger):
    table.play(8)
    ledger.history.undo(table.id, 3)
    ledger.history.redo(table.id)
    ledger.history.rewind(table.id, 19)
    table.play(2)
    ledger.history.reveal_seed(table.id)
    table.play(2)
    ledger.end_chase(table.id, "abandoned")
    live, rolls = table.track(), ledger.rolls(table.id)
    count = len(table.events())

    for version in range(1, live["version"] + 1):
        state, rows = fold(ledger.events.get(table.id, lte=version))
        assert ledger.history.track_at(table.id, version) == render(state)
        assert ledger.history.rolls_at(table.id, version) == rows
    assert ledger.history.track_at(table.id, live["version"]) == live
    assert ledger.history.rolls_at(table.id, live["version"]) == rolls
    assert table.track() == live and len(table.events()) == count
    for version in (0, -1, live["version"] + 1):
        with pytest.raises(HistoryRefused) as refused:
            ledger.history.track_at(table.id, version)
        assert refused.value.field == "version"


def test_views_rebuilt_from_a_log_with_undo_rewind_and_redo_equal_the_live_ones(table, ledger):
    table.play(10)
    ledger.history.undo(table.id, 4)
    ledger.history.rewind(table.id, 15)
    ledger.history.redo(table.id)
    table.play(1)
    live, rolls = table.track(), ledger.rolls(table.id)
    assert any(r["undone"] for r in rolls) and not all(r["undone"] for r in rolls)

    ledger.views.clear(ledger.name)
    ledger.updater.catch_up()

    assert table.track() == live
    assert ledger.rolls(table.id) == rolls


def test_the_export_of_a_chase_with_undone_rolls_verifies_with_every_roll_counted(table, ledger):
    table.play(5)
    ledger.history.undo(table.id, 2)  # one roll and one move
    ledger.commands["coc7e"].roll_skill(table.id, "Dodge", participant_id=table.harvey, bonus=2)
    ledger.end_chase(table.id, "escaped")

    report = verify(ledger.history.export(table.id))

    assert report.events == table.track()["version"]
    assert report.rolls == 2 + 5 + 1 and report.undone_rolls == 1 and report.table_rolls == 2
    assert report.server_rolls_verified == 6 and report.server_rolls_unverifiable == 0
    assert report.head == table.track()["chain_head"]


# -- undo requests --------------------------------------------------------------------------


def test_undo_requests_accepted_refused_unknown_and_answered_twice(table, ledger):
    table.play(3)
    player = Principal(PLAYER, str(table.id), (table.harvey,), "player (Harvey)")
    keeper = Principal(KEEPER, str(table.id), (), "keeper")
    before = table.track()

    first, waiting = ledger.history.request_undo(table.id, 2, "wrong way", by=player)
    second, _ = ledger.history.request_undo(table.id, 1, by=player)

    assert [r["request_id"] for r in table.track()["undo_requests"]] == [first, second]
    assert game(waiting) == game(before)
    with pytest.raises(Forbidden):
        ledger.history.answer_undo_request(table.id, first, True, by=player)
    accepted = ledger.history.answer_undo_request(table.id, first, True, by=keeper)
    assert accepted["actions"] == before["actions"] - 2
    refused = ledger.history.answer_undo_request(table.id, second, False, by=keeper)
    assert refused["actions"] == accepted["actions"] and refused["undo_requests"] == []
    for request_id, why in ((first, "accepted"), (second, "refused"), (999, "no undo request")):
        with pytest.raises(HistoryRefused) as answered:
            ledger.history.answer_undo_request(table.id, request_id, True, by=keeper)
        assert answered.value.field == "request_id" and why in str(answered.value)
    names = [type(e).__name__ for e in table.events()][-5:]
    assert names == ["UndoRequested", "UndoRequested", "UndoRequestAnswered", "Undone", "UndoRequestAnswered"]


def test_a_player_may_not_undo_rewind_redo_or_reveal(table, ledger):
    player = Principal(PLAYER, str(table.id), (table.harvey, table.farmer), "player")
    count = len(table.events())
    for command in (
        lambda: ledger.history.undo(table.id, 1, by=player),
        lambda: ledger.history.rewind(table.id, 3, by=player),
        lambda: ledger.history.redo(table.id, by=player),
        lambda: ledger.history.reveal_seed(table.id, by=player),
    ):
        with pytest.raises(Forbidden):
            command()
    assert len(table.events()) == count


def test_undo_with_a_stale_expected_version_is_refused(table, ledger):
    version = table.track()["version"]
    table.play(1)
    with pytest.raises(VersionConflict):
        ledger.history.undo(table.id, 1, expected_version=version)
    assert ledger.history.undo(table.id, 1, expected_version=version + 3)["version"] == version + 4


def test_the_vehicle_view_follows_undo_and_redo(ledger):
    from application.systems.coc7e.vehicles import render as render_vehicles

    chase_id = UUID(ledger.create_chase("the getaway car", dice="table")["chase_id"])
    car, _ = ledger.commands["coc7e"].add_participant(chase_id, {"name": "Car", "kind": "vehicle", "role": "quarry", "mov": 14, "build": 3})
    before = ledger.vehicles(chase_id)
    ledger.commands["coc7e"].add_participant(chase_id, {"name": "Driver", "dex": 50, "mov": 8, "vehicle_id": car, "seat": "driver", "skills": {"Drive Auto": 50}})
    boarded = ledger.vehicles(chase_id)
    assert [o["name"] for o in boarded["vehicles"][0]["occupants"]] == ["Driver"]

    ledger.history.undo(chase_id, 1)

    undone = ledger.vehicles(chase_id)
    as_it_was = render_vehicles(fold(ledger.events.get(chase_id, lte=before["version"]))[0])
    # Only the version differs: an undo is a new event.
    assert {**undone, "version": before["version"]} == before == as_it_was
    redone = ledger.history.redo(chase_id) and ledger.vehicles(chase_id)
    assert {**redone, "version": boarded["version"]} == boarded
