"""Projections: pure functions from a chase's state (folded from its events) to its views.

Each game system renders its own views (application/systems/<system>/); the registry
(infrastructure/systems.py) gathers them into one Renderers, which the view pipeline uses
without naming any system. Every system has a "track" view; all of a chase's views are written
together, in one transaction.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

Render = Callable[[Any], dict[str, Any]]
Facts = Callable[[Any], list[dict[str, Any]]]  # an event -> its analytics facts (application/analytics/facts.py)


def no_facts(event: Any) -> list[dict[str, Any]]:
    return []


class Renderers:
    """Every view of every registered system: {system: {view name: render}}; and ``facts``, the
    analytics facts each event adds (rows kept beside the roll history, not a rendered view)."""

    def __init__(self, by_system: Mapping[str, Mapping[str, Render]], facts: Facts = no_facts) -> None:
        self.by_system = {system: dict(views) for system, views in by_system.items()}
        self.facts = facts

    def all(self, state: Any) -> dict[str, dict[str, Any]]:
        """Every view of a chase, rendered from its state."""
        return {name: render(state) for name, render in self.by_system[state.SYSTEM].items()}

    def one(self, state: Any, name: str) -> dict[str, Any]:
        return self.by_system[state.SYSTEM][name](state)

    def names(self, system: str) -> list[str]:
        return list(self.by_system[system])
