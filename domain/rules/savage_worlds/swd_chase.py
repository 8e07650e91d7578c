"""Savage Worlds Deluxe chases: Action cards won by maneuver rolls, Advantage, Complications.

swd-chases.txt: "Chase length", "Get an Action card", "Resolve Actions", how the chase ends.
Two tables it sends to the book ("see SWD") are not printed in the extract: Attack "Range" by the
Action card's value and the Complication table for Clubs. They are the Savage Worlds Deluxe
core book's "Chase Attack Range and Complication" table (p. 95), encoded below row by row; the
Force maneuver follows the rulings swd-chases.txt quotes.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from domain.rules.savage_worlds.cards import Card, highest_first, order_key
from domain.rules.savage_worlds.dice import TraitRoll, opposed
from domain.rules.savage_worlds.errors import (
    SWD,
    SWD_BOOK,
    InvalidValue,
    RuleBroken,
    whole,
)

LENGTH = f"{SWD} \"Chase length\""
ACTION_CARD = f"{SWD} \"Get an Action card\""
RESOLVE = f"{SWD} \"Resolve Actions\""
ENDS = f"{SWD} \"Continue until the chase ends\""
_TABLE = f"{SWD} \"Resolve Actions\" (see SWD) -> {SWD_BOOK} p. 95, Chase Attack Range and Complication"

DEFAULT_LENGTH = 5  # "Most typical chases last 5 rounds"
UNLIMITED = None  # "dogfights can continue indefinitely"
SHAKEN_PENALTY = -2  # "If the participant is currently Shaken, they are at -2"
FASTER_BONUS, TWICE_AS_FAST_BONUS = 2, 4  # "adds +2, or +4 if he/it is twice as fast"
CLIMB_BONUS = 2  # "Climb is higher than the best opponent also adds +2"
DIFFICULT_TERRAIN = -2  # "Constant chase modifiers": Difficult Terrain (-2), the GM's call
COOPERATIVE_LIMIT = 4  # SWD core "Cooperative Rolls": +1 per success and raise, at most +4


# --- chase length -------------------------------------------------------------------------------


def chase_length(rounds: int | None = DEFAULT_LENGTH) -> int | None:
    """The rounds after which the quarry escapes; None for a chase without end (a dogfight)."""
    return None if rounds is None else whole("rounds", rounds, 1)


def time_ran_out(rounds_completed: int, length: int | None) -> bool:
    """After ``length`` rounds the quarry escapes if he has not been stopped."""
    return length is not None and whole("rounds_completed", rounds_completed, 0) >= length


# --- the maneuver roll --------------------------------------------------------------------------


def foot_speed(pace: int, running_die: int = 6) -> int:
    """A character's speed for the comparison: Pace plus the Run die's highest face."""
    return whole("pace", pace, 0) + whole("running_die", running_die, 1)


def cooperative_bonus(helpers: Iterable[TraitRoll]) -> int:
    """Passengers' cooperative rolls (same skill): +1 per success and raise, +4 at most."""
    return min(COOPERATIVE_LIMIT, sum(1 + r.raises for r in helpers if r.success))


def maneuver_modifier(
    *,
    shaken: bool = False,
    speed: float | None = None,
    fastest_opponent_speed: float | None = None,
    climb: float | None = None,
    best_opponent_climb: float | None = None,
    cooperative: int = 0,
    constant: int = 0,
) -> int:
    """The maneuver roll's modifier ("Get an Action card").

    Shaken -2; faster than the fastest opponent +2, twice as fast +4; better Climb +2; the
    cooperative bonus; ``constant`` is the GM's chase modifier (Difficult Terrain -2, default
    none). Level Headed, Quick and Unstable Platform do not affect this roll: none is added.
    """
    modifier = (SHAKEN_PENALTY if shaken else 0) + whole("cooperative", cooperative, 0) + whole("constant", constant)
    if speed is not None and fastest_opponent_speed is not None and speed > fastest_opponent_speed:
        modifier += TWICE_AS_FAST_BONUS if speed >= 2 * fastest_opponent_speed else FASTER_BONUS
    if climb is not None and best_opponent_climb is not None and climb > best_opponent_climb:
        modifier += CLIMB_BONUS
    return modifier


def action_cards_earned(roll: TraitRoll) -> int:
    """One Action card for the success and one per raise; none without a success."""
    return 1 + roll.raises if roll.success else 0


def keep_card(dealt: Sequence[Card], keep: Card | None = None) -> Card | None:
    """The card he keeps: the highest unless he picks another (e.g. to avoid a Club)."""
    if not dealt:
        return None
    if keep is None:
        return highest_first(dealt)[0]
    if keep not in dealt:
        raise RuleBroken(f"the {keep.label} is not one of the cards he was dealt", ACTION_CARD)
    return keep


# --- Advantage and order ------------------------------------------------------------------------


