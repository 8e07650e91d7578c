"""Action cards: a standard deck of 52 cards and two Jokers, a committed shuffle, dealing, discards.

Savage Worlds deals Action cards from a 54-card deck, 2 (low) to Ace (high), Jokers highest; ties
of value go in suit order Spades, Hearts, Diamonds, Clubs (core rules, "Action Cards";
swd-chases.txt "Resolve Actions": equal cards "are resolved in suit order as usual"); the deck is
shuffled after a round in which a Joker was dealt, and when it runs out (core rules, "Action
Cards"). swade-chases-reference.txt "SETUP" deals the Chase Cards from "an extra deck of Action
Cards": the same deck, a second copy.

The committed shuffle. The order is a Fisher-Yates shuffle of the cards to shuffle (in the
canonical order below) whose swap indexes come from ONE draw of the dice source: for position
i = n-1 down to 1, a die of i+1 faces picks j (face - 1), and cards i and j swap. Server dice
derive each die by rejection sampling (domain.dice.derivation), so every swap index, and so every
order, is equally likely; anyone holding the revealed seed recomputes the order with
``verify_order``. The order is a function of (seed, chase, shuffle sequence) alone: an event
records which sequence shuffled and each card as it is dealt (its position), never the order, so
the log never shows an unseen card, and undoing a deal and dealing again gives the same card
(the position comes back, the order never changed). A physical deck has no shuffle to derive:
the GM enters the card dealt, checked against the cards still in the deck.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from domain.dice import D, DiceSource, Die, derive_index
from domain.rules.savage_worlds.errors import CORE, InvalidValue, RuleBroken

SUITS = ("Spades", "Hearts", "Diamonds", "Clubs")  # highest first: the order for ties
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
JOKER = "Joker"
JOKER_COLOURS = ("Red", "Black")
RANK_VALUE = {rank: value for value, rank in enumerate(RANKS, start=2)} | {JOKER: 15}
RANK_NAME = {"J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
_SUIT_SYMBOL = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs", "♠": "Spades", "♥": "Hearts", "♦": "Diamonds", "♣": "Clubs"}
_RANK_WORD = {"jack": "J", "queen": "Q", "king": "K", "ace": "A", "two": "2", "deuce": "2"}
ACTION_CARDS = f"{CORE}, \"Action Cards\""


@dataclass(frozen=True)
class Card:
    """One card: a rank 2..A of a suit, or a Red or Black Joker (rank "Joker", suit the colour)."""

    rank: str
    suit: str

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER

    @property
    def value(self) -> int:
        """2..14 for 2..Ace; 15 for a Joker, the highest card."""
        return RANK_VALUE[self.rank]

    @property
    def label(self) -> str:
        return f"{self.suit} Joker" if self.is_joker else f"{RANK_NAME.get(self.rank, self.rank)} of {self.suit}"

    @property
    def code(self) -> str:
        """Short form for records and entry: "QH", "10S", "RJ" (Red Joker), "BJ"."""
        return f"{self.suit[0]}J" if self.is_joker else f"{self.rank}{self.suit[0]}"

    def __str__(self) -> str:
        return self.label


def _build_deck() -> tuple[Card, ...]:
    cards = [Card(rank, suit) for suit in reversed(SUITS) for rank in RANKS]
    return tuple(cards + [Card(JOKER, colour) for colour in reversed(JOKER_COLOURS)])


FULL_DECK = _build_deck()  # the canonical order: Clubs 2..A, Diamonds, Hearts, Spades, Jokers


def order_key(card: Card) -> tuple[int, int]:
    """Sort key, higher acts first: value, then suit order. Two Jokers tie in value; Red before
    Black is only this engine's fixed tiebreak (the holders of Jokers choose when to act)."""
    if card.is_joker:
        return (card.value, len(JOKER_COLOURS) - JOKER_COLOURS.index(card.suit))
    return (card.value, len(SUITS) - SUITS.index(card.suit))


def highest_first(cards: Iterable[Card]) -> list[Card]:
    """Cards in acting order: highest value first, ties in suit order."""
    return sorted(cards, key=order_key, reverse=True)


