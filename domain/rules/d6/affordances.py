"""What each participant of a D6 chase or race may do now, and why not (domain/affordances.py).

D6 has no turns: everyone declares movement each round and the GM ends the round
(d6-movement.txt "Accelerating and Decelerating"). Each entry asks the guard its command calls
first, so a refusal here is word for word the command's.
"""
from __future__ import annotations

from typing import Any

from domain.affordances import Judges, Refusal, judge, record_actions
from domain.rules.d6 import rolls, rounds as d6_rounds
from domain.rules.d6.chase import SET_UP


def _participant(chase: Any, pid: str) -> dict[str, Refusal]:
    return {
        "move": judge(chase.require_running) or judge(lambda: chase.require_in_chase(pid)),
        "fatigue_roll": judge(lambda: rolls.check_fatigue_roll(chase, pid)),
    }


def _chase(chase: Any) -> dict[str, Refusal]:
    running = judge(chase.require_running)
    return {
        "add_participant": judge(chase.check_add_participant),
        "begin": judge(lambda: d6_rounds.check_begin(chase)),
        "skill_roll": running,
        "end_round": running,
        **record_actions(chase, SET_UP),
    }


legal_actions = Judges(_chase, _participant)
