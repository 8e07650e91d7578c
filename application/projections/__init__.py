"""Projections: pure functions from a chase's state (folded from its events) to its views."""
from __future__ import annotations

from typing import Any, Callable

from application.projections import savage_common, swade_track, swd_track, track, vehicles

# The views rendered from a chase's state, by game system then view name; every system has a
# "track" view. All of a chase's views are written together, in one transaction.
VIEWS: dict[str, dict[str, Callable[[Any], dict[str, Any]]]] = {
    "coc7e": {"track": track.render, "vehicles": vehicles.render},
    "swade": {"track": swade_track.render, "vehicles": savage_common.render_vehicles},
    "swd": {"track": swd_track.render, "vehicles": savage_common.render_vehicles},
}


def render_all(state: Any) -> dict[str, dict[str, Any]]:
    """Every view of a chase, rendered from its state."""
    return {name: render(state) for name, render in VIEWS[state.SYSTEM].items()}


def render_one(state: Any, name: str) -> dict[str, Any]:
    return VIEWS[state.SYSTEM][name](state)
