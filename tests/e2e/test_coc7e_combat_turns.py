"""Firearms over several turns and a fight that grows, over HTTP with table dice (coc7e-combat.txt
"Diving for Cover (Penalty die)", "Aiming (Bonus die)", "Reloading Firearms (possible Penalty
die)", "Optional Hit Locations", "Malfunctions", "Dexterity and the Order of Attack", "Rolling for
Initiative").
"""
from __future__ import annotations

import json

from infrastructure.systems import verify
from tests.e2e.coc7e_table import Table, refused

HARVEY = {"name": "Harvey", "dex": 60, "con": 60, "mov": 9, "hp": 15, "str": 60, "siz": 60,
          "skills": {"Fighting (Brawl)": 50, "Dodge": 30, "Firearms (Handgun)": 50}, "weapons": [{"weapon": ".38 or 9mm Revolver", "loaded": 6}]}
THUG = {"name": "Thug", "role": "quarry", "dex": 55, "con": 50, "mov": 8, "hp": 12, "str": 65, "siz": 60,
        "skills": {"Fighting (Brawl)": 40, "Dodge": 25}}
GUNMAN = {"name": "Gunman", "role": "quarry", "dex": 40, "con": 50, "mov": 8, "hp": 11, "str": 50, "siz": 60,
          "skills": {"Fighting (Brawl)": 25, "Firearms (Handgun)": 45, "Firearms (SMG)": 45, "Firearms (MG)": 40, "Dodge": 20},
          "weapons": [{"weapon": ".38 or 9mm Revolver", "loaded": 6}, {"weapon": "Thompson", "loaded": 0}, {"weapon": "Vickers .303 Machine Gun", "loaded": 0}]}


def the_fight(keeper, *others: dict, **fight) -> Table:
    """Harvey, a thug and a gunman (and ``others``), the Keeper's dice at the table; the fight begun."""
    body = keeper.ok(keeper.http.post("/chases", json={"name": "The warehouse", "dice": "table", "system": "coc7e-combat"}), 201)
    keeper.chase_id, keeper.http.token = body["chase"]["chase_id"], body["keeper_token"]
    for spec in (HARVEY, THUG, GUNMAN, *others):
        keeper.add(**spec)
    table = Table(keeper)
    table.post("/fight", fight)
    return table


def order(keeper, chase) -> list[str]:
    names = {pid: name for name, pid in keeper.ids.items()}
    return [names[pid] for pid in chase["turn_order"]]


def pass_turns_until(keeper, name: str) -> None:
    while keeper.track()["whose_turn"] != keeper.ids[name]:
        names = {pid: n for n, pid in keeper.ids.items()}
        keeper.end_turn(names[keeper.track()["whose_turn"]])


def test_harvey_dives_for_cover_the_shot_takes_a_penalty_die_and_he_forfeits_his_attack(keeper):
    # The order of attack: Harvey (DEX 60), the thug (55), the gunman (40), who shoots at Harvey.
    table = the_fight(keeper)
    pass_turns_until(keeper, "Gunman")
    # Harvey dives for cover: his Dodge roll (20 of 30) succeeds, so the shot (45) takes a penalty
    # die: tens 10 and 50 with units 0, the higher kept: 50, a miss.
    shot = table.attack("Gunman", "Harvey", weapon=".38 or 9mm Revolver", distance_yards=10, response="dive for cover",
                        rolls={"defence": [20, 0], "attack": [10, 50, 0]})
    dodge, attack = shot["rolls"][0], shot["rolls"][1]
    assert (dodge["skill"], dodge["roller"], dodge["success"]) == ("Dodge", keeper.ids["Harvey"], True)
    assert (attack["penalty_dice"], attack["result"], shot["outcome"]["target_hit"]) == (1, 50, False)
    assert shot["outcome"]["dived_for_cover"] is True
    made = [e["data"] for e in keeper.events() if e["name"] == "AttackMade"][-1]
    assert (made["response"], made["defence_skill"]) == ("dive for cover", "Dodge")
    # Harvey had already acted this round: he forfeits his attack in the next one.
    assert table.who(shot["chase"], "Harvey")["dived_for_cover_until_round"] == 2

    # Round 2, Harvey's turn: "The only option available to a character that has dived for
    # cover, until their next attack, is to dodge further attacks": no punch, and no fighting back.
    pass_turns_until(keeper, "Harvey")
    before = keeper.events()
    punch = keeper.post(f"/participants/{keeper.ids['Harvey']}/attack", {"target_id": keeper.ids["Thug"], "response": "dodge"})
    refused(keeper, punch, 409, before, rule="Diving for Cover")
    keeper.end_turn("Harvey")
    before = keeper.events()
    swing = keeper.post(f"/participants/{keeper.ids['Thug']}/attack", {"target_id": keeper.ids["Harvey"], "response": "fight back"})
    refused(keeper, swing, 409, before, rule="Diving for Cover")
    # A blow or a thrown weapon is dodged, not dived from.
    refused(keeper, keeper.post(f"/participants/{keeper.ids['Thug']}/attack", {"target_id": keeper.ids["Harvey"], "response": "dive for cover"}),
            409, before, rule="Diving for Cover")
    # Round 3: his attack is his again.
    pass_turns_until(keeper, "Harvey")
    punch = table.attack("Harvey", "Thug", response="dodge", rolls={"attack": [20, 0], "defence": [90, 0], "damage": [2]})
    assert punch["outcome"]["target_hit"]


