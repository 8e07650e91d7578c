"""The pure rules of part 5 on the road and the trail (domain/rules/coc7e/pursuit.py), each read
against coc7e-chases.txt."""
from __future__ import annotations

import pytest

from domain.rules.coc7e import pursuit
from domain.rules.coc7e.errors import InvalidCommand, RuleBroken


def test_sudden_hazards_alternate_between_the_players_and_the_keeper():
    # "Either side may call for the first sudden hazard in a chase."
    assert pursuit.next_caller(None) == ("players", "keeper")
    # "If the players call ..., they may not call for one again until after the Keeper has ... and vice versa."
    assert pursuit.next_caller("keeper") == ("players",) and pursuit.next_caller("players") == ("keeper",)
    with pytest.raises(RuleBroken, match="the Keeper call the next one"):
        pursuit.require_caller("players", "players")
    with pytest.raises(InvalidCommand):
        pursuit.require_caller("the dog", None)
    # Passed, the players place it; failed, the Keeper.
    assert (pursuit.sudden_hazard_placer(True), pursuit.sudden_hazard_placer(False)) == ("players", "keeper")


@pytest.mark.parametrize("locations,penalty,navigated", [(2, 1, 0), (3, 1, 0), (4, 2, 1), (5, 2, 1)])
def test_acceleration_penalty_dice_by_locations_and_with_a_navigator(locations, penalty, navigated):
    # "2 or 3 locations ... one penalty die"; "4 or 5 ... two"; a navigator: "up to 3 locations with
    # no penalty die, or up to 5 with 1 penalty die".
    assert pursuit.acceleration_penalty(locations) == penalty
    assert pursuit.acceleration_penalty(locations, navigated=True) == navigated


@pytest.mark.parametrize("locations", [0, 1, 6, True, "3"])
def test_an_acceleration_covers_2_to_5_locations(locations):
    with pytest.raises(InvalidCommand):
        pursuit.acceleration_penalty(locations)


def test_acceleration_penalty_dice_go_on_hazards_not_barriers():
    assert pursuit.hazard_penalty("hazard", 2) == 2 and pursuit.hazard_penalty("barrier", 2) == 0


def test_how_far_a_driver_sees_by_area():
    assert [pursuit.visibility_dice(a) for a in ("city", "suburbs", "country")] == ["1D3", "1D6", "1D10"]
    with pytest.raises(InvalidCommand):
        pursuit.visibility_dice("the moon")


def test_hiding_a_vehicle_needs_both_skills_on_one_roll():
    # Amy's 47: a Regular success for Drive Auto (60) but not for Stealth (40).
    amy = pursuit.hiding_outcome({"Stealth": "failure", "Drive Auto": "regular"}, "regular")
    assert (amy.hidden, amy.failed_skills) == (False, ("Stealth",))
    assert pursuit.hiding_outcome({"Stealth": "hard", "Drive Auto": "hard"}, "hard").hidden
    assert not pursuit.hiding_outcome({"Stealth": "regular"}, "hard").hidden


@pytest.mark.parametrize("rolled,impales,taken,burst", [(6, True, 3, True), (5, True, 2, True), (4, True, 1, False), (10, False, 0, False), (0, True, 0, False)])
def test_tires_armor_3_impaling_only_burst_at_2(rolled, impales, taken, burst):
    hit = pursuit.tire_hit(rolled, impales)
    assert (hit.taken, hit.burst) == (taken, burst)


def test_driver_damage_a_roll_when_conscious_control_lost_when_unconscious():
    assert pursuit.driver_damage(major_wound=True, unconscious=False) == pursuit.ControlCheck(True, None)
    assert pursuit.driver_damage(major_wound=True, unconscious=True) == pursuit.ControlCheck(False, True)
    with pytest.raises(RuleBroken):
        pursuit.driver_damage(major_wound=False, unconscious=False)


def test_creating_hazards_costs_as_the_text_says():
    secure, lock, block = (pursuit.creation(a) for a in ("secure door", "lock door", "block door"))
    assert (secure.movement_actions, secure.skills) == (1, ())
    assert (block.movement_actions, block.skills) == (1, ("STR",))
    assert pursuit.creation("panic crowd").skills == ("Luck",) and pursuit.creation("raise the cry").skills == ("Fast Talk", "Intimidate")
    # A whole chase round: every movement action of the round, none spent yet.
    assert pursuit.creation_cost(lock, 3, 3) == 3
    with pytest.raises(RuleBroken):
        pursuit.creation_cost(lock, 2, 3)
    with pytest.raises(RuleBroken):
        pursuit.creation_cost(secure, 0, 1)
    with pytest.raises(InvalidCommand):
        pursuit.creation("set fire to the city")
