"""What each participant of a Savage Worlds chase may do now, and why not (domain/affordances.py).

Every entry asks the guard its command calls first: ``acting_unit`` (the unit whose turn it is,
nothing left to resolve: swade-chases-reference.txt "MANEUVERS", swd-chases.txt "Action Cards"),
the Deluxe maneuver roll's ``_maneuvering_unit``, Hold's ``check_act_from_hold``, or the chase
going on at all (``_require_running``) for what the GM or a player may do at any time (bennies,
conditions, trait and damage rolls). A refusal here is word for word the command's.
"""
from __future__ import annotations

from typing import Any

from domain.affordances import Judges, Refusal, judge, record_actions
from domain.rules.savage_worlds import hold, recovery, savage_rolls, swade_turns, swd_actions

# The Adventure Edition's maneuvers and what each command says it cannot do (swade_maneuvers.py).
SWADE_MANEUVERS = {
    "change_position": "Change Position", "drop_back": "drop back", "evade": "Evade", "hold_steady": "Hold Steady",
    "flee": "Flee", "force": "Force", "ram": "Ram", "attack": "attack",
}
SWD_ON_TURN = {"attack": "attack", "force": "Force"}  # swd_actions.py
ANY_TIME = ("conditions", "bennies", "benny_reroll", "benny_soak", "test")


def _swade_participant(chase: Any, pid: str) -> dict[str, Refusal]:
    """What one participant of an Adventure Edition chase may do now (swade-chases-reference.txt)."""
    actions = _common(chase, pid)
    actions.update({action: judge(lambda: chase.acting_unit(pid, what)) for action, what in SWADE_MANEUVERS.items()})
    actions["hold"] = judge(lambda: chase.acting_unit(pid, "go on Hold"))
    actions["act_from_hold"] = judge(lambda: hold.check_act_from_hold(chase, pid))
    actions["new_action_card"] = judge(_running_and_settled(chase))
    return actions


def _swade_chase(chase: Any) -> dict[str, Refusal]:
    return {**_chase_level(chase), "action_cards": judge(lambda: swade_turns.check_deal(chase))}


def _swd_participant(chase: Any, pid: str) -> dict[str, Refusal]:
    """What one participant of a Deluxe chase may do now (swd-chases.txt)."""
    p = chase.participants[pid]
    actions = _common(chase, pid)
    actions.update({action: judge(lambda: chase.acting_unit(pid, what)) for action, what in SWD_ON_TURN.items()})
    actions["maneuver"] = judge(lambda: swd_actions._maneuvering_unit(chase, pid))
    actions["cooperate"] = judge(lambda: swd_actions._maneuvering_unit(chase, p.with_id)) if p.aboard and p.seat != "driver" else (
        f"{p.name} is no passenger: cooperative rolls are the passengers'", swd_actions.rules.ACTION_CARD)
    return actions


def _common(chase: Any, pid: str) -> dict[str, Refusal]:
    running = judge(chase._require_running)
    return {
        "end_turn": judge(lambda: chase.acting_unit(pid, "end the turn", in_chase=False)),
        **dict.fromkeys(ANY_TIME, running),
        "recover": judge(lambda: savage_rolls.check_recover(chase, pid)),
        "recover_from_stunned": judge(lambda: recovery.check_recover_from_stunned(chase, pid)),
        "break_free": judge(lambda: recovery.check_break_free(chase, pid)),
    }


def _chase_level(chase: Any) -> dict[str, Refusal]:
    running = judge(chase._require_running)
    return {
        "add_participant": judge(lambda: chase._require_phase("setup", "participants join before the chase begins")),
        "begin": judge(lambda: chase._require_phase("setup", "the chase has already begun")),
        "resolve": judge(chase.next_follow_up),
        "trait_roll": running,
        "damage_roll": running,
        "breaking_things": running,
        **record_actions(chase, chase.RULES),
    }


def _running_and_settled(chase: Any) -> Any:
    def check() -> None:
        chase._require_running()
        chase._require_nothing_pending()
    return check


legal_swade = Judges(_swade_chase, _swade_participant)  # an Adventure Edition chase (swade-chases-reference.txt)
legal_swd = Judges(_chase_level, _swd_participant)  # a Deluxe chase (swd-chases.txt)
