"""Bad input over HTTP: every refusal is a problem document that names what was wrong, and the
refused command leaves the chase's event log exactly as it was. Never a 500.

RFC 9457 problem details (README "HTTP in ten lines"): 422 names every bad field in
``errors[].field``, 409 names the rule broken in ``rule``, 404 an unknown chase or participant.
"""
from __future__ import annotations

import json
from typing import Any
from uuid import uuid4

import pytest

PROBLEM = "application/problem+json"
HARVEY = {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6}
FARMER = {"name": "Farmer", "role": "pursuer", "dex": 50, "con": 55, "mov": 7}


def without(spec: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in spec.items() if k != key}


def refused(keeper, response, status: int, log_before: list[dict[str, Any]], *, field: str | None = None,
            rule: str | None = None, kind: str | None = None) -> dict[str, Any]:
    """The response is a problem document of ``status`` and nothing was recorded."""
    body = response.get_json()
    assert response.status_code == status, body
    assert response.mimetype == PROBLEM
    assert body["status"] == status and body["title"] and body["detail"]
    if field is not None:
        named = [e["field"] for e in body["errors"]]
        assert any(f == field or f.startswith(field + ".") for f in named), named
    if rule is not None:
        assert rule in body["rule"], body["rule"]
    if kind is not None:
        assert body["type"] == f"/problems/{kind}"
    assert keeper.events() == log_before
    return body


@pytest.fixture
def setup(keeper):
    """Harvey and the angry farmer, before the speed rolls; table dice."""
    keeper.create("Harvey and the angry farmer", dice="table")
    keeper.add(**HARVEY)
    keeper.add(**FARMER)
    return keeper


@pytest.fixture
def running(setup):
    """Cut to the chase: Harvey (MOV 5, DEX 55) two ahead of the farmer (MOV 6); Harvey's turn."""
    setup.speed_roll("Harvey", [70, 2])
    setup.speed_roll("Farmer", [80, 0])
    chase = setup.cut()
    assert chase["whose_turn"] == setup.ids["Harvey"]
    return setup


def harvey(keeper, action: str) -> str:
    return f"/participants/{keeper.ids['Harvey']}/{action}"


def farmer(keeper, action: str) -> str:
    return f"/participants/{keeper.ids['Farmer']}/{action}"


# -- Describing a participant ------------------------------------------------------------------


@pytest.mark.parametrize(
    "body, field",
    [
        (without(HARVEY, "name"), "name"),
        (without(HARVEY, "mov"), "mov"),
        (without(HARVEY, "role"), "role"),
        (without(HARVEY, "dex"), "dex"),  # a character on foot needs DEX for the order of movement
        (without(HARVEY, "con"), "con"),  # ... and CON for the speed roll
        ({**HARVEY, "name": "   "}, "name"),
    ],
    ids=["no name", "no mov", "no role", "no dex", "no con on foot", "blank name"],
)
def test_a_participant_with_a_missing_field_is_refused(setup, body, field):
    before = setup.events()

    response = setup.post("/participants", body)

    refused(setup, response, 422, before, field=field)


@pytest.mark.parametrize(
    "body, field",
    [
        ({**HARVEY, "mov": "7"}, "mov"),
        ({**HARVEY, "dex": True}, "dex"),
        ({**HARVEY, "mov": 6.5}, "mov"),
        ({**HARVEY, "skills": ["Dodge", 40]}, "skills"),
        ({**HARVEY, "skills": {"Dodge": "40"}}, "skills"),
        ({**HARVEY, "role": "bystander"}, "role"),
        ({**HARVEY, "kind": "ghost"}, "kind"),
    ],
    ids=["mov as text", "dex as boolean", "fractional mov", "skills as list", "skill as text", "unknown role", "unknown kind"],
)
def test_a_participant_with_a_wrongly_typed_field_is_refused(setup, body, field):
    before = setup.events()

    response = setup.post("/participants", body)

    refused(setup, response, 422, before, field=field)


