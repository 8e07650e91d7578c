"""Properties of the server dice (DESIGN.md section 4) and of bonus and penalty dice.

Server dice must be reproducible by anyone holding the revealed seed, differ from roll to roll,
and be fair; bonus and penalty dice must shift the odds exactly as the rules say.
"""
from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import math
from fractions import Fraction
from functools import lru_cache
from uuid import UUID, uuid4

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.dice import TENS, UNITS, D, commitment_of, derive_index
from domain.rules.coc7e import percentile
from infrastructure.dice import InMemorySeedVault, SeedNotFound, ServerDice

SEED = bytes(range(32))
CHASE = UUID("12345678-1234-5678-1234-567812345678")

seeds = st.binary(min_size=1, max_size=64)
chase_ids = st.uuids()
sequences = st.integers(min_value=0, max_value=10**9)
entropies = st.text(max_size=40)
# Eight d1000s: two different streams agree by chance with probability 1e-24.
MANY = [D(1000)] * 8


# --- (a) reproducible, and a new stream for every roll ---------------------------------------


@settings(max_examples=80, deadline=None)
@given(seed=seeds, chase_id=chase_ids, sequence=sequences, entropy=entropies)
def test_the_same_seed_chase_sequence_and_entropy_give_the_same_faces(seed, chase_id, sequence, entropy):
    dice = [TENS, TENS, UNITS, D(6), D(3), D(20)]
    # The server rolls...
    first = ServerDice(seed, chase_id, entropy).draw(sequence, dice)
    # ...and later anyone with the revealed seed rebuilds the dice and recomputes the roll.
    again = ServerDice(bytes(seed), UUID(str(chase_id)), entropy).draw(sequence, dice)

    assert again.faces == first.faces
    # Die by die, the faces are derive_index read through the die's faces.
    assert first.faces == tuple(
        die.face(derive_index(seed, str(chase_id), sequence, index, die.sides, entropy))
        for index, die in enumerate(dice)
    )
    assert all(face in die.faces() for face, die in zip(first.faces, dice))
    assert first.provenance == {"kind": "server", "epoch": 0, "entropy": entropy}


@settings(max_examples=60, deadline=None)
@given(seed=seeds, chase_id=chase_ids, sequence=sequences, entropy=entropies)
def test_every_roll_number_and_every_bit_of_entropy_gives_a_new_stream(seed, chase_id, sequence, entropy):
    dice = ServerDice(seed, chase_id, entropy)
    faces = dice.draw(sequence, MANY).faces

    # The next roll of the chase.
    assert dice.draw(sequence + 1, MANY).faces != faces
    # The same roll number with other entropy supplied by the players.
    assert ServerDice(seed, chase_id, entropy + "!").draw(sequence, MANY).faces != faces
    # Another chase, or another seed.
    assert ServerDice(seed, uuid4(), entropy).draw(sequence, MANY).faces != faces
    # (Another seed: the first byte changed. Appending zero bytes would not do, as HMAC pads
    # short keys with zeros; the SHA-256 commitment is what pins the exact seed.)
    other_seed = bytes([seed[0] ^ 1]) + seed[1:]
    assert ServerDice(other_seed, chase_id, entropy).draw(sequence, MANY).faces != faces


def test_dice_within_one_roll_are_independent_of_each_other():
    # Die index is part of the derivation: eight d1000s of one roll are not all the same face.
    faces = ServerDice(SEED, CHASE).draw(1, MANY).faces
    assert len(set(faces)) > 1


def test_an_offline_verifier_following_the_published_recipe_gets_the_same_faces():
    """HMAC-SHA256(seed, [chase id, sequence, die index, attempt, entropy]) mod sides, top band rejected."""

    def recompute(seed: bytes, chase_id: str, sequence: int, die_index: int, sides: int, entropy: str) -> int:
        space = 1 << 256
        for attempt in itertools.count():
            message = json.dumps([chase_id, sequence, die_index, attempt, entropy]).encode()
            value = int.from_bytes(hmac.new(seed, message, hashlib.sha256).digest(), "big")
            if value < space - space % sides:
                return value % sides
        raise AssertionError("unreachable")

    dice = [TENS, UNITS, D(6), D(4)]
    faces = ServerDice(SEED, CHASE, "players").draw(42, dice).faces
    assert faces == tuple(
        die.face(recompute(SEED, str(CHASE), 42, i, die.sides, "players")) for i, die in enumerate(dice)
    )


