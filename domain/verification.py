"""Offline verification of an exported chase log (DESIGN.md sections 4 and 6).

Checks, event by event: versions in order with none missing, the hash chain (in the encoding the
first event names, domain/chain.py), each revealed seed against its commitment, the roll sequence
(no gaps, no repeats), and every server roll whose seed is revealed, recomputed die by die. Needs
nothing but the export: no server, no database. VERIFYING.md specifies it for verifiers in other
languages (api/static/verifier/ is one, in JavaScript).

What a roll's faces came to (a percentile level, a Savage trait total) is each game system's
rule: a system hands in its RollCheck (domain/rules/<system>/verification.py), and the registry
(infrastructure/systems.py) passes every system's checks; the core knows dice expressions only.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from domain.chain import ENCODINGS, GENESIS, encoding_named_by, hash_record
from domain.dice import TENS, UNITS, D, Die, InvalidDiceExpression, derive_index, parse

RECORD_KEYS = ("chase_id", "version", "type", "recorded_at", "data")
# A game system's check of what a roll's faces came to: (event version, roll record, faces) ->
# True when the roll is one of the system's (checked: raises VerificationFailed if it does not
# check out), False to leave it to the other checks.
RollCheck = Callable[[Any, dict[str, Any], list[int]], bool]


class VerificationFailed(Exception):
    """The first event that does not check out, and why."""

    def __init__(self, version: Any, reason: str) -> None:
        super().__init__(f"event {version}: {reason}")
        self.version = version
        self.reason = reason


@dataclass
class Report:
    """What an export holds and what was checked."""

    chase_id: str = ""
    events: int = 0
    head: str = GENESIS
    rolls: int = 0
    undone_rolls: int = 0
    table_rolls: int = 0
    server_rolls_verified: int = 0
    server_rolls_unverifiable: int = 0
    seeds_revealed: int = 0
    cards_verified: int = 0  # cards dealt from a server shuffle, checked against the revealed seed
    roll_actions: dict[int, list[int]] = field(default_factory=dict)

    def summary(self) -> str:
        return (
            f"chase {self.chase_id}: {self.events} events, chain head {self.head}\n"
            f"{self.rolls} rolls ({self.undone_rolls} undone), {self.table_rolls} with table dice, "
            f"{self.server_rolls_verified} server rolls recomputed and matching, "
            f"{self.server_rolls_unverifiable} server rolls whose seed is not revealed yet; "
            f"{self.seeds_revealed} seed(s) revealed and matching their commitments"
        ) + (f"; {self.cards_verified} dealt card(s) matching their shuffles" if self.cards_verified else "")


def dice_of(roll: dict[str, Any]) -> list[Die]:
    """The dice a recorded roll drew, in draw order, read back from its record."""
    if "tens" in roll:
        return [TENS] * len(roll["tens"]) + [UNITS]
    if "shuffle" in roll:  # a committed shuffle of n cards: d(n), d(n-1), ..., d2 (no faces recorded)
        return [D(sides) for sides in range(len(roll["shuffle"]["cards"]), 1, -1)]
    return [D(int(d["die"].lstrip("d"))) for d in roll.get("dice", [])]


def shuffled(cards: list[Any], faces: list[int]) -> list[Any]:
    """A committed shuffle's order: Fisher-Yates over the cards as recorded (canonical order),
    card i (from the last down to 1) swapped with card face-1 (domain/rules/savage_worlds/cards.py)."""
    order = list(cards)
    for face, i in zip(faces, range(len(order) - 1, 0, -1)):
        order[i], order[face - 1] = order[face - 1], order[i]
    return order


def faces_of(roll: dict[str, Any]) -> list[int]:
    if "tens" in roll:
        return [t["face"] for t in roll["tens"]] + [roll["units"]]
    return [d["face"] for d in roll.get("dice", [])]


def verify(export: dict[str, Any], kept_head: str | None = None, checks: Sequence[RollCheck] = ()) -> Report:
    """Check an export; raises VerificationFailed naming the first event that fails. ``checks``:
    the game systems' roll checks (infrastructure/systems.py passes every registered one)."""
    events = export.get("events")
    if not isinstance(events, list) or not events:
        raise VerificationFailed("-", "the export holds no events")
    report = Report(chase_id=str(export.get("chase_id", "")))
    commitments: dict[int, str] = {}
    seeds: dict[int, bytes] = {}
    server_rolls: list[tuple[Any, dict[str, Any]]] = []
    undone: set[int] = set()
    deals: dict[int, list[tuple[Any, int, Any]]] = {}  # shuffle sequence -> (version, position, card)
    previous = GENESIS
    encoding = ""
    heads = set()
    epoch_now = 0
    ended: tuple[Any, Any] | None = None  # (version, action) of the last ChaseEnded
    for position, event in enumerate(events, start=1):
        version = event.get("version")
        if version != position:
            raise VerificationFailed(version, f"expected version {position} here: an event is missing, added or out of order")
        if event.get("chase_id") != report.chase_id:
            raise VerificationFailed(version, "belongs to another chase")
        data = event.get("data") or {}
        if position == 1:
            encoding = encoding_named_by(data)
            if not isinstance(encoding, str) or encoding not in ENCODINGS:
                raise VerificationFailed(version, f"names the chain encoding {encoding!r}, which this verifier does not know")
        if data.get("previous_hash") != previous:
            raise VerificationFailed(version, "its previous_hash does not match the event before it: the chain is broken")
        try:
            digest = hash_record({k: event.get(k) for k in RECORD_KEYS}, encoding)
        except ValueError as e:  # JCS refuses what JSON cannot carry exactly (domain/jcs.py)
            raise VerificationFailed(version, f"its record has no canonical encoding: {e}") from None
        if "hash" in event and event["hash"] != digest:
            raise VerificationFailed(version, "its content does not match its hash: it was changed")
        previous = digest
        heads.add(digest)
        kind = str(event.get("type", "")).rsplit(".", 1)[-1]
        if position == 1:
            commitments[0] = data.get("seed_commitment", "")
        if kind == "SeedCommitted":
            commitments[data["epoch"]] = data["commitment"]
            epoch_now = data["epoch"]
        elif kind == "SeedRevealed":
            _check_seed(version, data, commitments, seeds)
        elif kind == "ChaseEnded":
            ended = (version, data.get("action"))
        elif kind in ("Undone", "Rewound"):
            undone.update(data.get("actions", []))
            undone.difference_update(data.get("restored_actions", []))
        elif kind == "Redone":
            undone.difference_update(data.get("actions", []))
            undone.update(data.get("undone_again", []))
        if data.get("shuffle_sequence") is not None and "position" in data and "card" in data:
            deals.setdefault(data["shuffle_sequence"], []).append((version, data["position"], data["card"]))
        roll = data.get("roll")
        if isinstance(roll, dict):
            report.rolls += 1
            if roll.get("sequence") != report.rolls:
                raise VerificationFailed(version, f"roll number {roll.get('sequence')} where {report.rolls} was due: a roll is missing or repeated")
            report.roll_actions.setdefault(data.get("action"), []).append(roll["sequence"])
            _check_result(version, roll, checks)
            if roll.get("source", {}).get("kind") == "server":
                if roll["source"].get("epoch", 0) != epoch_now:
                    raise VerificationFailed(version, f"server roll {roll['sequence']} claims seed epoch {roll['source'].get('epoch')}, but epoch {epoch_now} was the one committed")
                server_rolls.append((version, roll))
            else:
                report.table_rolls += 1
    if ended is not None and ended[1] not in undone and epoch_now not in seeds:
        # The chase's end reveals its seed in the same action (DESIGN.md 4): a missing reveal was removed.
        raise VerificationFailed(ended[0], "the chase ended but its seed was never revealed after it")
    if kept_head is not None and kept_head not in heads:
        raise VerificationFailed("-", f"the chain head you kept ({kept_head}) is not in this log: it was rewritten")
    for version, roll in server_rolls:
        epoch = roll["source"].get("epoch", 0)
        if epoch not in seeds:
            report.server_rolls_unverifiable += 1
            continue
        dice = dice_of(roll)
        expected = [
            die.face(derive_index(seeds[epoch], report.chase_id, roll["sequence"], index, die.sides, roll["source"].get("entropy", "")))
            for index, die in enumerate(dice)
        ]
        if "shuffle" in roll:
            report.cards_verified += _check_deals(shuffled(roll["shuffle"]["cards"], expected), roll["sequence"], deals.pop(roll["sequence"], []))
            report.server_rolls_verified += 1
            continue
        if expected != faces_of(roll):
            raise VerificationFailed(version, f"server roll {roll['sequence']} shows {faces_of(roll)} but the revealed seed gives {expected}")
        report.server_rolls_verified += 1
    shuffles = {roll["sequence"] for _, roll in server_rolls if "shuffle" in roll}
    for sequence, dealt in deals.items():
        if sequence not in shuffles:
            raise VerificationFailed(dealt[0][0], f"a card dealt from shuffle {sequence}, which is not a server shuffle of this log")
    report.events = len(events)
    report.head = previous
    report.seeds_revealed = len(seeds)
    report.undone_rolls = sum(len(seqs) for action, seqs in report.roll_actions.items() if action in undone)
    return report


