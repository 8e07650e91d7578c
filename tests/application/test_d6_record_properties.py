"""The record must check out for D6 races and chases too (issue 10, issue 16): hypothesis plays
random but legal sequences of D6 commands through the HTTP API (tests/application/record/d6.py),
and after each chase checks what test_record_properties.py checks for every other system: the
export verifies (D6 rolls recomputed from the revealed seed), every version renders as answered,
undo, rewind and redo bring back the game they restore, the check job passes and a rebuild gives
back every view.
"""
from __future__ import annotations

from hypothesis.stateful import run_state_machine_as_test

from tests.application.record.d6 import D6Machine
from tests.application.record.machine import TALLIES, machine_settings
from tests.application.record.play import Tally
from tests.application.test_record_properties import EXAMPLES, RECORD, STEPS

MUST_PLAY = RECORD | {"add participant", "begin", "move", "end round", "skill roll"}


def test_random_d6_play_keeps_the_record_checking_out():
    # Given a fresh tally for D6 chases,
    TALLIES[D6Machine.SYSTEM] = Tally()
    # when hypothesis plays its chases through the API, each one checked at its end,
    run_state_machine_as_test(D6Machine, settings=machine_settings(EXAMPLES, STEPS, derandomize=True))
    # then the chases played the heart of the system, and the figures are there for the record.
    tally = TALLIES[D6Machine.SYSTEM]
    print(f"\n{tally.line(D6Machine.SYSTEM)}")
    missing = MUST_PLAY - tally.accepted_kinds()
    assert not missing, f"d6: never accepted: {sorted(missing)}; accepted: {sorted(tally.accepted_kinds())}"
