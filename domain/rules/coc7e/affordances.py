"""What each participant of a Call of Cthulhu chase or fight may do now, and why not (domain/affordances.py).

Every entry asks the guard its command calls first (rounds.check_move, obstacle_procedures.facing,
wound_procedures.check_first_aid, ...), so a refusal here is word for word the refusal the command
would answer with. Most commands are for the one whose turn it is ("Dexterity and the Order of
Movement"): ``require_turn`` is asked once per participant and its refusal stands for every one of
them, which keeps a chase of 1,000 participants cheap (one refusal each, not one per command).
"""
from __future__ import annotations

from typing import Any

from domain.affordances import Judges, Refusal, judge, record_actions, same_for_all
from domain.rules.coc7e import arms, boarding, conflict_procedures, encounter_rounds, fire_procedures, joining, mishaps, modes, monsters, obstacle_procedures, optional_rules, pedal_procedures, road_procedures, rounds, routes, shooting, splitting, trail_procedures, wound_procedures
from domain.rules.coc7e.errors import CHASES

# The commands only the one whose turn it is may send (each calls rounds.require_turn first).
ON_TURN_CHASE = ("move", "delay", "end_turn", "negotiate", "break_barrier", "attack", "fire", "aim", "reload")
ON_TURN_FIGHT = ("delay", "end_turn", "attack", "fire", "aim", "reload")
ENDING = f"{CHASES} \"Escaping the Pursuer\""


def _participant(chase: Any, pid: str) -> dict[str, Refusal]:
    """What one participant of a chase may do now (coc7e-chases.txt)."""
    actions = {"speed_roll": judge(lambda: chase.check_speed_roll(pid))}
    actions.update(_on_turn(chase, pid, ON_TURN_CHASE))
    actions.update(_keeper_rulings(chase, pid))
    actions.update(_optional(chase, pid))
    return actions


def _chase(chase: Any) -> dict[str, Refusal]:
    """What may be done now in a chase as a whole (coc7e-chases.txt)."""
    return {
        "add_participant": judge(chase.check_add_participant),
        "place_fork": judge(lambda: routes.check_place_fork(chase)),
        "split": judge(lambda: splitting.check_split(chase)),
        "cut_to_the_chase": judge(chase.check_cut_to_the_chase),
        "skill_roll": judge(chase.require_not_ended),
        "dice_roll": judge(chase.require_not_ended),
        "place_obstacle": judge(chase.require_not_ended),
        "name_location": judge(chase.require_not_ended),
        "random_hazards": judge(chase.require_not_ended),
        # the side calling is the request's: the view's pursuit.sudden_hazards.may_call says which
        "call_sudden_hazard": judge(lambda: pedal_procedures.check_call_sudden_hazard(chase)),
        "place_sudden_hazard": judge(lambda: pedal_procedures.check_place_sudden_hazard(chase)),
        "change_optional_rules": judge(lambda: optional_rules.check_change_optional_rules(chase)),
        **record_actions(chase, ENDING),
    }


def _fighter(encounter: Any, pid: str) -> dict[str, Refusal]:
    """What one participant of a fight without a chase may do now (coc7e-combat.txt)."""
    actions = _on_turn(encounter, pid, ON_TURN_FIGHT)
    actions.update(_keeper_rulings(encounter, pid))
    actions.update(
        join_fight=judge(lambda: encounter_rounds.check_join_fight(encounter, pid)),
        ready_firearm=judge(lambda: encounter_rounds.check_ready_firearm(encounter, pid)),
        flee=judge(lambda: encounter_rounds.check_flee(encounter, pid)),
    )
    return actions


def _fight(encounter: Any) -> dict[str, Refusal]:
    """What may be done now in a fight without a chase as a whole (coc7e-combat.txt)."""
    return {
        # Joining a fight in progress is allowed (Encounter.add_participant): stand by, then join_fight.
        "add_participant": None if encounter.phase == "running" else judge(encounter.check_add_participant),
        "begin_fight": judge(lambda: encounter_rounds.check_begin_fight(encounter)),
        "skill_roll": judge(encounter.require_not_ended),
        "dice_roll": judge(encounter.require_not_ended),
        **record_actions(encounter, encounter_rounds.ORDER_OF_ATTACK),
    }


legal_actions = Judges(_chase, _participant)  # a chase (coc7e-chases.txt)
legal_fight_actions = Judges(_fight, _fighter)  # a fight without a chase (coc7e-combat.txt)