def test_a_dive_that_fails_still_forfeits_the_attack_and_the_dry_run_weighs_the_dodge(keeper):
    # Harvey acts first (DEX 60); the thug's place (DEX 55) is still to come when he dives.
    table = the_fight(keeper)
    # The odds before the shot: Harvey's Firearms 50 at 10 yards (Regular) hits 1/2; with the
    # dive's penalty die 1/4 (both tens dice at 40 or less); the thug's Dodge 25 succeeds 1/4.
    # A hit: 1/4 x 1/4 + 3/4 x 1/2 = 7/16.
    dry = keeper.ok(keeper.post(f"/participants/{keeper.ids['Harvey']}/attack?dry_run=true",
                                {"target_id": keeper.ids["Thug"], "weapon": ".38 or 9mm Revolver", "distance_yards": 10, "response": "dive for cover",
                                 "rolls": {"defence": [90, 0], "attack": [30, 0]}}))
    decided = next(o for o in dry["outcomes"] if o["event"] == "AttackMade")["odds"]["outcomes"]
    assert decided["attacker"]["exact"] == "7/16"
    # The dive fails (90): no penalty die, 30 hits; the thug still forfeits this round's attack.
    shot = table.attack("Harvey", "Thug", weapon=".38 or 9mm Revolver", distance_yards=10, response="dive for cover",
                        rolls={"defence": [90, 0], "attack": [30, 0], "damage": [3]})
    assert shot["rolls"][1]["penalty_dice"] == 0 and shot["outcome"]["target_hit"]
    assert table.who(shot["chase"], "Thug")["dived_for_cover_until_round"] == 1
    before = keeper.events()
    refused(keeper, keeper.post(f"/participants/{keeper.ids['Thug']}/attack", {"target_id": keeper.ids["Harvey"], "response": "dodge"}), 409, before,
            rule="Diving for Cover")


