"""Melee over HTTP with table dice: fighting maneuvers' goals (coc7e-combat.txt "Step 1: Compare
Builds", "Step 2: Make the Attack Roll") and being prone ("Prone")."""
from __future__ import annotations

from tests.e2e.coc7e_table import Table, refused

KNIFEMAN = {"name": "Knifeman", "role": "pursuer", "dex": 70, "con": 50, "mov": 8, "hp": 12, "build": 0, "skills": {"Fighting (Brawl)": 60}}
THUG = {"name": "Thug", "role": "pursuer", "dex": 60, "con": 50, "mov": 8, "hp": 12, "skills": {"Fighting (Brawl)": 40}}
HARVEY = {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 7, "hp": 15, "build": 0,
          "skills": {"Fighting (Brawl)": 50, "Dodge": 40}, "weapons": [{"weapon": ".38 or 9mm Revolver"}]}


def brawl(keeper, *others: dict) -> Table:
    """The knifeman (and any others) one location behind Harvey; the knifeman moves level."""
    keeper.create("A brawl", dice="table")
    for spec in (KNIFEMAN, HARVEY, *others):
        keeper.add(**spec)
        keeper.speed_roll(spec["name"], [40, 0])
    keeper.cut(opening_range=1)
    keeper.move("Knifeman", 1)
    return Table(keeper)


def test_knocked_down_harvey_is_easier_to_hit_and_stands_up_dodging(keeper):
    table = brawl(keeper, THUG)

    # The knifeman throws Harvey to the floor: a maneuver, Build 0 against 0 (no penalty dice);
    # 30 beats Harvey's failed dodge (70).
    down = table.attack("Knifeman", "Harvey", method="maneuver", goal="knock down", response="dodge", rolls={"attack": [30, 0], "defence": [70, 0]})
    assert down["outcome"]["target_hit"] and table.who(down["chase"], "Harvey")["prone"]
    assert down["chase"]["mishaps"] == []  # the goal, not the chase's mishap

    # The thug kicks him while he is down: a bonus die for the prone target and one for
    # outnumbered (Harvey has dodged this round). Harvey dodges it (10, Extreme) and stands.
    keeper.move("Thug", 1)
    kick = table.attack("Thug", "Harvey", response="dodge", rolls={"attack": [60, 70, 50, 5], "defence": [10, 0]})
    assert kick["rolls"][0]["bonus_dice"] == 2 and kick["outcome"]["winner"] == "defender"
    assert not table.who(kick["chase"], "Harvey")["prone"]


def test_a_held_harvey_cannot_move_until_he_breaks_out(keeper):
    table = brawl(keeper)

    hold = table.attack("Knifeman", "Harvey", method="maneuver", goal="hold", response="fight back", rolls={"attack": [30, 0], "defence": [70, 0]})
    assert table.who(hold["chase"], "Harvey")["held_by"] == keeper.ids["Knifeman"]

    # Harvey's turn: held, he cannot run; a maneuver of his own (25 against the knifeman's
    # failed 80) breaks the hold.
    before = keeper.events()
    refused(keeper, keeper.post(f"/participants/{keeper.ids['Harvey']}/move", {"locations": 1}), 409, before, rule="Step 2")
    free = table.attack("Harvey", "Knifeman", method="maneuver", goal="escape", response="fight back", rolls={"attack": [20, 5], "defence": [80, 0]})
    assert table.who(free["chase"], "Harvey")["held_by"] is None


def test_disarming_takes_harveys_revolver(keeper):
    table = brawl(keeper)

    taken = table.attack("Knifeman", "Harvey", method="maneuver", goal="disarm", response="dodge", rolls={"attack": [30, 0], "defence": [70, 0]})
    assert table.who(taken["chase"], "Harvey")["weapons"] == []
    assert next(e for e in reversed(keeper.events()) if e["name"] == "ManeuverSucceeded")["data"]["weapon"] == ".38 or 9mm Revolver"


def test_a_maneuver_against_a_target_three_build_larger_is_refused(keeper):
    keeper.create("A brawl with a giant", dice="table")
    keeper.add(**KNIFEMAN)
    keeper.add(**{**HARVEY, "name": "Giant", "build": 3})
    keeper.speed_roll("Knifeman", [40, 0])
    keeper.speed_roll("Giant", [40, 0])
    keeper.cut(opening_range=1)
    keeper.move("Knifeman", 1)
    before = keeper.events()

    shove = keeper.post(f"/participants/{keeper.ids['Knifeman']}/attack", {"target_id": keeper.ids["Giant"], "method": "maneuver", "goal": "knock down", "response": "dodge"})

    refused(keeper, shove, 409, before, rule="Step 1: Compare Builds")


def test_a_thrown_spear_is_dodged_or_fought_back_only_within_a_fifth_of_dex_in_feet(keeper):
    keeper.create("A spear thrown", dice="table")
    keeper.add(**{**KNIFEMAN, "str": 70, "siz": 60, "weapons": [{"weapon": "Spear, Thrown"}], "skills": {"Throw": 60}})
    keeper.add(**HARVEY)
    keeper.speed_roll("Knifeman", [40, 0])
    keeper.speed_roll("Harvey", [40, 0])
    keeper.cut(opening_range=1)
    keeper.move("Knifeman", 1)
    table = Table(keeper)
    before = keeper.events()

    # Harvey (DEX 55: 11 feet) is 5 yards (15 feet) off: he may not fight back the spear.
    refused(keeper, keeper.post(f"/participants/{keeper.ids['Knifeman']}/attack", {
        "target_id": keeper.ids["Harvey"], "weapon": "Spear, Thrown", "response": "fight back", "distance_yards": 5}), 409, before, rule="Ranged and Thrown")

    # He dodges instead and fails (90); the spear (1D8 + half of the +1D4 bonus: 1D2) rolls 5 and 2.
    thrown = table.attack("Knifeman", "Harvey", weapon="Spear, Thrown", response="dodge", distance_yards=5, rolls={"attack": [40, 0], "defence": [90, 0], "damage": [5, 2]})
    assert thrown["rolls"][2]["expression"] == "1D8+1D2" and table.who(thrown["chase"], "Harvey")["damage"] == 7