@pytest.mark.parametrize(
    "body, field",
    [
        ({**HARVEY, "mov": -1}, "mov"),
        ({**HARVEY, "mov": 0}, "mov"),
        ({**HARVEY, "mov": 1000}, "mov"),
        ({**HARVEY, "dex": 0}, "dex"),
        ({**HARVEY, "con": 10**9}, "con"),
        ({**HARVEY, "skills": {"Dodge": 500}}, "skills"),
        ({**HARVEY, "skills": {"Dodge": -5}}, "skills"),
        ({**HARVEY, "hp": 0}, "hp"),
    ],
    ids=["mov -1", "mov 0", "mov 1000", "dex 0", "con a billion", "skill 500", "negative skill", "hp 0"],
)
def test_a_participant_with_an_absurd_value_is_refused(setup, body, field):
    before = setup.events()

    response = setup.post("/participants", body)

    refused(setup, response, 422, before, field=field)


def test_an_unknown_extra_field_is_named(setup):
    before = setup.events()

    response = setup.post("/participants", {**HARVEY, "charisma": 80})

    refused(setup, response, 422, before, field="charisma")


def test_riding_in_something_that_is_not_a_vehicle_is_refused(setup):
    before = setup.events()

    response = setup.post("/participants", {"name": "Stowaway", "dex": 50, "mov": 7, "vehicle_id": setup.ids["Farmer"]})

    refused(setup, response, 422, before, field="vehicle_id")


def test_a_seat_without_a_vehicle_is_refused(setup):
    before = setup.events()

    response = setup.post("/participants", {**HARVEY, "name": "Amy", "seat": "driver"})

    refused(setup, response, 422, before, field="vehicle_id")


# -- Unknown chases and participants -------------------------------------------------------------


@pytest.mark.parametrize(
    "method, path",
    [
        ("get", "/track"),
        ("get", "/events"),
        ("get", "/rolls"),
        ("post", "/participants"),
        ("post", "/cut-to-the-chase"),
        ("post", "/end"),
    ],
)
@pytest.mark.parametrize("chase_id", ["unknown", "not-a-uuid", "12345"])
def test_an_unknown_or_malformed_chase_id_is_404(keeper, method, path, chase_id):
    chase_id = str(uuid4()) if chase_id == "unknown" else chase_id
    body = {"outcome": "caught"} if path == "/end" else HARVEY if path == "/participants" else {}

    response = getattr(keeper.http, method)(f"/chases/{chase_id}{path}", **({"json": body} if method == "post" else {}))

    assert response.status_code == 404 and response.mimetype == PROBLEM
    assert response.get_json()["status"] == 404
    # Nothing was created under that id.
    assert keeper.http.get(f"/chases/{chase_id}/events").status_code == 404


@pytest.mark.parametrize(
    "phase, path, body",
    [
        ("setup", "/participants/NOBODY/speed-roll", {"table_dice": [40, 0]}),
        ("setup", "/participants/NOBODY/move", {"locations": 1}),
        ("running", "/participants/NOBODY/move", {"locations": 1}),
        ("running", "/participants/NOBODY/end-turn", {}),
        ("running", "/participants/NOBODY/delay", {}),
        ("running", "/skill-rolls", {"skill": "Dodge", "participant_id": "NOBODY", "table_dice": [40, 0]}),
        ("running", "/dice-rolls", {"expression": "1D3+DB", "participant_id": "NOBODY", "table_dice": [2]}),
    ],
)
def test_an_unknown_participant_is_404(request, phase, path, body):
    keeper = request.getfixturevalue(phase)
    nobody = str(uuid4())
    body = json.loads(json.dumps(body).replace("NOBODY", nobody))
    before = keeper.events()

    response = keeper.post(path.replace("NOBODY", nobody), body)

    problem = refused(keeper, response, 404, before, kind="not-found")
    assert nobody in problem["detail"]


def test_an_unknown_participant_cannot_choose_to_stay(setup):
    setup.speed_roll("Harvey", [70, 2])
    setup.speed_roll("Farmer", [80, 0])
    before = setup.events()

    response = setup.post("/cut-to-the-chase", {"staying": [str(uuid4())]})

    refused(setup, response, 404, before)
    assert setup.track()["phase"] == "setup"