def test_an_aimed_shot_gains_a_bonus_die_and_damage_loses_the_aim(keeper):
    table = the_fight(keeper)
    # Round 1: the gunman declares careful aim at Harvey: his turn is spent.
    pass_turns_until(keeper, "Gunman")
    aimed = table.post(f"{table.participant('Gunman')}/aim", {"target_id": keeper.ids["Harvey"], "weapon": ".38 or 9mm Revolver"})
    assert aimed["outcome"]["shot_in_round"] == 2 and aimed["chase"]["round"] == 2
    assert table.who(aimed["chase"], "Gunman")["aiming"]["target_id"] == keeper.ids["Harvey"]
    # Round 2: "The shot is taken on the same turn in the order of combat on the following round
    # ... the attacker gains one bonus die": two tens dice, 70 and 20 with 0, the lower kept: 20.
    pass_turns_until(keeper, "Gunman")
    shot = table.attack("Gunman", "Harvey", weapon=".38 or 9mm Revolver", distance_yards=10, rolls={"attack": [70, 20, 0], "damage": [5]})
    assert (shot["rolls"][0]["bonus_dice"], shot["rolls"][0]["result"], shot["outcome"]["aimed"]) == (1, 20, True)
    assert table.who(shot["chase"], "Gunman")["aiming"] is None

    # Round 3: he aims again; Harvey's punch lands before his next turn: "If the aiming character
    # takes damage ... the advantage of aiming is lost".
    pass_turns_until(keeper, "Gunman")
    table.post(f"{table.participant('Gunman')}/aim", {"target_id": keeper.ids["Harvey"], "weapon": ".38 or 9mm Revolver"})
    pass_turns_until(keeper, "Harvey")
    punch = table.attack("Harvey", "Gunman", response="dodge", rolls={"attack": [20, 0], "defence": [90, 0], "damage": [2]})
    assert table.who(punch["chase"], "Gunman")["aiming"] is None
    lost = [e["data"] for e in keeper.events() if e["name"] == "AimEnded"][-1]
    assert lost["bonus"] is False and lost["reason"].startswith("took damage")
    pass_turns_until(keeper, "Gunman")
    plain = table.attack("Gunman", "Harvey", weapon=".38 or 9mm Revolver", distance_yards=10, rolls={"attack": [70, 0]})
    assert plain["rolls"][0]["bonus_dice"] == 0 and "aimed" not in plain["outcome"]

    # "If no other actions are taken before the shot is fired": reloading first loses the aim.
    pass_turns_until(keeper, "Gunman")
    table.post(f"{table.participant('Gunman')}/aim", {"target_id": keeper.ids["Harvey"], "weapon": ".38 or 9mm Revolver"})
    pass_turns_until(keeper, "Gunman")
    reloaded = table.post(f"{table.participant('Gunman')}/reload", {"weapon": ".38 or 9mm Revolver"})
    assert table.who(reloaded["chase"], "Gunman")["aiming"] is None
    assert [e["data"]["reason"] for e in keeper.events() if e["name"] == "AimEnded"][-1] == "reloading"


def test_reloading_takes_the_round_two_shells_a_clip_or_half_a_belt_and_a_chambered_round_fires_with_a_penalty_die(keeper):
    table = the_fight(keeper)
    gunman = table.participant("Gunman")
    # The gunman empties his revolver: three shots (a penalty die each) in round 1, three in round 2.
    for _ in range(2):
        pass_turns_until(keeper, "Gunman")
        table.post(f"{gunman}/fire", {"weapon": ".38 or 9mm Revolver", "target_id": keeper.ids["Thug"], "shots": 3,
                                      "rolls": {"attack": {str(i): [90, 90, 9] for i in (1, 2, 3)}}})

    # "It takes one combat round to load two shells into any handgun": three at once are refused,
    # two take his action, and his turn passes.
    pass_turns_until(keeper, "Gunman")
    before = keeper.events()
    refused(keeper, keeper.post(f"{gunman}/reload", {"weapon": ".38 or 9mm Revolver", "rounds": 3}), 409, before, rule="Reloading")
    loaded = table.post(f"{gunman}/reload", {"weapon": ".38 or 9mm Revolver"})
    assert loaded["outcome"]["loading"] == "shells" and loaded["chase"]["whose_turn"] != keeper.ids["Gunman"]
    weapons = {w["weapon"]: w for w in table.who(loaded["chase"], "Gunman")["weapons"]}
    assert weapons[".38 or 9mm Revolver"]["loaded"] == 2

    # "Allow one round to exchange a clip": the Thompson's whole drum in one action.
    pass_turns_until(keeper, "Gunman")
    clip = table.post(f"{gunman}/reload", {"weapon": "Thompson"})
    assert clip["outcome"]["loading"] == "clip" and {w["weapon"]: w for w in table.who(clip["chase"], "Gunman")["weapons"]}["Thompson"]["loaded"] == 50

    # "Allow two rounds to change a machine gun belt": after one action the belt is half changed.
    pass_turns_until(keeper, "Gunman")
    half = table.post(f"{gunman}/reload", {"weapon": "Vickers .303 Machine Gun"})
    vickers = {w["weapon"]: w for w in table.who(half["chase"], "Gunman")["weapons"]}["Vickers .303 Machine Gun"]
    assert (half["outcome"]["belt_rounds_left"], vickers["loaded"]) == (1, 0)
    pass_turns_until(keeper, "Gunman")
    whole = table.post(f"{gunman}/reload", {"weapon": "Vickers .303 Machine Gun"})
    assert {w["weapon"]: w for w in table.who(whole["chase"], "Gunman")["weapons"]}["Vickers .303 Machine Gun"]["loaded"] == 250

    # Harvey empties his revolver, then "put[s] one round in a chamber and get[s] that shot off
    # with one penalty die": tens 10 and 40, units 0: 40 hits (Firearms 50).
    for _ in range(2):
        pass_turns_until(keeper, "Harvey")
        table.post(f"{table.participant('Harvey')}/fire", {"weapon": ".38 or 9mm Revolver", "target_id": keeper.ids["Thug"], "shots": 3,
                                                        "rolls": {"attack": {str(i): [90, 90, 9] for i in (1, 2, 3)}}})
    pass_turns_until(keeper, "Harvey")
    before = keeper.events()
    refused(keeper, keeper.post(f"{table.participant('Harvey')}/attack", {"target_id": keeper.ids["Thug"], "weapon": ".38 or 9mm Revolver", "distance_yards": 5}),
            409, before, rule="Reloading")
    chambered = table.attack("Harvey", "Thug", weapon=".38 or 9mm Revolver", distance_yards=5, chamber=True, rolls={"attack": [10, 40, 0], "damage": [4]})
    assert (chambered["rolls"][0]["penalty_dice"], chambered["outcome"]["target_hit"]) == (1, True)
    assert {w["weapon"]: w for w in table.who(chambered["chase"], "Harvey")["weapons"]}[".38 or 9mm Revolver"]["loaded"] == 0


