"""Hostile input at the edge (issue 12): every value bounded and checked before anything runs.

Text with a NUL or a lone surrogate, numbers no store can hold, bodies too large or not JSON,
query positions past the stores' integers: each is a problem document naming the field or
header, and the chase's log is exactly as it was. tests/integration runs these on PostgreSQL,
where a NUL once broke the chase's views.
"""
from __future__ import annotations

import io

import pytest

from tests.e2e.test_bad_input import HARVEY, PROBLEM, refused

TOO_BIG = "9223372036854775808"  # 2**63: one past what SQLite INTEGER and PostgreSQL BIGINT hold


@pytest.fixture
def chase(keeper):
    """A chase with Harvey on it; table dice."""
    keeper.create("Harvey and the angry farmer", dice="table")
    keeper.add(**HARVEY)
    return keeper


def raw(keeper, path: str, body: str, content_type: str = "application/json"):
    """A body sent as written (json= would refuse to encode what a hostile client sends)."""
    return keeper.http.post(f"/chases/{keeper.chase_id}{path}", data=body, headers={"Content-Type": content_type})


# -- Text ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path, body, field",
    [
        ("/participants", '{"name": "Har\\u0000vey", "role": "quarry", "dex": 55, "con": 60, "mov": 6}', "name"),
        ("/participants", '{"name": "Har\\udc80vey", "role": "quarry", "dex": 55, "con": 60, "mov": 6}', "name"),
        ("/participants", '{"name": "Harvey2", "role": "quarry", "dex": 55, "con": 60, "mov": 6, "skills": {"Dodge\\u0000": 40}}', "skills"),
        ("/entropy", '{"entropy": "lucky\\u0000seven"}', "entropy"),
        ("/entropy", '{"entropy": "\\ud800"}', "entropy"),
        ("/end", '{"outcome": "escaped", "note": "\\u0000"}', "note"),
    ],
    ids=["NUL in a name", "lone surrogate in a name", "NUL in a skill's name", "NUL in entropy", "lone surrogate in entropy", "NUL in a note"],
)
def test_text_with_a_nul_or_a_lone_surrogate_is_refused_naming_its_field(chase, path, body, field):
    before = chase.events()

    # When a command's text holds a character no store can keep
    response = raw(chase, path, body)

    # Then it is refused, naming the field, and nothing is recorded
    problem = refused(chase, response, 422, before, field=field)
    assert "NUL" in problem["errors"][0]["message"] or "surrogate" in problem["errors"][0]["message"]


@pytest.mark.parametrize("name", ["\\u0000", "Harvey\\udc80"], ids=["NUL", "lone surrogate"])
def test_a_chase_named_with_a_nul_or_a_lone_surrogate_is_refused_without_a_token(client, name):
    # When anyone (no token is needed to create a chase) names a chase so
    response = client.post("/chases", data='{"name": "%s"}' % name, headers={"Content-Type": "application/json"})

    # Then it is refused, naming the field
    assert response.status_code == 422 and response.mimetype == PROBLEM
    assert [e["field"] for e in response.get_json()["errors"]] == ["name"]


def test_text_longer_than_any_field_holds_is_refused(chase):
    before = chase.events()

    response = chase.post("/entropy", {"entropy": "7" * 201})

    refused(chase, response, 422, before, field="entropy")


# -- Numbers -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "number",
    ["1" * 100_000, TOO_BIG, "-" + TOO_BIG + "1", "NaN", "Infinity", "-Infinity", "1e400"],
    ids=["100,000 digits", "2**63", "below -2**63", "NaN", "Infinity", "-Infinity", "overflowing float"],
)
def test_a_number_no_store_can_hold_is_refused_naming_its_field(chase, number):
    before = chase.events()

    # When a participant's DEX is a number beyond every store (or not a number at all)
    response = raw(chase, "/participants", '{"name": "Farmer", "role": "pursuer", "dex": %s, "con": 55, "mov": 7}' % number)

    # Then the refusal names dex, and nothing is recorded
    refused(chase, response, 422, before, field="dex")


def test_a_huge_number_deep_in_a_body_is_named_by_its_path(chase):
    before = chase.events()

    response = raw(chase, "/participants", '{"name": "Farmer", "role": "pursuer", "dex": 50, "con": 55, "mov": 7, "skills": {"Dodge": %s}}' % ("9" * 5000))

    problem = refused(chase, response, 422, before, field="skills")
    assert any(e["field"] == "skills.Dodge" for e in problem["errors"]), problem["errors"]


# -- Query and path ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    ["/events?after=%s" % TOO_BIG, "/track?version=%s" % TOO_BIG, "/rolls?round=%s" % TOO_BIG, "/stream?after=%s" % TOO_BIG, "/events?limit=" + "9" * 20000],
    ids=["events after", "track version", "rolls round", "stream after", "a limit of 20,000 digits"],
)
def test_a_query_position_beyond_the_stores_is_refused(chase, path):
    before = chase.events()

    response = chase.http.get(f"/chases/{chase.chase_id}{path}")

    field = path.split("?")[1].split("=")[0]
    refused(chase, response, 422, before, field=field)


