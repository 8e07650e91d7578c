"""Ports the application needs; infrastructure supplies the adapters."""
from __future__ import annotations

from typing import Any, Iterable, Protocol, Sequence
from uuid import UUID

from domain.dice import DiceSource


class SeedVault(Protocol):
    """Keeps each chase's secret server-dice seed and makes its server dice."""

    def new_seed(self, chase_id: UUID) -> str:
        """Create and keep a secret seed for the chase; return its SHA-256 commitment."""
        ...

    def server_dice(self, chase_id: UUID, commitment: str, entropy: str = "", epoch: int = 0) -> DiceSource:
        """Server dice from the seed with that commitment, mixing in the players' entropy."""
        ...

    def seed_to_reveal(self, chase_id: UUID, commitment: str) -> str:
        """The seed with that commitment, in hex, only for the event that reveals it."""
        ...


class ChaseViews(Protocol):
    """The read models of chases, with the position (tracking) they have read up to."""

    def max_tracking_id(self, application_name: str) -> int | None: ...

    def track_states(self, chase_ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        """For each chase: the state its track view was rendered from (version, topic, state)."""
        ...

    def save_views(
        self,
        tracks: dict[str, dict[str, Any]],
        rolls: Sequence[dict[str, Any]],
        marks: Sequence[dict[str, Any]],
        application_name: str,
        notification_id: int,
        previous_id: int | None,
    ) -> None:
        """Write view rows, mark undone rolls, and move the tracking position from
        ``previous_id`` to ``notification_id``, in one transaction; IntegrityError if the
        position was not at ``previous_id``."""
        ...

    def chase_view(self, chase_id: str, name: str) -> dict[str, Any] | None:
        """A view rendered from the chase's state, by name ("track", "vehicles")."""
        ...

    def track_view(self, chase_id: str) -> dict[str, Any] | None: ...

    def roll_history(self, chase_id: str, filters: dict[str, Any]) -> list[dict[str, Any]]: ...

    def clear(self, application_name: str) -> None:
        """Empty the views and their tracking, for a rebuild by replay."""
        ...


class TokenStore(Protocol):
    """Access tokens, kept only as their SHA-256 hashes."""

    def keep(self, token_hash: str, chase_id: str, role: str, participant_ids: Sequence[str], label: str) -> None: ...

    def find(self, token_hash: str) -> dict[str, Any] | None: ...