def test_the_server_dice_never_show_the_seed():
    dice = ServerDice(SEED, CHASE)
    assert SEED.hex() not in repr(dice)
    assert str(SEED) not in repr(dice)


# --- (b) fair dice: chi-square goodness of fit -----------------------------------------------


def chi_square_survival(statistic: float, degrees: int) -> float:
    """P(X >= statistic) for a chi-square variable, via the regularised lower incomplete gamma."""
    a, x = degrees / 2, statistic / 2
    if x <= 0:
        return 1.0
    # Series: P(a, x) = x^a e^-x / Gamma(a + 1) * sum x^n / ((a + 1) ... (a + n)).
    term = total = 1.0
    n = 0
    while term > 1e-17 * total:
        n += 1
        term *= x / (a + n)
        total += term
    lower = math.exp(a * math.log(x) - x - math.lgamma(a + 1)) * total
    return max(0.0, 1.0 - lower)


def chi_square(counts: dict[int, int], faces: range) -> tuple[float, int]:
    rolls = sum(counts.values())
    expected = rolls / len(faces)
    statistic = sum((counts.get(face, 0) - expected) ** 2 / expected for face in faces)
    return statistic, len(faces) - 1


SIGNIFICANCE = 0.001


@pytest.mark.parametrize("degrees, critical", [(2, 13.816), (5, 20.515), (9, 27.877)])
def test_the_chi_square_routine_matches_the_published_critical_values(degrees, critical):
    # Table values at p = 0.001: the routine the fairness tests rely on is itself right.
    assert chi_square_survival(critical, degrees) == pytest.approx(SIGNIFICANCE, rel=1e-3)


def test_the_fairness_check_catches_a_loaded_die():
    # A d6 that shows a 6 one time in five instead of one in six (6000 rolls).
    loaded = {1: 960, 2: 960, 3: 960, 4: 960, 5: 960, 6: 1200}
    assert chi_square_survival(*chi_square(loaded, range(1, 7))) < SIGNIFICANCE
    # And a modulo-biased d6 from a byte (256 % 6 = 4: faces 1..4 a little more likely),
    # over enough rolls to show it.
    biased = {face: 0 for face in range(1, 7)}
    for byte in range(256):
        biased[byte % 6 + 1] += 2000
    assert chi_square_survival(*chi_square(biased, range(1, 7))) < SIGNIFICANCE


@pytest.mark.parametrize(
    "die, rolls",
    [(D(6), 6000), (UNITS, 10000), (TENS, 10000), (D(3), 3000)],
    ids=["d6", "d100-units", "d100-tens", "d3"],
)
def test_server_dice_are_fair_over_many_rolls(die, rolls):
    dice = ServerDice(SEED, CHASE, "fairness")
    counts: dict[int, int] = {}
    # One die per roll, across consecutive roll numbers as a chase would use them.
    for sequence in range(1, rolls + 1):
        (face,) = dice.draw(sequence, [die]).faces
        counts[face] = counts.get(face, 0) + 1

    assert set(counts) == set(die.faces())
    statistic, degrees = chi_square(counts, die.faces())
    assert chi_square_survival(statistic, degrees) > SIGNIFICANCE, (statistic, counts)


def test_every_tens_die_of_a_bonus_roll_is_fair_too():
    # The second tens die (die index 1) is its own fair die, not a copy of the first.
    dice = ServerDice(SEED, CHASE)
    counts: dict[int, int] = {}
    same = 0
    for sequence in range(1, 5001):
        first, second, _units = dice.draw(sequence, [TENS, TENS, UNITS]).faces
        counts[second] = counts.get(second, 0) + 1
        same += first == second
    assert chi_square_survival(*chi_square(counts, TENS.faces())) > SIGNIFICANCE
    # Two independent tens dice agree one time in ten: 500 expected, well within 400..600.
    assert 400 < same < 600


# --- (c) exact odds of bonus and penalty dice ------------------------------------------------


