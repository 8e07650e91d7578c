"""Weapons as data and in play, over HTTP with table dice (coc7e-combat.txt "Table XVII: Weapons",
"Armor", "Range and Firearms Difficulty Levels", "Malfunctions").

The deep one's armor: "Harvey successfully clubs the deep one for 5 points of damage. The deep
one has ... 1 point of natural armor ... Harvey's strike only does a total of 4 damage."
"""
from __future__ import annotations

from tests.e2e.coc7e_table import Table, refused

HARVEY = {"name": "Harvey", "role": "pursuer", "dex": 60, "con": 60, "mov": 9, "hp": 15, "str": 60, "siz": 60,
          "skills": {"Fighting (Brawl)": 50, "Firearms (Handgun)": 45, "Firearms (Rifle/Shotgun)": 40, "Dodge": 30},
          "weapons": [{"weapon": "Club, large (baseball, cricket bat, poker)"}, {"weapon": ".38 or 9mm Revolver", "loaded": 1},
                      {"weapon": "12-gauge Shotgun (2B)"}]}
DEEP_ONE = {"name": "Deep one", "kind": "creature", "role": "quarry", "dex": 50, "con": 50, "mov": 8, "hp": 14, "armor": 1,
            "skills": {"Fighting (Brawl)": 45, "Dodge": 25}}


def harvey_and_the_deep_one(keeper) -> Table:
    """Harvey one location behind the deep one; he moves level, with a movement action left."""
    keeper.create("Under Darke's circus", dice="table")
    keeper.add(**HARVEY)
    keeper.add(**DEEP_ONE)
    keeper.speed_roll("Harvey", [40, 0])
    keeper.speed_roll("Deep one", [40, 0])
    keeper.cut(opening_range=1)
    keeper.move("Harvey", 1)
    return Table(keeper)


def test_the_rules_list_every_weapon_of_the_tables_each_citing_its_table(keeper):
    listed = keeper.ok(keeper.http.get("/rules/coc7e/weapons"))["weapons"]

    tables = {w["table"] for w in listed}
    assert {"Hand-to-Hand Weapons", "Handguns", "Rifles", "Shotguns", "Assault Rifles", "Submachine Guns", "Machine Guns",
            "Explosives, Heavy Weapons, Misc."} <= tables
    assert all(w["source"].startswith('coc7e-combat.txt "Table XVII: Weapons"') for w in listed if w["table"] != "Determining Damage")
    by_name = {w["name"]: w for w in listed}
    assert (by_name["Knife, Small (switchblade, etc.)"]["damage"], by_name["Knife, Small (switchblade, etc.)"]["impales"]) == ("1D4+DB", True)
    assert by_name["12-gauge Shotgun (2B)"]["bands"] == ["4D6", "2D6", "1D6"] and by_name["12-gauge Shotgun (2B)"]["range_yards"] == [10, 20, 50]
    assert (by_name["Hand Grenade"]["damage"], by_name["Hand Grenade"]["blast_yards"]) == ("4D10", 3)
    assert (by_name["Thompson"]["full_auto"], by_name["Thompson"]["magazine"], by_name["Thompson"]["malfunction"]) == (True, 50, 96)
    assert by_name[".38 or 9mm Revolver"]["shots_per_round"] == 3
    armor = keeper.ok(keeper.http.get("/rules/coc7e/armor"))["armor"]
    assert {"name": "Heavy Kevlar Vest", "armor": 8, "source": 'coc7e-combat.txt "Armor Examples"'} in armor


def test_harvey_clubs_the_deep_one_whose_natural_armor_takes_one_off(keeper):
    table = harvey_and_the_deep_one(keeper)
    # STR 60 + SIZ 60 = 120: damage bonus 0, Build 0.
    harvey = table.who(keeper.track(), "Harvey")
    assert harvey["build"] == 0 and [w["weapon"] for w in harvey["weapons"]][0].startswith("Club, large")

    # Harvey's club (1D8+DB) hits (30, Regular); the deep one fails to dodge (70); 1D8 rolls 5.
    club = table.attack("Harvey", "Deep one", weapon="Club, large (baseball, cricket bat, poker)", response="dodge",
                        rolls={"attack": [30, 0], "defence": [70, 0], "damage": [5]})

    assert club["rolls"][0]["skill"] == "Fighting (Brawl)" and club["rolls"][2]["expression"] == "1D8"
    taken = next(e for e in reversed(keeper.events()) if e["name"] == "DamageTaken")["data"]
    assert (taken["rolled"], taken["armor"], taken["taken"]) == (5, 1, 4)
    assert table.who(club["chase"], "Deep one")["hp_left"] == 10


