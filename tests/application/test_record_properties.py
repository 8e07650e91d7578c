"""The record must check out (issue 10), whatever is played: hypothesis plays random but legal
sequences of commands on chases of every system through the HTTP API (tests/application/record/),
and after each chase checks that its export verifies, that every version renders (as it was
answered), that the check job passes and that a rebuild of the views from the log gives back the
views as they were; and after each undo, rewind or redo, that the game is back as it was
(tests/application/record/checks.py).

Commands a rule refuses (4xx) are expected in a random sequence and must leave the log unchanged;
a 5xx is a failure. CI runs a bounded, derandomized number of chases (the same every run);
``bench/record_properties.py`` runs the same machines much longer with fresh randomness. Run with
``-s`` to see how many chases, commands and versions were covered.
"""
from __future__ import annotations

import pytest
from hypothesis.stateful import run_state_machine_as_test

from tests.application.record.coc7e import Coc7eMachine
from tests.application.record.machine import TALLIES, machine_settings
from tests.application.record.play import Tally
from tests.application.record.swade import SwadeMachine
from tests.application.record.swd import SwdMachine

EXAMPLES, STEPS = 15, 50  # per system: 15 to 30 s on one core, so about 35 s on two (pytest -n 2)
# Commands each machine must have played successfully at least once, so that a machine that
# stopped reaching the heart of its system (every command refused) fails instead of passing idly.
RECORD = {"undo", "redo", "rewind", "undo request", "reveal seed", "entropy", "end"}
MUST_PLAY = {
    "coc7e": RECORD | {"speed roll", "cut to the chase", "move", "end turn", "place obstacle", "random hazards", "skill roll", "dice roll", "attack"},
    "swade": RECORD | {"begin", "action cards", "change-position", "end turn", "resolve complication", "trait roll", "damage roll"},
    "swd": RECORD | {"begin", "maneuver", "resolve keep card", "end turn", "attack", "trait roll", "damage roll"},
}


@pytest.mark.parametrize("machine", [Coc7eMachine, SwadeMachine, SwdMachine], ids=lambda m: m.SYSTEM)
def test_random_play_keeps_the_record_checking_out(machine):
    # Given a fresh tally for this system's chases,
    TALLIES[machine.SYSTEM] = Tally()
    # when hypothesis plays its chases through the API, each one checked at its end,
    run_state_machine_as_test(machine, settings=machine_settings(EXAMPLES, STEPS, derandomize=True))
    # then the chases played the heart of their system, and the figures are there for the record.
    tally = TALLIES[machine.SYSTEM]
    print(f"\n{tally.line(machine.SYSTEM)}")
    missing = MUST_PLAY[machine.SYSTEM] - tally.accepted_kinds()
    assert not missing, f"{machine.SYSTEM}: never accepted: {sorted(missing)}; accepted: {sorted(tally.accepted_kinds())}"
