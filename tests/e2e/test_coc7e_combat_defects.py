"""The four defects of issue 14, found with table dice over HTTP, each fixed and shown here.

1. An Extreme success on one's own attack deals extreme damage: a non-impaling weapon its maximum
   (and maximum damage bonus), an impaling one that plus a damage roll (coc7e-combat.txt "Extreme
   Damage and Impales"); never when fighting back.
2. Outnumbered: once a defender has fought back or dodged this round, later melee attacks on them
   get a bonus die (coc7e-combat.txt "Outnumbered"); not firearms.
3. A participant at zero hit points is unconscious and acts no more ("Zero Hit Points: The Effects").
4. An impaired vehicle's penalty die goes on a Drive Auto roll made through /skill-rolls too
   (coc7e-chases.txt "Vehicle Reference Charts", notes).
"""
from __future__ import annotations

from tests.e2e.coc7e_table import Table, refused

KNIFEMAN = {"name": "Knifeman", "role": "pursuer", "dex": 70, "con": 50, "mov": 8, "hp": 12, "damage_bonus": "1D4",
            "skills": {"Fighting (Brawl)": 50, "Dodge": 35}}
HARVEY = {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 7, "hp": 15, "skills": {"Fighting (Brawl)": 50, "Dodge": 30}}


def level_with_harvey(keeper, *others: dict) -> Table:
    """The knifeman one location behind Harvey; he moves level and has one movement action left."""
    keeper.create("A knife in the dark", dice="table")
    keeper.add(**KNIFEMAN)
    keeper.add(**HARVEY)
    for other in others:
        keeper.add(**other)
    for name in ["Knifeman", "Harvey", *(o["name"] for o in others)]:
        keeper.speed_roll(name, [40, 0])  # Regular: MOV unchanged
    keeper.cut(opening_range=1)
    chase = keeper.move("Knifeman", 1)
    assert keeper.location_of(chase, "Knifeman") == keeper.location_of(chase, "Harvey")
    return Table(keeper)


def test_an_extreme_success_with_a_switchblade_impales_for_1d4_plus_8(keeper):
    table = level_with_harvey(keeper)

    # "A character with 1D4 damage bonus achieves an Extreme level of success when attacking with
    # a switchblade ... 1D4+8": 05 against Fighting 50 is Extreme; Harvey dodges and fails (80).
    # The 1D4 for the weapon comes up 3: 3 + 4 + 4 = 11, a major wound for Harvey's 15 hit
    # points: he makes his CON roll (30 against 60) and stays conscious.
    harvey = keeper.ids["Harvey"]
    stab = table.attack(
        "Knifeman", "Harvey", response="dodge", damage="1D4+DB", impales=True,
        rolls={"attack": [0, 5], "defence": [80, 0], "damage": [3], "con": {harvey: [30, 0]}},
    )

    assert stab["rolls"][0]["level"] == "extreme" and stab["outcome"]["target_hit"]
    assert stab["rolls"][2]["expression"] == "1D4" and "impale" in stab["rolls"][2]["purpose"]
    harvey = table.who(stab["chase"], "Harvey")
    assert (harvey["damage"], harvey["hp_left"]) == (11, 4)
    taken = next(e for e in reversed(keeper.events()) if e["name"] == "DamageTaken")["data"]
    assert taken["rolled"] == 11 and "impale" in taken["cause"]


def test_an_extreme_success_with_a_club_deals_its_maximum_without_a_roll(keeper):
    table = level_with_harvey(keeper)

    # A large club, 1D8+DB, non-impaling: maximum damage (8) plus maximum damage bonus (4).
    # 12 is a major wound: Harvey's CON roll (30) keeps him conscious.
    blow = table.attack("Knifeman", "Harvey", response="dodge", damage="1D8+DB", rolls={"attack": [0, 1], "defence": [80, 0], "con": {keeper.ids["Harvey"]: [30, 0]}})

    assert [r["skill"] for r in blow["rolls"]] == ["Fighting (Brawl)", "Dodge", "CON"]  # no damage roll
    assert table.who(blow["chase"], "Harvey")["damage"] == 12


def test_fighting_back_with_an_extreme_success_deals_ordinary_damage(keeper):
    table = level_with_harvey(keeper)

    # Harvey fights back with an Extreme success (05) against a Regular one: he wins, but only
    # the attacker's own turn can make an outstanding attack, so his 1D3 is rolled (2).
    clash = table.attack("Knifeman", "Harvey", response="fight back", rolls={"attack": [40, 0], "defence": [0, 5], "counter_damage": [2]})

    assert clash["outcome"]["winner"] == "defender"
    assert [r["expression"] for r in clash["rolls"][2:]] == ["1D3"]
    assert table.who(clash["chase"], "Knifeman")["damage"] == 2


