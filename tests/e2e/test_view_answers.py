"""A chase's track view is answered as its system's schema shows it, field for field.

The answer is the rendered view with the fields the system's view schema names, in the
schema's order (api/schemas.py SystemView): what marshmallow's dump of the view gives, beside
what the API adds for the client that asked (api/affordances.py; ``as_stored`` takes it out).
"""
from __future__ import annotations

import json
from uuid import UUID

import pytest

from api.systems.coc7e.schemas import Coc7eView
from api.systems.d6.schemas import D6View
from api.systems.savage_worlds.schemas import SavageView
from tests.conftest import BearerClient
from tests.e2e.record_helpers import as_stored
from tests.e2e.test_bad_input import FARMER, HARVEY

SCHEMAS = {"coc7e": Coc7eView, "swade": SavageView, "swd": SavageView, "d6": D6View}


def dump(schema, stored):
    """The stored view as the schema dumps it; its count of actions as stored (the schema's
    ``actions`` are what the API lists for the client, which the stored view does not hold)."""
    return {**schema().dump({**stored, "actions": []}), "actions": stored["actions"]}


@pytest.mark.parametrize("system", sorted(SCHEMAS))
def test_a_new_chase_is_answered_as_its_schema_dumps_its_view(client, ledger, system):
    # A chase of each system is created.
    response = client.post("/chases", json={"name": f"A {system} chase", "system": system})
    assert response.status_code == 201
    answered = response.get_json()["chase"]

    # What it answered is the stored view as the system's schema dumps it, in the same order.
    stored = ledger.track(UUID(answered["chase_id"]))
    assert json.dumps(as_stored(answered)) == json.dumps(dump(SCHEMAS[system], stored))


def test_a_command_and_a_read_answer_the_coc7e_view_as_its_schema_dumps_it(client, ledger):
    # A Call of Cthulhu chase with Harvey and the farmer on it.
    created = client.post("/chases", json={"name": "Harvey and the farmer"}).get_json()
    http = BearerClient(client)
    http.token = created["keeper_token"]
    url = f"/chases/{created['chase']['chase_id']}"
    http.post(url + "/participants", json=HARVEY)
    answered = http.post(url + "/participants", json=FARMER).get_json()["chase"]

    # The command's answer, and a read after it, are the view as the schema dumps it.
    dumped = dump(Coc7eView, ledger.track(UUID(answered["chase_id"])))
    assert json.dumps(as_stored(answered)) == json.dumps(dumped)
    assert json.dumps(as_stored(http.get(url + "/track").get_json()["chase"])) == json.dumps(dumped)
    assert len(answered["participants"]) == 2