def test_fire_takes_the_range_the_modifiers_and_divers_of_each_target(keeper):
    big = {"name": "Dark Young", "kind": "creature", "role": "quarry", "dex": 40, "con": 80, "mov": 8, "hp": 80, "build": 6, "skills": {"Dodge": 10}}
    table = the_fight(keeper, big)
    pass_turns_until(keeper, "Harvey")
    # Two shots at the thug 20 yards off (base range 15: Hard) behind cover: each roll Hard, with
    # a penalty die for the second shot and one for cover.
    two = table.post(f"{table.participant('Harvey')}/fire", {"weapon": ".38 or 9mm Revolver", "target_id": keeper.ids["Thug"], "shots": 2,
                                                           "distance_yards": 20, "modifiers": ["cover"],
                                                           "rolls": {"attack": {"1": [90, 90, 90, 9], "2": [90, 90, 90, 9]}}})
    assert [(r["difficulty"], r["penalty_dice"]) for r in two["rolls"]] == [("hard", 2), ("hard", 2)]
    assert two["outcome"]["modifiers"] == {keeper.ids["Thug"]: [{"modifier": "cover", "die": "penalty", "rule": 'coc7e-combat.txt "Cover and Concealment (Penalty die)"'}]}

    # Full auto at two targets: the Dark Young (Build 6: a bonus die, "target size") and the thug,
    # who dives for cover (Dodge 25: 10, a success: a penalty die). Volleys of 4 (SMG 45: at least 3).
    pass_turns_until(keeper, "Gunman")
    table.post(f"{table.participant('Gunman')}/reload", {"weapon": "Thompson"})
    pass_turns_until(keeper, "Gunman")
    burst = {
        "weapon": "Thompson", "mode": "full auto", "diving": [keeper.ids["Thug"]],
        "targets": [{"target_id": keeper.ids["Dark Young"], "bullets": 4, "modifiers": ["target size"], "distance_yards": 10},
                    {"target_id": keeper.ids["Thug"], "bullets": 4, "distance_yards": 30}],
        "rolls": {"dive": {keeper.ids["Thug"]: [10, 0]}, "attack": {"1": [80, 80, 0], "2": [80, 80, 80, 0]}},
    }
    # Odds before firing: each roll's, a volley's roll at or above the Thompson's 96 a malfunction.
    before = keeper.events()
    dry = keeper.ok(keeper.post(f"{table.participant('Gunman')}/fire?dry_run=true", burst))
    assert [r["purpose"].split(" ")[0] for r in dry["rolls"]] == ["diving", "full", "full"] and keeper.events() == before
    # The second roll, two penalty dice: it malfunctions when the units die shows 0 or 6-9 (96-99,
    # 100) and any of three tens dice the highest face: 5/10 x (1 - (9/10)^3) = 271/2000.
    assert dry["rolls"][2]["odds"]["outcomes"]["malfunction"]["exact"] == "271/2000"
    auto = table.post(f"{table.participant('Gunman')}/fire", burst)
    dive, first, second = auto["rolls"]
    assert (dive["skill"], dive["success"]) == ("Dodge", True)
    # First volley: the bonus die of size; second (a new target): one penalty die for the second
    # roll and one for the dive, at Hard (30 yards is past the Thompson's 20).
    assert (first["bonus_dice"], first["penalty_dice"], first["difficulty"]) == (1, 0, "regular")
    assert (second["bonus_dice"], second["penalty_dice"], second["difficulty"]) == (0, 2, "hard")
    # The thug had acted this round: he forfeits his attack in the next.
    assert table.who(auto["chase"], "Thug")["dived_for_cover_until_round"] == 3

    # A modifier whose condition does not hold is refused, nothing recorded: the thug is no large target.
    pass_turns_until(keeper, "Harvey")
    before = keeper.events()
    refused(keeper, keeper.post(f"{table.participant('Harvey')}/fire", {"weapon": ".38 or 9mm Revolver", "target_id": keeper.ids["Thug"], "modifiers": ["target size"]}),
            409, before, rule="Target Size")
    refused(keeper, keeper.post(f"{table.participant('Harvey')}/fire", {"weapon": ".38 or 9mm Revolver", "target_id": keeper.ids["Thug"], "diving": [keeper.ids["Gunman"]]}),
            422, before, field="diving")
    refused(keeper, keeper.post(f"{table.participant('Harvey')}/fire", {"weapon": ".38 or 9mm Revolver", "target_id": keeper.ids["Thug"], "modifiers": ["sideways"]}),
            422, before, field="modifiers")