THUG = {"name": "Thug", "role": "pursuer", "dex": 60, "con": 50, "mov": 8, "hp": 12, "skills": {"Fighting (Brawl)": 40, "Firearms (Handgun)": 40}}


def test_after_harvey_has_dodged_later_melee_attacks_on_him_get_a_bonus_die(keeper):
    table = level_with_harvey(keeper, THUG)

    # The knifeman attacks; Harvey dodges (25 against 30: Regular beats the knifeman's 45).
    first = table.attack("Knifeman", "Harvey", response="dodge", rolls={"attack": [40, 5], "defence": [20, 5]})
    assert first["outcome"]["winner"] == "defender" and not first["outcome"]["outnumbered"]
    assert table.who(first["chase"], "Harvey")["outnumbered"]

    # The thug comes level and punches: Harvey has dodged this round, so the thug rolls with one
    # bonus die (tens 60 and 10 with 5: 15 is kept, Hard), and Harvey fails to dodge (90).
    keeper.move("Thug", 1)
    second = table.attack("Thug", "Harvey", response="dodge", rolls={"attack": [60, 10, 5], "defence": [90, 0], "damage": [2]})

    attack = second["rolls"][0]
    assert (attack["bonus_dice"], attack["result"], attack["level"]) == (1, 15, "hard")
    assert second["outcome"]["outnumbered"] and second["outcome"]["target_hit"]
    assert [e["name"] for e in keeper.events()].count("Defended") == 2


def test_a_participant_at_zero_hit_points_lies_unconscious_and_acts_no_more(keeper):
    table = level_with_harvey(keeper)

    # The knifeman's blow (the Keeper's 3D6, rolled 15) takes all of Harvey's 15 hit points.
    stab = table.attack("Knifeman", "Harvey", response="dodge", damage="3D6", rolls={"attack": [40, 0], "defence": [80, 0], "damage": [6, 5, 4]})
    chase = stab["chase"]
    assert table.who(chase, "Harvey")["hp_left"] == 0

    # The attack was the knifeman's last movement action; Harvey's turn came and passed, and
    # round 2 began without him in the DEX order.
    assert chase["round"] == 2 and chase["whose_turn"] == keeper.ids["Knifeman"]
    assert keeper.ids["Harvey"] not in chase["turn_order"]
    passed = [e["data"] for e in keeper.events() if e["name"] == "TurnEnded" and e["data"]["participant_id"] == keeper.ids["Harvey"]]
    assert [p["reason"] for p in passed] == ["unconscious at zero hit points"]

    # Harvey cannot move, and the next round leaves him out again.
    before = keeper.events()
    refused(keeper, keeper.post(f"/participants/{keeper.ids['Harvey']}/move", {"locations": 1}), 409, before, rule="Zero Hit Points")
    chase = keeper.end_turn("Knifeman")
    assert chase["round"] == 3 and chase["turn_order"] == [keeper.ids["Knifeman"]]


def test_an_impaired_vehicles_penalty_die_applies_to_a_drive_auto_skill_roll(keeper):
    keeper.create("An impaired car", dice="table")
    car = keeper.add(kind="vehicle", chart_vehicle="Car, standard", name="Car", role="quarry")
    driver = keeper.add(name="Driver", dex=50, mov=8, vehicle_id=car, seat="driver", skills={"Drive Auto": 60})
    police = keeper.add(kind="vehicle", chart_vehicle="Car, standard", name="Police car", role="pursuer")
    keeper.add(name="Officer", dex=40, mov=8, vehicle_id=police, seat="driver", skills={"Drive Auto": 50})
    keeper.speed_roll("Car", [40, 0])
    keeper.speed_roll("Police car", [40, 0])
    keeper.cut()
    table = Table(keeper)
    # The Keeper rules a severe incident: 3 Build lost of 5, down to 2: impaired (half or lower).
    # Its driver takes the same dice in hit points (1D10: 2).
    table.consequences("Car", incident="severe", delay=False, rolls={"damage": [3], "occupants": {driver: [2]}})
    assert table.vehicles()["Car"]["condition"] == "impaired"

    # A Drive Auto roll the Keeper calls for, for the car and for its driver: one penalty die each
    # (two tens dice: 20 and 70 with 5, the worse, 75, is kept: a failure against 60).
    for who in (car, driver):
        rolled = keeper.ok(keeper.post("/skill-rolls", {"skill": "Drive Auto", "participant_id": who, "table_dice": [20, 70, 5]}))["rolls"][0]
        assert (rolled["penalty_dice"], rolled["result"], rolled["level"], rolled["roller"]) == (1, 75, "failure", driver)
    # Another skill of the driver's takes no penalty for the car.
    spot = keeper.ok(keeper.post("/skill-rolls", {"skill": "DEX", "participant_id": driver, "table_dice": [20, 5]}))["rolls"][0]
    assert spot["penalty_dice"] == 0
