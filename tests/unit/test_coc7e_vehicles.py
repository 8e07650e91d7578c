"""coc7e-chases.txt "Vehicle Reference Charts" and the notes under them: vehicle data and Build.

Damage is rolled with table dice through domain.dice expressions, so each test shows the faces
a Keeper would have rolled.
"""
from __future__ import annotations

from fractions import Fraction

import pytest

from domain.dice import TableDice
from domain.rules.coc7e import vehicle_charts
from domain.rules.coc7e.damage import roll_damage, through_armor
from domain.rules.coc7e.errors import InvalidCommand
from domain.rules.coc7e.vehicle_charts import VEHICLES, mov_1920s, vehicle
from domain.rules.coc7e.vehicles import (
    as_build,
    build_lost_to,
    build_text,
    damage_dice,
    lose_build,
    starting_build,
    take_damage,
    undrivable_accident,
    wreck,
    wreck_fate,
)

# Every row of every chart, as printed: chart, name, skill, MOV, Build, armor, passengers, min, max.
CHART_ROWS = [
    ("ground", "Car, economy", "Drive Auto", 13, "4", 1, "3 or 4", 3, 4),
    ("ground", "Car, standard", "Drive Auto", 14, "5", 2, "4", 4, 4),
    ("ground", "Car, deluxe", "Drive Auto", 15, "6", 2, "4", 4, 4),
    ("ground", "Sports car", "Drive Auto", 16, "5", 2, "1", 1, 1),
    ("ground", "Pickup truck", "Drive Auto", 14, "6", 2, "2+", 2, None),
    ("ground", "6-ton truck", "Drive Auto", 13, "7", 2, "2+", 2, None),
    ("ground", "18-wheeler", "Drive Auto", 13, "9", 2, "3+", 3, None),
    ("ground", "Motorcycle, light", "Drive Auto", 13, "1", 0, "1", 1, 1),
    ("ground", "Motorcycle, heavy", "Drive Auto", 16, "3", 0, "1", 1, 1),
    ("air", "Dirigible", "Pilot", 12, "10", 2, "112+", 112, None),
    ("air", "Propeller plane", "Pilot", 15, "5", 1, "4+", 4, None),
    ("air", "Bomber plane", "Pilot", 17, "11", 2, "10+", 10, None),
    ("air", "Jet plane", "Pilot", 18, "11", 3, "50+", 50, None),
    ("air", "Helicopter", "Pilot", 15, "5", 2, "15+", 15, None),
    ("heavy", "Tank", "Operate Heavy Machinery", 11, "20", 24, "4", 4, 4),
    ("heavy", "Steam train", "Operate Heavy Machinery", 12, "12", 1, "400+", 400, None),
    ("heavy", "Modern train", "Operate Heavy Machinery", 15, "14", 2, "400+", 400, None),
    ("other transport", "Horse (with rider)", "Ride", 11, "4", 0, "1", 1, 1),
    ("other transport", "4-horse carriage", "Ride", 10, "3", 0, "6+", 6, None),
    ("other transport", "Bicycle", "Ride", 10, "0.5", 0, "1", 1, 1),
    ("water", "Row boat", "Pilot", 4, "2", 0, "3", 3, 3),
    ("water", "Hovercraft", "Pilot", 12, "4", 0, "22", 22, 22),
    ("water", "Motorboat", "Pilot", 14, "3", 0, "6", 6, 6),
    ("water", "Cruise ship", "Pilot", 11, "32", 0, "2200+", 2200, None),
    ("water", "Battleship", "Pilot", 11, "65", 0, "1800+", 1800, None),
    ("water", "Aircraft carrier", "Pilot", 11, "75", 0, "3200+", 3200, None),
    ("water", "Submarine", "Pilot", 12, "24", 0, "120+", 120, None),
]


@pytest.mark.parametrize("chart, name, skill, mov, build, armor, passengers, fewest, most", CHART_ROWS)
def test_every_chart_row_is_as_printed(chart, name, skill, mov, build, armor, passengers, fewest, most):
    v = vehicle(name, chart)

    assert (v.chart, v.skill, v.mov, v.build_printed, v.armor, v.passengers) == (chart, skill, mov, build, armor, passengers)
    assert (v.min_passengers, v.max_passengers) == (fewest, most)
    assert v.source.startswith('coc7e-chases.txt "Vehicle Reference Charts"')


def test_the_charts_hold_exactly_the_printed_rows_in_order():
    assert [(v.chart, v.name) for v in VEHICLES] == [(r[0], r[1]) for r in CHART_ROWS]


def test_the_boat_printed_as_a_bicycle_is_a_motorboat_and_the_bicycle_rides():
    # rules/README.md: the water row "Bicycle 14 3 0 6" is a motorboat.
    assert vehicle("bicycle").chart == "other transport"
    assert [v.name for v in VEHICLES if v.chart == "water" and v.name == "Bicycle"] == []
    assert (vehicle("Motorboat").mov, vehicle("Motorboat").build) == (14, 3)


def test_an_unknown_vehicle_is_refused_with_the_charts_named():
    with pytest.raises(InvalidCommand) as refused:
        vehicle("Time machine")
    assert "Vehicle Reference Charts" in str(refused.value)


# -- 1920s ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, modern, twenties",
    [
        ("Car, economy", 13, 10),  # 10.4
        ("Car, standard", 14, 11),  # 11.2
        ("Car, deluxe", 15, 12),
        ("Sports car", 16, 13),  # 12.8
        ("Row boat", 4, 3),  # 3.2
        ("Jet plane", 18, 14),  # 14.4
    ],
)
def test_1920s_vehicles_are_about_20_percent_slower_rounded_to_nearest(name, modern, twenties):
    v = vehicle(name)
    assert (v.mov_in("modern"), v.mov_in("1920s")) == (modern, twenties)


