"""Exact odds of Call of Cthulhu rolls, checked against every way the dice can fall.

The brute force below reads every combination of faces with percentile.resolve, the very code
that reads a real roll, so the closed form in domain/rules/coc7e/odds.py is checked against the
rules as the engine plays them, not against a second copy of the formula.
"""
from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from domain.dice import TableDice
from domain.rules.coc7e import odds, percentile, random_hazards

NET_DICE = [(0, 2), (0, 1), (0, 0), (1, 0), (2, 0)]  # two penalty ... two bonus dice


def enumerate_levels(target: int, bonus: int, penalty: int) -> Counter[str]:
    """Every face of every tens die and the units die, each read as a roll is read."""
    dice = percentile.dice_for(bonus, penalty)
    faces = [list(die.faces()) for die in dice]
    counts: Counter[str] = Counter()
    for combination in itertools.product(*faces):
        counts[percentile.resolve(target, combination, bonus, penalty)["level"]] += 1
    return counts


def as_chances(counts: Counter[str]) -> dict[str, Fraction]:
    every = sum(counts.values())
    return {level: Fraction(count, every) for level, count in counts.items()}


@pytest.mark.parametrize("bonus, penalty", NET_DICE)
@pytest.mark.parametrize("target", [0, 1, 4, 5, 9, 10, 20, 45, 49, 50, 55, 99, 100, 150])
def test_each_level_of_success_is_exactly_as_often_as_the_dice_give_it(target: int, bonus: int, penalty: int) -> None:
    # Given every way the tens dice and the units die can fall
    expected = as_chances(enumerate_levels(target, bonus, penalty))
    # Then the odds give each level exactly that chance (levels the dice never give: 0)
    chances = odds.level_chances(target, bonus, penalty)
    assert {level: chance for level, chance in chances.items() if chance} == expected
    assert sum(chances.values()) == 1


@pytest.mark.parametrize(
    "bonus, penalty, published",
    [(0, 2, Fraction(1, 8)), (0, 1, Fraction(1, 4)), (0, 0, Fraction(1, 2)), (1, 0, Fraction(3, 4)), (2, 0, Fraction(7, 8))],
)
def test_skill_50_succeeds_as_published_and_the_figures_are_exact(bonus: int, penalty: int, published: Fraction) -> None:
    # Given a skill of 50, with two penalty dice up to two bonus dice
    skill = odds.skill_odds(50, bonus=bonus, penalty=penalty)
    # Then it succeeds with the published 0.125, 0.25, 0.5, 0.75, 0.875 -- exactly, not rounded:
    # for every units face, 5 of the 10 tens faces give 50 or less (00 and 0 read as 100 is
    # above 50, 10..50 below), so each tens die is an independent even chance and n of them all
    # missing is exactly (1/2)^n; the shared units die changes nothing at 50.
    assert skill.success == published
    assert skill.success == Fraction(*enumerate_success(50, bonus, penalty))


def enumerate_success(target: int, bonus: int, penalty: int) -> tuple[int, int]:
    counts = enumerate_levels(target, bonus, penalty)
    wins = sum(n for level, n in counts.items() if percentile.meets(level))
    return wins, sum(counts.values())


def test_at_other_values_the_shared_units_die_makes_the_naive_figure_wrong() -> None:
    # Given a skill of 55 with two bonus dice: the naive 1 - 0.45^3 treats the three results as
    # independent, but they share the units die
    exact = odds.skill_odds(55, bonus=2).success
    # Then the exact chance is 1811/2000 = 0.9055, not 0.908875
    assert exact == Fraction(1811, 2000) == Fraction(*enumerate_success(55, 2, 0))
    assert exact != 1 - Fraction(45, 100) ** 3


@pytest.mark.parametrize("difficulty, succeeding", [
    ("regular", {"critical", "extreme", "hard", "regular"}),
    ("hard", {"critical", "extreme", "hard"}),
    ("extreme", {"critical", "extreme"}),
    ("critical", {"critical"}),
])
def test_the_difficulty_decides_which_levels_count_as_a_success(difficulty: str, succeeding: set[str]) -> None:
    skill = odds.skill_odds(60, difficulty)
    assert skill.successes == succeeding
    # 60: hard is 30 or less, extreme 12 or less, critical 01
    assert skill.success == {"regular": Fraction(60, 100), "hard": Fraction(30, 100), "extreme": Fraction(12, 100), "critical": Fraction(1, 100)}[difficulty]