def may_attack(attacker: Card | None, target: Card | None) -> bool:
    """Advantage: the higher card may attack and cannot be attacked; equal cards attack each
    other; anyone with a card has Advantage over those without; no card, no action."""
    if attacker is None:
        return False
    return target is None or attacker.value >= target.value


def resolution_order(cards: Mapping[str, Card | None]) -> list[str]:
    """Participants with Action cards, high to low, equal cards in suit order."""
    held = [(pid, c) for pid, c in cards.items() if c is not None]
    return [pid for pid, _ in sorted(held, key=lambda item: order_key(item[1]), reverse=True)]


# --- Attack Range and Complications by the Action card ------------------------------------------


@dataclass(frozen=True)
class AttackRange:
    name: str
    penalty: int | None  # None: no attack possible this round
    melee: bool
    source: str = _TABLE


@dataclass(frozen=True)
class SwdComplication:
    name: str
    modifier: int | None  # the trait roll's modifier; None: no roll, the effect just happens
    failure: str
    source: str = _TABLE


# (lowest value, highest value, range, complication); values: 2..10, J 11, Q 12, K 13, A 14, Joker 15
CARD_TABLE: tuple[tuple[int, int, AttackRange, SwdComplication], ...] = (
    (2, 2, AttackRange("Out of Range", None, False),
     SwdComplication("Disaster", -4, "out of the chase (a disaster: crash, fall, or gives out)")),
    (3, 10, AttackRange("Long Range", -4, False),
     SwdComplication("Major Obstacle", -2, "damage for half Top Speed in a vehicle; a Fatigue level on foot")),
    (11, 12, AttackRange("Medium Range", -2, False),
     SwdComplication("Minor Obstacle", 0, "damage for half Top Speed in a vehicle; a Fatigue level on foot")),
    (13, 15, AttackRange("Short Range", 0, True),
     SwdComplication("Distraction", None, "cannot attack this round")),
)


def _row(card: Card) -> tuple[AttackRange, SwdComplication]:
    for low, high, attack, complication in CARD_TABLE:
        if low <= card.value <= high:
            return attack, complication
    raise InvalidValue("card", f"{card!r} has no row ({_TABLE})")


def attack_range(action_card: Card) -> AttackRange:
    """The Attack "Range" penalty by the Action card's value."""
    return _row(action_card)[0]


def complication_due(action_card: Card) -> bool:
    """A Club, with or without Advantage, brings a Complication (a Joker is no Club)."""
    return not action_card.is_joker and action_card.suit == "Clubs"


def complication(action_card: Card) -> SwdComplication:
    """The Complication of a Club by its value. Being Shaken does not affect its roll."""
    if not complication_due(action_card):
        raise RuleBroken(f"the {action_card.label} is not a Club: no Complication", RESOLVE)
    return _row(action_card)[1]


def can_attack(*, distracted: bool = False, failed_disaster: bool = False, stayed_shaken: bool = False) -> bool:
    """After a Complication or damage: Distracted, a failed Disaster, or staying Shaken stop the
    attack this round (Advantage and the card's range permitting otherwise)."""
    return not (distracted or failed_disaster or stayed_shaken)


# --- Force ---------------------------------------------------------------------------------------


def force_modifier(action_card: Card) -> int:
    """Only the attacker applies the Attack "Range" penalty in the opposed Force roll."""
    penalty = attack_range(action_card).penalty
    if penalty is None:
        raise RuleBroken("a Two is Out of Range: no attack, no Force, this round", _TABLE)
    return penalty


def force_outcome(attacker: TraitRoll, defender: TraitRoll) -> str:
    """"avoid obstacle" (he rolls to avoid it), "hits obstacle" (a raise: no roll) or "no effect"."""
    result = opposed(attacker, defender)
    if result.winner != "attacker":
        return "no effect"
    return "hits obstacle" if result.raises >= 1 else "avoid obstacle"


# --- how the chase ends --------------------------------------------------------------------------


def chase_end(
    *,
    rounds_completed: int = 0,
    length: int | None = DEFAULT_LENGTH,
    quarry_incapacitated: bool = False,
    quarry_failed_disaster: bool = False,
    chaser_incapacitated: bool = False,
    chaser_failed_disaster: bool = False,
) -> str | None:
    """"captured", "escaped", "both stopped" (both sides out at once: the GM narrates) or None.

    Captured: the quarry is Incapacitated or fails a Disaster. Escaped: time runs out, or the
    chaser is Incapacitated or fails a Disaster. Other endings (a grapple, quitting) are the GM's.
    """
    caught = quarry_incapacitated or quarry_failed_disaster
    lost = chaser_incapacitated or chaser_failed_disaster
    if caught and lost:
        return "both stopped"
    if caught:
        return "captured"
    if lost or time_ran_out(rounds_completed, length):
        return "escaped"
    return None