def test_optional_hit_locations_put_a_helmet_only_on_the_head(keeper):
    helmeted = {**THUG, "name": "Soldier", "armor": 2}
    table = the_fight(keeper, helmeted)
    pass_turns_until(keeper, "Harvey")
    # 1D20 of 20: the head, under the WWI helmet (2): 5 damage less 2.
    head = table.attack("Harvey", "Soldier", weapon=".38 or 9mm Revolver", distance_yards=5, hit_locations=["head"],
                        rolls={"attack": [30, 0], "damage": [5], "location": [20]})
    assert table.who(head["chase"], "Soldier")["hp_left"] == 12 - 3
    taken = [e["data"] for e in keeper.events() if e["name"] == "DamageTaken"][-1]
    assert taken["cause"].endswith("(head)")
    # Next round, 1D20 of 5: the left leg, unarmored: all 5.
    pass_turns_until(keeper, "Harvey")
    leg = table.attack("Harvey", "Soldier", weapon=".38 or 9mm Revolver", distance_yards=5, hit_locations=["head"],
                       rolls={"attack": [30, 0], "damage": [5], "location": [5]})
    assert table.who(leg["chase"], "Soldier")["hp_left"] == 9 - 5
    # Bad input: an unknown location, or both the Luck roll and hit locations.
    pass_turns_until(keeper, "Harvey")
    before = keeper.events()
    refused(keeper, keeper.post(f"{table.participant('Harvey')}/attack", {"target_id": keeper.ids["Soldier"], "weapon": ".38 or 9mm Revolver", "distance_yards": 5,
                                                                         "hit_locations": ["tail"]}), 422, before, field="hit_locations")
    refused(keeper, keeper.post(f"{table.participant('Harvey')}/attack", {"target_id": keeper.ids["Soldier"], "weapon": ".38 or 9mm Revolver", "distance_yards": 5,
                                                                         "hit_locations": ["head"], "armor_luck": 50}), 422, before, field="hit_locations")


