"""Decks as event-sourced things: committed shuffles, deals and discards (cards.py).

A chase's deck is either the server's (a committed shuffle: its order derives from the server
dice of one roll sequence and is never stored; each deal records the card and its position, so
anyone holding the revealed seed checks every card, domain/verification.py) or a physical deck
on the table (the GM enters each card dealt; the engine refuses a card that is not in the deck).
Dealing re-derives the order with server dice built exactly as the shuffle's were (its seed
commitment, epoch and entropy, recorded as its provenance): undoing a deal and dealing again
gives the same card, and no undo can show or change a card not yet dealt. A deck whose shuffle
seed has been revealed is shuffled again before its next deal, since its order is then public.
"""
from __future__ import annotations

from typing import Any, ClassVar, Protocol

from domain.dice import DiceSource
from domain.recorded_chase import DICE_MODES
from domain.rules.savage_worlds.cards import ACTION_CARDS, Card, Deck, card, committed_shuffle
from domain.rules.savage_worlds.errors import InvalidValue

DECK_MODES = DICE_MODES  # the server's deck (a committed shuffle), or a physical one on the table


def deck_mode(deck: str | None, chase_dice: str) -> str:
    """The deck a chase deals from: the one chosen, else as the chase's dice."""
    deck = deck or chase_dice
    if deck not in DECK_MODES:
        raise InvalidValue("deck", f"must be one of {', '.join(DECK_MODES)}")
    return deck


class DeckDice(Protocol):
    """Server dice for decks: fresh ones for a new shuffle, and those of a recorded shuffle."""

    def for_shuffle(self) -> DiceSource:
        """Server dice of the chase's current seed, epoch and entropy."""
        ...

    def for_provenance(self, provenance: dict[str, Any]) -> DiceSource:
        """Server dice as a recorded shuffle drew them (its commitment, epoch, entropy)."""
        ...


class DeckChase(Protocol):
    """What the deck procedures use of a Savage Worlds chase (savage_base.SavageChase)."""

    DeckShuffled: ClassVar[type]  # the system's events, each with its own topic
    CardsDiscarded: ClassVar[type]
    decks: dict[str, dict[str, Any]]
    settings: dict[str, Any]
    action_cards: dict[str, list[str]]
    participants: dict[str, Any]
    rolls_made: int
    round: int
    seed_commitment: str | None
    revealed_seeds: list[dict[str, Any]]

    def trigger_event(self, event_class: Any, **kwargs: Any) -> None: ...


def deck_of(chase: DeckChase, name: str) -> Deck:
    d = chase.decks[name]
    return Deck(
        tuple(card(c) for c in d["cards"]),
        d["shuffle_sequence"],
        tuple(card(c) for c in d["dealt"]),
        tuple(card(c) for c in d["discards"]),
    )


def server_deck(chase: DeckChase) -> bool:
    return chase.settings.get("deck") == "server"


def shuffle(chase: DeckChase, name: str, reason: str, deck_dice: DeckDice | None) -> None:
    """Shuffle every card not in play (core rules: cards in play stay out) into the deck."""
    in_play = deck_of(chase, name).in_play if name in chase.decks else ()
    fresh = Deck.shuffled_from(None, in_play)
    codes = [c.code for c in fresh.cards]
    if not server_deck(chase):
        chase.trigger_event(
            chase.DeckShuffled, deck=name, reason=reason, cards=codes, shuffle_sequence=None, provenance={"kind": "table"}, roll=None
        )
        return
    if deck_dice is None:
        raise InvalidValue("deck", "the server's deck needs the server's dice")
    sequence = chase.rolls_made + 1
    _, provenance = committed_shuffle(deck_dice.for_shuffle(), sequence, fresh.cards)
    provenance = {**provenance, "commitment": chase.seed_commitment}
    roll = {
        "sequence": sequence,
        "purpose": f"shuffle the {name} deck",
        "round": chase.round,
        "kind": "shuffle",
        "deck": name,
        # The cards shuffled, canonical order: with the revealed seed, the order is
        # Fisher-Yates over them with dice d(n) .. d2 (domain/verification.py).
        "shuffle": {"cards": codes},
        "source": {**provenance, "sequence": sequence},
    }
    chase.trigger_event(
        chase.DeckShuffled, deck=name, reason=reason, cards=codes, shuffle_sequence=sequence, provenance=provenance, roll=roll
    )


def draw_card(chase: DeckChase, name: str, deck_dice: DeckDice | None, entered: str | None) -> dict[str, Any]:
    """The next card of a deck, as the fields of its deal event; reshuffles if it must first."""
    if server_deck(chase) and entered is not None:
        raise InvalidValue("card", "this chase deals from the server's deck: no card is entered")
    if not server_deck(chase) and entered is None:
        raise InvalidValue("card", "this chase uses a physical deck: enter the card dealt")
    if not deck_of(chase, name).undealt:
        shuffle(chase, name, "the deck has run out", deck_dice)
    elif server_deck(chase) and _shuffle_seed_revealed(chase, name):
        shuffle(chase, name, "the seed of its shuffle was revealed: its order is known", deck_dice)
    deck = deck_of(chase, name)
    if server_deck(chase):
        assert deck_dice is not None
        dealt: Card = deck.next_card(deck_dice.for_provenance(chase.decks[name]["provenance"]))
        source = {"kind": "server"}
    else:
        dealt = card(entered)  # type: ignore[arg-type]
        source = {"kind": "table"}
    deck.deal(dealt)  # refuses a card that is not in the deck
    return {"card": dealt.code, "position": len(deck.dealt), "shuffle_sequence": deck.shuffle_sequence, "source": source}


def _shuffle_seed_revealed(chase: DeckChase, name: str) -> bool:
    commitment = chase.decks[name]["provenance"].get("commitment")
    return any(s["commitment"] == commitment for s in chase.revealed_seeds)


def discard_action_cards(chase: DeckChase, reason: str) -> None:
    # A card held by a unit on Hold stays in play ("Hold", hold.py).
    held = [c for pid, cards in chase.action_cards.items() if not chase.participants[pid].on_hold for c in cards]
    if held:
        chase.trigger_event(chase.CardsDiscarded, deck="action", cards=held, reason=reason)


def reshuffle_if_due(chase: DeckChase, deck_dice: DeckDice | None) -> None:
    """End of round: shuffle after a Joker was dealt, or when the deck ran out."""
    why = deck_of(chase, "action").reshuffle_due(end_of_round=True)
    if why:
        shuffle(chase, "action", f"{why} ({ACTION_CARDS})", deck_dice)
