"""A chase played on the domain alone, with its log kept and exported as the API exports it.

Used by tests/unit/test_recorded_chase.py and tests/unit/test_verification.py: no application,
no store. Server dice come from a seed the test knows, derived exactly as DESIGN.md section 4
describes (domain.dice.derive_index), so the verifier can be checked against it.
"""
from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any
from uuid import uuid4

from domain.chain import hash_record, record_of
from domain.dice import Die, Draw, TableDice, commitment_of, derive_index
from domain.rules.coc7e.chase import Chase

SEEDS = [hashlib.sha256(f"seed of epoch {n}".encode()).digest() for n in range(4)]
HARVEY = {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6, "skills": {"Dodge": 40}}
FARMER = {"name": "Farmer", "role": "pursuer", "dex": 50, "con": 55, "mov": 7}


class KnownSeedDice:
    """Server dice from a seed the test knows (as infrastructure.dice.ServerDice derives them)."""

    def __init__(self, seed: bytes, chase_id: Any, entropy: str = "", epoch: int = 0) -> None:
        self.seed, self.chase_id, self.entropy, self.epoch = seed, str(chase_id), entropy, epoch

    def draw(self, sequence: int, dice: Sequence[Die]) -> Draw:
        faces = tuple(die.face(derive_index(self.seed, self.chase_id, sequence, i, die.sides, self.entropy)) for i, die in enumerate(dice))
        return Draw(faces, {"kind": "server", "epoch": self.epoch, "entropy": self.entropy})


class ChaseLog:
    """A Chase aggregate and every event it recorded, oldest first."""

    def __init__(self, dice: str = "server") -> None:
        self.chase = Chase.start(uuid4(), "Harvey and the angry farmer", dice, commitment_of(SEEDS[0]))
        self.events: list[Any] = []
        self.collect()

    def collect(self) -> list[Any]:
        new = list(self.chase.collect_events())
        self.events += new
        return new

    def do(self, command: Any) -> list[Any]:
        """Run a command on the chase (as the application does) and keep its events."""
        result = command(self.chase)
        self.collect()
        return result

    def at(self, version: int) -> Chase:
        """The chase replayed from its log up to ``version`` (the earlier state undo needs)."""
        state = None
        for event in self.events[:version]:
            state = event.mutate(state)
        return state

    # -- commands ------------------------------------------------------------------------

    def server(self) -> KnownSeedDice:
        epoch = self.chase.seed_epoch
        return KnownSeedDice(SEEDS[epoch], self.chase.id, self.chase.entropy, epoch)

    def add(self, spec: dict[str, Any]) -> str:
        pid = str(uuid4())
        self.do(lambda c: c.add_participant(pid, spec))
        return pid

    def running(self) -> tuple[str, str]:
        """Harvey (MOV 5) two locations ahead of the farmer (MOV 6); Harvey's turn in round 1."""
        harvey, farmer = self.add(HARVEY), self.add(FARMER)
        self.do(lambda c: c.roll_speed(harvey, TableDice([70, 2])))
        self.do(lambda c: c.roll_speed(farmer, TableDice([80, 0])))
        self.do(lambda c: c.cut_to_the_chase(2))
        return harvey, farmer

    def roll(self, expression: str = "1D6", table: list[int] | None = None) -> dict[str, Any]:
        dice = TableDice(table) if table is not None else self.server()
        return self.do(lambda c: c.roll_dice(dice, expression, None, "test"))

    def undo(self, count: int = 1) -> None:
        self.do(lambda c: c.undo(count, self.at(c.undo_target(count)), "keeper"))

    def redo(self) -> None:
        self.do(lambda c: c.redo(self.at(c.redo_target()), "keeper"))

    def rewind(self, version: int) -> None:
        self.do(lambda c: c.rewind(version, self.at(version), "keeper"))

    def reveal(self, go_on: bool = True) -> None:
        epoch = self.chase.seed_epoch
        following = commitment_of(SEEDS[epoch + 1]) if go_on else None
        self.do(lambda c: c.reveal_seed(SEEDS[epoch].hex(), "keeper", following))

    def end(self) -> None:
        """End the chase and reveal its seed in the same action, as the application does."""
        def command(c: Chase) -> None:
            c.end("escaped")
            c.reveal_seed(SEEDS[c.seed_epoch].hex(), "the chase ending")

        self.do(command)

    # -- export --------------------------------------------------------------------------

    def export(self) -> dict[str, Any]:
        """The chase's export as GET /chases/<id>/export answers it."""
        events = []
        for event in self.events:
            record = record_of(event)
            events.append({**record, "name": type(event).__name__, "hash": hash_record(record)})
        return {"format": "chase-ledger-export/1", "chase_id": str(self.chase.id), "events": events}


def rechain(export: dict[str, Any]) -> dict[str, Any]:
    """What a forger does after editing a log: renumber, relink and rehash every event."""
    previous = "0" * 64
    for version, event in enumerate(export["events"], start=1):
        event["version"] = version
        event["data"]["previous_hash"] = previous
        event["hash"] = previous = hash_record({k: event[k] for k in ("chase_id", "version", "type", "recorded_at", "data")})
    return export