def test_1920s_mov_never_drops_below_1_and_the_keeper_may_choose_the_cut():
    assert mov_1920s(1) == 1
    assert mov_1920s(10, reduction=Fraction(1, 10)) == 9
    with pytest.raises(InvalidCommand):
        vehicle("Tank").mov_in("1890s")


# -- Build ---------------------------------------------------------------------------------------


def test_build_0_5_is_kept_exactly_and_written_as_printed():
    assert vehicle("Bicycle").build == Fraction(1, 2)
    assert as_build("0.5") == as_build(0.5) == Fraction(1, 2)
    assert build_text(Fraction(1, 2)) == "0.5" and build_text(5) == "5"
    with pytest.raises(InvalidCommand):
        as_build("lots")


def test_a_vehicle_as_a_weapon_rolls_1d10_per_full_point_of_build():
    assert damage_dice(vehicle("Car, standard").build) == "5D10"
    assert damage_dice(vehicle("Motorcycle, light").build) == "1D10"
    assert damage_dice(vehicle("Bicycle").build) == "0"  # half a point is not a point
    assert roll_damage(TableDice([]), 1, "0")["amount"] == 0


@pytest.mark.parametrize("hit_points, build_lost", [(0, 0), (9, 0), (10, 1), (19, 1), (25, 2), (50, 5)])
def test_each_full_10_hit_points_cost_a_point_of_build_and_the_rest_is_ignored(hit_points, build_lost):
    assert build_lost_to(hit_points) == build_lost


def test_a_standard_car_loses_build_to_hit_points_and_is_impaired_at_half():
    car = starting_build(vehicle("Car, standard").build)  # Build 5: impaired at 2 or lower
    roll = roll_damage(TableDice([9, 8, 10]), 1, "3D10")  # 27 hit points from somewhere

    hit = take_damage(car, roll["amount"])

    assert [d["face"] for d in roll["dice"]] == [9, 8, 10]
    assert (hit.hit_points, hit.build_lost, hit.build_after) == (27, 2, 3)
    assert hit.status_after == "sound" and hit.state.penalty_dice == 0

    again = take_damage(hit.state, 14)
    assert (again.build_after, again.status_after, again.state.penalty_dice) == (2, "impaired", 1)


def test_losing_the_full_starting_build_in_one_incident_wrecks_the_vehicle():
    # A standard car (Build 5) in mayhem: 2D10 Build, rolled 3 + 2 = 5.
    car = starting_build(5)
    roll = roll_damage(TableDice([3, 2]), 7, "2D10")

    crash = lose_build(car, roll["amount"])

    assert crash.wrecked and crash.status_after == "wrecked" and crash.build_after == 0
    assert not crash.state.drivable


def test_reaching_zero_by_cumulative_damage_leaves_the_vehicle_undrivable_not_wrecked():
    car = starting_build(5)
    first = lose_build(car, 3)  # Build 2: impaired
    second = lose_build(first.state, 4)  # 4 < 5 starting: cumulative, not one incident

    assert first.status_after == "impaired"
    assert second.build_lost == 2  # never more than it had left
    assert second.made_undrivable and not second.wrecked and second.status_after == "undrivable"


def test_a_damaged_vehicle_still_wrecks_only_on_a_loss_of_its_full_starting_build():
    car = lose_build(starting_build(5), 3).state  # Build 2 left
    assert lose_build(car, 4).status_after == "undrivable"
    assert lose_build(car, 5).status_after == "wrecked"


def test_a_bicycle_is_wrecked_by_any_lost_point_and_unharmed_by_none():
    bike = starting_build(vehicle("Bicycle").build)
    assert lose_build(bike, 0).status_after == "sound"
    crash = lose_build(bike, 1)
    assert crash.wrecked and crash.build_after == 0


def test_wreck_takes_all_build_whatever_is_left():
    truck = starting_build(7)
    result = wreck(truck)
    assert (result.build_lost, result.build_after, result.status_after) == (7, 0, "wrecked")


def test_a_vehicle_needs_some_build():
    with pytest.raises(InvalidCommand):
        starting_build(0)


# -- Occupants -----------------------------------------------------------------------------------


def test_occupants_of_a_wreck_are_thrown_free_for_2d10_by_default_or_killed_as_the_keeper_rules():
    thrown = wreck_fate()
    assert (thrown.fate, thrown.damage) == ("thrown free", "2D10")
    assert roll_damage(TableDice([4, 7]), 2, thrown.damage)["amount"] == 11
    assert wreck_fate("killed").damage is None
    assert wreck_fate("thrown free", "3D10").damage == "3D10"  # "at least 2D10"
    with pytest.raises(InvalidCommand):
        wreck_fate("abducted")


def test_an_undrivable_vehicle_hurts_its_occupants_1d10_only_if_the_keeper_rules_an_accident():
    assert undrivable_accident(True) == "1D10"
    assert undrivable_accident(False) is None


def test_armor_for_people_reduces_an_external_attack_on_the_driver():
    # "Driver Damage": a handgun's 10 damage through a car's armor 2 leaves Harvey 8.
    armor = vehicle("Car, standard").armor
    shot = roll_damage(TableDice([10]), 1, "1D10")
    assert through_armor(shot["amount"], armor) == 8
    assert through_armor(1, vehicle_charts.vehicle("Tank").armor) == 0
