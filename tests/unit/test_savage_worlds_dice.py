"""Savage Worlds trait and damage rolls: aces, the Wild Die, raises, Critical Failures.

Table dice force exact outcomes (the person enters every face, ace rerolls included); a seeded
source built on domain.dice.derive_index (no infrastructure) checks that a server roll with aces
is recomputed die by die from the seed. The exact chances of an acing die are checked against an
independent recursion and against the rolls themselves.
"""
from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.dice import Draw, InvalidTableDice, TableDice, derive_index
from domain.rules.savage_worlds.acing import (
    BrokenDiceSource,
    chance_at_least,
    chance_of_total,
)
from domain.rules.savage_worlds.damage import damage_roll, table_roll
from domain.rules.savage_worlds.dice import opposed, raises, trait_die, trait_roll
from domain.rules.savage_worlds.errors import InvalidValue

SEED = bytes(range(32))
CHASE = "chase-1"


class SeededDice:
    """Server dice without the infrastructure: die i of roll ``sequence`` from derive_index."""

    def __init__(self, seed: bytes = SEED, chase_id: str = CHASE) -> None:
        self.seed, self.chase_id, self.calls = seed, chase_id, []

    def draw(self, sequence: int, dice):
        self.calls.append(len(dice))
        faces = tuple(d.face(derive_index(self.seed, self.chase_id, sequence, i, d.sides)) for i, d in enumerate(dice))
        return Draw(faces, {"kind": "server"})


# -- trait rolls ---------------------------------------------------------------------------------


def test_a_wild_card_keeps_the_better_of_trait_die_and_wild_die():
    roll = trait_roll(TableDice([3, 5]), 1, "d8")
    assert (roll.trait_faces, roll.wild_faces, roll.kept, roll.total) == ((3,), (5,), "Wild Die", 5)
    assert roll.success and roll.raises == 0 and not roll.critical_failure


def test_an_ace_is_rolled_again_and_every_face_is_recorded_in_rolling_order():
    # d8 and Wild Die rolled together: 8 and 6; the d8 again: 8, then 2; the Wild Die again: 1.
    roll = trait_roll(TableDice([8, 6, 8, 2, 1]), 7, "d8")
    assert roll.trait_faces == (8, 8, 2) and roll.wild_faces == (6, 1)
    assert roll.total == 18 and roll.raises == 3  # 18 - 4 = 14: three full 4s
    record = roll.record()
    assert [(d["index"], d["die"], d["face"], d["aced"]) for d in record["dice"]] == [
        (0, "d8", 8, True), (1, "d6", 6, True), (2, "d8", 8, True), (3, "d8", 2, False), (4, "d6", 1, False),
    ]
    assert [d["role"] for d in record["dice"]][2:] == ["ace reroll 1 of die 0", "ace reroll 2 of die 0", "ace reroll 1 of die 1"]
    assert record["source"] == {"kind": "table", "entered_by": "keeper", "draws": 1, "sequence": 7}


@pytest.mark.parametrize(
    "total, target, expected",
    [(3, 4, 0), (4, 4, 0), (7, 4, 0), (8, 4, 1), (11, 4, 1), (12, 4, 2), (10, 6, 1), (9, 6, 0)],
)
def test_a_raise_is_every_full_four_over_the_target_number(total, target, expected):
    assert raises(total, target) == expected


def test_modifiers_apply_to_both_dice_and_the_joker_adds_two():
    roll = trait_roll(TableDice([2, 3]), 1, "d6", modifier=-1, joker=True)
    assert roll.total == 3 - 1 + 2 and roll.success
    assert trait_roll(TableDice([2, 3]), 1, "d6", modifier=-1).success is False


def test_trait_die_bonus_and_unskilled_penalty():
    assert trait_roll(TableDice([5, 1]), 1, "d12+2").total == 7
    unskilled = trait_roll(TableDice([3, 5]), 1, "d4-2")  # the -2 applies to the Wild Die too
    assert unskilled.total == 3 and not unskilled.success
    assert trait_die("d4-2").label == "d4-2" and trait_die("D12 + 1").bonus == 1
    for bad in ("d5", "2d6", "d20", "", "d12+100"):
        with pytest.raises(InvalidValue):
            trait_die(bad)


def test_d4_minus_two_aces_like_any_d4():
    roll = trait_roll(TableDice([4, 2, 3]), 1, "d4-2")
    assert roll.trait_faces == (4, 3) and roll.total == 7 - 2


