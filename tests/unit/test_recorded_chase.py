"""What every chase keeps (domain/recorded_chase.py): actions, undo and redo, the chain, the seed."""
from __future__ import annotations

import pytest

from domain.chain import GENESIS, JCS, hash_event
from domain.dice import TableDice, commitment_of
from domain.recorded_chase import MAX_UNDO, TIMELESS, HistoryRefused
from tests.unit.chase_log import SEEDS, ChaseLog


@pytest.fixture
def log() -> ChaseLog:
    return ChaseLog()


def state(log: ChaseLog) -> dict:
    return log.chase.game_state()


def test_the_events_of_one_command_are_one_action_and_meta_events_are_none(log):
    harvey, farmer = log.running()
    log.do(lambda c: c.move(harvey, 1))
    log.do(lambda c: c.move(farmer, 2))  # Moved, TurnEnded, RoundEnded, RoundBegan
    log.do(lambda c: c.contribute_entropy("x", "player"))
    events = log.events
    last_move = [e for e in events if e.action == events[-5].action]
    assert [type(e).__name__ for e in last_move] == ["Moved", "TurnEnded", "RoundEnded", "RoundBegan"]
    assert log.chase.effective_actions == [2, 3, 4, 5, 6, 8, 10]
    assert events[-1].meta and events[-1].action == events[-1].originator_version


def test_each_event_carries_the_hash_of_the_one_before(log):
    log.running()
    log.undo()
    previous = GENESIS
    for event in log.events:
        assert event.previous_hash == previous
        previous = hash_event(event, JCS)
    assert log.chase.chain_head == previous


def test_undo_restores_the_game_and_keeps_the_record(log):
    harvey, _ = log.running()
    before = state(log)
    log.roll("1D6", table=[4])
    log.do(lambda c: c.move(harvey, 1))
    rolls_made = log.chase.rolls_made

    log.undo(2)

    assert state(log) == before
    assert log.chase.rolls_made == rolls_made  # sequence numbers are never reused
    assert log.chase.redo_stack == [{"undo_version": log.chase.version, "actions": [8, 9]}]
    assert type(log.events[-1]).__name__ == "Undone" and log.events[-1].actions == [8, 9]
    assert log.roll("1D6", table=[1])["sequence"] == rolls_made + 1


def test_the_game_state_leaves_out_only_the_records_bookkeeping(log):
    log.running()
    kept = set(state(log))
    assert not kept & TIMELESS
    assert {"participants", "track", "round", "turn_order", "phase", "effective_actions"} <= kept


@pytest.mark.parametrize("count", [0, -1, True, 1.5, "1", MAX_UNDO + 1, 6])
def test_undo_of_an_impossible_count_is_refused(log, count):
    log.running()  # 5 actions
    with pytest.raises(HistoryRefused) as refused:
        log.chase.undo_target(count)
    assert refused.value.field == "count"
    assert log.collect() == []


def test_undo_needs_the_chase_as_it_was_at_the_target_version(log):
    log.running()
    with pytest.raises(HistoryRefused):
        log.chase.undo(1, log.at(3), "keeper")  # the target is version 5
    assert log.collect() == []


def test_a_new_action_ends_any_redo_but_record_events_do_not(log):
    harvey, _ = log.running()
    log.roll("1D6", table=[2])
    log.undo()
    log.do(lambda c: c.contribute_entropy("still", "player"))
    log.do(lambda c: c.request_undo(1, "player"))
    log.reveal()
    assert log.chase.redo_target() == log.events[-5].originator_version - 1  # just before the undo

    log.redo()
    assert log.chase.redo_stack == []
    log.undo()
    log.do(lambda c: c.move(harvey, 1))

    with pytest.raises(HistoryRefused) as refused:
        log.chase.redo_target()
    assert refused.value.field is None  # a conflict with the record (409), not a bad field


def test_redo_restores_undos_last_first(log):
    log.running()
    states = []
    for face in (1, 2, 3):
        log.roll("1D6", table=[face])
        states.append(state(log))
    log.undo()
    log.undo()
    log.redo()
    assert state(log) == states[1]
    log.redo()
    assert state(log) == states[2]


@pytest.mark.parametrize("to_version", [0, -2, True, 8, 9, 100])
def test_rewind_to_a_version_that_is_not_earlier_is_refused(log, to_version):
    log.running()
    log.roll("1D6", table=[2])  # version 8
    with pytest.raises(HistoryRefused) as refused:
        log.chase.rewind(to_version, log.chase, "keeper")
    assert refused.value.field == "to_version"


def test_rewind_names_what_it_undoes_and_what_it_restores(log):
    log.running()
    log.roll("1D6", table=[2])  # action 8
    log.undo()  # 9
    log.roll("1D6", table=[3])  # action 10
    log.rewind(8)
    event = log.events[-1]
    assert event.actions == [10] and event.restored_actions == [8]
    assert log.chase.effective_actions[-1] == 8


def test_undo_requests(log):
    log.running()
    request_id = log.do(lambda c: c.request_undo(2, "player (Harvey)", "oops"))
    assert request_id == log.chase.version
    last_two = log.chase.effective_actions[-2:]
    assert log.chase.undo_requests[str(request_id)] == {"count": 2, "actions": last_two, "by": "player (Harvey)", "note": "oops", "answer": None}
    with pytest.raises(HistoryRefused):
        log.chase.request_undo(6, "player")  # more than there is
    log.do(lambda c: c.answer_undo_request(request_id, False, "keeper"))
    assert log.chase.undo_requests[str(request_id)]["answer"] == "refused"
    for unknown in (request_id, 12345):
        with pytest.raises(HistoryRefused) as refused:
            log.chase.undo_request(unknown)
        assert refused.value.field == "request_id"


def test_the_seed_is_revealed_only_if_it_matches_and_only_once_per_epoch(log):
    with pytest.raises(HistoryRefused):
        log.chase.reveal_seed(SEEDS[1].hex(), "keeper")
    log.reveal()
    assert log.chase.revealed_seeds == [{"epoch": 0, "seed": SEEDS[0].hex(), "commitment": commitment_of(SEEDS[0])}]
    assert log.chase.seed_epoch == 1 and log.chase.seed_commitment == commitment_of(SEEDS[1])
    log.reveal(go_on=False)
    with pytest.raises(HistoryRefused):
        log.chase.reveal_seed(SEEDS[1].hex(), "keeper")


@pytest.mark.parametrize("entropy", ["", "x" * 201, None, 7])
def test_entropy_must_be_short_text(log, entropy):
    with pytest.raises(HistoryRefused) as refused:
        log.chase.contribute_entropy(entropy, "player")
    assert refused.value.field == "entropy"


def test_an_undone_speed_roll_can_be_made_again(log):
    harvey = log.add({"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6})
    log.do(lambda c: c.roll_speed(harvey, TableDice([70, 2])))
    log.undo()
    assert log.chase.participants[harvey].speed_mov is None
    roll = log.do(lambda c: c.roll_speed(harvey, TableDice([10, 2])))
    assert roll["sequence"] == 2 and log.chase.participants[harvey].speed_mov == 7