def test_a_replays_frames_after_beyond_the_stores_is_refused(chase):
    job = chase.ok(chase.post("/replays"), 202)["job"]

    response = chase.http.get(f"/chases/{chase.chase_id}/replays/{job['job_id']}/frames?after={TOO_BIG}")

    assert response.status_code == 422 and response.mimetype == PROBLEM
    assert [e["field"] for e in response.get_json()["errors"]] == ["after"]


@pytest.mark.parametrize(
    "path, field",
    [("/rolls?purpose=%00", "purpose"), ("/jobs/job%00one", "job_id")],
    ids=["NUL in a query", "NUL in a path"],
)
def test_a_nul_in_the_query_or_the_path_is_refused_naming_it(chase, path, field):
    before = chase.events()

    response = chase.http.get(f"/chases/{chase.chase_id}{path}")

    refused(chase, response, 422, before, field=field)


@pytest.mark.parametrize("last_event_id", ["\u00b2", "\u00b9\u00b2", "-1", "1e3"], ids=["superscript two", "superscript digits", "negative", "exponent"])
def test_a_last_event_id_that_is_not_an_event_id_is_refused_naming_the_header(chase, last_event_id):
    before = chase.events()

    # When a stream is opened with a Last-Event-ID that only looks like digits
    response = chase.http.get(f"/chases/{chase.chase_id}/stream", headers={"Last-Event-ID": last_event_id})

    # Then it is a 422 naming the header, not a 500
    refused(chase, response, 422, before, field="headers.Last-Event-ID")


# -- Bodies --------------------------------------------------------------------------------


def test_a_body_over_the_limit_is_refused_before_it_is_read(chase):
    before = chase.events()

    # When a 10 MB body is sent
    response = raw(chase, "/entropy", '{"entropy": "%s"}' % ("7" * 10_000_000))

    # Then it is answered 413 naming Content-Length, and nothing is recorded
    problem = refused(chase, response, 413, before, field="Content-Length", kind="body-too-large")
    assert problem["max_bytes"] == 256 * 1024


def test_a_body_sent_in_chunks_past_the_limit_is_refused_once_the_limit_is_read(chase):
    before = chase.events()
    body = b'{"entropy": "' + b"7" * 400_000 + b'"}'

    # When a body with no length (chunked, as gunicorn passes it on) runs past the limit
    response = chase.http.post(
        f"/chases/{chase.chase_id}/entropy", input_stream=io.BytesIO(body),
        headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True},  # the server ends the stream, as gunicorn does
    )

    # Then it is 413 (not a truncated body refused as malformed JSON), and nothing is recorded
    refused(chase, response, 413, before, field="Content-Length", kind="body-too-large")


def test_a_command_sent_as_text_is_refused_not_run_with_its_defaults(chase):
    # Given three actions to undo
    chase.post("/participants", {**HARVEY, "name": "Farmer", "role": "pursuer"})
    chase.post("/participants", {**HARVEY, "name": "Dog", "role": "pursuer"})
    before = chase.events()

    # When the Keeper's undo of 3 is sent as text/plain
    response = raw(chase, "/undo", '{"count": 3}', content_type="text/plain")

    # Then it is refused 415 naming Content-Type (not read as an empty body: an undo of 1)
    problem = refused(chase, response, 415, before, field="Content-Type", kind="unsupported-media-type")
    assert response.headers["Accept-Post"] == "application/json"
    assert "text/plain" in problem["detail"]


def test_a_command_without_a_body_needs_no_content_type(chase):
    response = chase.http.post(f"/chases/{chase.chase_id}/replays")

    assert response.status_code == 202


def test_a_method_not_allowed_names_the_allowed_ones(chase):
    before = chase.events()

    response = chase.http.client.put(f"/chases/{chase.chase_id}/undo", headers={"Authorization": f"Bearer {chase.keeper_token}"})

    refused(chase, response, 405, before, field="method")
    assert set(response.headers["Allow"].split(", ")) >= {"POST"}


def test_the_openapi_document_lists_the_edges_answers(client):
    spec = client.get("/openapi.json").get_json()

    # A command documents 413, 415 and 429; a read 429 only
    undo = spec["paths"]["/chases/{chase_id}/undo"]["post"]["responses"]
    track = spec["paths"]["/chases/{chase_id}/track"]["get"]["responses"]
    assert {"413", "415", "429"} <= set(undo) and "429" in track and "413" not in track
    # ... with the headers a client reads: Retry-After on the 429, the RateLimit headers on every answer
    assert "Retry-After" in spec["components"]["responses"]["Problem429"]["headers"]
    assert "RateLimit-Remaining" in spec["paths"]["/chases/{chase_id}/undo"]["post"]["responses"]["200"]["headers"]
