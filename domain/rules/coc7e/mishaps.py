"""Mishaps and what they cost: damage, Build, lost movement actions, vehicles out of action.

A mishap is a failed hazard ("Hazards") or a successful fighting maneuver suffered in a chase
("Using Fighting Maneuvers in a Chase": "the same outcome as failing a skill roll for a hazard").
It waits for the Keeper's ruling, since "the Keeper should decide if damage is inflicted ...,
and how much": ``rule_consequences`` takes the row of Table VI: Vehicular Collisions (vehicles)
or Table III: Other Forms of Damage (characters), by default the row of the difficulty
("Vehicular Collisions": minor, moderate, severe for Regular, Hard, Extreme), and 1D3 lost
movement actions, owed into the next round when none are left. After a maneuver the Keeper
may first call for a roll "as if encountering a hazard" (``mishap_roll``). While a mishap
waits, its participant cannot act. The Keeper may also rule consequences with no mishap
waiting (a failed barrier "may cause damage and delay as a hazard does").

Vehicles (notes under the "Vehicle Reference Charts"): damage in one incident equal to the full
Build wrecks the vehicle (occupants' fate as the Keeper rules, 2D10 for those thrown free);
reaching zero Build by cumulative damage leaves it undrivable (1D10 to each occupant if the
Keeper rules it an accident). Either way it and those aboard leave the chase.
"""
from __future__ import annotations

from typing import Any, Protocol

from domain.rules.coc7e import damage as tables
from domain.rules.coc7e import damage_events, keeper_rolls, obstacle_events, obstacles, rounds, track_features, vehicles, wound_procedures
from domain.rules.coc7e.conflict import MANEUVER_DIFFICULTY, MANEUVERS_IN_A_CHASE
from domain.rules.coc7e.errors import InvalidCommand, RuleBroken
from domain.rules.coc7e.keeper_rolls import RollSources
from domain.rules.coc7e.participants import Participant, build_number

AFTERMATH_KEYS = ("fates", "accident")


class MishapChase(rounds.RoundsChase, keeper_rolls.RollingChase, Protocol):
    """What the mishap and damage procedures use of a chase: the rounds' and the rolls' needs
    (their turns go on, their damage is rolled)."""


def vehicle_state(v: Participant) -> vehicles.VehicleBuild:
    """A vehicle participant's Build as the pure rules see it."""
    starting = v.starting_build if v.starting_build is not None else v.build
    return vehicles.VehicleBuild(vehicles.as_build(starting), v.build_lost, v.condition == "wrecked")


# -- commands ------------------------------------------------------------------------------

def mishap_roll(
    chase: MishapChase, participant_id: str, dice: RollSources, skill: str, *, target: int | None = None,
    difficulty: str = "regular", bonus_dice: int = 0, penalty_dice: int = 0,
) -> dict[str, Any]:
    """After a maneuver: "a skill roll must then be made ... as if encountering a hazard"."""
    p, mishap = check_mishap_roll(chase, participant_id)
    if not isinstance(skill, str) or not skill.strip():
        raise InvalidCommand("skill", "is required")
    if difficulty not in obstacles.DIFFICULTIES:
        raise InvalidCommand("difficulty", f"must be one of {', '.join(obstacles.DIFFICULTIES)}")
    roller, value = keeper_rolls.roller_value(chase, p, skill.strip(), target)
    record = keeper_rolls.skill_roll(
        chase, dice, "skill", p.id, roller.id, f"as if a hazard: {mishap['cause']}", skill.strip(), value,
        difficulty=difficulty, bonus=bonus_dice, penalty=penalty_dice + keeper_rolls.impaired_penalty(p, skill.strip()),
    )
    chase.trigger_event(obstacle_events.MishapRolled, participant_id=p.id, skill=skill.strip(), roll_sequence=record["sequence"], passed=record["success"])
    rounds.turn_goes_on(chase, p)
    return {"passed": record["success"], "rolls": [record]}


