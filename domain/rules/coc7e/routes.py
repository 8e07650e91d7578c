"""Choosing a route (optional rule choosing_a_route): the Keeper's forks and the choice at them.
coc7e-chases.txt "Choosing a Route"; the state and the queries the rounds use are forks.py."""
from __future__ import annotations

from typing import Any, Protocol

from domain.rules.coc7e import pedal_procedures, rounds
from domain.rules.coc7e.errors import InvalidCommand, RuleBroken
from domain.rules.coc7e.forks import MAX_ROUTE_NAME, MAX_ROUTES, ROUTES, ForkedChase, ForkPlaced, RouteChosen
from domain.rules.coc7e.track_features import MAX_LOCATION


class RoutesChase(rounds.RoundsChase, ForkedChase, Protocol):
    def require_optional_rule(self, name: str) -> Any: ...


def place_fork(chase: RoutesChase, at: Any, routes: Any) -> None:
    """The Keeper presents a choice of two or more named routes at location ``at``."""
    check_place_fork(chase)
    if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= MAX_LOCATION:
        raise InvalidCommand("at", f"must be a whole number from 0 to {MAX_LOCATION}")
    if not isinstance(routes, list) or not 2 <= len(routes) <= MAX_ROUTES:
        raise InvalidCommand("routes", f"name 2 to {MAX_ROUTES} routes")
    names = [r.strip() if isinstance(r, str) else r for r in routes]
    if any(not isinstance(r, str) or not r or len(r) > MAX_ROUTE_NAME for r in names) or len(set(names)) != len(names):
        raise InvalidCommand("routes", f"each route a different name of 1 to {MAX_ROUTE_NAME} characters")
    if str(at) in chase.forks:
        raise RuleBroken(f"there is already a choice of routes at location {at}: {', '.join(chase.forks[str(at)])}", ROUTES)
    chase.trigger_event(ForkPlaced, at=at, routes=names)


def choose_route(chase: RoutesChase, participant_id: str, route: Any) -> None:
    """On their turn, at a fork, a participant takes one of its routes: the quarry as they will,
    pursuers following whichever branch they choose."""
    p, at = check_choose_route(chase, participant_id)
    if route not in chase.forks[str(at)]:
        raise InvalidCommand("route", f"must be one of {', '.join(chase.forks[str(at)])}")
    chase.trigger_event(RouteChosen, participant_id=p.id, at=at, route=route)
    pedal_procedures.speed_on(chase, p)  # a vehicle stopped here mid-acceleration covers the rest ("Pedal to the Metal")


def check_place_fork(chase: RoutesChase) -> None:
    """The guard of ``place_fork`` before its input: the rule in use, the chase not ended."""
    chase.require_optional_rule("choosing_a_route")
    chase.require_not_ended()


def check_choose_route(chase: RoutesChase, participant_id: str) -> tuple[Any, int]:
    """The guard of ``choose_route`` before the route named: who chooses, and the fork where they stand."""
    chase.require_optional_rule("choosing_a_route")
    p = rounds.require_turn(chase, participant_id)
    at = chase.track.location_of(p.id)
    if p.aboard:
        raise RuleBroken(f"{p.name} rides in a vehicle: its driver chooses on the vehicle's turn", ROUTES)
    if str(at) not in chase.forks:
        raise RuleBroken(f"there is no choice of routes where {p.name} stands (location {at})", ROUTES)
    if str(at) in chase.paths.get(p.id, {}):
        raise RuleBroken(f"{p.name} has already taken the {chase.paths[p.id][str(at)]} route here", ROUTES)
    return p, at
