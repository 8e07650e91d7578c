"""Wounds and healing in a chase, by events: the blow read after damage (with the CON roll of a
major wound), the Keeper's damage, dying rolls, First Aid, Medicine, recovery and the Keeper's
rulings on consciousness and standing (rules: wounds.py; events: wound_events.py).

``suffer`` is the one entry for damage to a character: every procedure that deals hit points
(attacks, hazards, collisions, and later driver damage) calls it after its DamageTaken.
"""
from __future__ import annotations

from typing import Any, Protocol

from domain.rules.coc7e import damage_events, firearm_events, keeper_rolls, weapon_damage, wound_events, wounds
from domain.rules.coc7e.errors import InvalidCommand, RuleBroken
from domain.rules.coc7e.keeper_rolls import RollSources
from domain.rules.coc7e.participants import Participant

MAX_DAYS = 1000


class WoundChase(keeper_rolls.RollingChase, Protocol):
    """What the wound procedures use of a chase: its participants and its rolls."""

    participants: dict[str, Participant]


def suffer(chase: WoundChase, p: Participant, hp_left_before: int | None, taken: int, cause: str, dice: RollSources) -> list[dict[str, Any]]:
    """Read a blow a character has just taken ("Tracking Damage"); a major wound that leaves them
    conscious at more than zero calls for the CON roll at once (roll "con.<id>")."""
    if p.kind == "vehicle" or p.hp is None or hp_left_before is None or p.dead or taken <= 0:
        return []
    read = wounds.blow(p.hp, hp_left_before, taken, major_wound_before=p.major_wound)
    if p.aim is not None:
        # "If the aiming character takes damage ... the advantage of aiming is lost" ("Aiming (Bonus die)").
        chase.trigger_event(firearm_events.AimEnded, participant_id=p.id, bonus=False, reason=f"took damage: {cause}")
    chase.trigger_event(
        wound_events.Wounded, participant_id=p.id, taken=taken, major_wound=read.major_wound, killed=read.killed,
        unconscious=read.unconscious, dying=read.dying, cause=cause,
    )
    if not read.con_roll or p.unconscious or p.con is None:
        return []  # no CON known (a driver or passenger may be given none): nothing to roll against
    record = keeper_rolls.skill_roll(chase, dice, f"con.{p.id}", p.id, p.id, f"CON roll for a major wound: {cause}", "CON", _con(p))
    chase.trigger_event(wound_events.ConsciousnessRolled, participant_id=p.id, roll_sequence=record["sequence"], conscious=record["success"])
    return [record]


