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

    def server_dice(self, chase_id: UUID, entropy: str = "") -> DiceSource:
        """Server dice for the chase, with any entropy the players supplied."""
        ...


class ChaseViews(Protocol):
    """The read models of chases, with the position (tracking) they have read up to."""

    def max_tracking_id(self, application_name: str) -> int | None: ...

    def track_views(self, chase_ids: Iterable[str]) -> dict[str, dict[str, Any]]: ...

    def save_views(
        self,
        tracks: dict[str, dict[str, Any]],
        rolls: Sequence[dict[str, Any]],
        application_name: str,
        notification_id: int,
        previous_id: int | None,
    ) -> None:
        """Write view rows and move the tracking position from ``previous_id`` to
        ``notification_id``, in one transaction; IntegrityError if it was not at ``previous_id``."""
        ...

    def track_view(self, chase_id: str) -> dict[str, Any] | None: ...

    def roll_history(self, chase_id: str, filters: dict[str, Any]) -> list[dict[str, Any]]: ...
