"""D6 dice and their exact odds (domain/rules/d6/dice.py, odds.py), checked against brute force.

The brute force enumerates every face of the ordinary dice and every Wild Die chain (a 6 rolls
again) up to K sixes in a row, where K is the first count of sixes whose sum alone (with the
lowest ordinary dice and the pips) reaches the difficulty (K >= 1): every longer chain succeeds,
so its whole chance, (1/6)^K, counts as success. That truncation is exact, not an estimate.
"""
from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from domain.dice import TableDice
from domain.rules.d6.dice import WILD_DIE_ONE, DieCode, die_code, read, roll
from domain.rules.d6.errors import InvalidValue
from domain.rules.d6.odds import chance_of_success, exploding_at_least, roll_odds
from domain.rules.d6.verification import check_roll
from domain.verification import VerificationFailed

SIXTH = Fraction(1, 6)


def wild_chains(sixes: int):
    """Every Wild Die chain with fewer than ``sixes`` sixes in a row, with its chance."""
    for k in range(sixes):
        for last in range(1, 6):
            yield [6] * k + [last], SIXTH ** (k + 1)


def brute_force(code: DieCode, difficulty: int, one: str) -> Fraction:
    ordinary = code.dice - 1
    sixes = 1  # at least one: a chain of sixes never starts with the 1 that "remove" takes away
    while 6 * sixes + ordinary + code.pips < difficulty:
        sixes += 1
    chance = SIXTH**sixes  # K sixes in a row: every such roll succeeds (see the module docstring)
    for faces in itertools.product(range(1, 7), repeat=ordinary):
        for chain, p in wild_chains(sixes):
            reading = read(code, list(faces) + chain, one)
            if reading.dice_total >= difficulty:
                chance += p * SIXTH**ordinary
    return chance


@pytest.mark.parametrize("one", WILD_DIE_ONE)
@pytest.mark.parametrize("code", ["1D", "1D+2", "2D", "3D-1", "4D+1"])
def test_the_exact_chance_of_every_difficulty_is_the_brute_force_count(code, one):
    parsed = die_code(code)
    for difficulty in range(-1, 6 * parsed.dice + 16):
        assert chance_of_success(parsed, difficulty, one) == brute_force(parsed, difficulty, one), (code, one, difficulty)


def test_the_exploding_die_tail_is_a_closed_form():
    # P(E >= 7) needs a 6 then anything; P(E >= 13) two 6s then anything; P(E >= 12) a 6 then a 6.
    assert exploding_at_least(1) == 1 and exploding_at_least(6) == SIXTH
    assert exploding_at_least(7) == SIXTH and exploding_at_least(12) == SIXTH**2 and exploding_at_least(13) == SIXTH**2
    assert exploding_at_least(8) == SIXTH * Fraction(5, 6)


def test_odds_of_a_recorded_roll_sum_to_one_and_name_the_complication():
    made = roll(TableDice([4, 2, 6, 3]), 1, die_code("3D+1"), one="complication", difficulty=15).record()
    odds = roll_odds(made)
    assert sum(odds.outcomes.values()) == 1 and odds.success == chance_of_success("3D+1", 15, "complication")
    assert roll_odds({**made, "kind": "trait roll"}) is None and roll_odds({**made, "difficulty": None}) is None
    # A bonus to the total (a running start) is a lower difficulty for the dice.
    bonus = roll(TableDice([4, 2, 3]), 2, die_code("3D"), difficulty=15, bonus={"running start": 5}).record()
    assert roll_odds(bonus).success == chance_of_success("3D", 10)


def test_remove_takes_away_the_1_and_the_highest_other_die_or_only_the_1():
    assert read(die_code("3D"), [6, 4, 1], "remove").dice_total == 4
    assert read(die_code("1D+2"), [1], "remove").dice_total == 2  # no other die: the pips remain
    assert read(die_code("3D"), [6, 4, 1], "no_effect").dice_total == 11


@pytest.mark.parametrize("text", ["4", "D6", "0D", "31D", "4D+3", "4d+1.5", "", None, 4, True])
def test_a_die_code_that_is_not_one_is_refused_naming_the_field(text):
    with pytest.raises(InvalidValue) as refused:
        die_code(text, "skills.running")
    assert refused.value.field == "skills.running"


def test_server_dice_are_asked_for_one_more_die_after_each_six():
    class Scripted:
        """Faces by die index, as server dice derive them: the prefix never changes."""

        def __init__(self, faces):
            self.faces, self.asked = faces, []

        def draw(self, sequence, dice):
            from domain.dice import Draw

            self.asked.append(len(dice))
            return Draw(tuple(self.faces[: len(dice)]), {"kind": "server"})

    source = Scripted([2, 6, 6, 1, 5])
    made = roll(source, 7, die_code("2D"))
    assert source.asked == [2, 3, 4] and made.faces == (2, 6, 6, 1) and made.total == 15
    assert made.record()["source"] == {"kind": "server", "draws": 3, "sequence": 7}


def test_verification_reads_a_roll_back_and_refuses_one_that_does_not_follow():
    made = {"sequence": 3, **roll(TableDice([5, 3, 1]), 3, die_code("3D+1"), one="remove", difficulty=5).record()}
    faces = [d["face"] for d in made["dice"]]
    assert check_roll(9, made, faces) is True
    assert check_roll(9, {"kind": "trait roll"}, faces) is False
    with pytest.raises(VerificationFailed, match="D6 roll 3"):
        check_roll(9, {**made, "wild_die_one": "no_effect"}, faces)  # the 1 would have counted
    with pytest.raises(VerificationFailed, match="not a whole roll"):
        check_roll(9, made, [5, 3, 6])  # a 6 on the Wild Die wants its reroll
