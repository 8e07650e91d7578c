"""Server dice and the seed vaults that keep each chase's secret seed (DESIGN.md section 4)."""
from __future__ import annotations

import os
import threading
from collections import OrderedDict
from typing import Sequence
from uuid import UUID

from domain.dice import Die, Draw, commitment_of, derive_index

SEED_BYTES = 32
REMEMBERED_SEEDS = 1024  # (chase, commitment) seeds remembered per process


class ServerDice:
    """Dice derived from the chase's secret seed: reproducible by anyone once it is revealed."""

    def __init__(self, seed: bytes, chase_id: UUID | str, entropy: str = "", epoch: int = 0) -> None:
        self._seed = seed
        self.chase_id = str(chase_id)
        self.entropy = entropy
        self.epoch = epoch

    def draw(self, sequence: int, dice: Sequence[Die]) -> Draw:
        faces = tuple(
            die.face(derive_index(self._seed, self.chase_id, sequence, index, die.sides, self.entropy))
            for index, die in enumerate(dice)
        )
        return Draw(faces, {"kind": "server", "epoch": self.epoch, "entropy": self.entropy})

    def __repr__(self) -> str:  # never show the seed, not even in a traceback
        return f"ServerDice(chase_id={self.chase_id!r})"


class SeedNotFound(LookupError):
    """No seed kept for that chase."""


class BaseSeedVault:
    """Makes seeds and server dice; subclasses say where seeds are kept.

    The seed with a given commitment never changes (the commitment is its hash), so seeds read
    are remembered in this process (bounded, least recently used dropped first) and a roll does
    not read the store each time. They stay in memory only: never logged, never shown."""

    # Seeds are kept by their commitment, never by a counter: a command that lost a race and
    # is re-run makes a new seed without clashing with the one that may already be committed.

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # the store's recorder, when there is one
        self._remembered: OrderedDict[tuple[str, str], bytes] = OrderedDict()
        self._remembered_lock = threading.Lock()

    def new_seed(self, chase_id: UUID) -> str:
        seed = os.urandom(SEED_BYTES)
        commitment = commitment_of(seed)
        self._keep(str(chase_id), commitment, seed)
        return commitment

    def server_dice(self, chase_id: UUID, commitment: str, entropy: str = "", epoch: int = 0) -> ServerDice:
        chase = str(chase_id)  # (once a roll: a UUID's text is worked out in Python)
        return ServerDice(self._seed_of(chase, commitment), chase, entropy, epoch)

    def seed_to_reveal(self, chase_id: UUID, commitment: str) -> str:
        """The seed in hex, for the event that reveals it (and only for that)."""
        return self._seed_of(str(chase_id), commitment).hex()

    def _seed_of(self, chase_id: str, commitment: str) -> bytes:
        key = (chase_id, commitment)
        with self._remembered_lock:
            seed = self._remembered.get(key)
            if seed is not None:
                self._remembered.move_to_end(key)
                return seed
        seed = self._seed(chase_id, commitment)  # SeedNotFound is not remembered
        with self._remembered_lock:
            self._remembered[key] = seed
            while len(self._remembered) > REMEMBERED_SEEDS:
                self._remembered.popitem(last=False)
        return seed

    def _keep(self, chase_id: str, commitment: str, seed: bytes) -> None:
        raise NotImplementedError

    def _seed(self, chase_id: str, commitment: str) -> bytes:
        raise NotImplementedError


class InMemorySeedVault(BaseSeedVault):
    """Seeds in this process only: for tests and the in-memory store."""

    def __init__(self, _factory: object = None) -> None:
        super().__init__()
        self._seeds: dict[tuple[str, str], bytes] = {}
        self._lock = threading.Lock()

    def _keep(self, chase_id: str, commitment: str, seed: bytes) -> None:
        with self._lock:
            self._seeds[(chase_id, commitment)] = seed

    def _seed(self, chase_id: str, commitment: str) -> bytes:
        try:
            return self._seeds[(chase_id, commitment)]
        except KeyError:
            raise SeedNotFound(f"{chase_id} {commitment}") from None