def _check_deals(order: list[Any], sequence: int, dealt: list[tuple[Any, int, Any]]) -> int:
    """Every card dealt from a server shuffle is the card at its position in the recomputed order."""
    for version, position, card in dealt:
        if not isinstance(position, int) or not 0 <= position < len(order) or order[position] != card:
            found = order[position] if isinstance(position, int) and 0 <= position < len(order) else "no card"
            raise VerificationFailed(version, f"dealt {card} as card {position} of shuffle {sequence}, but the revealed seed puts {found} there")
    return len(dealt)


def _check_seed(version: Any, data: dict[str, Any], commitments: dict[int, str], seeds: dict[int, bytes]) -> None:
    epoch = data.get("epoch", 0)
    try:
        seed = bytes.fromhex(data.get("seed", ""))
    except ValueError:
        raise VerificationFailed(version, "the revealed seed is not hexadecimal") from None
    if hashlib.sha256(seed).hexdigest() != commitments.get(epoch):
        raise VerificationFailed(version, f"the revealed seed does not match the commitment of epoch {epoch}")
    seeds[epoch] = seed


def _check_result(version: Any, roll: dict[str, Any], checks: Sequence[RollCheck]) -> None:
    """What the dice came to must be what the faces give: a system's roll by its own check,
    a dice expression (the core's) by its total."""
    faces = faces_of(roll)
    if any(check(version, roll, faces) for check in checks):
        return
    if "expression" not in roll:
        # Not a dice expression and claimed by no system's check: an export of a system this
        # verifier was not given, or a record that was tampered with. Never passed unchecked.
        raise VerificationFailed(version, f"roll {roll.get('sequence')} is of no kind the given game systems' checks read")
    if "expression" in roll:
        try:
            expression = parse(roll["expression"])
        except InvalidDiceExpression:
            raise VerificationFailed(version, f"roll {roll.get('sequence')} has an unreadable expression") from None
        if expression.modifier != roll.get("modifier") or expression.total(faces) != roll.get("total"):
            raise VerificationFailed(version, f"roll {roll['sequence']}: {roll['expression']} with faces {faces} makes {expression.total(faces)}, not {roll.get('total')}")
