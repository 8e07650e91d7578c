"""A shot's dice from the situation, and the firearm rules that span turns: diving for cover and
aiming. The same for one attack (conflict_procedures.attack) and for several shots, a burst or
full auto (fire_procedures.fire).

coc7e-combat.txt "Firearm Attack Modifiers": "Diving for Cover (Penalty die)", "Aiming (Bonus
die)", the named modifiers (firearm_modifiers.py), and "Prone" (a prone target's penalty die is
ignored at point-blank range).
"""
from __future__ import annotations

from typing import Any, Sequence

from domain.rules.coc7e import arms, combat_events, firearm_events, firearm_modifiers, keeper_rolls, maneuvers, rounds, weapons
from domain.rules.coc7e.errors import InvalidCommand, RuleBroken
from domain.rules.coc7e.keeper_rolls import RollSources
from domain.rules.coc7e.participants import Participant

COMBAT = "coc7e-combat.txt"
DIVING = f'{COMBAT} "Diving for Cover (Penalty die)"'
AIMING = f'{COMBAT} "Aiming (Bonus die)"'
DIVE = "dive for cover"  # the target's response to a firearm attack


def dice(
    shooter: Participant, target: Participant, named: Sequence[str], distance_yards: int | None, *, firearm: bool,
) -> tuple[int, int, list[dict[str, Any]]]:
    """(bonus dice, penalty dice, each named modifier applied) of an attack from the standing
    conditions ("Prone", a maneuver's on-going die) and the named firearm modifiers. "Those
    targeting a prone character with a firearm get one penalty die (ignore this if at point
    blank-range)"."""
    bonus, penalty, applied = firearm_modifiers.dice(shooter, target, named, distance_yards, firearm=firearm)
    standing_bonus, standing_penalty = maneuvers.attack_dice(shooter, target, firearm=firearm)
    if firearm and target.prone and "point blank" in named:
        standing_penalty -= 1
    return bonus + standing_bonus, penalty + standing_penalty, applied


def require_may_attack(chase: Any, p: Participant) -> None:
    """"A character that opts to dive for cover forfeits their next attack ... If they have already
    used their attack this round, they forfeit their attack in the following round"."""
    if p.dived_until_round is not None and chase.round <= p.dived_until_round:
        raise RuleBroken(f"{p.name} dived for cover and forfeits their attack(s) in round {p.dived_until_round}", DIVING)


def require_may_respond(chase: Any, target: Participant, response: str) -> None:
    """"The only option available to a character that has dived for cover, until their next
    attack, is to dodge further attacks" (dodging, or diving again)."""
    if response in ("fight back", "maneuver") and target.dived_until_round is not None and chase.round <= target.dived_until_round:
        raise RuleBroken(f"{target.name} dived for cover: until their next attack they may only dodge", DIVING)


def dive_for_cover(chase: Any, dice_: RollSources, name: str, target: Participant, shooter: Participant) -> dict[str, Any]:
    """The target's Dodge roll (``name``); a success gives the shooter a penalty die. Either way the
    diver forfeits their next attack: this round's if their turn is still to come, else the next."""
    if target.kind == "vehicle":
        raise RuleBroken(f"{target.name} is a vehicle: its people dive for cover, not it", DIVING)
    if target.incapacitated:
        raise RuleBroken(f"{target.name} is out of the fight: no dive for cover", DIVING)
    if "Dodge" not in target.skills:
        raise InvalidCommand("response" if name == "defence" else "diving", f"{target.name} has no Dodge value to dive for cover with")
    record = keeper_rolls.skill_roll(chase, dice_, name, target.id, target.id, f"diving for cover from {shooter.name}", "Dodge", target.skills["Dodge"])
    to_come = target.id in chase.turn_order[chase.turn_index + 1:]
    chase.trigger_event(
        firearm_events.DivedForCover, participant_id=target.id, attacker_id=shooter.id, roll_sequence=record["sequence"],
        success=record["success"], forfeits_round=chase.round if to_come else chase.round + 1,
    )
    # A Dodge roll made in the round: later melee attacks on the diver get the outnumbered bonus die.
    chase.trigger_event(combat_events.Defended, participant_id=target.id, response=DIVE, round=chase.round)
    return record


def check_aim(chase: Any, participant_id: str) -> Participant:
    """The guard of ``take_aim`` past the target and gun named: the aimer's turn, free to attack,
    a gun carried, and nothing done yet this turn (aiming takes the turn)."""
    p = rounds.require_turn(chase, participant_id)
    require_may_attack(chase, p)
    arms.require_gun(p)
    if p.attacks_made:
        raise RuleBroken(f"{p.name} has already acted this turn: aiming takes the turn", AIMING)
    return p


def take_aim(chase: Any, participant_id: str, target_id: str, weapon: str) -> dict[str, Any]:
    """"The intention to take careful aim must be declared on the character's turn ... The shot is
    taken on the same turn in the order of combat on the following round": the turn is spent."""
    p = check_aim(chase, participant_id)
    t = chase.participant(target_id)
    if t.id == p.id:
        raise InvalidCommand("target_id", "a shooter aims at someone else")
    armed = arms.armed(p, weapon)
    if not armed.weapon.firearm:
        raise InvalidCommand("weapon", f"{armed.weapon.name} is not aimed: aiming is a firearms modifier ({AIMING})")
    location, aimed_in = chase.track.location_of(p.vehicle or p.id), chase.round
    chase.trigger_event(firearm_events.AimTaken, participant_id=p.id, target_id=t.id, weapon=armed.weapon.name, round=aimed_in, location=location)
    rounds.finish_turn(chase, p, "taking aim")
    return {"aiming_at": t.id, "weapon": armed.weapon.name, "shot_in_round": aimed_in + 1, "rolls": []}


def aim_dice(chase: Any, shooter: Participant, target_id: str | None, weapon: str | None, *, single_shot: bool, shot: bool = True) -> int:
    """The bonus die of an aimed shot, spent; any other action first loses the aim. "If the aiming
    character takes damage or moves while aiming, the advantage of aiming is lost" (damage:
    wound_procedures.suffer); "Only one bonus die may be gained by aiming"."""
    aim = shooter.aim
    if aim is None:
        return 0
    name = weapons.weapon(weapon).name if weapon is not None else None
    reason = _aim_lost(chase, shooter, aim, target_id, name, single_shot) if shot else "another action than the aimed shot"
    chase.trigger_event(firearm_events.AimEnded, participant_id=shooter.id, bonus=reason is None, reason=reason or "the aimed shot")
    return int(reason is None)


def lose_aim(chase: Any, p: Participant, reason: str) -> None:
    """The aim is lost: the aimer took damage, or did something else."""
    if p.aim is not None:
        chase.trigger_event(firearm_events.AimEnded, participant_id=p.id, bonus=False, reason=reason)


def _aim_lost(chase: Any, shooter: Participant, aim: dict[str, Any], target_id: str | None, weapon: str | None, single_shot: bool) -> str | None:
    if chase.round != aim["round"] + 1 or shooter.attacks_made:
        return "the shot was not taken on the aimer's next turn"
    if chase.track.location_of(shooter.vehicle or shooter.id) != aim["location"]:
        return "the aimer moved"
    if not single_shot:
        return "the aim is for one shot, not several"
    if (target_id, weapon) != (aim["target_id"], aim["weapon"]):
        return "another target or weapon than the one aimed"
    return None
