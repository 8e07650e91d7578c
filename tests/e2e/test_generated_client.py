"""A front-end developer generates a Python client from the OpenAPI document alone
(openapi-python-client, offline, into a temporary folder) and plays a chase with it: typed
answers for the track view and the rolls, and problems whose type, title, detail, field errors
and rule it can read."""
from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from api import create_app
from infrastructure.bootstrap import build_ledger

PACKAGE = "chase_ledger_client"
GENERATOR = Path(sys.executable).with_name("openapi-python-client")


@pytest.fixture(scope="module")
def app():
    ledger = build_ledger({"SQLITE_DBNAME": ":memory:"})
    yield create_app(lambda: ledger)
    ledger.close()


@pytest.fixture(scope="module")
def client_package(app, tmp_path_factory):
    """The client generated from GET /openapi.json, importable."""
    folder = tmp_path_factory.mktemp("generated")
    (folder / "openapi.json").write_text(json.dumps(app.test_client().get("/openapi.json").get_json()))
    (folder / "config.yml").write_text(f"project_name_override: {PACKAGE}\npackage_name_override: {PACKAGE}\npost_hooks: []\n")
    generated = subprocess.run(
        [str(GENERATOR), "generate", "--path", "openapi.json", "--config", "config.yml", "--meta", "none", "--output-path", PACKAGE],
        cwd=folder, capture_output=True, text=True, timeout=300,
    )
    assert generated.returncode == 0, generated.stdout + generated.stderr
    sys.path.insert(0, str(folder))
    try:
        yield lambda name: importlib.import_module(f"{PACKAGE}.{name}")
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def over_wsgi(app: Any, module: Any, token: str | None = None) -> Any:
    """The generated client, talking to the app in this process (httpx's WSGI transport)."""
    kind = module.AuthenticatedClient if token else module.Client
    client = kind(base_url="http://chase-ledger.test", **({"token": token} if token else {}))
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    client.set_httpx_client(httpx.Client(transport=httpx.WSGITransport(app=app), base_url="http://chase-ledger.test", headers=headers))
    return client


def test_a_generated_client_plays_a_chase_and_reads_problems(app, client_package):
    package = client_package("client")
    models = client_package("models")
    post_chases, get_track = client_package("api.chases.post_chases"), client_package("api.chases.get_track")
    post_participants, speed_roll = client_package("api.coc7e.post_participants"), client_package("api.coc7e.post_participants_speed_roll")
    move, get_rolls = client_package("api.coc7e.post_participants_move"), client_package("api.record.get_rolls")
    harvey_and_the_farmer = {"name": "Harvey and the farmer"}

    # Given a chase created with the generated client (a public operation: no token yet)
    created = post_chases.sync_detailed(client=over_wsgi(app, package), body=models.ChaseCreate.from_dict(harvey_and_the_farmer))
    assert created.status_code == 201
    chase = created.parsed.chase
    assert isinstance(chase, models.Coc7EView) and chase.phase == "setup"
    assert created.headers["Location"].endswith(f"/chases/{chase.chase_id}/track")
    keeper = over_wsgi(app, package, created.parsed.keeper_token)

    # When the Keeper adds Harvey and the farmer and rolls their speed with table dice
    ids = []
    for spec in ({"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6}, {"name": "Farmer", "role": "pursuer", "dex": 50, "con": 55, "mov": 7}):
        added = post_participants.sync_detailed(chase.chase_id, client=keeper, body=models.ParticipantCreate.from_dict(spec))
        assert added.status_code == 201, added.content
        ids.append(added.parsed.participant_id)
    rolled = speed_roll.sync_detailed(chase.chase_id, ids[0], client=keeper, body=models.DiceInput.from_dict({"table_dice": [70, 2]}))

    # Then the roll reads as typed fields: 72 against CON 60 is a failure, and Harvey's MOV drops to 5
    assert rolled.status_code == 200, rolled.content
    (roll,) = rolled.parsed.rolls
    assert roll.sequence == 1 and roll.source.kind == "table"
    assert isinstance(roll, models.PercentileRoll)
    assert (roll.result, roll.level, roll.target, roll.units, [die.face for die in roll.tens]) == (72, "failure", 60, 2, [70])
    harvey = rolled.parsed.chase.participants.additional_properties[ids[0]]
    assert isinstance(harvey, models.Coc7EParticipant) and harvey.speed_mov == 5 and harvey.location is None
    assert rolled.headers["ETag"] == f'"{rolled.parsed.chase.version}-compact"'

    # When the Keeper sends a move of no locations at all
    refused = move.sync_detailed(chase.chase_id, ids[0], client=keeper, body=models.Move.from_dict({"locations": 0}))

    # Then the problem's fields are there to read: its type, title, detail and the field at fault
    assert refused.status_code == 422
    problem = refused.parsed
    assert isinstance(problem, models.Problem)
    assert (problem.type_, problem.title, problem.status) == ("/problems/invalid-request", "Invalid request", 422)
    assert "locations" in problem.detail
    assert [error.field for error in problem.errors] == ["locations"]

    # When Harvey tries to move before the chase is cut to
    early = move.sync_detailed(chase.chase_id, ids[0], client=keeper, body=models.Move.from_dict({"locations": 1}))

    # Then the problem cites the rule broken, by its rules text and heading
    assert early.status_code == 409, early.content
    assert early.parsed.type_ == "/problems/rule-broken" and "coc7e-chases.txt" in early.parsed.rule

    # And the roll history reads as typed rows: the speed roll, from the table, not undone
    history = get_rolls.sync_detailed(chase.chase_id, client=keeper)
    assert history.status_code == 200
    (row,) = history.parsed.rolls
    assert (row.sequence, row.source, row.undone, row.participant_id) == (1, "table", False, ids[0])
    assert row.odds.observed == "failure"

    # And a request without a token gets a problem a client can read, not an exception
    anonymous = get_track.sync_detailed(chase.chase_id, client=over_wsgi(app, package))
    assert anonymous.status_code == 401 and anonymous.parsed.title == "Unauthenticated"


def test_a_generated_client_parses_each_systems_view_as_its_own_type(app, client_package):
    package, models = client_package("client"), client_package("models")
    post_chases = client_package("api.chases.post_chases")
    anyone = over_wsgi(app, package)

    # When a chase of each system is created with the generated client
    views = {}
    for system in ("coc7e", "swade", "swd", "d6"):
        created = post_chases.sync_detailed(client=anyone, body=models.ChaseCreate.from_dict({"name": f"A {system} chase", "system": system}))
        assert created.status_code == 201, created.content
        views[system] = created.parsed.chase

    # Then each view is parsed as its system's own type, with the fields only that system has
    assert isinstance(views["coc7e"], models.Coc7EView) and views["coc7e"].slowest_mov is None
    for system in ("swade", "swd"):
        assert isinstance(views[system], models.SavageView), type(views[system])
        assert views[system].system == system and isinstance(views[system].stage, str)
    assert isinstance(views["d6"], models.D6View), type(views["d6"])
    assert views["d6"].system == "d6" and views["d6"].course.terrain == [] and views["d6"].locations == []
