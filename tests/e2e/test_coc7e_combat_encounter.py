"""A fight without a chase, over HTTP with table dice (coc7e-combat.txt "Dexterity and the Order of
Attack", "Actions in a Combat Round", "Firearms and the DEX Order", "Rolling for Initiative").

`POST /chases {"system": "coc7e-combat"}` makes an encounter: combatants, combat rounds in DEX
order, and the chase's attacks, fire, wounds, record, odds and verification.
"""
from __future__ import annotations

import json

from infrastructure.systems import verify
from tests.e2e.coc7e_table import Table, refused

HARVEY = {"name": "Harvey", "dex": 60, "con": 60, "mov": 9, "hp": 15, "str": 60, "siz": 60,
          "skills": {"Fighting (Brawl)": 50, "Dodge": 30}}
THUG = {"name": "Thug", "role": "quarry", "dex": 60, "con": 50, "mov": 8, "hp": 12, "str": 65, "siz": 60,
        "skills": {"Fighting (Brawl)": 40, "Dodge": 25}}
GUNMAN = {"name": "Gunman", "role": "quarry", "dex": 40, "con": 50, "mov": 8, "hp": 11, "str": 50, "siz": 60,
          "skills": {"Fighting (Brawl)": 25, "Firearms (Handgun)": 45, "Dodge": 20},
          "weapons": [{"weapon": ".38 or 9mm Revolver", "loaded": 6}]}


def the_fight(keeper, *others: dict) -> Table:
    """Harvey, a thug and a gunman (and ``others``) in a speakeasy's back room, the Keeper's dice at the table."""
    body = keeper.ok(keeper.http.post("/chases", json={"name": "The back room", "dice": "table", "system": "coc7e-combat"}), 201)
    keeper.chase_id, keeper.http.token = body["chase"]["chase_id"], body["keeper_token"]
    for spec in (HARVEY, THUG, GUNMAN, *others):
        keeper.add(**spec)
    return Table(keeper)


def order(keeper, chase) -> list[str]:
    names = {pid: name for name, pid in keeper.ids.items()}
    return [names[pid] for pid in chase["turn_order"]]


def test_a_whole_fight_in_dex_order_with_a_readied_gun_a_delay_and_the_record_of_a_chase(keeper):
    table = the_fight(keeper)

    # The Keeper begins the fight; the gunman's revolver is readied: DEX 40 + 50 shoots first.
    # Harvey and the thug both have DEX 60: the higher combat skill (Harvey's 50) goes first.
    begun = table.post("/fight", {"readied": [keeper.ids["Gunman"]]})
    assert order(keeper, begun["chase"]) == ["Gunman", "Harvey", "Thug"]
    assert begun["chase"]["round"] == 1 and begun["chase"]["whose_turn"] == keeper.ids["Gunman"]

    # A fight has no track to run along: moving is a chase's command.
    before = keeper.events()
    refused(keeper, keeper.post(f"/participants/{keeper.ids['Harvey']}/move", {"locations": 1}), 409, before)

    # The gunman shoots Harvey at 5 yards: 20 is a Regular success (Firearms 45), 1D10 rolls 4.
    shot = table.attack("Gunman", "Harvey", weapon=".38 or 9mm Revolver", distance_yards=5, rolls={"attack": [20, 0], "damage": [4]})
    assert shot["outcome"]["target_hit"] and table.who(shot["chase"], "Harvey")["hp_left"] == 11
    # One action a round: his turn is over, Harvey's has come.
    assert shot["chase"]["whose_turn"] == keeper.ids["Harvey"]

    # Harvey holds his action until the thug has acted.
    held = keeper.ok(keeper.post(f"/participants/{keeper.ids['Harvey']}/delay", {"until_after": keeper.ids["Thug"]}))["chase"]
    assert order(keeper, held)[1:] == ["Thug", "Harvey"] and held["whose_turn"] == keeper.ids["Thug"]

    # The thug swings (50: a failure against Fighting 40); Harvey dodges (20).
    swing = table.attack("Thug", "Harvey", response="dodge", rolls={"attack": [50, 0], "defence": [20, 0]})
    assert swing["outcome"]["winner"] == "defender" and swing["chase"]["whose_turn"] == keeper.ids["Harvey"]

    # Harvey punches the thug (25), who fights back and fails (70); 1D3 rolls 3. The round ends.
    punch = table.attack("Harvey", "Thug", response="fight back", rolls={"attack": [20, 5], "defence": [70, 0], "damage": [3]})
    assert punch["outcome"]["winner"] == "attacker" and table.who(punch["chase"], "Thug")["hp_left"] == 9
    assert punch["chase"]["round"] == 2 and order(keeper, punch["chase"]) == ["Gunman", "Harvey", "Thug"]

    # The record of a chase: undo takes the punch back, redo restores it with its dice.
    undone = keeper.ok(keeper.post("/undo", {"count": 1}))["chase"]
    assert undone["round"] == 1 and table.who(undone, "Thug")["hp_left"] == 12
    redone = keeper.ok(keeper.post("/redo"))["chase"]
    assert redone["round"] == 2 and table.who(redone, "Thug")["hp_left"] == 9

    # Every roll has its exact odds in the roll history: the gunman hits on 01-45; 20 was Hard.
    rolls = keeper.rolls()
    first = next(r for r in rolls if r["roll"]["purpose"].startswith("firearm"))
    assert first["odds"]["success"] == 0.45 and first["odds"]["observed"] == "hard"

    # The Keeper ends the fight in its own words; the export verifies offline.
    ended = keeper.ok(keeper.post("/end", {"outcome": "won", "note": "the gunman fled"}))["chase"]
    assert ended["phase"] == "ended" and ended["outcome"] == "won"
    export = keeper.ok(keeper.http.get(f"/chases/{keeper.chase_id}/export"))
    report = verify(json.loads(json.dumps(export)))
    assert report.events == len(keeper.events()) and report.rolls == report.table_rolls == 7