def card(text: str | Card) -> Card:
    """Read "QH", "Q♥", "10 of Spades", "queen of hearts", "Red Joker"; refuse anything else."""
    if isinstance(text, Card):
        if text not in FULL_DECK:
            raise InvalidValue("card", f"{text!r} is not a card of the deck")
        return text
    if not isinstance(text, str) or not text.strip():
        raise InvalidValue("card", "a card is required, e.g. QH, 10 of Spades or Red Joker")
    words = text.strip().replace("-", " ").split()
    lowered = [w.lower() for w in words]
    if "joker" in lowered:
        colours = [c for c in JOKER_COLOURS if c.lower() in lowered]
        if len(colours) != 1 or len(words) != 2:
            raise InvalidValue("card", f"{text!r}: say which Joker, Red Joker or Black Joker")
        return Card(JOKER, colours[0])
    if len(words) == 1 and lowered[0] in ("rj", "bj"):
        return Card(JOKER, "Red" if lowered[0] == "rj" else "Black")
    if len(words) == 3 and lowered[1] == "of":
        rank_text, suit_text = words[0], words[2]
        suit = next((s for s in SUITS if s.lower() in (suit_text.lower(), suit_text.lower() + "s")), None)
    elif len(words) == 1 and len(words[0]) >= 2:
        rank_text, suit_text = words[0][:-1], words[0][-1]
        suit = _SUIT_SYMBOL.get(suit_text.upper())
    else:
        suit, rank_text = None, ""
    rank = _RANK_WORD.get(rank_text.lower(), rank_text.upper())
    if suit is None or rank not in RANKS:
        raise InvalidValue("card", f"{text!r} is not a card: write e.g. QH, 10S, Q♥, 10 of Spades, Red Joker")
    return Card(rank, suit)


# --- the committed shuffle ------------------------------------------------------------------


def shuffle_dice(count: int) -> list[Die]:
    """The dice of one shuffle of ``count`` cards: d(count), d(count-1), ..., d2 (none for 0 or 1)."""
    return [D(sides) for sides in range(count, 1, -1)]


def shuffled(cards: Sequence[Card], faces: Sequence[int]) -> tuple[Card, ...]:
    """Fisher-Yates: for i from the last position down to 1, swap card i with card face-1 (<= i)."""
    order = list(cards)
    if len(faces) != max(0, len(order) - 1):
        raise InvalidValue("faces", f"a shuffle of {len(order)} cards takes {max(0, len(order) - 1)} dice")
    for face, i in zip(faces, range(len(order) - 1, 0, -1)):
        j = face - 1
        if not 0 <= j <= i:
            raise InvalidValue("faces", f"swap index {face} is not a face of a d{i + 1}")
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def faces_for_order(cards: Sequence[Card], order: Sequence[Card]) -> list[int]:
    """The one list of shuffle faces that puts ``cards`` in ``order`` (to enter a known order as
    table dice, e.g. a stacked deck in a test): Fisher-Yates run backwards, position by position."""
    if sorted(order, key=FULL_DECK.index) != sorted(cards, key=FULL_DECK.index):
        raise InvalidValue("order", "must hold exactly the cards being shuffled")
    current = list(cards)
    faces = []
    for i in range(len(current) - 1, 0, -1):
        j = current.index(order[i])  # positions above i are settled, so j <= i
        faces.append(j + 1)
        current[i], current[j] = current[j], current[i]
    return faces


def shuffle_order(source: DiceSource, sequence: int, cards: Sequence[Card]) -> tuple[Card, ...]:
    """The order of a committed shuffle: one draw of shuffle_dice, read by Fisher-Yates."""
    return committed_shuffle(source, sequence, cards)[0]