def rule_consequences(
    chase: MishapChase, participant_id: str, dice: RollSources, *, incident: str | None = tables.DEFAULT, damage: str | None = None,
    delay: bool | None = None, difficulty: str | None = None, to_location: Any = None,
    aftermath: dict[str, Any] | None = None, cause: str | None = None,
) -> dict[str, Any]:
    """The Keeper's ruling on a mishap (or on anyone in the chase): damage and delay.

    ``incident``: a row of the table ("minor", ...), "default" (the mishap's default, else the
    row of ``difficulty``), or None for no damage; ``damage``: the Keeper's own dice instead
    (Build for a vehicle, hit points otherwise); ``delay``: 1D3 movement actions lost (default
    yes, except for those aboard a vehicle, who have none); ``to_location``: where the Keeper
    puts the participant (the farmer thrown over the fence).
    """
    p = check_consequences(chase, participant_id)
    mishap = chase.mishaps.get(participant_id)
    if difficulty is not None and difficulty not in tables.DEFAULT_BY_DIFFICULTY:
        raise InvalidCommand("difficulty", f"must be one of {', '.join(tables.DEFAULT_BY_DIFFICULTY)}")
    level = difficulty or (mishap["difficulty"] if mishap else "regular")
    key = incident
    if incident == tables.DEFAULT:
        key = mishap["default_incident"] if mishap and difficulty is None else tables.DEFAULT_BY_DIFFICULTY[level]
    if delay is None:
        delay = not p.aboard
    if delay and p.aboard:
        raise InvalidCommand("delay", "those aboard a vehicle have no movement actions; the vehicle loses them")
    vehicle = p.kind == "vehicle"
    ruled = tables.consequences(level, vehicle=vehicle, incident_key=key, damage=damage, delay=bool(delay))
    place = None
    if to_location is not None:
        if p.aboard:
            raise InvalidCommand("to_location", "those aboard go where their vehicle goes")
        place = track_features.location_index(chase, to_location, "to_location")
    if mishap is None and ruled.damage is None and not delay and place is None:
        raise InvalidCommand("incident", "nothing to rule: give an incident, damage, a delay or to_location")
    check_aftermath(chase, aftermath)
    cause = cause or (mishap["cause"] if mishap else "the Keeper's ruling")
    row = ruled.incident
    chase.trigger_event(
        obstacle_events.ConsequencesRuled, participant_id=p.id, cause=cause, table=row.table if row else None,
        incident=row.key if row else None, damage=ruled.damage, occupant_damage=ruled.occupant_damage,
        delay=bool(delay), mishap=mishap is not None,
    )
    rolls: list[dict[str, Any]] = []
    loss = None
    what = f"{row.name} ({row.table})" if row else "the Keeper's dice"
    if ruled.damage:
        amount, record = keeper_rolls.amount_roll(chase, dice, "damage", ruled.damage, p.id, f"{what}: {cause}")
        rolls += [record] if record else []
        if vehicle:
            loss = lose_build(chase, p, cause, points=amount, sequence=record and record["sequence"])
        else:
            rolls += hurt(chase, p, amount, 0, cause, record, dice)
    if vehicle and ruled.occupant_damage:
        # "The damage should also be rolled for each occupant ..., substituting hit points"
        for o in occupants_of(chase, p):
            amount, record = keeper_rolls.amount_roll(chase, dice, f"occupants.{o.id}", ruled.occupant_damage, o.id, f"{what}, aboard {p.name}: {cause}")
            rolls += [record] if record else []
            rolls += hurt(chase, o, amount, 0, f"aboard {p.name}: {cause}", record, dice)
    if loss is not None:
        rolls += vehicle_aftermath(chase, p, loss, cause, aftermath, dice)
    if ruled.lost_movement_actions and p.status == "in_chase":
        lost, record = keeper_rolls.amount_roll(chase, dice, "movement_actions", ruled.lost_movement_actions, p.id, f"lost movement actions: {cause}")
        rolls += [record] if record else []
        owing = tables.lose_movement_actions(lost, p.movement_actions, p.owed)
        chase.trigger_event(
            damage_events.MovementActionsLost, participant_id=p.id, cause=cause, lost=owing.lost, paid_now=owing.paid_now,
            movement_actions_left=owing.movement_actions_left, owed=owing.owed, roll_sequence=record and record["sequence"],
        )
    if place is not None and p.status == "in_chase":
        here = chase.track.location_of(p.id)
        chase.trigger_event(damage_events.ParticipantDisplaced, participant_id=p.id, from_location=here, to_location=place, reason=cause)
        rounds.record_caught_up(chase, p, place)
    rounds.turn_goes_on(chase, p)
    return {"incident": row.key if row else None, "rolls": rolls}

