"""Hold and interrupts over HTTP, with a physical deck and table dice (issue 17).

swade-chases-reference.txt "COMBAT OPTIONS & SITUATIONAL RULES", "Hold": "The character "Holds"
her Action Card to go later in the current or later round. She loses her Hold status if Shaken or
Stunned. She may interrupt foe's actions with an opposed Athletics roll." "COMBAT OPTIONS,
CONTINUED", "Surprise": "Ambushers start on Hold".
"""
from __future__ import annotations

from tests.e2e.savage_worlds_table import SavageTable

ROW = ["2S", "3H", "4D", "5C", "RJ", "6S", "7H", "8D", "9C"]


def three_runners(client) -> SavageTable:
    """Ann and Cid chase Bob; Bob acts first, then Ann, then Cid."""
    table = SavageTable(client, "swade")
    for name, role in (("Ann", "chaser"), ("Bob", "quarry"), ("Cid", "chaser")):
        table.add(name=name, role=role, maneuver_die="d8", toughness=5)
    table.begin(mode="foot", placements={"Ann": 3, "Bob": 5, "Cid": 2}, row=ROW)
    table.deal(Bob="9S", Ann="5H", Cid="3D")
    return table


def hold(table: SavageTable, name: str, status: int = 200) -> dict:
    return table.post(f"/swade/participants/{table.ids[name]}/hold", {}, status)


def act_from_hold(table: SavageTable, name: str, **body) -> dict:
    return table.post(f"/swade/participants/{table.ids[name]}/act-from-hold", body)


def whose_turn(table: SavageTable) -> str:
    unit = table.track()["whose_turn"]
    return next(n for n, i in table.ids.items() if i == unit)


def test_a_unit_on_hold_keeps_its_card_into_the_next_round_and_goes_before_an_ally_at_once(client):
    table = three_runners(client)
    table.end_turn("Bob")
    # Ann Holds her Five of Hearts instead of acting: Cid's turn comes.
    chase = hold(table, "Ann")["chase"]
    assert table.who(chase, "Ann")["on_hold"] and whose_turn(table) == "Cid"
    table.end_turn("Cid")
    # A new round: Ann, on Hold, is dealt no card and keeps hers; a card for her is refused.
    problem = table.refused("/swade/action-cards", {"cards": {table.ids[n]: c for n, c in (("Ann", "2H"), ("Bob", "4S"), ("Cid", "KD"))}}, 422)
    assert problem["errors"][0]["field"] == "cards"
    chase = table.deal(Bob="4S", Cid="KD")["chase"]
    assert [c["card"] for c in table.who(chase, "Ann")["action_cards"]] == ["5H"] and table.who(chase, "Ann")["on_hold"]
    assert whose_turn(table) == "Cid"
    # Before her ally Cid's turn she acts at once, no roll; Cid's turn waits and then resumes.
    result = act_from_hold(table, "Ann")
    assert result["outcome"]["first"] and result["rolls"] == [] and whose_turn(table) == "Ann"
    assert not table.who(result["chase"], "Ann")["on_hold"]
    table.end_turn("Ann")
    assert whose_turn(table) == "Cid" and table.names()[-1] == "TurnResumed"


def test_interrupting_a_foe_is_an_opposed_athletics_roll_and_the_winner_goes_first(client):
    table = three_runners(client)
    # Bob acts first; Ann has no card to hold yet: she Holds on her own turn in round one.
    table.end_turn("Bob")
    hold(table, "Ann")
    table.end_turn("Cid")
    table.deal(Bob="4S", Cid="KD")
    table.end_turn("Cid")
    assert whose_turn(table) == "Bob"
    # Ann interrupts Bob: Athletics 5 against Bob's 3. She wins and goes first; Bob waits.
    result = act_from_hold(table, "Ann", trait_die="d6", defender_die="d6", table_dice=[5, 2], defender_table_dice=[3, 1])
    first, second = result["rolls"]
    assert first["purpose"] == "interrupt (Hold): Athletics" and first["total"] == 5 and second["total"] == 3
    assert result["outcome"]["first"] and whose_turn(table) == "Ann"
    # Undone, Ann is on Hold again and it is Bob's turn.
    chase = table.post("/undo", {"count": 1})["chase"]
    assert table.who(chase, "Ann")["on_hold"] and whose_turn(table) == "Bob"
    # Again, Bob wins the tie (the defender wins ties): Bob goes first, Ann right after him.
    result = act_from_hold(table, "Ann", trait_die="d6", defender_die="d6", table_dice=[4, 2], defender_table_dice=[4, 1])
    assert not result["outcome"]["first"] and whose_turn(table) == "Bob"
    table.end_turn("Bob")
    assert whose_turn(table) == "Ann"


def test_shaken_loses_hold_and_a_foe_interrupted_needs_both_dice(client):
    table = three_runners(client)
    # Bob Holds; during Ann's turn he would need both Athletics dice to interrupt her.
    hold(table, "Bob")
    assert whose_turn(table) == "Ann"
    problem = table.refused(f"/swade/participants/{table.ids['Bob']}/act-from-hold", {"trait_die": "d6"}, 422)
    assert problem["errors"][0]["field"] == "defender_die"
    # Shaken, he loses his Hold status.
    chase = table.post(f"/swade/participants/{table.ids['Bob']}/conditions", {"shaken": True})["chase"]
    assert not table.who(chase, "Bob")["on_hold"]
    problem = table.refused(f"/swade/participants/{table.ids['Bob']}/act-from-hold", {}, 409)
    assert "not on Hold" in problem["detail"] and "Hold" in problem["rule"]


def test_hold_is_instead_of_acting(client):
    table = three_runners(client)
    table.act("Bob", "evade", as_action=False)
    problem = table.refused(f"/swade/participants/{table.ids['Bob']}/hold", {}, 409)
    assert "already acted" in problem["detail"]


def test_ambushers_start_on_hold(client):
    table = SavageTable(client, "swade")
    for name, role in (("Ann", "chaser"), ("Bob", "quarry"), ("Cid", "chaser")):
        table.add(name=name, role=role, maneuver_die="d8", toughness=5)
    table.begin(mode="foot", placements={"Ann": 3, "Bob": 5, "Cid": 2}, row=ROW)
    # Ann and Cid ambush Bob: they are dealt their cards and start on Hold; Bob alone acts.
    chase = table.post("/swade/action-cards", {"cards": {table.ids[n]: c for n, c in (("Ann", "5H"), ("Bob", "9S"), ("Cid", "3D"))}, "ambushers": [table.ids["Ann"], table.ids["Cid"]]})["chase"]
    assert table.who(chase, "Ann")["on_hold"] and table.who(chase, "Cid")["on_hold"] and whose_turn(table) == "Bob"
    assert "WentOnHold" in table.names()
    table.end_turn("Bob")
    problem = table.refused("/swade/action-cards", {"cards": {table.ids["Bob"]: "2C"}, "ambushers": [table.ids["Ann"]]}, 409)
    assert "first round" in problem["detail"]
