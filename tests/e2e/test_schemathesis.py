"""schemathesis over the whole OpenAPI document, with real chases: no request is a server error.

Every operation is sent generated requests (bounded: a few examples each, no deadline), with
the path filled in with a real chase of the operation's system, its participants, a replay job
and the Keeper's token, so that generated bodies reach the rules instead of stopping at 404.
Only ``not_a_server_error`` is checked here: the other conformance checks belong to a later issue.
"""
from __future__ import annotations

import itertools
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.generation.modes import GenerationMode

from api import create_app
from infrastructure.bootstrap import build_ledger
from tests.e2e.test_bad_input import FARMER, HARVEY

ADMIN = "operator-secret"
STREAM_EXAMPLES = 3  # a chase's stream stays open for CHASE_LEDGER_STREAM_MAX_SECONDS (1 s here) each
EXAMPLES = 12  # per operation, valid and invalid requests mixed: the whole document in well under a minute


def chase_of(http: Any, system: str, participants: list[dict[str, Any]], path: str = "/participants") -> dict[str, Any]:
    """A chase of ``system`` with its participants, a replay job and an undo request on record."""
    body = http.post("/chases", json={"name": f"A {system} chase", "dice": "server", "system": system}).get_json()
    chase_id, token = body["chase"]["chase_id"], body["keeper_token"]
    auth = {"Authorization": f"Bearer {token}"}
    ids = [http.post(f"/chases/{chase_id}{path}", json=spec, headers=auth).get_json()["participant_id"] for spec in participants]
    job = http.post(f"/chases/{chase_id}/replays", headers=auth).get_json()["job"]
    return {"chase_id": chase_id, "headers": auth, "participant_ids": itertools.cycle(ids), "job_id": job["job_id"]}


def operations() -> list[tuple[str, str]]:
    """Every operation of the OpenAPI document, read once when the tests are collected."""
    spec = create_app(lambda: None).test_client().get("/openapi.json").get_json()
    return [(method.upper(), path) for path, ops in spec["paths"].items() for method in ops if method != "parameters"]


@pytest.fixture(scope="module")
def api():
    """The API on its own SQLite database, with a chase of each system and the schema to test it."""
    ledger = build_ledger({"SQLITE_DBNAME": ":memory:", "CHASE_LEDGER_ADMIN_TOKEN": ADMIN, "CHASE_LEDGER_STREAM_MAX_SECONDS": "1"})
    app = create_app(lambda: ledger)
    http = app.test_client()
    unit = {"name": "Rook", "role": "chaser", "maneuver_die": "d8"}
    chases = {
        "coc7e": chase_of(http, "coc7e", [HARVEY, FARMER]),
        "swade": chase_of(http, "swade", [unit, {**unit, "name": "Hare", "role": "quarry"}], "/swade/participants"),
        "swd": chase_of(http, "swd", [unit, {**unit, "name": "Hare", "role": "quarry"}], "/swd/participants"),
    }
    yield schemathesis.openapi.from_wsgi("/openapi.json", app), chases
    ledger.close()


def filled_in(path: str, chases: dict[str, Any], system: str | None = None) -> tuple[dict[str, Any], dict[str, str]]:
    """The path parameters and headers of a real chase of the operation's system: one of its
    participants, its replay job, its Keeper's token (the operator's, for /admin)."""
    if path.startswith("/admin"):
        return {}, {"Authorization": f"Bearer {ADMIN}"}
    system = system or next((s for s in ("swade", "swd") if f"/{s}/" in path), "coc7e")
    chase = chases[system]
    params = {"chase_id": chase["chase_id"], "system": system}
    if "{participant_id}" in path:
        params["participant_id"] = next(chase["participant_ids"])
    if "{job_id}" in path:
        params["job_id"] = chase["job_id"]
    return {k: v for k, v in params.items() if "{" + k + "}" in path}, chase["headers"]


@pytest.mark.parametrize("method, path", operations())
def test_no_generated_request_is_a_server_error(api, method, path):
    schema, chases = api
    operation = schema[path][method]
    for system in ("swade", "swd") if "{system}" in path else (None,):
        # Given a real chase of the operation's system, its participants and the Keeper's token
        params, headers = filled_in(path, chases, system)
        query = {"pace": 0} if path.endswith("/replays/{job_id}/stream") else None  # paced frames would only be slow
        cases = st.one_of(*(operation.as_strategy(mode, path_parameters=params, headers=headers, query=query) for mode in GenerationMode))

        @given(case=cases)
        @settings(max_examples=STREAM_EXAMPLES if path.endswith("}/stream") else EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True, database=None)
        def no_server_error(case):
            # When a generated request, valid or not, is sent, then the answer is never a 5xx
            case.call_and_validate(checks=[not_a_server_error])

        no_server_error()
