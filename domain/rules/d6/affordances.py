"""What each participant of a D6 chase or race may do now, and why not (domain/affordances.py).

D6 has no turns: everyone declares movement each round and the GM ends the round
(d6-movement.txt "Accelerating and Decelerating"). Each entry asks the guard its command calls
first, so a refusal here is word for word the command's.
"""
from __future__ import annotations

from typing import Any

from domain.affordances import Legal, judge, record_actions
from domain.rules.d6 import rolls, rounds as d6_rounds
from domain.rules.d6.chase import SET_UP


def legal_actions(chase: Any) -> Legal:
    running = judge(chase.require_running)
    participants = {
        pid: {
            "move": running or judge(lambda: chase.require_in_chase(pid)),
            "fatigue_roll": judge(lambda: rolls.check_fatigue_roll(chase, pid)),
        }
        for pid in chase.participants
    }
    return {
        "chase": {
            "add_participant": judge(chase.check_add_participant),
            "begin": judge(lambda: d6_rounds.check_begin(chase)),
            "skill_roll": running,
            "end_round": running,
            **record_actions(chase, SET_UP),
        },
        "participants": participants,
    }