def test_snake_eyes_is_a_critical_failure_for_a_wild_card_whatever_the_modifiers():
    roll = trait_roll(TableDice([1, 1]), 1, "d10", modifier=+4)
    assert roll.critical_failure and not roll.success and roll.total == 5
    assert not trait_roll(TableDice([1, 2]), 1, "d10").critical_failure


def test_an_extra_rolling_a_one_rolls_a_d6_for_the_critical_failure():
    critical = trait_roll(TableDice([1, 1]), 1, "d8", wild_card=False)
    assert critical.critical_failure and critical.extra_check == 1 and critical.wild_faces == ()
    plain = trait_roll(TableDice([1, 4]), 1, "d8", wild_card=False)
    assert not plain.critical_failure and not plain.success and plain.extra_check == 4
    assert plain.record()["dice"][1]["role"] == "critical failure check"
    # No check when the trait die is not a 1, nor when the GM says it does not matter.
    assert trait_roll(TableDice([5]), 1, "d8", wild_card=False).extra_check is None
    assert trait_roll(TableDice([1]), 1, "d8", wild_card=False, extra_critical_failure_check=False).extra_check is None


def test_table_dice_must_hold_every_face_of_the_roll():
    with pytest.raises(InvalidTableDice, match="a d8 is still to roll"):
        trait_roll(TableDice([8, 3]), 1, "d8")  # the d8 aced: its reroll is missing
    with pytest.raises(InvalidTableDice, match="takes 2 dice"):
        trait_roll(TableDice([7, 3, 2]), 1, "d8")  # nothing aced: one face too many
    with pytest.raises(InvalidTableDice, match="not a face of a d6"):
        trait_roll(TableDice([7, 9]), 1, "d8")
    with pytest.raises(InvalidTableDice, match="a d6 is still to roll"):
        trait_roll(TableDice([1]), 1, "d8", wild_card=False)  # the Extra's check die is missing


def test_a_server_roll_with_aces_is_recomputed_die_by_die_from_the_seed():
    source = SeededDice()
    # Find a roll sequence where something aces, so that the prefix draws are exercised.
    for sequence in range(1, 400):
        source.calls.clear()
        roll = trait_roll(source, sequence, "d4")
        if len(roll.dice) > 2:
            break
    else:
        pytest.fail("no ace in 400 rolls of a d4 and a d6")
    for die in roll.dice:
        sides = int(die["die"][1:])
        assert die["face"] == derive_index(SEED, CHASE, sequence, die["index"], sides) + 1
    # One draw for the base dice, then one per reroll, each asking for the whole prefix.
    assert source.calls == list(range(2, len(roll.dice) + 1))
    assert roll.source["draws"] == len(roll.dice) - 1


def test_a_server_roll_without_aces_is_one_draw():
    source = SeededDice()
    for sequence in range(1, 50):
        source.calls.clear()
        roll = trait_roll(source, sequence, "d12")
        if len(roll.dice) == 2:
            assert source.calls == [2] and roll.source["draws"] == 1
            return
    pytest.fail("every roll aced")


def test_a_source_that_changes_earlier_faces_is_refused():
    class Fickle:
        def __init__(self):
            self.n = 0

        def draw(self, sequence, dice):
            self.n += 1
            return Draw(tuple(d.sides if self.n == 1 else 1 for d in dice), {})

    with pytest.raises(BrokenDiceSource):
        trait_roll(Fickle(), 1, "d8")


# -- opposed rolls -------------------------------------------------------------------------------


def test_opposed_rolls_the_defender_wins_ties_and_raises_count_over_the_loser():
    attacker = trait_roll(TableDice([9 - 1, 2, 1]), 1, "d8")  # 8 aced then 1: 9
    assert attacker.total == 9
    tie = trait_roll(TableDice([9 - 1, 1, 1]), 2, "d8")
    assert opposed(attacker, tie).winner == "defender"
    low = trait_roll(TableDice([5, 1]), 3, "d8")
    assert opposed(attacker, low).winner == "attacker" and opposed(attacker, low).raises == 1
    failing = trait_roll(TableDice([2, 3]), 4, "d8")
    assert opposed(failing, trait_roll(TableDice([1, 2]), 5, "d8")).winner == "defender"  # no success
    snake = trait_roll(TableDice([1, 1]), 6, "d8", modifier=10)
    assert opposed(low, snake).winner == "attacker"  # a Critical Failure never wins


# -- damage and table rolls ----------------------------------------------------------------------


def test_damage_dice_ace_and_a_raise_adds_a_d6():
    # Base dice: 2d6 and the raise d6 (6, 3, 5); the first d6 aced: 6, aced again: 1.
    roll = damage_roll(TableDice([6, 3, 5, 6, 1]), 1, "2d6", raise_bonus=True)
    assert roll.chains == ((6, 6, 1), (3,), (5,)) and roll.total == 21
    assert roll.record()["dice"][2]["role"] == "raise bonus d6"