def test_a_shot_at_or_above_the_malfunction_number_is_no_hit_in_the_odds(keeper):
    marksman = {"name": "Marksman", "role": "quarry", "dex": 30, "con": 50, "mov": 8, "hp": 11,
                "skills": {"Firearms (Handgun)": 99}, "weapons": [{"weapon": "Glock 17 9mm Auto"}]}
    table = the_fight(keeper, marksman)
    pass_turns_until(keeper, "Marksman")
    # Firearms 99 with a Glock (malfunction 98): 98 and 99 succeed by level but do not fire.
    body = {"target_id": keeper.ids["Harvey"], "weapon": "Glock 17 9mm Auto", "distance_yards": 5, "rolls": {"attack": [90, 8]}}
    dry = keeper.ok(keeper.post(f"{table.participant('Marksman')}/attack?dry_run=true", body))
    decided = next(o for o in dry["outcomes"] if o["event"] == "AttackMade")["odds"]["outcomes"]
    assert (decided["attacker"]["exact"], decided["malfunction"]["exact"], decided["neither"]["exact"]) == ("97/100", "3/100", "0/1")
    # The roll itself, made: 98, a malfunction (a jam); the roll history shows it observed.
    jammed = table.attack("Marksman", "Harvey", **{k: v for k, v in body.items() if k != "target_id"})
    assert jammed["outcome"]["malfunction"] == "jam" and not jammed["outcome"]["target_hit"]
    row = next(r for r in keeper.rolls() if r["sequence"] == jammed["rolls"][0]["sequence"])
    assert row["odds"]["observed"] == "malfunction" and row["odds"]["outcomes"]["malfunction"]["exact"] == "3/100"


def test_a_combatant_joining_a_fight_enters_the_dex_order_this_round_or_the_next(keeper):
    table = the_fight(keeper)
    assert order(keeper, keeper.track()) == ["Harvey", "Thug", "Gunman"]
    # During Harvey's turn a policeman (DEX 50) arrives: added, he stands by until the Keeper
    # brings him in; his place (after the thug, DEX 55) is still to come this round.
    keeper.add(name="Policeman", role="pursuer", dex=50, con=50, mov=8, hp=12, skills={"Fighting (Brawl)": 40, "Dodge": 25})
    assert table.who(keeper.track(), "Policeman")["status"] == "ready"
    joined = table.post("/fight/join", {"participant_id": keeper.ids["Policeman"]})
    assert joined["outcome"]["acts_this_round"] is True
    assert order(keeper, joined["chase"]) == ["Harvey", "Thug", "Policeman", "Gunman"]
    # A second newcomer with a readied pistol (DEX 30 + 50 = 80): his place, first, has passed this
    # round; he shoots first from round 2.
    keeper.add(name="Detective", role="pursuer", dex=30, con=50, mov=8, hp=12, skills={"Firearms (Handgun)": 40}, weapons=[{"weapon": ".38 Automatic"}])
    late = table.post("/fight/join", {"participant_id": keeper.ids["Detective"], "readied": True})
    assert late["outcome"]["acts_this_round"] is False and "Detective" not in order(keeper, late["chase"])
    pass_turns_until(keeper, "Policeman")
    keeper.end_turn("Policeman")
    keeper.end_turn("Gunman")
    assert order(keeper, keeper.track()) == ["Detective", "Harvey", "Thug", "Policeman", "Gunman"]
    # Bad input: joining twice, or someone unknown, records nothing.
    before = keeper.events()
    refused(keeper, keeper.post("/fight/join", {"participant_id": keeper.ids["Policeman"]}), 409, before, rule="Order of Attack")
    assert keeper.post("/fight/join", {"participant_id": "nobody"}).status_code == 404
    assert keeper.events() == before