# -- internals -----------------------------------------------------------------------------

def check_mishap_roll(chase: MishapChase, participant_id: str) -> tuple[Participant, dict[str, Any]]:
    """The guard of ``mishap_roll``: a maneuver's mishap awaits its roll."""
    require_running(chase)
    p = chase.participant(participant_id)
    mishap = chase.mishaps.get(participant_id)
    if mishap is None:
        raise RuleBroken(f"no mishap awaits the Keeper's ruling for {p.name}", MANEUVERS_IN_A_CHASE)
    if mishap["kind"] != "maneuver":
        raise RuleBroken(f"{p.name} already rolled and failed ({mishap['cause']}); the Keeper rules on the consequences", obstacles.HAZARDS)
    if mishap["rolled"]:
        raise RuleBroken(f"{p.name} has already rolled for {mishap['cause']}", MANEUVERS_IN_A_CHASE)
    return p, mishap


def check_consequences(chase: MishapChase, participant_id: str) -> Participant:
    """The guard of ``rule_consequences``: a chase going on and someone who can still be hurt."""
    require_running(chase)
    p = chase.participant(participant_id)
    require_damageable(p)
    return p


def incur_mishap(chase: MishapChase, p: Participant, cause: str) -> None:
    """A successful maneuver against ``p``: a mishap of the Regular row ("minor") by default."""
    chase.trigger_event(
        obstacle_events.MishapIncurred, participant_id=p.id, cause=cause, kind="maneuver", difficulty=MANEUVER_DIFFICULTY,
        vehicle=p.kind == "vehicle", default_incident=tables.DEFAULT_BY_DIFFICULTY[MANEUVER_DIFFICULTY], obstacle_id=None,
    )


def require_damageable(p: Participant) -> None:
    if p.kind == "vehicle" and p.condition in ("wrecked", "undrivable"):
        raise RuleBroken(f"{p.name} is {p.condition}: out of action, it takes no more damage", vehicles.BUILD_NOTES)
    if p.status != "in_chase":
        raise RuleBroken(f"{p.name} is not in the chase ({p.status})", f"{obstacles.CHASES} \"Dexterity and the Order of Movement\"")


def occupants_of(chase: MishapChase, v: Participant) -> list[Participant]:
    return [o for o in chase.participants.values() if o.vehicle == v.id and o.status == "in_chase"]


def hurt(chase: MishapChase, p: Participant, rolled: int, armor: int, cause: str, record: dict[str, Any] | None, dice: RollSources) -> list[dict[str, Any]]:
    """Damage to a character or creature and its wound (wound_procedures.hurt): the rolls it made."""
    return wound_procedures.hurt(chase, p, rolled, armor, cause, record, dice)


def lose_build(
    chase: MishapChase, v: Participant, cause: str, *, points: int | None = None, hit_points: int | None = None,
    limited: bool = False, sequence: int | None = None,
) -> vehicles.BuildLoss | None:
    """Build lost in one incident, in Build points (Table VI) or hit points (each full 10)."""
    state = vehicle_state(v)
    loss = vehicles.take_damage(state, hit_points) if points is None else vehicles.lose_build(state, points, hit_points)
    if loss.build_lost == 0 and not loss.wrecked:
        return None  # below 10 hit points, or a cosmetic minor incident: nothing lost
    chase.trigger_event(
        damage_events.BuildLost, vehicle_id=v.id, cause=cause, hit_points=hit_points, build_lost=loss.build_lost,
        build_before=build_number(loss.build_before), build_after=build_number(loss.build_after),
        condition_before=loss.status_before, condition_after=loss.status_after, limited=limited, roll_sequence=sequence,
    )
    return loss