def test_delaying_until_after_an_unknown_participant_is_404(running):
    before = running.events()

    response = running.post(harvey(running, "delay"), {"until_after": str(uuid4())})

    refused(running, response, 404, before)


# -- Table dice --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "faces",
    [[5, 2], [70, 10], [75, 2], [-10, 2], [100, 0], [70], [70, 2, 3]],
    ids=["tens 5", "units 10", "tens 75", "negative tens", "tens 100", "one face", "three faces"],
)
def test_speed_roll_faces_that_do_not_fit_a_percentile_roll_are_refused(setup, faces):
    before = setup.events()

    response = setup.post(harvey(setup, "speed-roll"), {"table_dice": faces})

    refused(setup, response, 422, before, field="table_dice")


@pytest.mark.parametrize(
    "expression, faces",
    [("1D6", [7]), ("1D6", [0]), ("2D6", [3]), ("1D3", [1, 2]), ("1D10+1D4+2", [10, 5])],
    ids=["d6 face 7", "d6 face 0", "one face for two dice", "two faces for one die", "d4 face 5"],
)
def test_dice_roll_faces_that_do_not_fit_the_expression_are_refused(setup, expression, faces):
    before = setup.events()

    response = setup.post("/dice-rolls", {"expression": expression, "table_dice": faces})

    refused(setup, response, 422, before, field="table_dice")


def test_a_bonus_die_needs_its_own_tens_face(setup):
    before = setup.events()

    response = setup.post("/skill-rolls", {"skill": "Stealth", "target": 50, "bonus_dice": 1, "table_dice": [20, 3]})

    refused(setup, response, 422, before, field="table_dice")


@pytest.mark.parametrize(
    "body",
    [{"table_dice": [True, 2]}, {"table_dice": [70.0, 2]}, {"table_dice": "72"}, {"table_dice": []}, {"table_dice": [None, 2]}],
    ids=["boolean face", "fractional face", "faces as text", "no faces", "null face"],
)
def test_faces_of_the_wrong_type_are_refused(setup, body):
    before = setup.events()

    response = setup.post(harvey(setup, "speed-roll"), body)

    refused(setup, response, 422, before, field="table_dice")


@pytest.mark.parametrize(
    "path, body",
    [
        ("speed-roll", {}),
        ("/skill-rolls", {"skill": "Luck", "target": 50}),
        ("/dice-rolls", {"expression": "1D3"}),
    ],
)
def test_a_table_dice_chase_needs_the_faces_rolled(setup, path, body):
    before = setup.events()

    response = setup.post(harvey(setup, path) if not path.startswith("/") else path, body)

    refused(setup, response, 422, before, field="table_dice")


def test_faces_entered_for_a_roll_asked_of_the_server_dice_are_refused(setup):
    before = setup.events()

    response = setup.post(harvey(setup, "speed-roll"), {"table_dice": [70, 2], "dice": "server"})

    refused(setup, response, 422, before, field="table_dice")


# -- Rules broken (409) --------------------------------------------------------------------------


def test_a_second_speed_roll_is_refused(setup):
    setup.speed_roll("Harvey", [70, 2])
    before = setup.events()

    response = setup.post(harvey(setup, "speed-roll"), {"table_dice": [10, 2]})

    refused(setup, response, 409, before, rule="Speed Roll", kind="rule-broken")
    assert setup.track()["participants"][setup.ids["Harvey"]]["speed_mov"] == 5


def test_cutting_to_the_chase_before_every_speed_roll_is_refused(setup):
    setup.speed_roll("Harvey", [70, 2])
    before = setup.events()

    response = setup.post("/cut-to-the-chase", {"opening_range": 2})

    problem = refused(setup, response, 409, before, rule="Speed Roll")
    assert "Farmer" in problem["detail"]
    assert setup.track()["phase"] == "setup"