def test_a_revolver_shot_spends_its_round_and_an_empty_gun_cannot_fire(keeper):
    table = harvey_and_the_deep_one(keeper)
    keeper.end_turn("Harvey")
    keeper.end_turn("Deep one")

    # Round 2: a .38 at 20 yards (base range 15): long range, Hard. 20 against Firearms 45 is
    # Hard: a hit for 1D10 (7), less the deep one's armor.
    shot = table.attack("Harvey", "Deep one", weapon=".38 or 9mm Revolver", distance_yards=20, rolls={"attack": [20, 0], "damage": [7]})
    assert (shot["rolls"][0]["skill"], shot["rolls"][0]["difficulty"], shot["rolls"][0]["level"]) == ("Firearms (Handgun)", "hard", "hard")
    assert shot["outcome"]["target_hit"] and table.who(shot["chase"], "Deep one")["damage"] == 6
    revolver = next(w for w in table.who(shot["chase"], "Harvey")["weapons"] if w["weapon"] == ".38 or 9mm Revolver")
    assert revolver["loaded"] == 0

    # Its one round is spent: the next shot is refused, and nothing is recorded.
    before = keeper.events()
    empty = keeper.post(f"/participants/{keeper.ids['Harvey']}/attack", {"target_id": keeper.ids["Deep one"], "weapon": ".38 or 9mm Revolver",
                                                                         "distance_yards": 5, "rolls": {"attack": [10, 0]}})
    refused(keeper, empty, 409, before, rule="Reloading Firearms")


def test_a_shotguns_damage_falls_off_by_range_band_and_its_reach_ends(keeper):
    table = harvey_and_the_deep_one(keeper)

    # Beyond its last band (50 yards) no shot is possible.
    before = keeper.events()
    far = keeper.post(f"/participants/{keeper.ids['Harvey']}/attack", {"target_id": keeper.ids["Deep one"], "weapon": "12-gauge Shotgun (2B)", "distance_yards": 60})
    assert "reaches 50 yards" in refused(keeper, far, 409, before, rule="Shotguns")["detail"]

    # 15 yards: the second band, 2D6, Regular difficulty; a shotgun does not impale, so an Extreme
    # success (05) deals the band's maximum, 12, nothing rolled, less 1 for the armor: 11 of its
    # 14 hit points, a major wound; its CON roll fails (80): it falls unconscious.
    blast = table.attack("Harvey", "Deep one", weapon="12-gauge Shotgun (2B)", distance_yards=15, rolls={"attack": [0, 5], "con": {keeper.ids["Deep one"]: [80, 0]}})
    assert blast["rolls"][0]["level"] == "extreme" and [r["skill"] for r in blast["rolls"]] == ["Firearms (Rifle/Shotgun)", "CON"]
    deep_one = table.who(blast["chase"], "Deep one")
    assert (deep_one["major_wound"], deep_one["prone"], deep_one["unconscious"]) == (True, True, True)
    assert table.who(blast["chase"], "Deep one")["damage"] == 11
    shotgun = next(w for w in table.who(blast["chase"], "Harvey")["weapons"] if w["weapon"] == "12-gauge Shotgun (2B)")
    assert shotgun["loaded"] == 1


def test_an_attack_with_a_weapon_the_attacker_lacks_is_refused(keeper):
    table = harvey_and_the_deep_one(keeper)
    before = keeper.events()

    lacking = keeper.post(f"/participants/{keeper.ids['Harvey']}/attack", {"target_id": keeper.ids["Deep one"], "weapon": "Thompson", "distance_yards": 5})
    body = refused(keeper, lacking, 409, before, rule="Table XVII")
    assert "carries no Thompson" in body["detail"]
    unknown = keeper.post(f"/participants/{keeper.ids['Harvey']}/attack", {"target_id": keeper.ids["Deep one"], "weapon": "Lightsaber", "response": "dodge"})
    refused(keeper, unknown, 422, before, field="weapon")
    assert table.who(keeper.track(), "Harvey")["movement_actions"] == 1


def test_armor_revisited_shotgun_pellets_and_armor_that_covers_only_part(keeper):
    keeper.create("Armor revisited", dice="table")
    keeper.add(**HARVEY)
    keeper.add(**{**DEEP_ONE, "name": "Cultist", "kind": "character", "hp": 40})  # a heavy leather jacket: armor 1
    keeper.speed_roll("Harvey", [40, 0])
    keeper.speed_roll("Cultist", [40, 0])
    keeper.cut(opening_range=1)
    table = Table(keeper)

    # "if an attack with a shotgun hits a target wearing a leather jacket (1 point of armor), that
    # one point of armor is deducted from each and every damage die, reducing a attack that deals
    # 4D6 damage by 4 points": 5 yards, 4D6 rolls 12, 8 taken.
    blast = table.attack("Harvey", "Cultist", weapon="12-gauge Shotgun (2B)", distance_yards=5, armor_per_die=True,
                         rolls={"attack": [30, 0], "damage": [3, 3, 3, 3]})
    taken = next(e for e in reversed(keeper.events()) if e["name"] == "DamageTaken")["data"]
    assert (taken["rolled"], taken["armor"], taken["taken"]) == (12, 4, 8) and table.who(blast["chase"], "Cultist")["damage"] == 8

    # Armor covering only part of the cultist: a Luck roll; failed (80 against 45), the shot finds
    # no armor and the revolver's 1D10 (6) is taken in full.
    keeper.end_turn("Harvey")  # one attack a round: the next round
    keeper.end_turn("Cultist")
    shot = table.attack("Harvey", "Cultist", weapon=".38 or 9mm Revolver", distance_yards=5, armor_luck=45,
                        rolls={"attack": [30, 0], "damage": [6], "luck": [80, 0]})
    assert [r.get("skill") for r in shot["rolls"]] == ["Firearms (Handgun)", None, "Luck"]
    taken = next(e for e in reversed(keeper.events()) if e["name"] == "DamageTaken")["data"]
    assert (taken["rolled"], taken["armor"], taken["taken"]) == (6, 0, 6)
