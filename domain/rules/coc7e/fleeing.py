"""Fleeing the scene (optional rule fleeing_the_scene): coc7e-chases.txt "Fleeing the Scene".

"Counting the number of locations moved within a specified number of rounds": from where each
participant stood when the first of the rounds began to where they stood when the last ended
(or stand now, while it is still being played).
"""
from __future__ import annotations

from typing import Any, Mapping

from domain.rules.coc7e.errors import CHASES, InvalidCommand, RuleBroken

FLEEING = f'{CHASES} "Fleeing the Scene"'
MAX_ROUNDS = 10_000


def locations_covered(
    round_starts: Mapping[int, Mapping[str, int]], now: Mapping[str, int], current_round: int, from_round: int, rounds: int,
) -> dict[str, Any]:
    """Locations each participant covered in ``rounds`` rounds from ``from_round``.

    ``round_starts``: where everyone stood as each round began; ``now``: where they stand now.
    """
    for name, value in (("from_round", from_round), ("rounds", rounds)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ROUNDS:
            raise InvalidCommand(name, f"must be a whole number from 1 to {MAX_ROUNDS}")
    if from_round not in round_starts:
        raise RuleBroken(f"round {from_round} has not begun (this is round {current_round})", FLEEING)
    last = from_round + rounds - 1
    start = round_starts[from_round]
    end = round_starts.get(last + 1, now)
    complete = last + 1 in round_starts
    return {
        "from_round": from_round,
        "to_round": last,
        "complete": complete,  # False: the last round is still to be played out
        "locations_covered": {pid: end[pid] - at for pid, at in start.items() if pid in end},
        "rule": FLEEING,
    }
