"""Bad input to attacks and fighting maneuvers in a chase: each a problem document naming the
field (422) or the rule with its file and heading (409), and the chase's log left unchanged.
"""
from __future__ import annotations

import pytest

from tests.e2e.coc7e_table import Table, harvey_and_the_farmer, refused


@pytest.fixture
def apart(keeper) -> Table:
    """The farmer's turn at location 0, Harvey at 3: two locations apart."""
    harvey_and_the_farmer(keeper)
    keeper.move("Harvey", 1)
    return Table(keeper)


def attack(keeper, attacker: str, body: dict) -> object:
    return keeper.post(f"/participants/{keeper.ids[attacker]}/attack", body)


def test_an_attack_across_locations_needs_a_firearm(apart, keeper):
    before = keeper.events()
    body = {"target_id": keeper.ids["Harvey"], "response": "dodge", "rolls": {"attack": [10, 0], "defence": [90, 0]}}
    refused(keeper, attack(keeper, "Farmer", body), 409, before, rule='"Conflict"')
    # With a firearm it reaches; the target cannot dodge a bullet, and the gun's damage is required.
    shot = {"target_id": keeper.ids["Harvey"], "method": "firearm", "attack_skill": "Firearms (Rifle/Shotgun)"}
    refused(keeper, attack(keeper, "Farmer", {**shot, "response": "dodge", "damage": "4D6"}), 409, before, rule="Point-Blank")
    refused(keeper, attack(keeper, "Farmer", {**shot, "rolls": {"attack": [10, 0]}}), 422, before, field="damage")


def test_a_firearm_reaches_another_location_and_armor_reduces_its_damage(keeper):
    keeper.create("A shot", dice="table")
    keeper.add(name="Harvey", role="quarry", dex=55, con=60, mov=6, hp=12, armor=1)
    keeper.add(name="Farmer", role="pursuer", dex=50, con=55, mov=7, hp=13, skills={"Firearms (Rifle/Shotgun)": 50})
    keeper.speed_roll("Harvey", [70, 2])
    keeper.speed_roll("Farmer", [80, 0])
    keeper.cut()
    keeper.move("Harvey", 1)
    table = Table(keeper)
    shot = table.attack("Farmer", "Harvey", method="firearm", damage="1D6", rolls={"attack": [20, 0], "damage": [5]})
    assert shot["outcome"]["target_hit"] and [r.get("skill") for r in shot["rolls"]] == ["Firearms (Rifle/Shotgun)", None]
    harvey = table.who(shot["chase"], "Harvey")
    assert harvey["damage"] == 4  # 5 less 1 armor
    assert table.who(shot["chase"], "Farmer")["movement_actions"] == 1  # the shot cost 1 of 2


@pytest.fixture
def side_by_side(keeper) -> Table:
    """The farmer's turn at Harvey's location (Harvey DEX 55 first, then the farmer catches up)."""
    harvey_and_the_farmer(keeper, opening_range=1)
    keeper.move("Harvey", 1)
    chase = keeper.move("Farmer", 2)
    assert chase["round"] == 2
    keeper.move("Harvey", 1)
    chase = keeper.move("Farmer", 1)
    assert keeper.location_of(chase, "Farmer") == keeper.location_of(chase, "Harvey")
    return Table(keeper)


@pytest.mark.parametrize(
    "body, status, where",
    [
        ({"rolls": {"attack": [10, 0], "defence": [90, 0]}}, 422, "response"),
        ({"response": "parry", "rolls": {"attack": [10, 0], "defence": [90, 0]}}, 422, "response"),
        ({"method": "bite", "response": "dodge"}, 422, "method"),
        ({"response": "dodge", "rolls": {"attack": [10, 0]}}, 422, "rolls.defence"),
        ({"response": "dodge", "rolls": {"attack": [10, 0], "defence": [90, 0], "damage": [9]}}, 422, "rolls.damage"),  # 1D3
        ({"response": "dodge", "rolls": {"attack": [10, 0], "defence": [90, 0], "parry": [1]}}, 422, "rolls.parry"),
        ({"response": "dodge", "damage": "1D6+", "rolls": {"attack": [10, 0], "defence": [90, 0]}}, 422, "damage"),
        ({"response": "dodge", "attack_skill": "Fighting (Axe)", "rolls": {"attack": [10, 0], "defence": [90, 0]}}, 422, "attack_skill"),
        ({"response": "dodge", "aftermath": {"fates": {"nobody": "killed"}}, "rolls": {"attack": [10, 0], "defence": [90, 0]}}, 422, "aftermath"),
    ],
)
def test_attacks_with_bad_input_are_refused(side_by_side, keeper, body, status, where):
    before = keeper.events()
    response = attack(keeper, "Farmer", {"target_id": keeper.ids["Harvey"], **body})
    refused(keeper, response, status, before, field=where)


