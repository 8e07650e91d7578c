"""Exact odds of Call of Cthulhu 7e rolls (domain/odds.py), as fractions, from the rules' dice.

* Percentile skill and characteristic rolls (domain/rules/coc7e/percentile.py): the levels of
  success critical, extreme, hard, regular, failure and fumble against a value, at each
  difficulty, with up to two bonus or penalty dice (coc7e-chases.txt "Speed Roll" and "Skills and
  Hazards", "2 bonus dice is the maximum"; coc7e-combat.txt "Fist Fights"). A bonus die is an
  extra tens die read with the *same* units die and the lower result kept, a penalty die the
  higher: so for each units face the kept result is the least (or greatest) of 1 + n tens dice
  over that face's ten possible results, and P(least >= the i-th smallest) = ((10 - i) / 10)^n.
* Opposed rolls: who wins an attack met by fighting back (a tie to the attacker) or by dodging
  (a tie to the defender), coc7e-combat.txt "Resolving a Fighting Attack Made Against a Target
  That is Fighting Back" / "... That is Dodging"; both failing is no one's win.
* Who wins an attack a command makes (AttackMade, from its attack and defence rolls): the opposed
  rolls above, or with no response a melee attack that misses only on a fumble ("Striking the
  First Blow (Surprise)") and a firearm that hits on a success at its difficulty, unless the roll
  is at or above the gun's malfunction number ("Malfunctions"); a shot at a target diving for
  cover weighs its Dodge roll's penalty die ("Diving for Cover (Penalty die)").
* The random hazards and barriers table roll (coc7e-chases.txt "Random Hazards and Barriers").
* Dice expressions (damage, 1D3 lost movement actions): domain/dice/odds.py.

The outcome names are the roll record's own words: a percentile roll's ``level``, a table roll's
``outcome``, a dice roll's ``total`` (as text), an attack's ``winner`` ("neither" for none).
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any, Mapping

from domain.dice.odds import expression_odds
from domain.odds import Odds
from domain.rules.coc7e import percentile, random_hazards
from domain.rules.coc7e.damage_events import AttackMade

RESULTS = range(1, 101)  # 01..00 read as 1..100
TENS_FACES = range(0, 100, 10)
NO_WINNER = "neither"  # an attack's ``winner`` when both sides fail (recorded as None)
MALFUNCTION = "malfunction"  # a firearm roll at or above the gun's malfunction number: it does not fire
DIVE = "dive for cover"  # an attack's response: the target's Dodge roll makes the shot harder


@lru_cache(maxsize=None)
def result_chances(net: int) -> dict[int, Fraction]:
    """The chance of each kept result 1..100 with ``net`` bonus (> 0) or penalty (< 0) dice."""
    tens_dice = 1 + abs(net)
    chances = {result: Fraction(0) for result in RESULTS}
    for units in range(10):
        # The ten results this units face can give, one per tens face, lowest first.
        ordered = sorted(percentile.combine(tens, units) for tens in TENS_FACES)
        for i, result in enumerate(ordered):
            if net >= 0:  # the lowest is kept: it is this one when all dice are at or above it
                kept = Fraction(10 - i, 10) ** tens_dice - Fraction(9 - i, 10) ** tens_dice
            else:  # the highest is kept
                kept = Fraction(i + 1, 10) ** tens_dice - Fraction(i, 10) ** tens_dice
            chances[result] += kept / 10
    return chances


@lru_cache(maxsize=None)
def result_weights(net: int) -> tuple[int, tuple[int, ...]]:
    """``result_chances`` over their common denominator (10 ** (2 + |net|): one tenth per units
    face, tenths per tens die): that denominator and each result's numerator, 1..100 in order.
    Summing integers, then making one fraction per level, spares a hundred fraction additions
    each time a new target is rolled against (most of the odds' cost)."""
    denominator = 10 ** (2 + abs(net))
    numerators = tuple(chance * denominator for chance in result_chances(net).values())
    return denominator, tuple(int(n) for n in numerators)


def level_chances(target: int, bonus: int = 0, penalty: int = 0, malfunction: int | None = None) -> dict[str, Fraction]:
    """The chance of each level of success (best first) rolling against ``target``; with a gun's
    ``malfunction`` number, results at or above it are ``MALFUNCTION`` instead of their level
    ("Malfunctions": "the shooter does not merely miss -- his or her weapon does not fire")."""
    denominator, numerators = result_weights(percentile.net_dice(bonus, penalty))
    sums = {level: 0 for level in reversed(percentile.LEVELS)}
    if malfunction is not None:
        sums[MALFUNCTION] = 0
    level_of = percentile.level_of
    for result, numerator in zip(RESULTS, numerators):
        sums[MALFUNCTION if malfunction is not None and result >= malfunction else level_of(result, target)] += numerator
    return {level: Fraction(total, denominator) for level, total in sums.items()}


@lru_cache(maxsize=4096)
def skill_odds(target: int, difficulty: str = "regular", bonus: int = 0, penalty: int = 0, malfunction: int | None = None) -> Odds:
    """A skill or characteristic roll: each level, and the levels that meet ``difficulty``; a
    firearm roll with its gun's ``malfunction`` number also has the outcome ``MALFUNCTION``, never a success."""
    if difficulty not in percentile.DIFFICULTIES:
        raise percentile.InvalidPercentileRoll(f"difficulty must be one of {', '.join(percentile.DIFFICULTIES)}")
    chances = level_chances(target, bonus, penalty, malfunction)
    return Odds(chances, frozenset(level for level in chances if level != MALFUNCTION and percentile.meets(level, difficulty)))


def opposed_odds(attacker: Mapping[str, Fraction], defender: Mapping[str, Fraction], response: str) -> Odds:
    """Who wins an attack from the two sides' level chances (``level_chances``), the attacker's
    success being the attacker's win. ``response``: "fight back" (a fighting maneuver in return
    is resolved the same way) or "dodge"."""
    if response in ("fight back", "maneuver"):
        winner_of = percentile.fight_back_winner
    elif response == "dodge":
        winner_of = percentile.dodge_winner
    else:
        raise ValueError("an opposed roll is met by fighting back, a maneuver or a dodge")
    chances = {"attacker": Fraction(0), "defender": Fraction(0), NO_WINNER: Fraction(0)}
    for a_level, a_chance in attacker.items():
        for d_level, d_chance in defender.items():
            chances[winner_of(a_level, d_level) or NO_WINNER] += a_chance * d_chance
    return Odds(chances, frozenset({"attacker"}))


def attack_odds(topic: str, fields: Mapping[str, Any], rolls: Mapping[int, Mapping[str, Any]]) -> Odds | None:
    """Who wins the attack an AttackMade records, from the rolls it read (the plug-in's
    OutcomeOdds, domain/odds.py); None for any other event."""
    if topic != AttackMade.TOPIC or fields.get("attack_roll") not in rolls:
        return None
    attacker = _levels_of(rolls[fields["attack_roll"]])
    if fields.get("response") == "none":
        if fields.get("method") == "firearm":
            return _shot_odds(rolls[fields["attack_roll"]])
        hit = 1 - attacker["fumble"]
        return Odds({"attacker": hit, NO_WINNER: 1 - hit}, frozenset({"attacker"}))
    if fields.get("defence_roll") not in rolls:
        return None
    if fields.get("response") == DIVE:
        return _dived_shot_odds(rolls[fields["attack_roll"]], rolls[fields["defence_roll"]])
    return opposed_odds(attacker, _levels_of(rolls[fields["defence_roll"]]), fields["response"])


def _levels_of(roll: Mapping[str, Any]) -> dict[str, Fraction]:
    return level_chances(roll["target"], roll.get("bonus_dice", 0), roll.get("penalty_dice", 0), roll.get("malfunction"))


def _dived_shot_odds(shot: Mapping[str, Any], dive: Mapping[str, Any]) -> Odds:
    """A shot at a target diving for cover ("Diving for Cover (Penalty die)"): the Dodge roll's
    success puts one penalty die on the shot, which the recorded shot carries when it succeeded."""
    dodged = sum((p for level, p in _levels_of(dive).items() if percentile.meets(level)), Fraction(0))
    without = 1 if dive.get("success") else 0  # the penalty die the recorded shot holds for the dive
    harder, plain = _shot_odds(shot, without - 1), _shot_odds(shot, without)
    chances = {name: dodged * harder.outcomes[name] + (1 - dodged) * plain.outcomes[name] for name in plain.outcomes}
    return Odds(chances, frozenset({"attacker"}))


def _shot_odds(roll: Mapping[str, Any], penalty_less: int = 0) -> Odds:
    """A firearm attack: hit on a success at its difficulty, unless the gun malfunctions (the
    roll's ``malfunction`` number, "Malfunctions"); ``penalty_less`` penalty dice taken off the roll."""
    levels = level_chances(roll["target"], roll.get("bonus_dice", 0), roll.get("penalty_dice", 0) - penalty_less, roll.get("malfunction"))
    difficulty = roll.get("difficulty", "regular")
    hit = sum((p for level, p in levels.items() if level != MALFUNCTION and percentile.meets(level, difficulty)), Fraction(0))
    jammed = levels.get(MALFUNCTION, Fraction(0))
    chances = {"attacker": hit, NO_WINNER: 1 - hit - jammed}
    if MALFUNCTION in levels:
        chances[MALFUNCTION] = jammed
    return Odds(chances, frozenset({"attacker"}))


@lru_cache(maxsize=None)
def hazard_table_odds(bonus: int = 0, penalty: int = 0) -> Odds:
    """A roll on the random hazards table: each outcome. A table roll is no one's success."""
    chances = {outcome: Fraction(0) for _, outcome in random_hazards.TABLE}
    for result, chance in result_chances(percentile.net_dice(bonus, penalty)).items():
        chances[random_hazards.outcome_of(result)] += chance
    return Odds(chances, frozenset())


def roll_odds(roll: Mapping[str, Any]) -> Odds | None:
    """The odds of a recorded Call of Cthulhu roll (the plug-in's RollOdds), with the outcome it
    had; None for any other roll.

    A percentile roll has tens dice and a ``target``; a table roll has tens dice and its
    ``table``; a dice roll (DiceRolled) has an ``expression`` and no ``kind`` (Savage Worlds
    records a kind with each roll, and its damage dice ace, which these do not).
    """
    try:
        if "tens" in roll and roll.get("table") == random_hazards.TABLE_NAME:
            return _had(hazard_table_odds(roll.get("bonus_dice", 0), roll.get("penalty_dice", 0)), roll.get("outcome"))
        if "tens" in roll and "target" in roll:
            malfunction = roll.get("malfunction")
            odds = skill_odds(roll["target"], roll.get("difficulty", "regular"), roll.get("bonus_dice", 0), roll.get("penalty_dice", 0), malfunction)
            jammed = malfunction is not None and roll.get("result", 0) >= malfunction
            return _had(odds, MALFUNCTION if jammed else roll.get("level"))
    except (percentile.InvalidPercentileRoll, KeyError, TypeError):
        return None
    if "expression" in roll and "kind" not in roll and "tens" not in roll:
        odds = expression_odds(roll["expression"])
        return None if odds is None else _had(odds, str(roll.get("total")))
    return None


def _had(odds: Odds, outcome: Any) -> Odds:
    return odds.had(outcome) if isinstance(outcome, str) and outcome in odds.outcomes else odds