def _optional(chase: Any, pid: str) -> dict[str, Refusal]:
    """The optional rules' commands (coc7e-chases.txt part 5): each guard asks first whether the
    chase uses its rule, so a rule switched off answers with the 409 its command gives."""
    return {
        "choose_route": judge(lambda: routes.check_choose_route(chase, pid)),
        "join": judge(lambda: joining.check_join(chase, pid)),
        "leave": judge(lambda: joining.check_leave(chase, pid)),
        "switch_mode": judge(lambda: modes.check_switch_mode(chase, pid)),
        # the vehicle boarded is the request's: allowed when one on foot may take a wheel
        "board": judge(lambda: boarding.check_board(chase, pid)),
        "alight": judge(lambda: boarding.check_alight(chase, pid)),
        "substitute_skill": judge(lambda: monsters.check_substitute_skill(chase, pid)),
        "accelerate": judge(lambda: pedal_procedures.check_accelerate(chase, pid)),
        "visibility": judge(lambda: pedal_procedures.check_visibility(chase, pid)),
        "navigate": judge(lambda: road_procedures.check_navigate(chase, pid)),
        "keep_control": judge(lambda: road_procedures.check_keep_control(chase, pid)),
        # target and weapon are the request's, as for attack and fire
        "attack_on_the_move": judge(lambda: road_procedures.check_shoot_on_the_move(chase, pid, "attack")),
        "fire_on_the_move": judge(lambda: road_procedures.check_shoot_on_the_move(chase, pid, "fire")),
        "shoot_tire": judge(lambda: road_procedures.check_shoot_tire(chase, pid)),  # the vehicle and gun: the request's
        "create_hazard": judge(lambda: road_procedures.check_create_hazard(chase, pid)),  # the action: the request's
        "fly_over": judge(lambda: modes.check_fly_over(chase, pid)),
        "hide": judge(lambda: trail_procedures.check_hide(chase, pid)),
        "follow_trail": judge(lambda: trail_procedures.check_follow_trail(chase, pid)),  # the quarry is the request's
    }


def _on_turn(chase: Any, pid: str, actions: tuple[str, ...]) -> dict[str, Refusal]:
    """The turn's commands: the turn's guard once, then each command's own guard past it."""
    turn = judge(lambda: rounds.require_turn(chase, pid))
    if turn is not None:
        return same_for_all(turn, actions)
    found = same_for_all(None, actions)  # attack, fire, aim, reload: the rest depends on target and weapon
    for action, guard in _PAST_THE_TURN.items():
        if action in found:
            found[action] = judge(lambda: guard(chase, pid))
    return found


# The guards of the turn's commands, beyond whose turn it is.
_PAST_THE_TURN = {
    "move": lambda chase, pid: rounds.check_move(chase, pid, 1),
    "delay": rounds.check_delay,
    "negotiate": lambda chase, pid: obstacle_procedures.facing(chase, pid, None),
    "break_barrier": obstacle_procedures.check_break,
    "attack": conflict_procedures.check_attack,
    "fire": fire_procedures.check_fire,
    "aim": shooting.check_aim,
    "reload": lambda chase, pid: arms.require_gun(rounds.require_turn(chase, pid)),
}


WOUNDS = ("damage", "dying_roll", "first_aid", "medicine", "recovery", "condition")
MISHAPS = ("mishap_roll", "consequences")


def _keeper_rulings(chase: Any, pid: str) -> dict[str, Refusal]:
    """Mishaps, wounds and healing: whenever the rules allow, not only on the participant's turn.
    As for the turn, the guard each of them calls first is asked once for all of them."""
    running = judge(lambda: mishaps.require_running(chase))
    found = same_for_all(running, MISHAPS) if running else {
        "mishap_roll": judge(lambda: mishaps.check_mishap_roll(chase, pid)),
        "consequences": judge(lambda: mishaps.check_consequences(chase, pid)),
    }
    patient = judge(lambda: wound_procedures.patient(chase, pid))
    if patient is not None:
        return {**found, **same_for_all(patient, WOUNDS)}
    p = chase.participants[pid]
    return {
        **found,
        "damage": judge(lambda: wound_procedures.check_inflict(chase, pid)),
        "dying_roll": judge(lambda: wound_procedures.check_dying_roll(chase, pid)),
        "first_aid": judge(lambda: wound_procedures.check_first_aid(chase, pid, p.first_aid_tries >= 1)),
        "medicine": judge(lambda: wound_procedures.check_medicine(chase, pid)),
        "recovery": judge(lambda: wound_procedures.check_recover(chase, pid)),
        "condition": None,  # its guard is ``patient``, passed
    }