def vehicle_hit(
    chase: MishapChase, v: Participant, hit_points: int, record: dict[str, Any] | None, cause: str,
    aftermath: dict[str, Any] | None, dice: RollSources,
) -> list[dict[str, Any]]:
    """Hit points of damage to a vehicle: Build lost, and its aftermath."""
    loss = lose_build(chase, v, cause, hit_points=hit_points, sequence=record["sequence"] if record else None)
    return vehicle_aftermath(chase, v, loss, cause, aftermath, dice) if loss else []


def wreck(chase: MishapChase, v: Participant, cause: str, aftermath: dict[str, Any] | None, dice: RollSources) -> list[dict[str, Any]]:
    loss = vehicles.wreck(vehicle_state(v))
    chase.trigger_event(
        damage_events.BuildLost, vehicle_id=v.id, cause=cause, hit_points=None, build_lost=loss.build_lost,
        build_before=build_number(loss.build_before), build_after=build_number(loss.build_after),
        condition_before=loss.status_before, condition_after=loss.status_after, limited=False, roll_sequence=None,
    )
    return vehicle_aftermath(chase, v, loss, cause, aftermath, dice)


def vehicle_aftermath(
    chase: MishapChase, v: Participant, loss: vehicles.BuildLoss, cause: str, aftermath: dict[str, Any] | None, dice: RollSources
) -> list[dict[str, Any]]:
    """A vehicle wrecked or made undrivable leaves the chase with those aboard."""
    if not (loss.wrecked or loss.made_undrivable):
        return []
    aftermath = aftermath or {}
    occupants = occupants_of(chase, v)
    condition = "wrecked" if loss.wrecked else "undrivable"
    given = aftermath.get("fates") or {}
    fates = {o.id: vehicles.wreck_fate(given.get(o.id, "thrown free")).fate for o in occupants} if loss.wrecked else {}
    accident = bool(aftermath.get("accident")) and not loss.wrecked
    chase.trigger_event(
        damage_events.VehicleOutOfAction, vehicle_id=v.id, condition=condition, cause=cause,
        occupants=[o.id for o in occupants], fates=fates, accident=accident,
    )
    rolls = []
    for o in occupants:
        if fates.get(o.id) == "thrown free":
            name, dice_text, why = f"thrown_free.{o.id}", vehicles.THROWN_FREE_DAMAGE, f"thrown free as {v.name} was wrecked"
        elif accident:
            name, dice_text, why = f"accident.{o.id}", vehicles.UNDRIVABLE_ACCIDENT_DAMAGE, f"{v.name} ground to a halt in an accident"
        else:
            continue
        amount, record = keeper_rolls.amount_roll(chase, dice, name, dice_text, o.id, why)
        rolls += [record] if record else []
        rolls += hurt(chase, o, amount, 0, why, record, dice)
    return rolls


def check_aftermath(chase: MishapChase, aftermath: dict[str, Any] | None) -> None:
    """The Keeper's rulings in case a vehicle goes out of action: each occupant's fate if it is
    wrecked ("thrown free" by default, or "killed"), and whether grinding to a halt was an accident."""
    if aftermath is None:
        return
    if not isinstance(aftermath, dict) or set(aftermath) - set(AFTERMATH_KEYS):
        raise InvalidCommand("aftermath", f"may give {' and '.join(AFTERMATH_KEYS)}")
    fates = aftermath.get("fates") or {}
    if not isinstance(fates, dict):
        raise InvalidCommand("aftermath.fates", "map occupants' ids to their fate")
    for pid, fate in fates.items():
        if pid not in chase.participants or not chase.participants[pid].aboard:
            raise InvalidCommand(f"aftermath.fates.{pid}", "no one of that id rides in a vehicle of this chase")
        if fate not in vehicles.WRECK_FATES:
            raise InvalidCommand(f"aftermath.fates.{pid}", f"must be one of {', '.join(vehicles.WRECK_FATES)} ({vehicles.BUILD_NOTES})")
    if not isinstance(aftermath.get("accident", False), bool):
        raise InvalidCommand("aftermath.accident", "must be true or false")


def require_running(chase: MishapChase) -> None:
    chase.require_not_ended()
    if chase.phase != "running":
        raise RuleBroken("the chase has not been cut to yet", f"{obstacles.CHASES} \"Cut to the chase\"")