def test_with_dex_roll_initiative_a_newcomer_rolls_and_takes_a_place_in_the_existing_order(keeper):
    body = keeper.ok(keeper.http.post("/chases", json={"name": "The alley", "dice": "table", "system": "coc7e-combat"}), 201)
    keeper.chase_id, keeper.http.token = body["chase"]["chase_id"], body["keeper_token"]
    for spec in (HARVEY, THUG):
        keeper.add(**spec)
    table = Table(keeper)
    # Harvey's DEX roll is a Hard success (20 of 60), the thug's a failure (90 of 55).
    begun = table.post("/fight", {"initiative": "dex roll", "rolls": {"initiative": {keeper.ids["Harvey"]: [20, 0], keeper.ids["Thug"]: [90, 0]}}})
    assert order(keeper, begun["chase"]) == ["Harvey", "Thug"]
    # "if additional combatants join, they can make a DEX roll and be placed in the existing
    # initiative order": the newcomer's Regular success (40 of 50) puts him between the two,
    # still to come this round.
    keeper.add(name="Policeman", role="pursuer", dex=50, con=50, mov=8, hp=12, skills={"Fighting (Brawl)": 40, "Dodge": 25})
    joined = table.post("/fight/join", {"participant_id": keeper.ids["Policeman"], "rolls": {"initiative": [40, 0]}})
    assert (joined["outcome"]["initiative_level"], joined["rolls"][0]["skill"]) == ("regular", "DEX")
    assert order(keeper, joined["chase"]) == ["Harvey", "Policeman", "Thug"]


def test_a_firearm_drawn_mid_fight_shoots_at_dex_plus_50_from_the_next_round(keeper):
    table = the_fight(keeper)
    assert order(keeper, keeper.track()) == ["Harvey", "Thug", "Gunman"]
    # Round 1: the gunman draws his revolver ("readied firearms may shoot at DEX + 50"): from round 2 he goes first.
    drawn = table.post(f"{table.participant('Gunman')}/ready-firearm")
    assert order(keeper, drawn["chase"]) == ["Harvey", "Thug", "Gunman"]
    before = keeper.events()
    refused(keeper, keeper.post(f"{table.participant('Gunman')}/ready-firearm", {}), 409, before, rule="Firearms and the DEX Order")
    refused(keeper, keeper.post(f"{table.participant('Thug')}/ready-firearm", {}), 409, before, rule="Firearms and the DEX Order")
    pass_turns_until(keeper, "Gunman")
    keeper.end_turn("Gunman")
    assert order(keeper, keeper.track()) == ["Gunman", "Harvey", "Thug"]


def test_under_dex_roll_initiative_a_drawn_firearm_rerolls_with_a_bonus_die_keeping_the_better(keeper):
    body = keeper.ok(keeper.http.post("/chases", json={"name": "The alley", "dice": "table", "system": "coc7e-combat"}), 201)
    keeper.chase_id, keeper.http.token = body["chase"]["chase_id"], body["keeper_token"]
    for spec in (HARVEY, GUNMAN):
        keeper.add(**spec)
    table = Table(keeper)
    # Harvey's DEX roll is Regular (50 of 60), the gunman's a failure (90 of 40).
    begun = table.post("/fight", {"initiative": "dex roll", "rolls": {"initiative": {keeper.ids["Harvey"]: [50, 0], keeper.ids["Gunman"]: [90, 0]}}})
    assert order(keeper, begun["chase"]) == ["Harvey", "Gunman"]
    # The gunman draws: his re-roll takes a bonus die (tens 70 and 0, units 5: 5, an Extreme success).
    drawn = table.post(f"{table.participant('Gunman')}/ready-firearm", {"rolls": {"initiative": [70, 0, 5]}})
    assert (drawn["rolls"][0]["bonus_dice"], drawn["outcome"]["initiative_level"]) == (1, "extreme")
    pass_turns_until(keeper, "Gunman")
    keeper.end_turn("Gunman")
    assert order(keeper, keeper.track()) == ["Gunman", "Harvey"]
    # Harvey draws too and rolls worse (a failure, 90 and 80 with 9): he keeps his Regular place.
    kept = table.post(f"{table.participant('Harvey')}/ready-firearm", {"rolls": {"initiative": [90, 80, 9]}})
    assert kept["outcome"]["initiative_level"] == "regular"


