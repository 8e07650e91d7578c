"""The optional rules of part 5 a chase uses, kept through history (coc7e-chases.txt part 5; issue 15).

A chase recorded before the Keeper could choose them (state schema 2) played them all: its
snapshots and the state its undos restore load with every optional rule on.
"""
from __future__ import annotations

import pytest
from eventsourcing.domain import Snapshot

from domain.rules.coc7e.optional_rules import BY_NAME, NAMES, OptionalRuleOff
from domain.state_schema import restored_as_changes
from tests.unit.chase_log import ChaseLog


def test_a_snapshot_of_schema_2_loads_with_every_optional_rule_on():
    # Step 1: a chase in round 1, snapshotted, then made to look as schema 2 wrote it.
    log = ChaseLog("table")
    log.running()
    snapshot = Snapshot.take(log.chase)
    state = dict(snapshot.state)
    del state["optional_rules"]
    state["class_version"] = 2
    old = Snapshot(originator_id=snapshot.originator_id, originator_version=snapshot.originator_version,
                   timestamp=snapshot.timestamp, topic=snapshot.topic, state=state)
    # Step 2: today's code loads it: every optional rule is on.
    chase = old.mutate(None)
    assert chase.optional_rules == list(NAMES) and chase.round == 1


def test_an_undo_payload_of_schema_2_restores_every_optional_rule():
    # The Keeper had switched every optional rule off; an undo written by schema 2 code restores
    # a state that knew no choice: the default, every rule on.
    log = ChaseLog("table")
    log.do(lambda c: c.change_optional_rules([]))
    assert log.chase.optional_rules == []
    state = log.chase.game_state()
    del state["optional_rules"]
    stored = {"restored": state}  # the whole state, as undo events stored it up to their version 2
    restored_as_changes(stored)  # read as today's events store it: the changes to make
    log.chase.restore(stored["changes"], 2)
    assert log.chase.optional_rules == list(NAMES)


def test_a_rule_switched_off_is_refused_naming_it_and_citing_its_heading():
    log = ChaseLog("table")
    log.do(lambda c: c.change_optional_rules(["monsters"]))
    assert log.chase.require_optional_rule("monsters") is BY_NAME["monsters"]
    with pytest.raises(OptionalRuleOff) as refused:
        log.chase.require_optional_rule("splitting_up")
    assert refused.value.optional_rule == "splitting_up" and refused.value.rule == 'coc7e-chases.txt "Splitting Up"'
    assert "splitting_up" in refused.value.message
