"""schemathesis over the whole OpenAPI document, with real chases: every check it has passes.

Every operation is sent generated requests (bounded: a few examples each, no deadline), with
the path filled in with a real chase of the operation's system, its participants, a replay job
and the Keeper's token, so that generated bodies reach the rules instead of stopping at 404.
Each answer goes through every check of schemathesis (no server error; status code, content
type, headers and body as documented; valid data accepted, invalid data refused; the declared
security enforced; unsupported methods refused with Allow): the document is the contract.
"""
from __future__ import annotations

import itertools
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.core.failures import Failure, FailureGroup
from schemathesis.generation.modes import GenerationMode

from api import create_app
from infrastructure.bootstrap import build_ledger
from tests.e2e.test_bad_input import FARMER, HARVEY

ADMIN = "operator-secret"
STREAM_EXAMPLES = 3  # a chase's stream stays open for CHASE_LEDGER_STREAM_MAX_SECONDS (1 s here) each
D6_PURSUER = {"name": "Ann", "role": "pursuer", "move": 10, "physique": "3D", "skills": {"running": "4D"}, "fatigue_limit": 1}
# A request valid in shape may still name what the chase does not have (a participant of
# another chase, a version not reached, a skill the participant lacks) or break a rule: that is
# a 422 naming the field, or a 409 citing the rule, never a 2xx (README "HTTP in ten lines"). A
# well-formed If-Match naming another version is a 412, and an If-None-Match naming the answer's
# tag a 304: the headers are declared, so generated requests send them.
# 429: a valid request may meet the per-address rate limit (documented on every operation); the
# module sends thousands of requests from one address within the minute.
CONFIG = schemathesis.Config.from_dict({"checks": {"positive_data_acceptance": {"expected-statuses": ["2xx", "304", "401", "403", "404", "409", "412", "422", "428", "429"]}}})
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
        "d6": chase_of(http, "d6", [D6_PURSUER, {**D6_PURSUER, "name": "Thief", "role": "quarry", "position": 20}], "/d6/participants"),
    }
    # The D6 chase is under way, so that generated moves and rolls reach the movement rules.
    assert http.post(f"/chases/{chases['d6']['chase_id']}/d6/begin", json={"finish": 200}, headers=chases["d6"]["headers"]).status_code == 200
    yield schemathesis.openapi.from_wsgi("/openapi.json", app, config=CONFIG), chases
    ledger.close()


def filled_in(path: str, chases: dict[str, Any], system: str | None = None) -> tuple[dict[str, Any], dict[str, str]]:
    """The path parameters and headers of a real chase of the operation's system: one of its
    participants, its replay job, its Keeper's token (the operator's, for /admin)."""
    if path.startswith("/admin"):
        return {}, {"Authorization": f"Bearer {ADMIN}"}
    system = system or next((s for s in ("swade", "swd", "d6") if f"/{s}/" in path), "coc7e")
    chase = chases[system]
    params = {"chase_id": chase["chase_id"], "system": system}
    if "{participant_id}" in path:
        params["participant_id"] = next(chase["participant_ids"])
    if "{job_id}" in path:
        params["job_id"] = chase["job_id"]
    return {k: v for k, v in params.items() if "{" + k + "}" in path}, chase["headers"]


@pytest.mark.parametrize("method, path", operations())
def test_every_answer_conforms_to_the_document(api, method, path):
    schema, chases = api
    operation = schema[path][method]
    for system in ("swade", "swd") if "{system}" in path else (None,):
        # Given a real chase of the operation's system, its participants and the Keeper's token
        params, headers = filled_in(path, chases, system)
        query = {"pace": 0} if path.endswith("/replays/{job_id}/stream") else None  # paced frames would only be slow
        cases = st.one_of(*(operation.as_strategy(mode, path_parameters=params, query=query) for mode in GenerationMode))

        failures: dict[str, str] = {}

        @given(case=cases)
        @settings(max_examples=STREAM_EXAMPLES if path.endswith("}/stream") else EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True, database=None)
        def conforms(case):
            # When a generated request, valid or not, is sent, then every check holds of its answer
            try:
                case.call_and_validate(headers=headers)
            except (Failure, FailureGroup) as failed:
                for failure in getattr(failed, "exceptions", (failed,)):
                    failures.setdefault(f"{failure.title}: {failure.message}"[:600], case.as_curl_command())

        conforms()
        # Then no check failed, for any request (each distinct failure is listed with a request that shows it)
        assert not failures, "\n\n".join(f"{message}\n  {curl}" for message, curl in failures.items())
