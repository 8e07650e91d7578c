"""Firearm attack modifiers as named inputs, over HTTP with table dice (coc7e-combat.txt "Firearm
Attack Modifiers"): each a bonus or penalty die on the shot, refused where its condition fails.

The gunman (DEX 40, Firearms (Handgun) 45, a readied revolver) shoots first in a fight without a chase.
"""
from __future__ import annotations

from tests.e2e.coc7e_table import Table, refused
from tests.e2e.test_coc7e_combat_encounter import the_fight


def shooting(keeper, *extra: dict) -> Table:
    table = the_fight(keeper, *extra)
    table.post("/fight", {"readied": [keeper.ids["Gunman"]]})
    return table


def shoot(keeper, target: str, **body):
    return keeper.post(f"/participants/{keeper.ids['Gunman']}/attack", {"target_id": keeper.ids[target], "weapon": ".38 or 9mm Revolver", "distance_yards": 5, **body})


def test_point_blank_within_a_fifth_of_the_shooters_dex_in_feet_gives_a_bonus_die(keeper):
    table = shooting(keeper)
    before = keeper.events()
    # "Point-Blank Range (Bonus die)": DEX 40 / 5 = 8 feet. Three yards are nine feet: refused.
    far = refused(keeper, shoot(keeper, "Harvey", distance_yards=3, modifiers=["point blank"], rolls={"attack": [50, 20, 0]}), 409, before)
    assert "Point-Blank Range" in far["rule"]
    # Two yards (six feet): a bonus die; the lower tens die (20) is kept: a hit.
    shot = table.attack("Gunman", "Harvey", weapon=".38 or 9mm Revolver", distance_yards=2, modifiers=["point blank"],
                        rolls={"attack": [50, 20, 0], "damage": [4]})
    assert shot["rolls"][0]["bonus_dice"] == 1 and shot["rolls"][0]["result"] == 20 and shot["outcome"]["target_hit"]
    assert shot["outcome"]["modifiers"] == [{"modifier": "point blank", "die": "bonus", "rule": 'coc7e-combat.txt "Point-Blank Range (Bonus die)"'}]


def test_a_fast_moving_target_of_mov_8_or_more_gives_a_penalty_die(keeper):
    table = shooting(keeper, {"name": "Old man", "role": "pursuer", "dex": 30, "con": 40, "mov": 5, "hp": 9, "skills": {"Dodge": 15}})
    before = keeper.events()
    slow = refused(keeper, shoot(keeper, "Old man", modifiers=["fast-moving target"], rolls={"attack": [20, 40, 0]}), 409, before)
    assert "Fast-Moving Targets" in slow["rule"]
    # Harvey runs at MOV 9: a penalty die; the higher tens die (40) is kept: 40 still hits (45).
    shot = table.attack("Gunman", "Harvey", weapon=".38 or 9mm Revolver", distance_yards=5, modifiers=["fast-moving target"], rolls={"attack": [20, 40, 0], "damage": [1]})
    assert (shot["rolls"][0]["penalty_dice"], shot["rolls"][0]["result"]) == (1, 40)


def test_target_size_small_gives_a_penalty_die_large_a_bonus_die_and_neither_is_refused(keeper):
    table = shooting(keeper, {"name": "Rat thing", "kind": "creature", "role": "quarry", "dex": 70, "con": 30, "mov": 9, "hp": 4, "build": -2,
                              "skills": {"Dodge": 40}})
    before = keeper.events()
    # Harvey is Build 0: neither small nor large.
    refused(keeper, shoot(keeper, "Harvey", modifiers=["target size"], rolls={"attack": [20, 40, 0]}), 409, before)
    # The rat thing (Build -2): a penalty die.
    shot = table.attack("Gunman", "Rat thing", weapon=".38 or 9mm Revolver", distance_yards=5, modifiers=["target size"], rolls={"attack": [20, 60, 0]})
    assert (shot["rolls"][0]["penalty_dice"], shot["rolls"][0]["result"], shot["outcome"]["target_hit"]) == (1, 60, False)


def test_cover_gives_a_penalty_die_and_firing_into_melee_a_penalty_die_whose_fumble_hits_an_ally(keeper):
    table = shooting(keeper)
    # Concealed and in a brawl: two penalty dice. 90, 90 and 9 keep 99: a fumble, an ally hit.
    shot = table.attack("Gunman", "Harvey", weapon=".38 or 9mm Revolver", distance_yards=5, modifiers=["cover", "into melee"], rolls={"attack": [10, 90, 90, 9]})
    assert (shot["rolls"][0]["penalty_dice"], shot["rolls"][0]["level"]) == (2, "fumble")
    assert shot["outcome"]["ally_hit"] and not shot["outcome"]["target_hit"]


def test_modifiers_are_a_firearm_attacks_and_unknown_ones_name_the_field(keeper):
    shooting(keeper)
    keeper.end_turn("Gunman")
    before = keeper.events()
    punch = keeper.post(f"/participants/{keeper.ids['Harvey']}/attack", {"target_id": keeper.ids["Thug"], "response": "dodge", "modifiers": ["cover"]})
    assert "Firearm Attack Modifiers" in refused(keeper, punch, 409, before)["rule"]
    refused(keeper, keeper.post(f"/participants/{keeper.ids['Harvey']}/attack", {"target_id": keeper.ids["Thug"], "modifiers": ["luck"]}), 422, before)
