"""A unit of an Adventure Edition chase on the row: where it is, its maneuvering rolls, its moves.

swade-chases-reference.txt "MANEUVERS" (the maneuvering roll, its modifiers, Handling, a Shaken
operator's free actions) and "SETUP" (more Chase Cards dealt as the row runs out). Shared by the
maneuvers (swade_maneuvers.py) and the follow-ups (swade_follow_ups.py).
"""
from __future__ import annotations

from typing import Any, ClassVar, Protocol

from domain.dice import DiceSource
from domain.rules.savage_worlds import condition_effects, savage_decks, savage_rolls
from domain.rules.savage_worlds import swade_chase as rules
from domain.rules.savage_worlds.errors import CORE, SWADE, RuleBroken, whole
from domain.rules.savage_worlds.participants import SavageParticipant
from domain.rules.savage_worlds.savage_decks import DeckDice
from domain.track import Track


class UnitChase(savage_rolls.RollingChase, savage_decks.DeckChase, Protocol):
    """What moving units and their maneuvering rolls use of a SWADE chase (swade_aggregate.SwadeChase)."""

    Moved: ClassVar[type]
    ChaseCardDealt: ClassVar[type]
    track: Track
    row: list[str]

    def operator(self, unit_id: str) -> SavageParticipant: ...

    def foes(self, unit_id: str) -> list[SavageParticipant]: ...

    def require(self, kind: str, participant_id: str | None, **details: Any) -> None: ...


# -- helpers ---------------------------------------------------------------------------

def position(chase: UnitChase, unit_id: str) -> int:
    return chase.track.location_of(unit_id)


def maneuver_modifiers(chase: UnitChase, unit: Any, operator: Any, situational: int) -> dict[str, int]:
    """A maneuvering roll's modifiers: the GM's, conditions, a vehicle's Handling."""
    mods = {"situational": whole("modifier", situational)}
    mods.update(savage_rolls.condition_modifiers(operator, maneuvering=True))
    if unit.is_vehicle and (unit.handling or unit.vehicle.handling_penalty):
        mods["handling"] = unit.handling + unit.vehicle.handling_penalty
    return mods


def maneuvering_roll(chase: UnitChase, dice: DiceSource, unit: Any, purpose: str, mods: dict[str, int], extra: dict[str, Any] | None = None) -> Any:
    operator = chase.operator(unit.id)
    roll = savage_rolls.roll_trait(chase, dice, operator.id, purpose, savage_rolls.maneuver_die(operator), mods, extra={"unit": unit.id, **(extra or {})})
    return roll


def require_free_to_act(chase: UnitChase, unit: Any, what: str) -> Any:
    operator = chase.operator(unit.id)
    if operator.conditions.shaken:
        raise RuleBroken(f"{operator.name} is Shaken and may take only free actions, not {what}", f"{CORE}, \"Shaken\"")
    condition_effects.require_able(operator, what, moves=what == "Flee" and not unit.is_vehicle)
    return operator


def move_unit(chase: UnitChase, unit_id: str, delta: int, maneuver: str, by: str | None, deck_dice: DeckDice | None) -> None:
    """Move along the row; past either end, more Chase Cards are dealt ("SETUP": add more as needed)."""
    start = position(chase, unit_id)
    chase.trigger_event(chase.Moved, participant_id=unit_id, from_position=start, to_position=start + delta, maneuver=maneuver, by=by)
    rear, front = rules.extend_row_for(len(chase.row), start + delta)
    for end, count in (("rear", rear), ("front", front)):
        for _ in range(count):
            if savage_decks.server_deck(chase):
                chase.trigger_event(chase.ChaseCardDealt, end=end, **savage_decks.draw_card(chase, "chase", deck_dice, None))
            else:
                chase.require("chase card", None, end=end, rule="SETUP: add more Chase Cards as needed")


def closest_foe(chase: UnitChase, unit_id: str) -> tuple[Any, int]:
    foes = [(f, rules.cards_apart(position(chase, unit_id), position(chase, f.id))) for f in chase.foes(unit_id)]
    if not foes:
        raise RuleBroken("there is no foe left in the chase", f"{SWADE} \"MANEUVERS\"")
    return min(foes, key=lambda pair: pair[1])


def fastest_rival(chase: UnitChase, unit_id: str) -> float | None:
    speeds = [s for s in (f.speed() for f in chase.foes(unit_id)) if s is not None]
    return max(speeds) if speeds else None


def rival_on_same_card(chase: UnitChase, unit: Any, target_id: str, rule: str) -> Any:
    target = chase._require_in_chase(chase.unit_of(target_id))
    if target.role == unit.role:
        raise RuleBroken(f"{target.name} is no rival of {unit.name}", rule)
    return target
