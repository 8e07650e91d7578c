"""Analytics facts: what each event adds to the analytics of its chase, extracted once, when the
event is projected, and kept beside the roll history (written in the same compare-and-set as the
chase's other views, so exactly once, and cleared and replayed by a rebuild).

A roll's fact carries its exact odds (asked of the game systems, domain/odds.py) and its die
faces, so a report over a session reads facts and never asks a game system again. The core knows
the record's own events (undo, rewind, redo, undo requests, the end); a game system says what its
events count (GameCounts, a plug-in's ``game_counts``), so this module names no system.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

from domain.json_encoding import id_text, isoformat
from domain.odds import Odds
from domain.recorded_chase import RecordedChase

# Counter names are the report's words ("movement actions spent", "damage taken"); these four
# mark the clock of play instead, for the time figures (rounds, how long each round and turn took).
ROUND_BEGAN, ROUND_ENDED, TURN_BEGAN, TURN_ENDED = "round began", "round ended", "turn began", "turn ended"
CLOCK = frozenset({ROUND_BEGAN, ROUND_ENDED, TURN_BEGAN, TURN_ENDED})
KNOWN_ODDS = 4096  # distributions whose floats a fact reader keeps
_RECORD_CLASSES = (
    RecordedChase.Created, RecordedChase.Undone, RecordedChase.Rewound, RecordedChase.Redone,
    RecordedChase.UndoRequested, RecordedChase.UndoRequestAnswered, RecordedChase.ChaseEnded,
)
_RECORD_KINDS: dict[type, type] = {}  # event class -> the first of _RECORD_CLASSES it is one of (object: none)


@dataclass(frozen=True)
class Count:
    """What an event counts: ``amount`` of ``name`` for a participant (None: for the chase);
    ``by_roll``: also credited to whoever made that roll (damage dealt by a damage roll);
    ``by_event``: also credited to whoever made the latest roll recorded by an event of that
    name earlier in the same action (a damage event that names no roll: the attack's damage roll)."""

    name: str
    participant_id: str | None
    amount: float = 1
    by_roll: int | None = None
    by_event: str | None = None


def _no_counts(event: Any) -> list[Count]:
    return []


def _no_reading(roll: Mapping[str, Any]) -> Any:
    return None


# A roll's number and its distribution, for means and damage luck: (the number it showed, its
# expected value, its variance); None when the system gives none for this roll.
Result = Callable[[Mapping[str, Any]], "tuple[float, float, float] | None"]


@dataclass(frozen=True)
class GameCounts:
    """What a game system tells analytics: what its events count, the faces of its dice (None:
    not its roll), and which role won a chase that ended so (``winners``: outcome -> role; the
    participants of the other roles lost it). The outcome a roll had is its odds' ``observed``."""

    counts: Callable[[Any], list[Count]] = _no_counts
    faces: Callable[[Mapping[str, Any]], "list[tuple[str, int]] | None"] = _no_reading
    result: Result = _no_reading  # a roll whose outcomes are not its totals (a percentile result)
    winners: Mapping[str, str] = field(default_factory=dict)
    # The event classes ``counts`` counts anything of (None: it is asked of every event): every
    # system's counts were asked of every event a command records, each a chain of isinstance
    # checks (tests/unit/test_game_counts.py checks that each names what its counts look at).
    counted: tuple[type, ...] | None = None


def plain_faces(roll: Mapping[str, Any]) -> list[tuple[str, int]]:
    """Faces of a roll recorded as a ``dice`` list of {"die": "d6", "face": 4} (domain/dice)."""
    return [(d["die"], int(d["face"])) for d in roll.get("dice") or () if isinstance(d, dict) and "die" in d and "face" in d]


def spread_of(outcomes: Mapping[str, Fraction]) -> tuple[float, float] | None:
    """The mean and variance of a total when every outcome is a whole number (a damage or table
    total); None otherwise (an open-ended "21+" of acing dice, a named result)."""
    if not all(name.lstrip("-").isdigit() for name in outcomes):
        return None
    mean = sum((int(name) * p for name, p in outcomes.items()), Fraction(0))  # the odds' own fractions: exact
    variance = sum(((int(name) - mean) ** 2 * p for name, p in outcomes.items()), Fraction(0))
    return float(mean), float(variance)


class FactReader:
    """Turns one event into its analytics facts (a list of rows, possibly empty)."""

    def __init__(self, odds_of: Callable[[Mapping[str, Any]], Odds | None], systems: Sequence[GameCounts] = ()) -> None:
        self.odds_of = odds_of
        self.systems = list(systems)
        self._known: dict[int, tuple[Any, frozenset[str], dict[str, Any]]] = {}
        self._spreads: dict[int, tuple[Any, tuple[float, float] | None]] = {}  # as _known: by the outcomes' identity
        self._counting: dict[type, list[GameCounts]] = {}  # event class -> the systems that count it

    def __call__(self, event: Any) -> list[dict[str, Any]]:
        return [
            {"chase_id": id_text(event.originator_id), "version": event.originator_version, "index": i,
             "action": getattr(event, "action", event.originator_version), "kind": kind, "participant_id": pid,
             "at": isoformat(event.timestamp), "undone": False, "undone_by": None, "data": data}
            for i, (kind, pid, data) in enumerate(self._facts(event))
        ]

    def _facts(self, event: Any) -> list[tuple[str, str | None, dict[str, Any]]]:
        facts: list[tuple[str, str | None, dict[str, Any]]] = []
        roll = getattr(event, "roll", None)
        if isinstance(roll, dict) and "sequence" in roll:
            pid = getattr(event, "participant_id", None) or roll.get("roller")
            facts.append(("roll", pid, self.roll(roll, type(event).__name__)))
        facts += self._record(event)
        counting = self._counting.get(type(event))
        if counting is None:  # (an event class's ancestors never change: asked once per class)
            counting = self._counting[type(event)] = [s for s in self.systems if s.counted is None or issubclass(type(event), s.counted)]
        for system in counting:
            facts += [("count", c.participant_id, {"name": c.name, "amount": c.amount, "by_roll": c.by_roll,
                                                   **({"by_event": c.by_event} if c.by_event else {})}) for c in system.counts(event)]
        return facts

    def _record(self, event: Any) -> list[tuple[str, str | None, dict[str, Any]]]:
        """The record's own events: undo, rewind, redo, undo requests and their answers, the end."""
        kind = _RECORD_KINDS.get(type(event))
        if kind is None:  # (asked once per event class: an event class's ancestors never change)
            kind = _RECORD_KINDS[type(event)] = next((k for k in _RECORD_CLASSES if issubclass(type(event), k)), object)
        if kind is object:
            return []  # (most events: every roll, move and turn)
        if kind is RecordedChase.Created:
            return [("created", None, {})]
        if kind is RecordedChase.Undone:
            return [("undo", None, {"actions": len(event.actions), "by": event.by})]
        if kind is RecordedChase.Rewound:
            return [("rewind", None, {"actions": len(event.actions), "to_version": event.to_version, "by": event.by})]
        if kind is RecordedChase.Redone:
            return [("redo", None, {"actions": len(event.actions), "by": event.by})]
        if kind is RecordedChase.UndoRequested:
            return [("undo requested", None, {"request_id": event.request_id, "by": event.by})]
        if kind is RecordedChase.UndoRequestAnswered:
            return [("undo answered", None, {"request_id": event.request_id, "accepted": event.accepted, "by": event.by})]
        won_by = next((s.winners[event.outcome] for s in self.systems if event.outcome in s.winners), None)
        return [("ended", None, {"outcome": event.outcome, "won_by": won_by})]

    def roll(self, roll: Mapping[str, Any], event_name: str = "") -> dict[str, Any]:
        """A roll's fact: its outcome, whether it succeeded, its exact odds and its die faces."""
        odds = self.odds_of(roll)
        number = next((n for n in (s.result(roll) for s in self.systems) if n is not None), None)
        if odds is not None and not odds.successes:
            number = number or self._total(odds)
            odds = None  # a total with no success to it (damage): counted in rolls and fairness only
        outcome = odds.observed if odds is not None else None
        faces = next((f for f in (s.faces(roll) for s in self.systems) if f is not None), None)
        if odds is not None and outcome in odds.outcomes:
            success: bool | None = outcome in odds.successes
        else:
            success = roll["success"] if isinstance(roll.get("success"), bool) else None
        source = roll.get("source") or {}
        return {
            "sequence": roll["sequence"], "event": event_name, "purpose": roll.get("purpose"),
            "skill": roll.get("skill") if isinstance(roll.get("skill"), str) else None,
            "total": number[0] if number else None, "expected_total": number[1] if number else None,
            "total_variance": number[2] if number else None,
            "source": source.get("kind"), "entered_by": source.get("entered_by"),
            "outcome": outcome, "success": success,
            **(self._chances(odds) if odds is not None else {"p": None, "exact": None, "outcomes": None}),
            "faces": [[label, face] for label, face in (faces if faces is not None else plain_faces(roll))],
        }

    def _total(self, odds: Odds) -> tuple[float, float, float] | None:
        """A total's number, mean and variance (spread_of), the spread worked out once per distribution."""
        kept = self._spreads.get(id(odds.outcomes))
        if kept is None or kept[0] is not odds.outcomes:
            if len(self._spreads) >= KNOWN_ODDS:
                self._spreads.clear()
            kept = self._spreads[id(odds.outcomes)] = (odds.outcomes, spread_of(odds.outcomes))
        spread = kept[1]
        if spread is None or odds.observed is None:
            return None
        return float(odds.observed), spread[0], spread[1]

    def _chances(self, odds: Odds) -> dict[str, Any]:
        """The odds as floats, and the chance of success exactly: worked out once per distribution.
        Systems hand out the same outcome mapping for rolls made at the same odds, so it is kept
        by that mapping's identity (the entry holds the mapping, so its id is not reused meanwhile)."""
        kept = self._known.get(id(odds.outcomes))
        if kept is not None and kept[0] is odds.outcomes and kept[1] == odds.successes:
            return kept[2]
        chance = odds.success
        chances = {"p": float(chance), "exact": f"{chance.numerator}/{chance.denominator}",
                   "outcomes": {name: float(p) for name, p in odds.outcomes.items()}}
        if len(self._known) >= KNOWN_ODDS:
            self._known.clear()
        self._known[id(odds.outcomes)] = (odds.outcomes, odds.successes, chances)
        return chances