def test_damage_chains_follow_the_base_dice_in_order():
    roll = damage_roll(TableDice([8, 6, 3, 6, 2]), 1, "d8+d6")
    assert roll.chains == ((8, 3), (6, 6, 2)) and roll.total == 25


def test_strength_damage_joker_and_constants():
    roll = damage_roll(TableDice([5, 4]), 1, "Str+d6", strength="d12+1", joker=True, modifier=1)
    assert roll.total == 5 + 4 + 1 + 2 + 1
    with pytest.raises(InvalidValue, match="Str"):
        damage_roll(TableDice([5, 4]), 1, "Str+d6")
    with pytest.raises(InvalidValue):
        damage_roll(TableDice([5]), 1, "d6-d4")


@pytest.mark.parametrize("expression, dice", [("1d6", 1), ("2d6", 2), ("3d6", 3), ("4d6", 4), ("5d6", 5)])
def test_scale_damage_rolls_its_dice(expression, dice):
    assert len(damage_roll(TableDice([2] * dice), 1, expression).dice) == dice


def test_breaking_things_damage_does_not_ace():
    roll = damage_roll(TableDice([6, 6]), 1, "2d6", aces=False)
    assert roll.total == 12 and not any(d["aced"] for d in roll.dice)


def test_table_rolls_never_ace():
    roll = table_roll(TableDice([6, 6]), 3)
    assert roll.total == 12 and roll.record()["dice"][1] == {"index": 1, "die": "d6", "face": 6}


# -- exact chances of an acing die ---------------------------------------------------------------


@cache
def exact(sides: int, total: int) -> Fraction:
    """Independent recursion: a face below the maximum ends the roll; the maximum adds and rerolls."""
    if total < 1:
        return Fraction(0)
    ends_here = Fraction(1, sides) if total < sides else Fraction(0)
    return ends_here + Fraction(1, sides) * exact(sides, total - sides)


def rolled_distribution(sides: int, max_aces: int) -> dict[int, Fraction]:
    """Every face sequence of up to ``max_aces`` aces, read by the implementation's damage roll."""
    found: dict[int, Fraction] = {}
    for aces in range(max_aces + 1):
        for last in range(1, sides):
            faces = [sides] * aces + [last]
            roll = damage_roll(TableDice(faces), 1, f"d{sides}")
            found[roll.total] = found.get(roll.total, Fraction(0)) + Fraction(1, sides) ** len(faces)
    return found


@settings(max_examples=200, deadline=None)
@given(sides=st.sampled_from([4, 6]), total=st.integers(min_value=-2, max_value=40))
def test_chance_of_a_total_matches_the_recursion(sides, total):
    assert chance_of_total(sides, total) == exact(sides, total)


@settings(max_examples=200, deadline=None)
@given(sides=st.sampled_from([4, 6, 8]), target=st.integers(min_value=-2, max_value=40))
def test_chance_of_at_least_matches_one_minus_the_totals_below(sides, target):
    below = sum((exact(sides, t) for t in range(1, target)), Fraction(0))
    assert chance_at_least(sides, target) == 1 - below


@pytest.mark.parametrize("sides", [4, 6])
def test_the_rolls_themselves_give_the_exact_distribution(sides):
    rolled = rolled_distribution(sides, max_aces=5)
    assert all(total % sides for total in rolled)  # a multiple of the sides never ends a roll
    for total in range(1, 5 * sides + sides):
        assert rolled.get(total, Fraction(0)) == chance_of_total(sides, total) == exact(sides, total)


def test_server_dice_aces_come_out_at_the_exact_rate():
    source = SeededDice(seed=b"distribution")
    totals = [damage_roll(source, n, "d4").total for n in range(3000)]
    mean = sum(totals) / len(totals)
    # The exact mean of an acing dN is (N+1)/2 * N/(N-1): 10/3 for a d4.
    assert abs(mean - 10 / 3) < 0.15
    assert all(t % 4 for t in totals)
    assert chance_of_total(4, 2) == Fraction(1, 4) and chance_of_total(4, 4) == 0


def test_a_source_holding_entered_faces_is_read_like_table_dice():
    class Entered:  # e.g. an application wrapper around the person's faces
        def __init__(self, faces):
            self.entered, self.inner = list(faces), TableDice(faces)

        def draw(self, sequence, dice):
            return self.inner.draw(sequence, dice)

    assert trait_roll(Entered([8, 2, 3]), 1, "d8").trait_faces == (8, 3)
