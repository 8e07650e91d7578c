"""Action cards: the 54-card deck, card order, the committed shuffle, dealing and reshuffles.

A shuffle is a permutation, recomputed from the revealed seed with domain.dice.derive_index
alone; dealing the same committed deck twice (an undo, then a deal again) gives the same cards.
"""
from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.dice import Draw, TableDice, derive_index
from domain.rules.savage_worlds.cards import (
    FULL_DECK,
    Card,
    Deck,
    card,
    committed_shuffle,
    faces_for_order,
    highest_first,
    shuffle_dice,
    shuffle_order,
    shuffled,
    verify_order,
)
from domain.rules.savage_worlds.errors import InvalidValue, RuleBroken


class SeededDice:
    """Server dice without the infrastructure: die i of roll ``sequence`` from derive_index."""

    def __init__(self, seed: bytes, chase_id: str = "chase-1") -> None:
        self.seed, self.chase_id = seed, chase_id

    def draw(self, sequence: int, dice):
        return Draw(tuple(d.face(derive_index(self.seed, self.chase_id, sequence, i, d.sides)) for i, d in enumerate(dice)), {"kind": "server"})


def stacked(order: list[str]) -> tuple[Deck, TableDice]:
    """A fresh deck whose committed order starts with ``order`` (the rest in canonical order)."""
    top = [card(c) for c in order]
    full = top + [c for c in FULL_DECK if c not in top]
    return Deck.shuffled_from(1), TableDice(faces_for_order(FULL_DECK, full))


# -- the deck and its order ----------------------------------------------------------------------


def test_the_deck_has_fifty_two_cards_and_two_jokers():
    assert len(FULL_DECK) == len(set(FULL_DECK)) == 54
    assert sum(c.is_joker for c in FULL_DECK) == 2
    assert Counter(c.suit for c in FULL_DECK if not c.is_joker) == {"Spades": 13, "Hearts": 13, "Diamonds": 13, "Clubs": 13}


def test_values_run_two_to_ace_and_the_joker_is_highest():
    assert [card(t).value for t in ("2C", "10H", "JS", "QS", "KS", "AS", "Red Joker")] == [2, 10, 11, 12, 13, 14, 15]


def test_ties_go_in_suit_order_spades_hearts_diamonds_clubs():
    kings = [card(t) for t in ("KC", "KH", "KD", "KS")]
    assert [c.suit for c in highest_first(kings)] == ["Spades", "Hearts", "Diamonds", "Clubs"]
    assert highest_first([card("AS"), card("BJ"), card("2C")])[0].is_joker


@pytest.mark.parametrize(
    "text, expected",
    [("QH", Card("Q", "Hearts")), ("10s", Card("10", "Spades")), ("Q♥", Card("Q", "Hearts")),
     ("10 of Spades", Card("10", "Spades")), ("queen of hearts", Card("Q", "Hearts")),
     ("Red Joker", Card("Joker", "Red")), ("BJ", Card("Joker", "Black")), ("ace of clubs", Card("A", "Clubs"))],
)
def test_cards_are_read_as_people_write_them(text, expected):
    assert card(text) == expected
    assert card(expected.code) == expected


@pytest.mark.parametrize("text", ["", "Joker", "1H", "QX", "11 of Spades", "Green Joker", "Q of Cups"])
def test_what_is_not_a_card_is_refused(text):
    with pytest.raises(InvalidValue):
        card(text)


# -- the committed shuffle -----------------------------------------------------------------------


def test_a_shuffle_is_one_draw_of_decreasing_dice():
    assert [d.sides for d in shuffle_dice(54)] == list(range(54, 1, -1))
    assert shuffle_dice(1) == [] and shuffle_dice(0) == []


@settings(max_examples=40, deadline=None)
@given(seed=st.binary(min_size=1, max_size=32), sequence=st.integers(min_value=0, max_value=10**6))
def test_a_shuffle_is_a_permutation_recomputed_from_the_revealed_seed(seed, sequence):
    order = shuffle_order(SeededDice(seed), sequence, FULL_DECK)
    assert sorted(order, key=FULL_DECK.index) == list(FULL_DECK)
    # Offline, with the seed revealed: the same order, die index by die index.
    assert verify_order(seed, "chase-1", sequence, FULL_DECK) == order


