"""Savage Worlds Adventure Edition chases: the row of Chase Cards and the maneuvers.

swade-chases-reference.txt "SETUP" and "MANEUVERS" (Change Position, Dropping Back, Evade,
Flee, Force, Hold Steady, Bump; Ram is in swade_vehicles.py), "COMPLICATIONS" and "CRITICAL
FAILURE ON MANEUVERING SKILLS" (the rows are in swade_tables.py). Pure functions: the aggregate asks what a maneuver allows, rolls (dice.py, damage.py)
and records the outcome as events. Positions are indexes into the row of Chase Cards. Groups
move together: only their driver or leader is moved by a Bump ("BUMP"), which the aggregate
applies to the whole group.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from domain.dice import DiceSource
from domain.rules.savage_worlds.cards import Card, Deck
from domain.rules.savage_worlds.dice import TraitRoll, opposed
from domain.rules.savage_worlds.errors import SWADE, InvalidValue, RuleBroken, whole
from domain.rules.savage_worlds.swade_tables import (
    DEFAULT_CHASE_CARDS,
    ComplicationRow,
    complication_row,
    range_increment,
)

_MANEUVERS = f"{SWADE} \"MANEUVERS\""
CHANGE_POSITION = f"{_MANEUVERS}, CHANGE POSITION"
DROPPING_BACK = f"{_MANEUVERS}, Dropping Back"
EVADE = f"{_MANEUVERS}, EVADE"
FLEE = f"{_MANEUVERS}, FLEE"
FORCE = f"{_MANEUVERS}, FORCE"
HOLD_STEADY = f"{_MANEUVERS}, HOLD STEADY"
BUMP = f"{_MANEUVERS}, BUMP"
COMPLICATIONS = f"{SWADE} \"COMPLICATIONS\""
SURPRISE = f"{SWADE} \"COMBAT OPTIONS, CONTINUED\", Surprise"

CHANGE_POSITION_ACTION_BONUS = +2  # "as an action, adding +2 to his roll"
EVADE_PENALTY = {False: -2, True: -4}  # free action -2, action -4, "in both directions"
HOLD_STEADY_BONUS = +2  # attacks against the vehicle and its occupants
UNSTABLE_PLATFORM = -2  # "Unstable Platform": -2 Shooting from a moving vehicle or animal
RUNNING = -2  # core rules "Running": -2 to actions while running (Hold Steady ignores it)
# "FLEE": at least four cards between the fleer and the closest foe; then -4, -2 at five, 0 at six+.
FLEE_PENALTIES = ((6, 0), (5, -2), (4, -4))


# --- the row and range --------------------------------------------------------------------------


def deal_row(deck: Deck, source: DiceSource, count: int = DEFAULT_CHASE_CARDS) -> tuple[tuple[Card, ...], Deck]:
    """Deal ``count`` Chase Cards in a row from the extra deck ("SETUP": nine by default)."""
    whole("count", count, 1)
    row = []
    for _ in range(count):
        dealt = deck.next_card(source)
        deck = deck.deal(dealt)
        row.append(dealt)
    return tuple(row), deck


def cards_apart(a: int, b: int) -> int:
    """Chase Cards from one position to another, not counting the first one's own card ("SETUP").

    The same count is read as "Chase Cards between" a fleer and his foe ("FLEE"): the extract
    gives one way of counting cards, and using it for both keeps range and Flee consistent.
    """
    return abs(whole("position", a) - whole("position", b))


def range_between(attacker: int, defender: int, mode: str) -> int:
    """The Range: Chase Cards (not counting the attacker's) times the mode's Range Increment."""
    return cards_apart(attacker, defender) * range_increment(mode)


def extend_row_for(row_length: int, position: int) -> tuple[int, int]:
    """Cards to add (before the first, after the last) so that ``position`` is on the row
    ("SETUP": "add more as needed")."""
    return (max(0, -position), max(0, position - (row_length - 1)))


# --- once-per-turn and once-per-round limits ----------------------------------------------------


@dataclass(frozen=True)
class TurnManeuvers:
    """What a participant already did this turn (Change Position, Dropping Back, Bumps)."""

    changed_position: bool = False
    dropped_back: bool = False
    bumped: frozenset[str] = field(default_factory=frozenset)


def check_change_position(turn: TurnManeuvers) -> None:
    if turn.changed_position:
        raise RuleBroken("Change Position may only be used once per turn", CHANGE_POSITION)
    if turn.dropped_back:
        raise RuleBroken("after Dropping Back he may not Change Position this turn", DROPPING_BACK)


def check_evade(evaded_this_round: bool) -> None:
    if evaded_this_round:
        raise RuleBroken("Evade may not be taken more than once per round (it does not stack)", EVADE)


def check_bump(turn: TurnManeuvers, target: str) -> None:
    if target in turn.bumped:
        raise RuleBroken("an attacker can't Bump a particular target more than once per turn", BUMP)


# --- maneuvers ----------------------------------------------------------------------------------


def speed_bonus(top_speed: float, fastest_rival: float) -> int:
    """"Speed Bonus": +1 when faster than the fastest rival, +2 when twice as fast."""
    if top_speed >= 2 * fastest_rival and top_speed > fastest_rival:
        return 2
    return 1 if top_speed > fastest_rival else 0


def change_position_modifier(as_action: bool, top_speed: float | None = None, fastest_rival: float | None = None) -> int:
    """Modifier to the Change Position roll: +2 as an action, plus the Speed Bonus."""
    bonus = CHANGE_POSITION_ACTION_BONUS if as_action else 0
    if top_speed is not None and fastest_rival is not None:
        bonus += speed_bonus(top_speed, fastest_rival)
    return bonus


def change_position_cards(roll: TraitRoll) -> int:
    """Chase Cards he may move up or down: one on a success, up to two with a raise."""
    if not roll.success:
        return 0
    return 2 if roll.raises >= 1 else 1


def drop_back(cards: int, linear: bool = True) -> int:
    """Dropping Back: one or two cards "back" without a roll, in a linear chase only."""
    if not linear:
        raise RuleBroken("Dropping Back is for a linear chase", DROPPING_BACK)
    if whole("cards", cards) not in (1, 2):
        raise RuleBroken("a character may drop back one or two Chase Cards", DROPPING_BACK)
    return cards


def evade_penalty(as_action: bool) -> int:
    """Evade: -2 as a free action, -4 as an action, to attacks against him AND his own."""
    return EVADE_PENALTY[bool(as_action)]


def attack_modifier(
    *,
    attacker_evading: int = 0,
    target_evading: int = 0,
    target_holding_steady: bool = False,
    target_vulnerable: bool = False,
    attacker_holding_steady: bool = False,
    attacker_on_unstable_platform: bool = False,
    attacker_running: bool = False,
) -> int:
    """Chase modifiers to one attack.

    ``*_evading`` is the Evade penalty in force (0, -2 or -4). Both sides' Evade apply: the
    attacker's shakes his own aim and the target's makes him hard to hit ("EVADE"); the rule
    "does not stack" is about one participant evading twice. Hold Steady's +2 against the target
    does not stack with Vulnerable's +2 ("HOLD STEADY"); holding steady, the attacker ignores the
    Unstable Platform and Running penalties.
    """
    modifier = attacker_evading + target_evading
    if target_holding_steady or target_vulnerable:
        modifier += HOLD_STEADY_BONUS
    if not attacker_holding_steady:
        modifier += (UNSTABLE_PLATFORM if attacker_on_unstable_platform else 0) + (RUNNING if attacker_running else 0)
    return modifier


def flee_modifier(cards_between: int) -> int:
    """The Flee roll's modifier; refused with fewer than four Chase Cards to the closest foe."""
    whole("cards_between", cards_between, 0)
    for at_least, modifier in FLEE_PENALTIES:
        if cards_between >= at_least:
            return modifier
    raise RuleBroken(f"Flee needs at least four Chase Cards to the closest foe; there are {cards_between}", FLEE)


def flee_escapes(roll: TraitRoll) -> bool:
    """He escapes the chase on a successful Flee roll."""
    return roll.success


@dataclass(frozen=True)
class ForceOutcome:
    """Force: the winner, whether the foe is Bumped, whether he suffers a maneuvering Critical
    Failure (a raise), and whether the attempt backfired (the attacker's Critical Failure)."""

    winner: str
    bumped: bool
    defender_critical_failure: bool
    backfired: bool


def force(attacker: TraitRoll, defender: TraitRoll, same_card: bool) -> ForceOutcome:
    """Opposed maneuvering rolls on the same Chase Card: a win Bumps, a raise also counts as the
    defender's Critical Failure (critical_failure_row by his mode); a Critical Failure backfires."""
    if not same_card:
        raise RuleBroken("Force needs both on the same Chase Card", FORCE)
    result = opposed(attacker, defender)
    won = result.winner == "attacker"
    return ForceOutcome(result.winner, won, won and result.raises >= 1, attacker.critical_failure)


def bump(position: int, direction: int, cards: int = 1) -> int:
    """A Bump moves the foe one Chase Card (a Joker Complication: up to two) the way the attacker
    (or, for a Complication, the GM) chooses: direction +1 or -1."""
    if direction not in (1, -1):
        raise InvalidValue("direction", "must be +1 (up the row) or -1 (down the row)")
    if whole("cards", cards) not in (1, 2):
        raise RuleBroken("a Bump moves one Chase Card (up to two on a Joker)", BUMP)
    return position + direction * cards


# --- Complications --------------------------------------------------------------------------------


def complication_due(action_card: Card) -> bool:
    """A Complication when his Action Card is a Club (a Joker is no Club)."""
    return not action_card.is_joker and action_card.suit == "Clubs"


def complication(chase_card: Card) -> ComplicationRow:
    """The row for the suit of his current Chase Card (not his Action Card)."""
    return complication_row("Joker" if chase_card.is_joker else chase_card.suit)


@dataclass(frozen=True)
class ComplicationOutcome:
    avoided: bool
    bumped_cards: int  # 0, 1 or (Joker) up to 2, in a direction the GM chooses
    critical_failure: bool  # resolve with critical_failure_row by the participant's mode
    source: str = COMPLICATIONS


def complication_outcome(chase_card: Card, roll: TraitRoll) -> ComplicationOutcome:
    """Read the free maneuvering roll (made with complication(chase_card).modifier).

    A roll that is itself a Critical Failure fails, and is a maneuvering Critical Failure as
    well, whatever the suit's failure result.
    """
    row = complication(chase_card)
    if roll.success:
        return ComplicationOutcome(True, 0, False)
    critical = roll.critical_failure or row.failure == "critical failure"
    return ComplicationOutcome(False, row.bump_cards, critical)


def surprised_units(round_number: int, surprised: list[str] | None, units: list[str]) -> set[str]:
    """"Surprise": "victims make Notice roll or get no Action Card on first round" (the GM names
    those who failed; swade-chases-reference.txt "COMBAT OPTIONS, CONTINUED")."""
    if not surprised:
        return set()
    if round_number != 0:
        raise RuleBroken("Surprise leaves the surprised without an Action Card in the first round only", SURPRISE)
    if not isinstance(surprised, list) or not all(isinstance(u, str) and u in units for u in surprised):
        raise InvalidValue("surprised", "name units in the chase (each vehicle, or each character not riding or following)")
    if set(units) <= set(surprised):
        raise InvalidValue("surprised", f"someone must be left to act ({SURPRISE})")
    return set(surprised)
