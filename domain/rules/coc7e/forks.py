"""Where the track branches, and who took which branch: coc7e-chases.txt "Choosing a Route"
(optional rule choosing_a_route). The procedures are routes.py; the round procedures ask here.

At a fork the track goes on by two or more routes, each named by the Keeper ("If there is a choice
of routes available, the lead character is free to choose"). Past the fork, locations of the same
index on different routes are different places: those on one route do not catch up with those on
another (each group is, in the words of "Splitting Up", "an additional chase to track").
"""
from __future__ import annotations

from typing import Any, Protocol

from domain.recorded_chase import RecordedChase
from domain.rules.coc7e.errors import CHASES
from domain.rules.coc7e.optional_rules import uses

ROUTES = f'{CHASES} "Choosing a Route"'
MAX_ROUTES = 5
MAX_ROUTE_NAME = 80

Event = RecordedChase.Event


class ForkedChase(Protocol):
    forks: dict[str, list[str]]
    paths: dict[str, dict[str, str]]


class ForkPlaced(Event):
    """The Keeper presents a choice of routes at a location."""

    TOPIC = "coc7e:Chase.ForkPlaced"
    at: int
    routes: list

    def apply(self, chase: Any) -> None:
        chase.forks[str(self.at)] = list(self.routes)


class RouteChosen(Event):
    """A participant at a fork took one of its routes."""

    TOPIC = "coc7e:Chase.RouteChosen"
    participant_id: str
    at: int
    route: str

    def apply(self, chase: Any) -> None:
        chase.paths.setdefault(self.participant_id, {})[str(self.at)] = self.route


def _branches(chase: Any) -> dict[str, Any]:
    """The forks that divide the track: none while the chase does not use "Choosing a Route"
    (switched off, the Keeper's forks stay recorded but stop no one and part no one)."""
    return getattr(chase, "forks", {}) if uses(chase, "choosing_a_route") else {}


def fork_unchosen(chase: Any, participant_id: str, start: int, locations: int) -> int | None:
    """The first fork from ``start`` on a move of ``locations`` where the participant has not
    chosen a route yet: the move stops there. (Asked by the round procedures, which a fight
    without a chase shares: it has no track to branch.)"""
    branches, chosen = _branches(chase), getattr(chase, "paths", {}).get(participant_id, {})
    return next((at for at in range(start, start + locations) if str(at) in branches and str(at) not in chosen), None) if branches else None


def same_place(chase: Any, a: str, b: str, location: int) -> bool:
    """Whether two participants at the same index are at the same place: on the same route past
    every fork behind it."""
    # A fight without a chase (Encounter, which shares the round procedures) has no track to branch.
    branches, paths = _branches(chase), getattr(chase, "paths", {})
    pa, pb = paths.get(a, {}), paths.get(b, {})
    return all(pa.get(at) == pb.get(at) for at in branches if int(at) < location)
