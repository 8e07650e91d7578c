"""Multi-Actions: the actions a character takes on their unit's turn, counted (both systems).

swade-chases-reference.txt "COMBAT OPTIONS & SITUATIONAL RULES", "Multi-Actions": "Subtract 2
from *all* actions for each additional action attempted beyond the first (maximum of 3)". Each
action a character takes on their unit's turn (an attack; Flee, Force, Ram; Change Position or
Evade taken as an action; swd: an attack or Force with Advantage) is recorded as ActionTaken with
its number and the number of actions the character declared. "All actions" includes the first,
so the player declares with the first action how many they mean to take (``actions``, default
one); an action beyond those declared raises the count, and its penalty, from then on. Free
actions (Change Position or Evade as a free action, Hold Steady, recovering from Shaken, a
Complication's roll, resisting a foe's Force or Ram) are no actions and are not counted.
"""
from __future__ import annotations

from typing import Any, ClassVar, Protocol

from domain.rules.savage_worlds.errors import SWADE, InvalidValue, RuleBroken, whole

MULTI_ACTIONS = f"{SWADE} \"COMBAT OPTIONS & SITUATIONAL RULES\", Multi-Actions"
PENALTY_PER_EXTRA_ACTION = -2  # "Subtract 2 from all actions for each additional action"
MAX_ACTIONS = 3  # "(maximum of 3)"


class ActingChase(Protocol):
    """What counting actions uses of a Savage Worlds chase (savage_base.SavageChase)."""

    ActionTaken: ClassVar[type]
    turn: dict[str, Any]

    def participant(self, participant_id: str) -> Any: ...

    def trigger_event(self, event_class: Any, **kwargs: Any) -> None: ...


def actions_taken(chase: ActingChase, participant_id: str) -> dict[str, int]:
    """This turn's count for the character: {"taken": n, "declared": m} (none yet: 0 of 1)."""
    return dict(chase.turn.get("actions", {}).get(participant_id, {"taken": 0, "declared": 1}))


def multi_action_penalty(declared: int) -> int:
    """-2 for each action beyond the first: 0, -2, -4."""
    return PENALTY_PER_EXTRA_ACTION * (whole("actions", declared, 1) - 1)


def take_action(chase: ActingChase, participant_id: str, action: str, declared: int | None = None) -> dict[str, int]:
    """Count one action of the character this turn (recorded as ActionTaken) and give the
    Multi-Actions modifier of its roll, named as the log shows it."""
    p = chase.participant(participant_id)
    so_far = actions_taken(chase, participant_id)
    number = so_far["taken"] + 1
    if declared is not None:
        if whole("actions", declared, 1) > MAX_ACTIONS:
            raise InvalidValue("actions", f"at most {MAX_ACTIONS} actions a turn ({MULTI_ACTIONS})")
        if declared < number:
            raise InvalidValue("actions", f"this is {p.name}'s action {number} this turn: declare {number} or more")
    if number > MAX_ACTIONS:
        raise RuleBroken(f"{p.name} has taken {so_far['taken']} actions this turn: {MAX_ACTIONS} at most", MULTI_ACTIONS)
    of = max(so_far["declared"], declared or 1, number)
    chase.trigger_event(chase.ActionTaken, participant_id=participant_id, what=action, number=number, declared=of)
    penalty = multi_action_penalty(of)
    return {"multi-action": penalty} if penalty else {}