def test_the_optional_initiative_dex_rolls_order_the_fight_a_critical_gains_a_bonus_die_a_fumble_forgoes_the_first_attack(keeper):
    table = the_fight(keeper)

    # DEX rolls: Harvey a Regular success (55 of 60), the thug a critical (01), the gunman,
    # readied, rolls with a bonus die: 90 or 80 and 9 is 89 of 40... he fumbles only on 96+, so
    # his tens dice 90 and 90 with a 9 keep 99: a fumble.
    begun = table.post("/fight", {"initiative": "dex roll", "readied": [keeper.ids["Gunman"]], "rolls": {"initiative": {
        keeper.ids["Harvey"]: [50, 5], keeper.ids["Thug"]: [0, 1], keeper.ids["Gunman"]: [90, 90, 9]}}})
    levels = begun["outcome"]["initiative_levels"]
    assert (levels[keeper.ids["Harvey"]], levels[keeper.ids["Thug"]], levels[keeper.ids["Gunman"]]) == ("regular", "critical", "fumble")
    assert [r["bonus_dice"] for r in begun["rolls"] if r["roller"] == keeper.ids["Gunman"]] == [1]
    # The critical acts first; the fumbler forgoes his first turn: round 1 has no place for him.
    assert order(keeper, begun["chase"]) == ["Thug", "Harvey"]
    # The DEX rolls are percentile rolls like any other: exact odds in the roll history.
    harveys = next(r for r in keeper.rolls() if r["roll"]["roller"] == keeper.ids["Harvey"])
    assert harveys["odds"]["success"] == 0.6 and harveys["odds"]["observed"] == "regular"

    # The thug's first attack takes the critical's bonus die: two tens dice, the lower kept (10);
    # Harvey fails to dodge (90); 1D3 + his damage bonus 1D4 roll 2 and 3.
    swing = table.attack("Thug", "Harvey", response="dodge", rolls={"attack": [70, 10, 0], "defence": [90, 0], "damage": [2, 3]})
    assert swing["rolls"][0]["bonus_dice"] == 1 and swing["rolls"][0]["result"] == 10 and swing["outcome"]["winner"] == "attacker"
    assert table.who(swing["chase"], "Harvey")["hp_left"] == 10
    # Spent: the thug's next attack, in round 2, rolls without it.

    # Round 2: the order stands for the whole fight, the gunman back in it, last (a failure).
    keeper.end_turn("Harvey")
    assert order(keeper, keeper.track()) == ["Thug", "Harvey", "Gunman"]
    again = table.attack("Thug", "Harvey", response="dodge", rolls={"attack": [70, 0], "defence": [10, 0]})
    assert again["rolls"][0]["bonus_dice"] == 0


def test_a_fight_refuses_what_it_cannot_do(keeper):
    table = the_fight(keeper)
    before = keeper.events()

    # A readied firearm needs a firearm; a bad initiative names the field; nothing is recorded.
    refused(keeper, keeper.post("/fight", {"readied": [keeper.ids["Harvey"]]}), 409, before)
    refused(keeper, keeper.post("/fight", {"initiative": "luck"}), 422, before, field="initiative")
    # A fight has no vehicles; a maneuver needs a goal (there are no chase mishaps to fall back on).
    refused(keeper, keeper.http.post(f"/chases/{keeper.chase_id}/participants", json={"name": "Car", "kind": "vehicle", "build": 5}), 422, before)
    # A combatant who can be wounded needs CON: a major wound calls for a CON roll at once.
    no_con = keeper.http.post(f"/chases/{keeper.chase_id}/participants", json={"name": "Stranger", "dex": 50, "mov": 8, "hp": 10})
    assert "Major Wound" in refused(keeper, no_con, 422, before, field="con")["detail"]
    table.post("/fight")
    before = keeper.events()
    refused(keeper, keeper.post(f"/participants/{keeper.ids['Harvey']}/attack", {"target_id": keeper.ids["Thug"], "method": "maneuver",
                                                                                 "response": "dodge"}), 422, before, field="goal")
    # A chase's fight begins only in a fight without a chase.
    keeper.create("A chase")
    refused(keeper, keeper.post("/fight"), 409, keeper.events())