@pytest.mark.parametrize("response, winner_of", [("fight back", percentile.fight_back_winner), ("dodge", percentile.dodge_winner)])
@pytest.mark.parametrize("attack, defence", [((50, 0, 0), (50, 0, 0)), ((70, 1, 0), (40, 0, 2)), ((25, 0, 1), (80, 2, 0))])
def test_who_wins_an_opposed_roll_is_exactly_as_often_as_both_rolls_give_it(response, winner_of, attack, defence) -> None:
    # Given both rolls' every face, read and compared under the rules' tie rule
    a_counts, d_counts = enumerate_levels(*attack), enumerate_levels(*defence)
    wins: Counter[str] = Counter()
    for a_level, a_n in a_counts.items():
        for d_level, d_n in d_counts.items():
            wins[winner_of(a_level, d_level) or odds.NO_WINNER] += a_n * d_n
    every = sum(a_counts.values()) * sum(d_counts.values())
    # Then the opposed odds match
    opposed = odds.opposed_odds(odds.level_chances(*attack), odds.level_chances(*defence), response)
    assert {k: v for k, v in opposed.outcomes.items() if v} == {k: Fraction(n, every) for k, n in wins.items()}
    assert opposed.successes == {"attacker"}


def test_ties_go_to_the_attacker_fighting_back_and_to_the_dodger_dodging() -> None:
    # Given two equal fighters at 50
    even = odds.level_chances(50)
    fight, dodge = odds.opposed_odds(even, even, "fight back"), odds.opposed_odds(even, even, "dodge")
    # Then both fail a quarter of the time (no one wins), and the tie rule tips the rest
    assert fight.outcomes[odds.NO_WINNER] == dodge.outcomes[odds.NO_WINNER] == Fraction(1, 4)
    assert fight.outcomes["attacker"] > fight.outcomes["defender"]
    assert dodge.outcomes["defender"] > dodge.outcomes["attacker"]


@pytest.mark.parametrize("environment", ["normal", "hazardous", "quiet"])
def test_the_random_hazards_table_odds_match_every_roll_on_it(environment: str) -> None:
    # Given every roll the table can have in this environment, read by the table's own code
    bonus, penalty = random_hazards.ENVIRONMENTS[environment]
    counts: Counter[str] = Counter()
    dice = percentile.dice_for(bonus, penalty)
    for faces in itertools.product(*[list(d.faces()) for d in dice]):
        counts[random_hazards.roll_location(TableDice(list(faces)), 1, environment)["outcome"]] += 1
    # Then the odds of the recorded roll agree; "01-59 = Clear" is 59% on a plain roll
    record = random_hazards.roll_location(TableDice([50] * (len(dice) - 1) + [0]), 1, environment)
    table = odds.roll_odds(record)
    assert table is not None and table.successes == frozenset()
    assert {k: v for k, v in table.outcomes.items() if v} == as_chances(counts)
    if environment == "normal":
        assert table.outcomes["clear"] == Fraction(59, 100)


def test_a_recorded_skill_roll_has_the_odds_of_its_target_difficulty_and_dice() -> None:
    # Given a recorded Hard roll against 60 with one bonus die
    record = percentile.roll(TableDice([30, 20, 5]), 7, 60, difficulty="hard", bonus=1)
    # Then its odds are those of that roll, named in its own words: the "level" it had (20:
    # hard, 30 or less) is the outcome observed
    recorded = odds.roll_odds(record)
    assert recorded == odds.skill_odds(60, "hard", bonus=1).had("hard")
    assert record["level"] == recorded.observed == "hard"
    assert set(recorded.outcomes) == set(percentile.LEVELS)


def test_a_recorded_dice_roll_has_the_distribution_of_its_expression() -> None:
    # Given a recorded 1D3 (lost movement actions)
    from domain.dice import parse

    record = parse("1D3").roll(TableDice([2]), 3)
    # Then each total has a third, named as the record's total reads
    recorded = odds.roll_odds(record)
    assert recorded is not None
    assert recorded.outcomes == {"1": Fraction(1, 3), "2": Fraction(1, 3), "3": Fraction(1, 3)}
    assert recorded.observed == "2"


def test_rolls_of_other_systems_are_left_to_them() -> None:
    assert odds.roll_odds({"kind": "trait roll", "trait_die": "d8"}) is None
    assert odds.roll_odds({"kind": "damage roll", "expression": "2d6"}) is None


@pytest.mark.parametrize(
    "method, response, firearm, difficulty",
    [("fighting", "dodge", False, "regular"), ("fighting", "fight back", False, "regular"), ("maneuver", "maneuver", False, "regular"),
     ("fighting", "none", False, "regular"), ("firearm", "none", True, "hard")],
)
def test_who_wins_an_attack_is_as_often_as_conflict_resolve_gives_it(method, response, firearm, difficulty) -> None:
    # Given an attack at 60 with a bonus die met (or not) by a defence at 40, both rolls recorded
    attack = percentile.roll(TableDice([10, 10, 0]), 1, 60, difficulty=difficulty, bonus=1)
    defence = percentile.roll(TableDice([10, 0]), 2, 40)
    fields = {"method": method, "response": response, "attack_roll": 1, "defence_roll": 2 if response != "none" else None}
    # When every pair of levels the dice give is resolved by the engine's own conflict rules
    from domain.rules.coc7e import conflict

    a_counts, d_counts = enumerate_levels(60, 1, 0), (enumerate_levels(40, 0, 0) if response != "none" else Counter({"failure": 1}))
    wins: Counter[str] = Counter()
    for a_level, a_n in a_counts.items():
        for d_level, d_n in d_counts.items():
            winner = conflict.resolve(a_level, d_level if response != "none" else None, response, firearm=firearm, difficulty=difficulty).winner
            wins[winner or odds.NO_WINNER] += a_n * d_n
    every = sum(a_counts.values()) * sum(d_counts.values())
    # Then the odds of the AttackMade agree exactly
    decided = odds.attack_odds("coc7e:Chase.AttackMade", fields, {1: attack, 2: defence})
    assert decided is not None
    assert {k: v for k, v in decided.outcomes.items() if v} == {k: Fraction(n, every) for k, n in wins.items()}


