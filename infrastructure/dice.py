"""Server dice and the seed vaults that keep each chase's secret seed (DESIGN.md section 4)."""
from __future__ import annotations

import os
import threading
from typing import Sequence
from uuid import UUID

from domain.dice import Die, Draw, commitment_of, derive_index

SEED_BYTES = 32


class ServerDice:
    """Dice derived from the chase's secret seed: reproducible by anyone once it is revealed."""

    def __init__(self, seed: bytes, chase_id: UUID, entropy: str = "") -> None:
        self._seed = seed
        self.chase_id = str(chase_id)
        self.entropy = entropy

    def draw(self, sequence: int, dice: Sequence[Die]) -> Draw:
        faces = tuple(
            die.face(derive_index(self._seed, self.chase_id, sequence, index, die.sides, self.entropy))
            for index, die in enumerate(dice)
        )
        return Draw(faces, {"kind": "server", "entropy": self.entropy})

    def __repr__(self) -> str:  # never show the seed, not even in a traceback
        return f"ServerDice(chase_id={self.chase_id!r})"


class SeedNotFound(LookupError):
    """No seed kept for that chase."""


class BaseSeedVault:
    """Makes seeds and server dice; subclasses say where seeds are kept."""

    def new_seed(self, chase_id: UUID) -> str:
        seed = os.urandom(SEED_BYTES)
        self._keep(str(chase_id), seed)
        return commitment_of(seed)

    def server_dice(self, chase_id: UUID, entropy: str = "") -> ServerDice:
        return ServerDice(self._seed(str(chase_id)), chase_id, entropy)

    def _keep(self, chase_id: str, seed: bytes) -> None:
        raise NotImplementedError

    def _seed(self, chase_id: str) -> bytes:
        raise NotImplementedError


class InMemorySeedVault(BaseSeedVault):
    """Seeds in this process only: for tests and the in-memory store."""

    def __init__(self, _factory: object = None) -> None:
        self._seeds: dict[str, bytes] = {}
        self._lock = threading.Lock()

    def _keep(self, chase_id: str, seed: bytes) -> None:
        with self._lock:
            self._seeds[chase_id] = seed

    def _seed(self, chase_id: str) -> bytes:
        try:
            return self._seeds[chase_id]
        except KeyError:
            raise SeedNotFound(chase_id) from None
