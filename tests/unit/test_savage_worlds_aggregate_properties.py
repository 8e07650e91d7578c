"""Properties of the event-sourced deck (DESIGN.md 4 and 5, cards.py): every shuffle is a
permutation that anyone recomputes from the revealed seed; no undo changes a card, and the
undone deal stays in the log."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.dice import TableDice
from domain.rules.savage_worlds.cards import FULL_DECK, card, verify_order
from tests.unit.test_savage_worlds_aggregate import Played, swade
from domain.rules.savage_worlds.swd_aggregate import SwdChase

seeds = st.binary(min_size=8, max_size=32)


def deals(played: Played) -> list:
    return [e for e in played.events if hasattr(e, "position") and hasattr(e, "card")]


@settings(max_examples=30, deadline=None)
@given(seed=seeds)
def test_a_server_shuffle_is_a_permutation_verifiable_from_the_seed(seed):
    played = swade("server", seed)
    played.do(lambda c: c.deal_action_cards(None, played.decks))
    chase = played.chase

    for name in ("chase", "action"):
        deck = chase.decks[name]
        order = verify_order(seed, str(chase.id), deck["shuffle_sequence"], FULL_DECK)
        assert sorted(order, key=FULL_DECK.index) == list(FULL_DECK)  # a permutation of the 54
        assert deck["cards"] == [c.code for c in FULL_DECK]  # the record holds the canonical order only
        for event in (e for e in deals(played) if e.shuffle_sequence == deck["shuffle_sequence"]):
            assert order[event.position] == card(event.card)
    assert len(set(chase.row)) == 9 and [e.position for e in deals(played)] == list(range(9)) + [0, 1]


@settings(max_examples=30, deadline=None)
@given(seed=seeds, entropy=st.text(min_size=1, max_size=20))
def test_deal_undo_deal_again_gives_the_same_card_and_the_undone_deal_stays(seed, entropy):
    played = swade("server", seed)
    played.do(lambda c: c.deal_action_cards(None, played.decks))
    first = dict(played.chase.action_cards)
    logged = len(deals(played))

    played.undo()
    assert played.chase.action_cards == {} and played.chase.round == 0
    played.do(lambda c: c.contribute_entropy(entropy, "a player"))  # later rolls change, the deck does not
    played.do(lambda c: c.deal_action_cards(None, played.decks))

    assert played.chase.action_cards == first
    assert len(deals(played)) == logged + 2  # the undone deals are still in the log
    assert [e.card for e in deals(played)][-4:-2] == [e.card for e in deals(played)][-2:]


@settings(max_examples=20, deadline=None)
@given(seed=seeds)
def test_a_deluxe_deal_undone_and_dealt_again_after_a_new_maneuver_roll(seed):
    played = Played(SwdChase, "server", seed)
    played.do(lambda c: c.add_participant("h", {"name": "Hunter", "role": "chaser", "maneuver_die": "d8", "pace": 6}))
    played.do(lambda c: c.add_participant("t", {"name": "Thief", "role": "quarry", "maneuver_die": "d6", "pace": 6, "wild_card": False}))
    played.do(lambda c: c.begin(5, deck_dice=played.decks))
    played.do(lambda c: c.maneuver(TableDice([6, 2]), "h", deck_dice=played.decks))  # one card from the server deck
    first = played.chase.action_cards["h"]

    played.undo()
    played.do(lambda c: c.maneuver(TableDice([5, 1]), "h", deck_dice=played.decks))  # another roll, one card again
    assert played.chase.action_cards["h"] == first
