"""The movement tables of d6-movement.txt as functions (domain/rules/d6/movement.py): the worked
examples' numbers, the acceleration limits the thief example fixes, and terrain by stretch."""
from __future__ import annotations

import pytest

from domain.rules.d6.errors import InvalidValue
from domain.rules.d6.movement import acceleration_limits, base_rate, difficulty, farthest, free_distance, metres, slowed, terrain_modifier


def test_the_worked_examples_difficulties():
    assert difficulty("running", 10, 20) == 5 and difficulty("running", 10, 40) == 15  # Move 10: 20 m and 40 m
    assert difficulty("running", 10, 15) == 5  # part of a movement costs a whole one
    assert difficulty("swimming", base_rate("swimming", 10), 10) == 10  # twice the swimming Move
    climbing = base_rate("climbing", 10, climbing_skill=False)
    assert climbing == 5 and difficulty("climbing", climbing, 8) == 15  # + 5 for the tree (terrain) is 20
    assert base_rate("climbing", 10, climbing_skill=True) == 10
    assert base_rate("leaping", 10) == 3 and difficulty("leaping", 3, 3) == 5 and difficulty("leaping", 3, 5) == 15


def test_what_a_total_allows_is_the_farthest_difficulty_it_meets():
    assert farthest("running", 10, 20) == 50  # the thief example: a total of 20 meets 50 m
    assert farthest("swimming", 5, 4) == 0 and farthest("swimming", 5, 9) == 5
    assert farthest("climbing", 5, 15) == 8


def test_the_acceleration_limits_of_the_thief_example():
    # From a standstill: up to 2 x Move; from 20 m: up to 40 m (doubling); from 40 m: 20 to 80 m.
    assert acceleration_limits(0, 10) == (0, 20)
    assert acceleration_limits(20, 10) == (0, 40)
    assert acceleration_limits(40, 10) == (20, 80)
    assert acceleration_limits(0, 5) == (0, 10)  # "a base walking Move of 10 has minimum swimming change of 10"
    assert slowed(40, 10) == 20 and slowed(20, 10) == 0 and slowed(10, 10) == -10


def test_short_distances_and_half_metres():
    assert free_distance(10) == 5 and free_distance(5) == 2.5
    assert metres(2.5, "rate") == 2.5 and metres(20.0, "rate") == 20 and isinstance(metres(20.0, "rate"), int)
    for bad in (2.25, -1, float("inf"), "5", True):
        with pytest.raises(InvalidValue):
            metres(bad, "rate")


def test_terrain_is_the_worst_stretch_crossed():
    stretches = [{"from": 0, "to": 10, "terrain": "easy", "modifier": 0}, {"from": 10, "to": 20, "terrain": "hazardous", "modifier": 20}]
    assert terrain_modifier(stretches, 0, 5) == (0, "easy")
    assert terrain_modifier(stretches, 5, 15) == (20, "hazardous")
    assert terrain_modifier(stretches, 25, 30) == (0, None)