def inflict(chase: WoundChase, participant_id: str, dice: RollSources, amount: int, *, armor: int = 0, cause: str = "the Keeper's ruling") -> dict[str, Any]:
    """The Keeper's damage of a given amount in one blow (Other Forms of Damage, a fall, a bite),
    less ``armor`` ("Armor")."""
    p = check_inflict(chase, participant_id)
    for name, value in (("amount", amount), ("armor", armor)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10000:
            raise InvalidCommand(name, "must be a whole number of hit points from 0 to 10000")
    rolls = hurt(chase, p, amount, armor, cause, None, dice)
    return {"hp_left": p.hp_left, "rolls": rolls}


def hurt(chase: WoundChase, p: Participant, rolled: int, armor: int, cause: str, record: dict[str, Any] | None, dice: RollSources) -> list[dict[str, Any]]:
    """Hit points of damage to a character or creature, less armor, and the blow read."""
    taken = weapon_damage.through_armor(rolled, armor)
    before = p.hp_left
    chase.trigger_event(
        damage_events.DamageTaken, participant_id=p.id, rolled=rolled, armor=armor, taken=taken, cause=cause,
        roll_sequence=record["sequence"] if record else None,
    )
    return suffer(chase, p, before, taken, cause, dice)


def dying_roll(chase: WoundChase, participant_id: str, dice: RollSources) -> dict[str, Any]:
    """"The player must make a CON roll at the end of the next round and every round thereafter; if
    one of these CON rolls fails, the character dies immediately" (stabilised: each hour, a failure
    losing the temporary hit point)."""
    p = check_dying_roll(chase, participant_id)
    record = keeper_rolls.skill_roll(chase, dice, "con", p.id, p.id, "CON roll while dying", "CON", _con(p))
    hp_after = p.hp_left if record["success"] or not p.stabilised else 0
    chase.trigger_event(wound_events.DyingRolled, participant_id=p.id, roll_sequence=record["sequence"], survived=record["success"], hp_after=hp_after)
    return {"survived": record["success"], "dead": p.dead, "rolls": [record]}


def first_aid(
    chase: WoundChase, participant_id: str, dice: RollSources, *, healer_id: str | None = None, target: int | None = None, pushed: bool = False,
    assistant_id: str | None = None,
) -> dict[str, Any]:
    """First Aid: 1 hit point, or a dying patient stabilised on 1 temporary hit point; attempted
    once, "with subsequent attempts constituting a Pushed roll". ``assistant_id``: "Two people can
    work together to administer First Aid, with a success granted if either one of them rolls a
    success" (their roll: "assistant")."""
    if assistant_id is not None and assistant_id == healer_id:
        raise InvalidCommand("assistant_id", "the assistant is a second person, not the healer")
    p = check_first_aid(chase, participant_id, pushed)
    record = _treatment_roll(chase, dice, "first_aid", p, healer_id, "First Aid", target)
    rolls = [record]
    if assistant_id is not None:
        rolls.append(_treatment_roll(chase, dice, "assistant", p, assistant_id, "First Aid", None))
    success = any(r["success"] for r in rolls)
    stabilised = success and p.dying
    hp_after = wounds.FIRST_AID_HEALS if stabilised else min(p.hp, p.hp_left + (wounds.FIRST_AID_HEALS if success else 0))
    chase.trigger_event(
        wound_events.FirstAidGiven, participant_id=p.id, healer_id=healer_id, roll_sequence=record["sequence"], pushed=bool(pushed),
        success=success, hp_after=hp_after, stabilised=stabilised,
    )
    return {"success": success, "stabilised": stabilised, "hp_left": p.hp_left, "rolls": rolls}


def medicine(
    chase: WoundChase, participant_id: str, dice: RollSources, *, healer_id: str | None = None, target: int | None = None, same_day: bool = True,
) -> dict[str, Any]:
    """Medicine: 1D3 hit points (Hard if not the same day); a dying patient only once First Aid has
    stabilised them, then the "dying" box is unchecked."""
    p = check_medicine(chase, participant_id)
    difficulty = "regular" if same_day else wounds.MEDICINE_LATE_DIFFICULTY
    record = _treatment_roll(chase, dice, "medicine", p, healer_id, "Medicine", target, difficulty)
    rolls, healed = [record], 0
    if record["success"]:
        healed, heal = keeper_rolls.amount_roll(chase, dice, "heal", wounds.MEDICINE_HEALS, p.id, "hit points recovered with Medicine")
        rolls += [heal] if heal else []
    saved = record["success"] and p.dying
    chase.trigger_event(
        wound_events.MedicineGiven, participant_id=p.id, healer_id=healer_id, roll_sequence=record["sequence"], success=record["success"],
        hp_after=min(p.hp, p.hp_left + healed), saved=saved,
    )
    return {"success": record["success"], "saved": saved, "hp_left": p.hp_left, "rolls": rolls}


def recover(
    chase: WoundChase, participant_id: str, dice: RollSources, *, days: int = 0, week: bool = False, rest: bool = False,
    medical_care: dict[str, Any] | None = None, poor_environment: bool = False,
) -> dict[str, Any]:
    """Natural recovery: ``days`` of regular healing (no major wound: 1 hit point a day), or one
    ``week``'s recovery roll for a major wound (CON; bonus dice for rest and effective medical
    care, the care giver's Medicine roll first; penalty dice for a poor environment or its fumble)."""
    p = check_recover(chase, participant_id)
    if isinstance(days, bool) or not isinstance(days, int) or not 0 <= days <= MAX_DAYS:
        raise InvalidCommand("days", f"must be a whole number of days from 0 to {MAX_DAYS}")
    if bool(days) == bool(week):
        raise InvalidCommand("days", "give days of regular recovery, or a week's recovery roll (week: true)")
    if days:
        if p.major_wound:
            raise RuleBroken(f"{p.name} has a major wound: a recovery roll at the end of each week", wounds.MAJOR_RECOVERY)
        hp_after = min(p.hp, p.hp_left + days * wounds.HIT_POINTS_A_DAY)
        chase.trigger_event(wound_events.Recovered, participant_id=p.id, days=days, weeks=0, roll_sequence=None, hp_after=hp_after, major_wound_healed=False, lasting_injury=False)
        return {"hp_left": p.hp_left, "rolls": []}
    if not p.major_wound:
        raise RuleBroken(f"{p.name} has no major wound: regular damage heals 1 hit point a day", wounds.REGULAR_RECOVERY)
    rolls, care = [], None
    if medical_care is not None:
        if not isinstance(medical_care, dict) or set(medical_care) - {"healer_id", "target"}:
            raise InvalidCommand("medical_care", "give the care giver (healer_id) or their Medicine value (target)")
        record = _treatment_roll(chase, dice, "medicine", p, medical_care.get("healer_id"), "Medicine", medical_care.get("target"))
        rolls.append(record)
        care = record["level"]
    bonus, penalty = wounds.recovery_bonus_and_penalty(rest=bool(rest), medical_care=care, poor_environment=bool(poor_environment))
    record = keeper_rolls.skill_roll(chase, dice, "con", p.id, p.id, "recovery roll for a major wound", "CON", _con(p), bonus=bonus, penalty=penalty)
    rolls.append(record)
    healed = 0
    if wounds.recovery_dice(record["level"]):
        healed, heal = keeper_rolls.amount_roll(chase, dice, "heal", wounds.recovery_dice(record["level"]), p.id, "hit points recovered this week")
        rolls += [heal] if heal else []
    hp_after = min(p.hp, p.hp_left + healed)
    chase.trigger_event(
        wound_events.Recovered, participant_id=p.id, days=0, weeks=1, roll_sequence=record["sequence"], hp_after=hp_after,
        major_wound_healed=wounds.major_wound_healed(record["level"], hp_after, p.hp), lasting_injury=record["level"] == "fumble",
    )
    return {"hp_left": p.hp_left, "major_wound": p.major_wound, "lasting_injury": record["level"] == "fumble", "rolls": rolls}


def rule_condition(chase: WoundChase, participant_id: str, *, conscious: bool | None = None, standing: bool | None = None, reason: str = "") -> None:
    """The Keeper's ruling: an unconscious character comes to (only above zero hit points and not
    dying), or a prone one stands up."""
    p = patient(chase, participant_id)
    if not conscious and not standing:
        raise InvalidCommand("conscious", "rule that they come to (conscious: true) or stand up (standing: true)")
    if conscious and (p.dead or p.dying or p.hp_left == 0):
        raise RuleBroken(f"{p.name} is {'dead' if p.dead else 'dying' if p.dying else 'at zero hit points'}: unconscious", wounds.ZERO_HIT_POINTS)
    chase.trigger_event(wound_events.ConditionRuled, participant_id=p.id, conscious=conscious or None, standing=standing or None, reason=reason or "")


# -- guards: each command calls its own first; the view asks them what may be done now --------

def patient(chase: WoundChase, participant_id: str) -> Participant:
    """What every wound and healing command needs: a chase going on, a character with hit points."""
    chase.require_not_ended()
    return _character(chase, participant_id)


def check_inflict(chase: WoundChase, participant_id: str) -> Participant:
    p = patient(chase, participant_id)
    if p.dead:
        raise RuleBroken(f"{p.name} is dead", wounds.ZERO_HIT_POINTS)
    return p


def check_dying_roll(chase: WoundChase, participant_id: str) -> Participant:
    p = patient(chase, participant_id)
    if not p.dying:
        raise RuleBroken(f"{p.name} is not dying", wounds.DYING)
    return p


def check_first_aid(chase: WoundChase, participant_id: str, pushed: bool = False) -> Participant:
    p = patient(chase, participant_id)
    if p.dead:
        raise RuleBroken(f"{p.name} is dead", wounds.FIRST_AID)
    if p.damage == 0:
        raise RuleBroken(f"{p.name} is unhurt: nothing to treat", wounds.FIRST_AID)
    if p.stabilised:
        raise RuleBroken(f"{p.name} is stabilised: Medicine must follow", wounds.DYING)
    if pushed and p.first_aid_tries == 0:
        raise InvalidCommand("pushed", "First Aid is attempted once before a pushed roll")
    if p.first_aid_succeeded:
        # "It may be attempted once, with subsequent attempts constituting a Pushed roll": a push is
        # a second try at a failed roll; after a success there is nothing to push (Medicine follows).
        raise RuleBroken(f"First Aid has already succeeded on {p.name}: no further attempt, pushed or not (Medicine follows)", wounds.FIRST_AID)
    if p.first_aid_tries >= 1 and not pushed:
        raise RuleBroken(f"First Aid was attempted on {p.name}: a further attempt is a pushed roll (pushed: true)", wounds.FIRST_AID)
    if p.first_aid_tries >= wounds.FIRST_AID_TRIES:
        raise RuleBroken(f"First Aid was attempted and pushed on {p.name}: no more tries for this injury", wounds.FIRST_AID)
    return p


def check_medicine(chase: WoundChase, participant_id: str) -> Participant:
    p = patient(chase, participant_id)
    if p.dead:
        raise RuleBroken(f"{p.name} is dead", wounds.MEDICINE)
    if p.dying and not p.stabilised:
        raise RuleBroken(f"{p.name} is dying: only First Aid can stabilise them, Medicine follows", wounds.DYING)
    if p.medicine_given:
        raise RuleBroken(f"{p.name} has been treated with Medicine for these injuries", wounds.MEDICINE)
    if p.damage == 0:
        raise RuleBroken(f"{p.name} is unhurt: nothing to treat", wounds.MEDICINE)
    return p


def check_recover(chase: WoundChase, participant_id: str) -> Participant:
    p = patient(chase, participant_id)
    if p.dead or p.dying:
        raise RuleBroken(f"{p.name} is {'dead' if p.dead else 'dying'}: no natural recovery", wounds.DYING)
    return p


# -- internals -----------------------------------------------------------------------------

def _character(chase: WoundChase, participant_id: str) -> Participant:
    p = chase.participant(participant_id)
    if p.kind == "vehicle" or p.hp is None:
        raise RuleBroken(f"{p.name} has no hit points to wound or heal (give hp)", wounds.TRACKING)
    return p


def _con(p: Participant) -> int:
    if p.con is None:
        raise RuleBroken(f"{p.name} has no CON for the roll", wounds.MAJOR_WOUND)
    return p.con


def _treatment_roll(
    chase: WoundChase, dice: RollSources, name: str, patient: Participant, healer_id: str | None, skill: str, target: int | None, difficulty: str = "regular",
) -> dict[str, Any]:
    healer = chase.participant(healer_id) if healer_id is not None else None
    if healer is None and target is None:
        raise InvalidCommand("healer_id", f"give the healer (a participant with {skill}) or the {skill} value (target)")
    roller, value = keeper_rolls.roller_value(chase, healer, skill, target) if healer else (None, target)
    return keeper_rolls.skill_roll(
        chase, dice, name, patient.id, roller.id if roller else None, f"{skill} for {patient.name}", skill, value, difficulty=difficulty,
    )
