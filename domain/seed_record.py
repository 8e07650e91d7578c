"""The server-dice seed's place in the record (DESIGN.md 4): revealed against its commitment (when
the chase ends, or when the Keeper asks), committed anew when play goes on, and the entropy the
players mix into every later server roll. Bound as RecordedChase's methods."""
from __future__ import annotations

import hashlib
from typing import Any, Protocol

from domain.errors import HistoryRefused


class SeededChase(Protocol):
    """What the seed's record uses of a chase (RecordedChase)."""

    seed_commitment: str | None
    seed_epoch: int
    entropy: str
    SeedRevealed: Any
    SeedCommitted: Any
    EntropyContributed: Any

    def trigger_event(self, event_class: Any, **kwargs: Any) -> None: ...


def reveal_seed(chase: SeededChase, seed_hex: str, by: str, next_commitment: str | None = None) -> None:
    """Reveal the seed (it must match the commitment); commit a fresh one if play goes on."""
    if chase.seed_commitment is None:
        raise HistoryRefused("the seed has already been revealed")
    if hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest() != chase.seed_commitment:
        raise HistoryRefused("the seed does not match the chase's commitment")
    chase.trigger_event(chase.SeedRevealed, seed=seed_hex, commitment=chase.seed_commitment, epoch=chase.seed_epoch, by=by)
    if next_commitment is not None:
        chase.trigger_event(chase.SeedCommitted, commitment=next_commitment, epoch=chase.seed_epoch + 1)


def commit_seed(chase: SeededChase, commitment: str) -> None:
    """A fresh seed for the rolls still to come, when play resumes after a reveal."""
    if chase.seed_commitment is not None:
        raise HistoryRefused("the chase is already committed to a seed")
    chase.trigger_event(chase.SeedCommitted, commitment=commitment, epoch=chase.seed_epoch + 1)


def contribute_entropy(chase: SeededChase, entropy: str, by: str) -> None:
    if not isinstance(entropy, str) or not 1 <= len(entropy) <= 200:
        raise HistoryRefused("entropy must be 1 to 200 characters", "entropy")
    combined = hashlib.sha256(f"{chase.entropy}|{entropy}".encode()).hexdigest()
    chase.trigger_event(chase.EntropyContributed, by=by, entropy=entropy, combined=combined)