def test_unknown_targets_and_self_attacks_are_refused(side_by_side, keeper):
    before = keeper.events()
    refused(keeper, attack(keeper, "Farmer", {"target_id": "nobody", "response": "dodge"}), 404, before)
    refused(keeper, attack(keeper, "Farmer", {"target_id": keeper.ids["Farmer"], "response": "dodge"}), 422, before, field="target_id")


def test_one_attack_a_round(keeper):
    from tests.e2e.coc7e_table import FARMER, HARVEY

    keeper.create("A fast farmer", dice="table")
    keeper.add(**HARVEY)
    keeper.add(**dict(FARMER, mov=9))  # MOV 8 after his failed roll: 4 movement actions to Harvey's 1
    keeper.speed_roll("Harvey", [70, 2])
    keeper.speed_roll("Farmer", [80, 0])
    keeper.cut(opening_range=1)
    keeper.move("Harvey", 1)
    keeper.move("Farmer", 2)
    table = Table(keeper)
    first = table.attack("Farmer", "Harvey", response="dodge", rolls={"attack": [90, 0], "defence": [90, 0]})
    assert table.who(first["chase"], "Farmer")["movement_actions"] == 1
    before = keeper.events()
    body = {"target_id": keeper.ids["Harvey"], "response": "dodge", "rolls": {"attack": [10, 0], "defence": [90, 0]}}
    refused(keeper, attack(keeper, "Farmer", body), 409, before, rule='"Conflict"')


def vehicles_side_by_side(keeper, attacker: str, target: str) -> Table:
    keeper.create("Build", dice="table")
    keeper.add(kind="vehicle", chart_vehicle=attacker, name="Attacker", role="pursuer", mov=14)
    keeper.add(name="Rider", dex=70, mov=8, vehicle_id=keeper.ids["Attacker"], seat="driver", skills={"Drive Auto": 60})
    keeper.add(kind="vehicle", chart_vehicle=target, name="Target", role="quarry", mov=13)
    keeper.add(name="Driver", dex=50, mov=8, vehicle_id=keeper.ids["Target"], seat="driver", skills={"Drive Auto": 50})
    keeper.speed_roll("Attacker", [40, 0])
    keeper.speed_roll("Target", [40, 0])
    keeper.cut(opening_range=1)
    keeper.move("Attacker", 1)
    return Table(keeper)


def test_a_maneuver_against_a_vehicle_three_build_larger_is_impossible(keeper):
    table = vehicles_side_by_side(keeper, "Motorcycle, light", "Car, economy")  # Build 1 against 4
    before = keeper.events()
    body = {"target_id": keeper.ids["Target"], "method": "maneuver", "response": "dodge", "rolls": {"attack": [10, 0], "defence": [90, 0]}}
    refused(keeper, attack(keeper, "Attacker", body), 409, before, rule="Step 1: Compare Builds")
    assert table.vehicles()["Target"]["build_losses"] == []


def test_a_maneuver_two_build_up_takes_two_penalty_dice(keeper):
    table = vehicles_side_by_side(keeper, "Car, standard", "6-ton truck")  # Build 5 against 7
    push = table.attack("Attacker", "Target", method="maneuver", response="dodge", rolls={"attack": [10, 70, 40, 5], "defence": [90, 0]})
    assert (push["rolls"][0]["penalty_dice"], push["rolls"][0]["result"], push["rolls"][0]["level"]) == (2, 75, "failure")
    assert push["outcome"]["winner"] is None and push["chase"]["mishaps"] == []


def test_a_wrecked_vehicle_takes_no_more_damage(keeper):
    table = vehicles_side_by_side(keeper, "Car, standard", "Motorcycle, light")
    rider = keeper.ids["Driver"]
    table.attack("Attacker", "Target", response="dodge", rolls={"attack": [10, 0], "defence": [90, 0], "damage": [5, 5, 5, 5, 5], "thrown_free": {rider: [1, 1]}})
    assert table.vehicles()["Target"]["condition"] == "wrecked"
    keeper.move("Attacker", 1)  # round 2: the car again
    before = keeper.events()
    body = {"target_id": keeper.ids["Target"], "response": "none", "rolls": {"attack": [10, 0], "damage": [5, 5, 5, 5, 5]}}
    refused(keeper, attack(keeper, "Attacker", body), 409, before, rule="Vehicle Reference Charts")
    refused(keeper, keeper.post(f"/participants/{keeper.ids['Target']}/consequences", {"incident": "minor", "rolls": {"damage": [3]}}), 409, before, rule="Vehicle Reference Charts")


def test_a_vehicles_damage_is_its_build_not_a_choice(keeper):
    vehicles_side_by_side(keeper, "Car, standard", "Car, economy")
    before = keeper.events()
    body = {"target_id": keeper.ids["Target"], "response": "dodge", "damage": "1D4", "rolls": {"attack": [10, 0], "defence": [90, 0]}}
    refused(keeper, attack(keeper, "Attacker", body), 422, before, field="damage")
    body = {"target_id": keeper.ids["Target"], "method": "firearm"}
    refused(keeper, attack(keeper, "Attacker", body), 422, before, field="method")
