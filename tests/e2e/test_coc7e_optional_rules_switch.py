"""The Keeper picks the optional rules of coc7e-chases.txt part 5 per chase, over HTTP (issue 15).

"This final part includes optional rules that can be used to embellish and further develop
chases": the table chooses them when creating the chase and may change the choice later; a
command of a rule the chase does not use is refused (409) naming the rule and citing its heading.
"""
from __future__ import annotations

from domain.rules.coc7e.optional_rules import NAMES

PROBLEM = "application/problem+json"


def create(keeper, **body):
    response = keeper.http.post("/chases", json={"name": "Harvey in Arkham", "dice": "table", **body})
    if response.status_code == 201:
        keeper.chase_id = response.get_json()["chase"]["chase_id"]
        keeper.http.token = response.get_json()["keeper_token"]
    return response


def roll_random_hazards(keeper, key="k1"):
    return keeper.post("/random-hazards", {"locations": 1, "table_dice": [20, 9]}, headers={"Idempotency-Key": key})


def test_a_chase_uses_every_optional_rule_unless_the_keeper_lists_otherwise(keeper):
    # The Keeper creates a chase without naming optional rules: the table plays them all.
    chase = keeper.ok(create(keeper), 201)["chase"]
    assert chase["optional_rules"] == list(NAMES) and chase["version"] == 1
    # ... and the random hazards table may be rolled.
    assert roll_random_hazards(keeper).status_code == 202


def test_a_rule_left_out_at_creation_is_refused_naming_it(keeper):
    # The Keeper's table plays only sudden hazards and pedal to the metal (listed in any order).
    chase = keeper.ok(create(keeper, optional_rules=["pedal_to_the_metal", "sudden_hazards"]), 201)["chase"]
    assert chase["optional_rules"] == ["sudden_hazards", "pedal_to_the_metal"]  # in the order of part 5
    before = keeper.events()
    # Rolling the random hazards table is refused: the rule is switched off.
    response = roll_random_hazards(keeper)
    problem = response.get_json()
    assert response.status_code == 409 and response.mimetype == PROBLEM
    assert "random_hazards" in problem["detail"] and problem["rule"] == 'coc7e-chases.txt "Random Hazards and Barriers"'
    assert keeper.events() == before  # nothing recorded


def test_the_keeper_switches_a_rule_off_and_undo_switches_it_back_on(keeper):
    keeper.ok(create(keeper), 201)
    # The Keeper switches random hazards off mid-way: an event on the chase.
    body = keeper.ok(keeper.http.client.put(
        f"/chases/{keeper.chase_id}/optional-rules", json={"optional_rules": [n for n in NAMES if n != "random_hazards"]},
        headers={"Authorization": f"Bearer {keeper.keeper_token}"},
    ))
    assert "random_hazards" not in body["chase"]["optional_rules"]
    changed = keeper.events()[-1]
    assert changed["type"] == "coc7e:Chase.OptionalRulesChanged" and changed["data"]["switched_off"] == ["random_hazards"]
    assert roll_random_hazards(keeper).status_code == 409
    # Undo takes the change back: the table may roll again.
    chase = keeper.ok(keeper.post("/undo", {"count": 1}))["chase"]
    assert chase["optional_rules"] == list(NAMES)
    assert roll_random_hazards(keeper).status_code == 202


def test_bad_choices_are_refused_naming_the_field(keeper):
    # An unknown name, a name given to a system without optional rules, or not a list: 422.
    for body, field in (
        ({"optional_rules": ["tires_on_fire"]}, "optional_rules.0"),
        ({"optional_rules": "monsters"}, "optional_rules"),
        ({"system": "swade", "optional_rules": ["monsters"]}, "optional_rules"),
    ):
        response = create(keeper, **body)
        assert response.status_code == 422, body
        assert [e["field"] for e in response.get_json()["errors"]] == [field]
    # The same choice again is no change: 409, nothing recorded.
    keeper.ok(create(keeper, optional_rules=["monsters"]), 201)
    put = lambda rules, token=keeper.keeper_token: keeper.http.client.put(
        f"/chases/{keeper.chase_id}/optional-rules", json={"optional_rules": rules}, headers={"Authorization": f"Bearer {token}"})
    assert put(["monsters"]).status_code == 409
    assert put(["monsters", "monsters", "fleeing_the_scene"]).status_code == 200  # repeats count once


def test_only_the_keeper_chooses_the_optional_rules(keeper):
    keeper.ok(create(keeper), 201)
    keeper.add(name="Harvey", role="quarry", dex=55, con=60, mov=6)
    player = keeper.player("Harvey")
    response = keeper.http.client.put(
        f"/chases/{keeper.chase_id}/optional-rules", json={"optional_rules": []}, headers={"Authorization": f"Bearer {player.keeper_token}"})
    assert response.status_code == 403


def test_the_optional_rules_are_listed_with_their_headings(client):
    rules = client.get("/rules/coc7e/optional-rules").get_json()["optional_rules"]
    assert [r["name"] for r in rules] == list(NAMES) and len(rules) == 15
    by_name = {r["name"]: r["source"] for r in rules}
    assert by_name["choosing_a_route"] == 'coc7e-chases.txt "Choosing a Route"'
    assert by_name["joining_and_leaving"] == 'coc7e-chases.txt "Characters Joining a Chase in Progress"'