def test_every_swap_sequence_gives_a_different_order_so_every_order_is_equally_likely():
    cards = FULL_DECK[:4]
    orders = {shuffled(cards, faces) for faces in itertools.product(range(1, 5), range(1, 4), range(1, 3))}
    assert len(orders) == 24  # 4 * 3 * 2 equally likely face lists -> 24 distinct orders


@settings(max_examples=40, deadline=None)
@given(st.permutations(FULL_DECK))
def test_any_order_can_be_entered_as_table_dice(order):
    faces = faces_for_order(FULL_DECK, order)
    assert shuffle_order(TableDice(faces), 5, FULL_DECK) == tuple(order)


def test_the_shuffle_records_how_it_was_drawn_never_the_order():
    order, provenance = committed_shuffle(SeededDice(b"s"), 4, FULL_DECK)
    assert provenance == {"kind": "server"} and order == shuffle_order(SeededDice(b"s"), 4, FULL_DECK)
    assert committed_shuffle(TableDice([]), 1, FULL_DECK[:1]) == (FULL_DECK[:1], {})


def test_bad_shuffle_faces_are_refused():
    with pytest.raises(InvalidValue):
        shuffled(FULL_DECK[:3], [3])
    with pytest.raises(InvalidValue):
        faces_for_order(FULL_DECK[:3], FULL_DECK[1:4])


# -- dealing -------------------------------------------------------------------------------------


def test_dealing_takes_the_committed_order_from_the_top():
    deck, dice = stacked(["QH", "2C", "Red Joker"])
    dealt = []
    for _ in range(3):
        top = deck.next_card(dice)
        deck = deck.deal(top)
        dealt.append(top.code)
    assert dealt == ["QH", "2C", "RJ"] and len(deck.undealt) == 51


def test_dealing_the_same_committed_deck_twice_gives_the_same_cards():
    source = SeededDice(b"table seed")
    deck = Deck.shuffled_from(12)
    first = deck.next_card(source)
    after = deck.deal(first)
    second = after.next_card(source)
    # Undo the deals: the state goes back to ``deck``; dealing again shows the same cards.
    assert deck.next_card(source) == first and deck.deal(first).next_card(source) == second
    # And a different shuffle sequence is a different order (a re-shuffle is visible).
    assert shuffle_order(source, 13, FULL_DECK) != shuffle_order(source, 12, FULL_DECK)


def test_a_card_not_in_the_deck_is_refused_for_a_physical_deck():
    deck = Deck.shuffled_from(None)
    deck = deck.deal("QH")
    with pytest.raises(RuleBroken, match="already been dealt"):
        deck.deal("Q♥")
    with pytest.raises(RuleBroken, match="physical deck"):
        deck.next_card(TableDice([]))
    held = Deck.shuffled_from(None, in_play=[card("AS")])
    with pytest.raises(RuleBroken, match="not in this deck"):
        held.deal("AS")


def test_discards_and_cards_in_play():
    deck = Deck.shuffled_from(None).deal("QH").deal("2C")
    assert set(deck.in_play) == {card("QH"), card("2C")}
    deck = deck.discard(["QH"])
    assert deck.in_play == (card("2C"),)
    with pytest.raises(RuleBroken, match="not in play"):
        deck.discard(["QH"])


def test_reshuffle_after_a_joker_at_the_end_of_the_round_or_when_the_deck_runs_out():
    deck = Deck.shuffled_from(None).deal("Red Joker")
    assert deck.reshuffle_due(end_of_round=False) is None
    assert deck.reshuffle_due(end_of_round=True) == "a Joker was dealt this round"
    assert Deck.shuffled_from(None).deal("QH").reshuffle_due(end_of_round=True) is None
    empty = Deck(FULL_DECK[:1], None).deal(FULL_DECK[0])
    assert empty.reshuffle_due(end_of_round=False) == "the deck has run out"
    with pytest.raises(RuleBroken, match="run out"):
        Deck(FULL_DECK[:1], 3, dealt=(FULL_DECK[0],)).next_card(TableDice([]))


def test_a_reshuffle_leaves_the_cards_in_play_out():
    deck = Deck.shuffled_from(None).deal("QH").deal("2C").discard(["QH"])
    fresh = Deck.shuffled_from(20, in_play=deck.in_play)
    assert card("2C") not in fresh.cards and card("QH") in fresh.cards and len(fresh.cards) == 53
    order = shuffle_order(SeededDice(b"s"), 20, fresh.cards)
    assert sorted(order, key=FULL_DECK.index) == list(fresh.cards)