def test_other_events_have_no_attack_odds() -> None:
    assert odds.attack_odds("coc7e:Chase.SkillRolled", {}, {}) is None


@pytest.mark.parametrize("bonus, penalty", NET_DICE)
@pytest.mark.parametrize("gun, skill, difficulty", [("Glock 17 9mm Auto", 99, "regular"), ("Thompson", 70, "hard"), ("Col. Moran's Air Rifle", 95, "regular")])
def test_a_firearm_attack_at_or_above_the_malfunction_number_never_hits(gun, skill, difficulty, bonus, penalty) -> None:
    # Given a shot with a gun of Table XVII, its attack roll recorded with the gun's malfunction number
    from domain.rules.coc7e import arms, conflict, weapons

    w = weapons.weapon(gun)
    roll = dict(percentile.roll(TableDice([0] * (1 + abs(bonus - penalty)) + [5]), 1, skill, difficulty=difficulty, bonus=bonus, penalty=penalty),
                malfunction=w.malfunction)
    # When every fall of the dice is read by the engine: a malfunction (at or above the number:
    # "the weapon does not fire"), else a hit on a success at the range's difficulty
    counts: Counter[str] = Counter()
    for combination in itertools.product(*[list(d.faces()) for d in percentile.dice_for(bonus, penalty)]):
        read = percentile.resolve(skill, combination, bonus, penalty)
        if arms.malfunctioned(w, read["result"]):
            counts[odds.MALFUNCTION] += 1
        else:
            counts[conflict.resolve(read["level"], None, "none", firearm=True, difficulty=difficulty).winner or odds.NO_WINNER] += 1
    # Then the attack's odds agree exactly, a malfunction being no hit
    decided = odds.attack_odds("coc7e:Chase.AttackMade", {"method": "firearm", "response": "none", "attack_roll": 1}, {1: roll})
    assert decided is not None and {k: v for k, v in decided.outcomes.items() if v} == as_chances(counts)
    assert decided.successes == {"attacker"}
    # And the roll's own odds name the malfunction as an outcome that is never a success
    own = odds.roll_odds(roll)
    assert own is not None and own.outcomes[odds.MALFUNCTION] == Fraction(counts[odds.MALFUNCTION], sum(counts.values()))
    assert odds.MALFUNCTION not in own.successes


def test_a_recorded_roll_that_malfunctioned_shows_it_observed() -> None:
    # A Glock (98) roll of 99 against Firearms 99: a regular success by level, but the gun did not fire.
    roll = dict(percentile.roll(TableDice([90, 9]), 1, 99), malfunction=98)
    assert roll["level"] == "regular"
    assert odds.roll_odds(roll).observed == odds.MALFUNCTION


@pytest.mark.parametrize("dodge_faces, dodged", [([20, 0], True), ([90, 0], False)])
def test_a_shot_at_a_target_diving_for_cover_weighs_the_dodge_roll(dodge_faces, dodged) -> None:
    # Given a shot (Firearms 55, a cover penalty die already) at a target diving for cover with
    # Dodge 40, the shot recorded with the dive's penalty die when the dodge succeeded
    dive = percentile.roll(TableDice(dodge_faces), 1, 40)
    assert dive["success"] is dodged
    penalty = 1 + int(dodged)
    shot = dict(percentile.roll(TableDice([0] * (1 + penalty) + [5]), 2, 55, penalty=penalty), malfunction=100)
    # When every fall of the Dodge roll and then of the shot is read by the engine
    hits = Fraction(0)
    for d_level, d_chance in as_chances(enumerate_levels(40, 0, 0)).items():
        dice_on_shot = 1 + int(percentile.meets(d_level))
        counts = Counter()
        for combination in itertools.product(*[list(d.faces()) for d in percentile.dice_for(0, dice_on_shot)]):
            read = percentile.resolve(55, combination, 0, dice_on_shot)
            counts["attacker" if read["result"] < 100 and percentile.meets(read["level"]) else "other"] += 1
        hits += d_chance * Fraction(counts["attacker"], sum(counts.values()))
    # Then the attack's odds give the same chance of a hit, whatever this dodge roll showed
    decided = odds.attack_odds("coc7e:Chase.AttackMade", {"method": "firearm", "response": "dive for cover", "attack_roll": 2, "defence_roll": 1}, {1: dive, 2: shot})
    assert decided is not None and decided.outcomes["attacker"] == hits