@pytest.mark.parametrize("opening_range", [3, 0, -1, "2", 1.5, None])
def test_an_opening_range_other_than_one_or_two_is_refused(setup, opening_range):
    setup.speed_roll("Harvey", [70, 2])
    setup.speed_roll("Farmer", [80, 0])
    before = setup.events()

    response = setup.post("/cut-to-the-chase", {"opening_range": opening_range})

    refused(setup, response, 422, before, field="opening_range")


def test_no_one_joins_after_the_cut_unless_the_table_uses_the_optional_rule(running):
    # The Keeper's table does not use the optional rule of joining a chase in progress.
    running.ok(running.http.client.put(
        f"/chases/{running.chase_id}/optional-rules", json={"optional_rules": []}, headers={"Authorization": f"Bearer {running.keeper_token}"}))
    before = running.events()

    response = running.post("/participants", {"name": "Constable", "role": "pursuer", "dex": 60, "con": 60, "mov": 8})

    refused(running, response, 409, before, rule="Characters Joining a Chase in Progress")


def test_cutting_to_the_chase_twice_is_refused(running):
    before = running.events()

    response = running.post("/cut-to-the-chase", {})

    refused(running, response, 409, before, rule="Cut to the chase")


@pytest.mark.parametrize("action, body", [("move", {"locations": 1}), ("end-turn", {}), ("delay", {})])
def test_acting_out_of_turn_is_refused(running, action, body):
    # Harvey (DEX 55) moves before the farmer (DEX 50).
    before = running.events()

    response = running.post(farmer(running, action), body)

    problem = refused(running, response, 409, before, rule="Dexterity and the Order of Movement")
    assert "Harvey" in problem["detail"]


def test_acting_before_the_cut_is_refused(setup):
    before = setup.events()

    response = setup.post(harvey(setup, "move"), {"locations": 1})

    refused(setup, response, 409, before, rule="Cut to the chase")


def test_moving_further_than_the_movement_actions_allow_is_refused(running):
    # Harvey has one movement action: two locations is one too many.
    before = running.events()
    response = running.post(harvey(running, "move"), {"locations": 2})
    refused(running, response, 409, before, rule="Movement Actions")

    # The farmer spends one of his two and then asks for two more locations.
    running.move("Harvey", 1)
    running.move("Farmer", 1)
    before = running.events()
    response = running.post(farmer(running, "move"), {"locations": 2})
    problem = refused(running, response, 409, before, rule="Movement Actions")
    assert "1 movement action" in problem["detail"]
    assert running.track()["participants"][running.ids["Farmer"]]["location"] == 1


@pytest.mark.parametrize("locations", [0, -1, 101, "1", True, 1.5])
def test_an_impossible_number_of_locations_is_refused(running, locations):
    before = running.events()

    response = running.post(harvey(running, "move"), {"locations": locations})

    refused(running, response, 422, before, field="locations")


@pytest.mark.parametrize(
    "path, body",
    [
        ("move", {"locations": 1}),
        ("end-turn", {}),
        ("delay", {}),
        ("speed-roll", {"table_dice": [40, 0]}),
        ("/cut-to-the-chase", {}),
        ("/participants", {"name": "Constable", "role": "pursuer", "dex": 60, "con": 60, "mov": 8}),
        ("/skill-rolls", {"skill": "Luck", "target": 50, "table_dice": [40, 0]}),
        ("/dice-rolls", {"expression": "1D3", "table_dice": [2]}),
        ("/end", {"outcome": "escaped"}),
    ],
)
def test_nothing_is_recorded_after_the_chase_has_ended(running, path, body):
    running.ok(running.post("/end", {"outcome": "caught", "note": "the farmer has Harvey by the collar"}))
    before = running.events()

    response = running.post(harvey(running, path) if not path.startswith("/") else path, body)

    refused(running, response, 409, before, kind="rule-broken")


# -- Optimistic concurrency ----------------------------------------------------------------------