@lru_cache(maxsize=None)
def success_chance(target: int, bonus: int = 0, penalty: int = 0) -> Fraction:
    """Exact chance of a regular success, enumerating every face of every die the roll takes."""
    tens_dice = len(percentile.dice_for(bonus, penalty)) - 1
    successes = total = 0
    for tens in itertools.product(TENS.faces(), repeat=tens_dice):
        for units in UNITS.faces():
            read = percentile.resolve(target, [*tens, units], bonus, penalty)
            successes += percentile.meets(read["level"])
            total += 1
    return Fraction(successes, total)


def test_skill_50_succeeds_half_the_time_three_quarters_with_a_bonus_die_a_quarter_with_a_penalty():
    assert success_chance(50) == Fraction(1, 2)
    assert success_chance(50, bonus=1) == Fraction(3, 4)
    assert success_chance(50, penalty=1) == Fraction(1, 4)
    # Two dice: fail (or succeed) on all three tens dice.
    assert success_chance(50, bonus=2) == Fraction(7, 8)
    assert success_chance(50, penalty=2) == Fraction(1, 8)
    # A bonus and a penalty die cancel: back to even odds.
    assert success_chance(50, bonus=1, penalty=1) == Fraction(1, 2)


@settings(max_examples=60, deadline=None)
@given(target=st.integers(min_value=1, max_value=99))
def test_a_bonus_die_never_hurts_and_a_penalty_die_never_helps(target):
    plain = success_chance(target)
    # Without bonus or penalty dice the chance is exactly the skill in percent.
    assert plain == Fraction(target, 100)
    assert success_chance(target, bonus=1) >= plain
    assert success_chance(target, penalty=1) <= plain
    assert success_chance(target, bonus=2) >= success_chance(target, bonus=1)
    assert success_chance(target, penalty=2) <= success_chance(target, penalty=1)


# --- (d) derive_index ------------------------------------------------------------------------


@pytest.mark.parametrize("sides", [1, 0, -6])
def test_a_die_needs_at_least_two_sides(sides):
    with pytest.raises(ValueError, match="two sides"):
        derive_index(SEED, str(CHASE), 1, 0, sides)


@settings(max_examples=300, deadline=None)
@given(
    sides=st.integers(min_value=2, max_value=1000),
    seed=seeds,
    sequence=sequences,
    die_index=st.integers(min_value=0, max_value=100),
    entropy=entropies,
)
def test_every_index_is_a_face_of_the_die(sides, seed, sequence, die_index, entropy):
    index = derive_index(seed, str(CHASE), sequence, die_index, sides, entropy)
    assert isinstance(index, int)
    assert 0 <= index < sides
    assert D(sides).face(index) in D(sides).faces()


def test_a_d2_shows_both_faces():
    indexes = {derive_index(SEED, str(CHASE), sequence, 0, 2) for sequence in range(64)}
    assert indexes == {0, 1}


# --- the seed vault --------------------------------------------------------------------------


def test_the_vault_publishes_a_commitment_and_rolls_the_same_dice_for_the_same_chase():
    vault = InMemorySeedVault()
    chase, other = uuid4(), uuid4()

    commitment = vault.new_seed(chase)
    other_commitment = vault.new_seed(other)

    # A SHA-256 commitment, different for every chase's seed.
    assert len(commitment) == 64 and int(commitment, 16) >= 0
    assert commitment != other_commitment
    # The same chase always gets the same dice; another chase other dice.
    mine = vault.server_dice(chase, commitment)
    assert mine.draw(5, MANY).faces == vault.server_dice(chase, commitment).draw(5, MANY).faces
    assert mine.draw(5, MANY).faces != vault.server_dice(other, other_commitment).draw(5, MANY).faces
    # The seed revealed for a commitment is the one whose SHA-256 it is.
    assert commitment_of(bytes.fromhex(vault.seed_to_reveal(chase, commitment))) == commitment


def test_the_commitment_is_sha256_of_the_seed():
    assert commitment_of(SEED) == hashlib.sha256(SEED).hexdigest()


def test_a_chase_without_a_seed_has_no_server_dice():
    with pytest.raises(SeedNotFound):
        InMemorySeedVault().server_dice(uuid4(), "0" * 64)
