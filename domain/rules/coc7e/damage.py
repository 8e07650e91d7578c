"""Damage tables and the consequences of failing a hazard.

- Table VI: Vehicular Collisions (coc7e-chases.txt "Vehicular Collisions"): Build dice for a
  vehicle, the same dice in hit points for each occupant.
- Table III: Other Forms of Damage (coc7e-combat.txt "Other Forms of Damage"): hit points for a
  character or creature.
- Lost movement actions, 1D3 (coc7e-chases.txt "Hazards", "Vehicular Collisions"), and the
  debt when fewer are left this round ("Skills and Hazards", the farmer in the mud).

Rows are keyed by their severity word ("minor", "mayhem", "road kill") so that a Keeper's choice
reads the same for both tables; the printed names ("Minor incident") are accepted too.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.dice import DiceSource, InvalidDiceExpression, parse
from domain.rules.coc7e.errors import CHASES, InvalidCommand

COMBAT = "coc7e-combat.txt"
COLLISIONS_TABLE = "Table VI: Vehicular Collisions"
INJURIES_TABLE = "Table III: Other Forms of Damage"
COLLISIONS_SOURCE = f'{CHASES} "Vehicular Collisions"'
INJURIES_SOURCE = f'{COMBAT} "Other Forms of Damage"'


@dataclass(frozen=True)
class Incident:
    """One row of a damage table."""

    key: str
    name: str  # as printed in the table's left-hand column
    table: str
    damage: str  # dice expression
    unit: str  # "Build" for a vehicle, "hit points" for a character
    meaning: str
    examples: tuple[str, ...]
    source: str


def _collision(key: str, name: str, damage: str, meaning: str, *examples: str) -> Incident:
    return Incident(key, name, COLLISIONS_TABLE, damage, "Build", meaning, examples, COLLISIONS_SOURCE)


def _injury(key: str, name: str, damage: str, meaning: str, *examples: str) -> Incident:
    return Incident(key, name, INJURIES_TABLE, damage, "hit points", meaning, examples, INJURIES_SOURCE)


COLLISIONS: tuple[Incident, ...] = (
    _collision("minor", "Minor incident", "1D3-1", "Most Regular Hazards. May be cosmetic damage only, possibly something serious.",
               "glancing blow from another vehicle", "grazing a lamp post", "hitting a post", "colliding with person or similar-sized creature"),
    _collision("moderate", "Moderate incident", "1D6", "Most Hard Hazards. Might cause major damage. Might wreck a car.",
               "hitting a cow or large deer", "collision with a heavy motorbike or economy car"),
    _collision("severe", "Severe incident", "1D10", "Most Extreme Hazards. Likely to wreck a car outright.",
               "collision with a standard car, lamp post or tree"),
    _collision("mayhem", "Mayhem", "2D10", "Likely to wreck a truck outright. Almost certain to wreck a car.",
               "collision with a truck or coach or a mature tree"),
    _collision("road kill", "Road kill", "5D10", "Most vehicles will be little more than scattered debris.",
               "collision with a juggernaut or a train", "hit by a meteor"),
)

# The footnotes (* asphyxiation and drowning: a CON roll each round; ** poisons: an Extreme CON
# roll halves the damage) are procedures of their own, not damage rows.
INJURIES: tuple[Incident, ...] = (
    _injury("minor", "Minor", "1D3", "A person could survive numerous occurrences of this level of damage.",
            "punch", "kick", "head-butt", "mild acid", "breathing smoky atmosphere*", "a thrown fist-size rock",
            "falling (per 10 feet) onto soft swamp"),
    _injury("moderate", "Moderate", "1D6", "Might cause a major wound; it would take a few such attacks to kill.",
            "falling (per 10 feet) onto grass", "club", "strong acid", "breathing water*", "exposure to vacuum*",
            "small caliber bullet", "arrow", "fire (burning torch)"),
    _injury("severe", "Severe", "1D10", "Likely to cause a major wound. One or two occurrences would render a person unconscious or dead.",
            ".38 caliber bullet", "falling (per 10 feet) onto concrete", "axe", "fire (flamethrower, running through a burning room)",
            "being 6 to 9 yards from an exploding hand grenade or stick of dynamite", "a mild poison**"),
    _injury("deadly", "Deadly", "2D10", "The average person has a 50% chance of dying.",
            "hit by a car at 30mph", "being 3 to 6 yards from an exploding hand grenade or stick of dynamite", "a strong poison**"),
    _injury("terminal", "Terminal", "4D10", "Outright death is likely.",
            "hit by a speeding car", "being within 3 yards of an exploding hand grenade or stick of dynamite", "a lethal poison**"),
    _injury("splat", "Splat", "8D10", "Outright death almost certain.",
            "being involved in a high-speed head-on collision", "being hit by a train"),
)

# coc7e-chases.txt "Vehicular Collisions": "If unsure, simply use the defaults of 'minor incident'
# for a Regular difficulty level hazard, 'moderate incident' for a Hard ... 'severe incident' for
# Extreme". The injury table gives no defaults; its rows of the same names serve (the farmer's
# Regular mud was the Keeper's choice of Moderate, so these remain only defaults).
DEFAULT_BY_DIFFICULTY = {"regular": "minor", "hard": "moderate", "extreme": "severe"}
DEFAULT = "default"  # the Keeper's choice of incident: "default" reads the table above

# coc7e-chases.txt "Hazards": "roll 1D3 for number of lost movement actions"; "Vehicular
# Collisions": "Most collisions should also result in a delay ... (costing 1D3 movement actions)".
LOST_MOVEMENT_ACTIONS = "1D3"


def table_for(vehicle: bool) -> tuple[Incident, ...]:
    """Table VI for a vehicle, Table III for a character or creature."""
    return COLLISIONS if vehicle else INJURIES


def incident(key: str, *, vehicle: bool) -> Incident:
    """A row by severity ("minor"), printed name ("Minor incident") or prose ("minor injury")."""
    rows = table_for(vehicle)
    wanted = key.strip().lower() if isinstance(key, str) else ""
    wanted = wanted.removesuffix(" incident").removesuffix(" injury")
    for row in rows:
        if wanted == row.key:
            return row
    names = ", ".join(r.key for r in rows)
    table = COLLISIONS_TABLE if vehicle else INJURIES_TABLE
    raise InvalidCommand("incident", f"{key!r} is not a row of {table}; one of {names}")


def default_incident(difficulty: str, *, vehicle: bool) -> Incident:
    """The row for a failed hazard of this difficulty when the Keeper is unsure."""
    if difficulty not in DEFAULT_BY_DIFFICULTY:
        raise InvalidCommand("difficulty", f"must be one of {', '.join(DEFAULT_BY_DIFFICULTY)}")
    return incident(DEFAULT_BY_DIFFICULTY[difficulty], vehicle=vehicle)


@dataclass(frozen=True)
class Consequences:
    """What failing a hazard (or suffering a fighting maneuver in a chase) costs.

    ``damage`` is rolled once for the one who failed (Build for a vehicle, hit points for a
    character); ``occupant_damage`` is rolled once for each occupant of a vehicle, in hit points
    ("substituting 'hit points' in place of 'build'"); ``lost_movement_actions`` once.
    """

    incident: Incident | None
    damage: str | None
    occupant_damage: str | None
    lost_movement_actions: str | None
    vehicle: bool

    @property
    def harmless(self) -> bool:
        return self.damage is None and self.lost_movement_actions is None


NO_CONSEQUENCES = Consequences(None, None, None, None, False)


def consequences(
    difficulty: str = "regular",
    *,
    vehicle: bool,
    incident_key: str | None = DEFAULT,
    damage: str | None = None,
    delay: bool = True,
) -> Consequences:
    """The consequences the Keeper chose, with the rules' defaults.

    ``incident_key``: a row of the table, DEFAULT for the row of the hazard's difficulty, or None
    for no damage ("the Keeper should decide if damage is inflicted"). ``damage``: dice of the
    Keeper's own, overriding the row ("you may increase or decrease the amounts", Other Forms of
    Damage). ``delay``: whether 1D3 movement actions are lost.
    """
    row = None
    if incident_key == DEFAULT:
        row = default_incident(difficulty, vehicle=vehicle)
    elif incident_key is not None:
        row = incident(incident_key, vehicle=vehicle)
    dice = row.damage if row else None
    if damage is not None:
        try:
            dice = parse(damage).text
        except InvalidDiceExpression as e:
            raise InvalidCommand("damage", str(e)) from None
    return Consequences(
        incident=row,
        damage=dice,
        occupant_damage=dice if vehicle else None,
        lost_movement_actions=LOST_MOVEMENT_ACTIONS if delay else None,
        vehicle=vehicle,
    )


@dataclass(frozen=True)
class Delay:
    """Lost movement actions paid now, the rest owed and paid from the next rounds."""

    lost: int
    paid_now: int
    movement_actions_left: int
    owed: int


def lose_movement_actions(lost: int, movement_actions_left: int, owed: int = 0) -> Delay:
    """Pay lost movement actions from those left this round; the rest is a debt ("Skills and
    Hazards": the farmer "has already used all of his movement actions for this round, so the
    delay will cost one of his two movement actions in the next round"; see movement.allotment).
    """
    for name, value in (("lost", lost), ("movement_actions_left", movement_actions_left), ("owed", owed)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidCommand(name, "must be a whole number, 0 or more")
    paid = min(lost, movement_actions_left)
    return Delay(lost, paid, movement_actions_left - paid, owed + lost - paid)


def roll_damage(dice: DiceSource, sequence: int, expression: str, purpose: str = "damage") -> dict[str, Any]:
    """Roll damage dice (or lost movement actions); the record keeps every face.

    ``amount`` is the total, never below 0 (a Keeper's own dice may subtract more than they roll).
    """
    try:
        record = parse(expression).roll(dice, sequence)
    except InvalidDiceExpression as e:
        raise InvalidCommand("expression", str(e)) from None
    return {"purpose": purpose, **record, "amount": max(0, record["total"])}


def through_armor(damage: int, armor: int) -> int:
    """coc7e-combat.txt "Armor": deduct the armor points from the damage, to no less than 0.

    A vehicle's "Armor for people" protects its driver and passengers "against external attacks"
    (coc7e-chases.txt "Vehicle Reference Charts"); collision damage rolled for occupants is not
    an external attack and is taken as rolled.
    """
    for name, value in (("damage", damage), ("armor", armor)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidCommand(name, "must be a whole number, 0 or more")
    return max(0, damage - armor)