def test_a_command_sent_with_a_stale_version_is_refused(setup):
    # Two front-ends read the chase at the same version.
    etag = setup.http.get(f"/chases/{setup.chase_id}/track").headers["ETag"]
    first = setup.post(harvey(setup, "speed-roll"), {"table_dice": [70, 2]}, headers={"If-Match": etag})
    assert first.status_code == 200
    before = setup.events()

    # The second acts on what it read: the chase has moved on.
    response = setup.post(farmer(setup, "speed-roll"), {"table_dice": [80, 0]}, headers={"If-Match": etag})

    # RFC 9110 13.1.1: the If-Match it sent failed, so the answer is 412, naming the header.
    problem = refused(setup, response, 412, before, kind="precondition-failed")
    assert problem["errors"][0]["field"] == "If-Match"
    assert problem["current_version"] == first.get_json()["chase"]["version"]
    assert f'"{problem["current_version"]}-compact"' == first.headers["ETag"]  # the default form's tag of that version


@pytest.mark.parametrize(
    "tag",
    [
        pytest.param('"abc"', id="quoted text"),
        pytest.param('"-1"', id="negative"),
        pytest.param('"\u00b2"', id="superscript two"),
    ],
)
def test_an_if_match_that_names_no_version_of_the_chase_is_refused(setup, tag):
    before = setup.events()

    response = setup.post(harvey(setup, "speed-roll"), {"table_dice": [70, 2]}, headers={"If-Match": tag})

    refused(setup, response, 412, before, kind="precondition-failed")


# -- Malformed and unexpected bodies -------------------------------------------------------------


@pytest.mark.parametrize("raw", ['{"name": "Harvey", ', "{'name': 'Harvey'}", "name=Harvey", '{"mov": 6,}'])
def test_a_malformed_json_body_is_a_problem_not_a_crash(setup, raw):
    before = setup.events()

    response = setup.http.post(f"/chases/{setup.chase_id}/participants", data=raw, content_type="application/json")

    assert 400 <= response.status_code < 500
    refused(setup, response, response.status_code, before)


@pytest.mark.parametrize("raw", ["[]", '"Harvey"', "6", "null"])
def test_a_json_body_that_is_not_an_object_is_refused(setup, raw):
    before = setup.events()

    response = setup.http.post(f"/chases/{setup.chase_id}/participants", data=raw, content_type="application/json")

    assert 400 <= response.status_code < 500
    refused(setup, response, response.status_code, before)


def test_a_deeply_nested_json_body_is_a_problem_not_a_crash(setup):
    before = setup.events()

    response = setup.http.post(f"/chases/{setup.chase_id}/participants", data="[" * 100_000 + "]" * 100_000,
                               content_type="application/json")

    assert 400 <= response.status_code < 500
    refused(setup, response, response.status_code, before)


@pytest.mark.parametrize(
    "body, field",
    [({}, "name"), ({"name": "   "}, "name"), ({"name": "A chase", "dice": "loaded"}, "dice"), ({"name": 7}, "name")],
)
def test_a_chase_needs_a_name_and_known_dice(keeper, body, field):
    response = keeper.http.post("/chases", json=body)

    assert response.status_code == 422 and response.mimetype == PROBLEM
    assert field in [e["field"] for e in response.get_json()["errors"]]


@pytest.mark.parametrize(
    "path, body, field",
    [
        ("move", {"locations": 1, "sprint": True}, "sprint"),
        ("end-turn", {"reason": "tired"}, "reason"),
        ("delay", {"until": "the farmer"}, "until"),
    ],
)
def test_an_unknown_field_in_a_command_is_named(running, path, body, field):
    before = running.events()

    response = running.post(harvey(running, path), body)

    refused(running, response, 422, before, field=field)


# -- The Keeper's rolls --------------------------------------------------------------------------


def test_a_skill_roll_needs_a_target_or_a_participant(setup):
    before = setup.events()

    response = setup.post("/skill-rolls", {"skill": "Luck", "table_dice": [40, 0]})

    refused(setup, response, 422, before, field="target")