def test_every_roll_of_a_fight_has_exact_odds_in_the_roll_history(keeper):
    knife = {"name": "Knifeman", "role": "quarry", "dex": 35, "con": 50, "mov": 8, "hp": 14, "str": 80, "siz": 70, "armor": 1,
             "skills": {"Fighting (Brawl)": 60, "Dodge": 20}, "weapons": [{"weapon": "Knife, Small (switchblade, etc.)"}]}
    table = the_fight(keeper, knife)
    # Round 1: Harvey shoots the knifeman (hit locations: his jacket on the chest); the gunman
    # aims; the knifeman's Extreme switchblade strike (an impale: 4 + 4 + 1D4) is a major wound
    # (a CON roll). Round 2: Harvey's punch, dodged; the gunman's aimed shot at the prone Harvey,
    # who dives for cover (a bonus die against two penalty dice).
    table.attack("Harvey", "Knifeman", weapon=".38 or 9mm Revolver", distance_yards=5, hit_locations=["chest"],
                 rolls={"attack": [30, 0], "damage": [5], "location": [12]})
    keeper.end_turn("Thug")
    table.post(f"{table.participant('Gunman')}/aim", {"target_id": keeper.ids["Harvey"], "weapon": ".38 or 9mm Revolver"})
    table.attack("Knifeman", "Harvey", weapon="Knife, Small (switchblade, etc.)", response="dodge",
                 rolls={"attack": [0, 5], "defence": [90, 0], "damage": [3], "con": {keeper.ids["Harvey"]: [20, 0]}})
    table.attack("Harvey", "Thug", response="dodge", rolls={"attack": [40, 0], "defence": [10, 0]})
    keeper.end_turn("Thug")
    table.attack("Gunman", "Harvey", weapon=".38 or 9mm Revolver", distance_yards=10, response="dive for cover",
                 rolls={"defence": [20, 0], "attack": [20, 30, 0], "damage": [4]})
    rolls = keeper.rolls()
    assert len(rolls) >= 10
    # Each roll's odds are exact fractions, its observed outcome among them.
    for row in rolls:
        assert row["odds"] is not None, row
        assert row["odds"]["observed"] in row["odds"]["outcomes"], row
        assert all("/" in chance["exact"] for chance in row["odds"]["outcomes"].values())
    # The fight's export, with its dives, aims and hit locations, verifies offline.
    keeper.ok(keeper.post("/end", {"outcome": "lost"}))
    report = verify(json.loads(json.dumps(keeper.ok(keeper.http.get(f"/chases/{keeper.chase_id}/export")))))
    assert report.events == len(keeper.events()) and report.rolls == report.table_rolls == len(rolls)


def test_escaping_close_combat_takes_the_action_unless_held_or_cornered(keeper):
    table = the_fight(keeper)
    # The thug holds Harvey (a maneuver: Build 1 against Harvey's 1; 20 against his failed dodge).
    pass_turns_until(keeper, "Thug")
    table.attack("Thug", "Harvey", method="maneuver", goal="hold", response="dodge", rolls={"attack": [20, 0], "defence": [90, 0]})
    # "A character can use their action to flee melee combat ..., providing they have an escape
    # route and are not physically restrained": held, Harvey cannot; nothing recorded.
    pass_turns_until(keeper, "Harvey")
    before = keeper.events()
    refused(keeper, keeper.post(f"{table.participant('Harvey')}/flee", {}), 409, before, rule="Escaping Close Combat")
    keeper.end_turn("Harvey")
    # The thug, cornered in the Keeper's word, cannot; with a way out he flees and leaves the
    # order, letting go of Harvey.
    before = keeper.events()
    refused(keeper, keeper.post(f"{table.participant('Thug')}/flee", {"escape_route": False}), 409, before, rule="Escaping Close Combat")
    fled = table.post(f"{table.participant('Thug')}/flee")
    assert table.who(fled["chase"], "Thug")["status"] == "escaped" and fled["chase"]["whose_turn"] == keeper.ids["Gunman"]
    assert table.who(fled["chase"], "Harvey")["held_by"] is None
    keeper.end_turn("Gunman")
    assert order(keeper, keeper.track()) == ["Harvey", "Gunman"]
