"""Undo of each new command kind (hazards, barriers, conflict, mishaps, vehicles) restores the
views as they were before it: the track view (but for the record's own bookkeeping) and the
vehicle-build view. Redo brings the command's effects back with its original dice.
"""
from __future__ import annotations

from typing import Any, Callable

import pytest

from tests.e2e.coc7e_table import Table, harvey_and_the_farmer
from tests.e2e.record_helpers import live_parts_out

# The record's own bookkeeping, which an undo moves on rather than rolls back (DESIGN.md 5).
RECORD = {"version", "chain_head", "can_redo", "rolls_made"}


def game(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in live_parts_out(view).items() if k not in RECORD}


def views(table: Table) -> tuple[dict[str, Any], dict[str, Any]]:
    keeper = table.keeper
    vehicles = keeper.ok(keeper.http.get(f"/chases/{keeper.chase_id}/vehicles"))
    return game(keeper.track()), {k: v for k, v in vehicles.items() if k != "version"}


def on_foot(keeper) -> Table:
    harvey_and_the_farmer(keeper)
    return Table(keeper)


def mud_failed(keeper) -> Table:
    """The farmer has failed the mud: a mishap awaits the Keeper."""
    table = on_foot(keeper)
    keeper.move("Harvey", 1)
    table.place("hazard", [0, 1], name="Mud", skills=["DEX"])
    table.negotiate("Farmer", [90, 0])
    return table


def maneuvered(keeper) -> Table:
    """Harvey has thrown the farmer (a maneuver mishap awaiting a roll as if a hazard)."""
    harvey_and_the_farmer(keeper, opening_range=1)
    table = Table(keeper)
    keeper.move("Harvey", 1)
    keeper.move("Farmer", 2)
    keeper.move("Harvey", 1)
    keeper.move("Farmer", 1)
    table.attack("Farmer", "Harvey", response="maneuver", rolls={"attack": [70, 3], "defence": [30, 8]})
    return table


def cars(keeper) -> Table:
    """A standard car level with a light motorcycle; the car's turn with 1 movement action."""
    keeper.create("Cars", dice="table")
    keeper.add(kind="vehicle", chart_vehicle="Car, standard", name="Car", role="pursuer")
    keeper.add(name="Driver", dex=60, mov=8, vehicle_id=keeper.ids["Car"], seat="driver", skills={"Drive Auto": 60})
    keeper.add(kind="vehicle", chart_vehicle="Motorcycle, light", name="Motorcycle", role="quarry")
    keeper.add(name="Rider", dex=50, mov=8, vehicle_id=keeper.ids["Motorcycle"], seat="driver", skills={"Drive Auto": 40}, hp=11)
    keeper.speed_roll("Car", [40, 0])
    keeper.speed_roll("Motorcycle", [30, 0])
    keeper.cut(opening_range=1)
    keeper.move("Car", 1)
    return Table(keeper)


def roadblock(keeper) -> Table:
    """The motorcycle's turn (after the car's), a roadblock of 10 hit points ahead of it."""
    table = cars(keeper)
    keeper.end_turn("Car")
    table.place("barrier", [1, 2], preset="Standard back door", name="Roadblock", skills=["Drive Auto"])
    return table


SCENARIOS: dict[str, tuple[Callable[[Any], Table], Callable[[Table], Any]]] = {
    "name a location": (on_foot, lambda t: t.name_location(4, "Barn")),
    "remove a location name": (lambda k: _named(on_foot(k)), lambda t: t.keeper.ok(t.send("DELETE", "/locations/4"))),
    "place an obstacle": (on_foot, lambda t: t.place("barrier", [2, 3], preset="Mature tree", skills=["Climb"])),
    "change an obstacle": (
        lambda k: _with_wall(on_foot(k)),
        lambda t: t.keeper.ok(t.send("PATCH", f"/obstacles/{t.keeper.track()['obstacles'][0]['id']}", {"difficulty": "extreme", "hit_points": 40})),
    ),
    "remove an obstacle": (lambda k: _with_wall(on_foot(k)), lambda t: t.keeper.ok(t.send("DELETE", f"/obstacles/{t.keeper.track()['obstacles'][0]['id']}"))),
    "move up to an obstacle": (lambda k: _harvey_moved(_with_wall(on_foot(k), [1, 2])), lambda t: t.keeper.move("Farmer", 2)),
    "negotiate and pass": (lambda k: _with_wall(on_foot(k)), lambda t: t.negotiate("Harvey", [30, 0])),
    "negotiate and fail a hazard": (
        lambda k: _mud_ahead_of_farmer(on_foot(k)), lambda t: t.negotiate("Farmer", [90, 0])
    ),
    "break a barrier down (wrecked)": (
        roadblock, lambda t: t.break_barrier("Motorcycle", rolls={"damage": [4], "thrown_free": {t.ids["Rider"]: [3, 3]}})
    ),
    "attack with a vehicle (recoil)": (
        cars, lambda t: t.attack("Car", "Motorcycle", response="dodge", rolls={"attack": [20, 0], "defence": [60, 0], "damage": [10] * 5, "thrown_free": {t.ids["Rider"]: [4, 3]}})
    ),
    "maneuver": (cars, lambda t: t.attack("Car", "Motorcycle", method="maneuver", response="dodge", rolls={"attack": [20, 0], "defence": [60, 0]})),
    "roll as if a hazard": (maneuvered, lambda t: t.mishap_roll("Farmer", "DEX", [90, 0])),
    "rule consequences (debt, displaced)": (
        mud_failed, lambda t: t.consequences("Farmer", incident="moderate", to_location=3, rolls={"damage": [2], "movement_actions": [3]})
    ),
}


def _named(table: Table) -> Table:
    table.name_location(4, "Barn")
    return table


def _with_wall(table: Table, between: list[int] | None = None) -> Table:
    table.place("barrier", between or [2, 3], name="Wall", skills=["Climb"], hit_points=25)
    return table


def _harvey_moved(table: Table) -> Table:
    table.keeper.move("Harvey", 1)
    return table


def _mud_ahead_of_farmer(table: Table) -> Table:
    table.keeper.move("Harvey", 1)
    table.place("hazard", [0, 1], name="Mud", skills=["DEX"])
    return table


@pytest.mark.parametrize("name", SCENARIOS)
def test_undo_of_each_command_restores_the_views_and_redo_brings_it_back(keeper, name):
    set_up, command = SCENARIOS[name]
    table = set_up(keeper)
    before = views(table)
    command(table)
    after = views(table)
    assert after != before

    keeper.ok(keeper.post("/undo", {"count": 1}))
    assert views(table) == before

    keeper.ok(keeper.post("/redo"))
    assert views(table) == after