@pytest.mark.parametrize(
    "body, field",
    [
        ({"bonus_dice": 3}, "bonus_dice"),
        ({"penalty_dice": 3}, "penalty_dice"),
        ({"bonus_dice": -1}, "bonus_dice"),
        ({"target": 1000}, "target"),
        ({"target": -1}, "target"),
        ({"difficulty": "impossible"}, "difficulty"),
        ({"skill": ""}, "skill"),
    ],
)
def test_a_skill_roll_with_impossible_parameters_is_refused(setup, body, field):
    before = setup.events()

    response = setup.post("/skill-rolls", {"skill": "Stealth", "target": 50, "table_dice": [40, 0], **body})

    refused(setup, response, 422, before, field=field)


def test_a_skill_the_participant_does_not_have_needs_a_target(setup):
    before = setup.events()

    response = setup.post("/skill-rolls", {"skill": "Pilot", "participant_id": setup.ids["Harvey"], "table_dice": [40, 0]})

    refused(setup, response, 422, before, field="skill")


@pytest.mark.parametrize("expression", ["2D", "D", "1D0", "1D1", "1D6+", "hello", "1D6 2", "0D6", "101D6", "1D6*2"])
def test_a_dice_expression_that_cannot_be_read_is_refused(setup, expression):
    before = setup.events()

    response = setup.post("/dice-rolls", {"expression": expression, "table_dice": [1]})

    refused(setup, response, 422, before, field="expression")


def test_db_without_a_roller_is_refused(setup):
    before = setup.events()

    response = setup.post("/dice-rolls", {"expression": "1D3+DB", "table_dice": [2]})

    refused(setup, response, 422, before, field="expression")


# -- Never a 500 -----------------------------------------------------------------------------------

JUNK = [
    None, [], "text", 0, True, {"": 1},
    {"table_dice": "72"}, {"table_dice": [None]}, {"table_dice": [70.5, 2]}, {"table_dice": [10**40, 2]},
    {"dice": "loaded"}, {"entropy": "x" * 1000}, {"entered_by": ""},
    {"locations": 1.5}, {"locations": 10**40}, {"until_after": 7}, {"until_after": ""},
    {"outcome": None}, {"note": ["x"]}, {"skill": None}, {"expression": 7}, {"expression": "9" * 200},
    {"participant_id": ["x"]}, {"staying": "everyone"}, {"staying": [None]}, {"opening_range": 10**40},
    {"name": "x" * 1000}, {"mov": 10**40}, {"skills": {"": 40}}, {"damage_bonus": "lots"},
]
COMMANDS = [
    "/participants", "speed-roll", "/cut-to-the-chase", "move", "delay", "end-turn", "/end", "/skill-rolls", "/dice-rolls",
]


@pytest.mark.parametrize("path", COMMANDS)
@pytest.mark.parametrize("phase", ["setup", "running"])
def test_junk_bodies_are_refused_as_problems_never_as_server_errors(request, phase, path):
    keeper = request.getfixturevalue(phase)
    url = f"/chases/{keeper.chase_id}" + (path if path.startswith("/") else harvey(keeper, path))
    before = keeper.events()

    answers = {}
    for junk in JUNK:
        response = keeper.http.post(url, data=json.dumps(junk), content_type="application/json")
        answers[json.dumps(junk)[:40]] = (response.status_code, response.mimetype)

    assert {k: v for k, v in answers.items() if not (400 <= v[0] < 500 and v[1] == PROBLEM)} == {}
    assert keeper.events() == before


@pytest.mark.parametrize(
    "query",
    [
        "/events?after=-1",
        "/events?limit=0",
        "/events?after=many",
        "/rolls?round=first",
        "/rolls?source=loaded",
        pytest.param(
            "/events?after=100000000000000000000",
        ),
        pytest.param(
            "/rolls?round=100000000000000000000",
        ),
    ],
)
def test_a_bad_query_is_a_problem_naming_the_parameter(setup, query):
    response = setup.http.get(f"/chases/{setup.chase_id}{query}")

    assert response.status_code == 422 and response.mimetype == PROBLEM
    name = query.split("?")[1].split("=")[0]
    assert name in [e["field"] for e in response.get_json()["errors"]]