def committed_shuffle(source: DiceSource, sequence: int, cards: Sequence[Card]) -> tuple[tuple[Card, ...], dict]:
    """The order and the draw's provenance (server or table; entropy, epoch). The shuffle event
    records the sequence and the provenance, never the order; every later deal must draw from a
    source built the same way (same seed epoch and entropy), or the order would change."""
    dice = shuffle_dice(len(cards))
    if not dice:
        return tuple(cards), {}
    draw = source.draw(sequence, dice)
    return shuffled(cards, draw.faces), dict(draw.provenance)


def verify_order(seed: bytes, chase_id: str, sequence: int, cards: Sequence[Card], entropy: str = "") -> tuple[Card, ...]:
    """Recompute a server shuffle from the revealed seed, die index by die index (offline check)."""
    faces = [d.face(derive_index(seed, str(chase_id), sequence, i, d.sides, entropy)) for i, d in enumerate(shuffle_dice(len(cards)))]
    return shuffled(cards, faces)


# --- the deck as a value ---------------------------------------------------------------------


@dataclass(frozen=True)
class Deck:
    """A deck in play: what the last shuffle held, what was dealt since, what was discarded.

    ``shuffle_sequence`` is the roll sequence of the shuffle draw; None for a physical deck,
    whose cards the GM enters as dealt.
    """

    cards: tuple[Card, ...]  # the cards the last shuffle held, canonical order
    shuffle_sequence: int | None
    dealt: tuple[Card, ...] = ()  # dealt since that shuffle, in order
    discards: tuple[Card, ...] = ()  # dealt (now or before the shuffle) and put on the discard pile

    @classmethod
    def shuffled_from(cls, sequence: int | None, in_play: Iterable[Card] = ()) -> Deck:
        """A new shuffle of every card not in play (core rules: cards in play stay out)."""
        held = set(in_play)
        return cls(tuple(c for c in FULL_DECK if c not in held), sequence)

    @property
    def undealt(self) -> tuple[Card, ...]:
        dealt = set(self.dealt)
        return tuple(c for c in self.cards if c not in dealt)

    @property
    def in_play(self) -> tuple[Card, ...]:
        """Cards out of the deck and not discarded: dealt and still on the table."""
        gone = set(self.undealt) | set(self.discards)
        return tuple(c for c in FULL_DECK if c not in gone)

    @property
    def joker_dealt(self) -> bool:
        return any(c.is_joker for c in self.dealt)

    def next_card(self, source: DiceSource) -> Card:
        """The top card: the committed order at the next position (the same on every call).

        ``source`` must derive as the shuffle's did (server dice of the same seed epoch and
        entropy as recorded by the shuffle), since the order is re-derived, never stored."""
        if self.shuffle_sequence is None:
            raise RuleBroken("a physical deck is dealt by the GM: enter the card dealt", ACTION_CARDS)
        if not self.undealt:
            raise RuleBroken("the deck has run out: shuffle it first", ACTION_CARDS)
        return shuffle_order(source, self.shuffle_sequence, self.cards)[len(self.dealt)]

    def deal(self, dealt_card: Card | str) -> Deck:
        """The deck after ``dealt_card`` left it: refused when that card is not in the deck."""
        dealt_card = card(dealt_card)
        if dealt_card not in self.undealt:
            where = "has already been dealt" if dealt_card in self.dealt else "is not in this deck (it is in play)"
            raise RuleBroken(f"the {dealt_card.label} {where}", ACTION_CARDS)
        return replace(self, dealt=self.dealt + (dealt_card,))

    def discard(self, cards: Iterable[Card | str]) -> Deck:
        """Put cards in play on the discard pile (end of round)."""
        pile = list(self.discards)
        in_play = set(self.in_play)
        for c in map(card, cards):
            if c not in in_play:
                raise RuleBroken(f"the {c.label} is not in play", ACTION_CARDS)
            pile.append(c)
        return replace(self, discards=tuple(pile))

    def reshuffle_due(self, end_of_round: bool) -> str | None:
        """Why the deck must be shuffled now, or None: it ran out, or a Joker was dealt and the
        round is over (core rules, "Action Cards")."""
        if not self.undealt:
            return "the deck has run out"
        if end_of_round and self.joker_dealt:
            return "a Joker was dealt this round"
        return None
