"""HTTP as the RFCs say (issue 18, part 3), over every game system: 412 and 428 for
preconditions, 304 for If-None-Match, Cache-Control on time travel and rules data, Location on
every 201, cursor pagination with a next link, unknown query parameters refused, RFC 3339
timestamps, and one envelope for every command."""
from __future__ import annotations

from datetime import datetime
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.conftest import ChaseClient
from tests.e2e.d6_table import D6Table
from tests.e2e.record_helpers import running
from tests.e2e.savage_worlds_table import SavageTable

PROBLEM = "application/problem+json"
ENVELOPE = {"chase", "rolls", "outcome"}


def fields_of(problem: dict[str, Any]) -> list[str]:
    return [e["field"] for e in problem.get("errors", [])]


def d6_race(client: Any) -> D6Table:
    table = D6Table(client)
    table.add("Ann", "racer")
    table.add("Bob", "racer")
    table.begin(finish=100)
    return table


def swd_chase(client: Any) -> SavageTable:
    table = SavageTable(client, "swd")
    table.add(name="Hunter", role="chaser", maneuver_die="d8", spirit="d6", toughness=6, pace=6)
    table.add(name="Thief", role="quarry", maneuver_die="d6", spirit="d6", wild_card=False, toughness=5, pace=6)
    table.begin()
    return table


# -- 412 and 428 ---------------------------------------------------------------------------------


def test_a_stale_if_match_is_412_in_every_system_and_runs_nothing(client, keeper):
    # A coc7e chase, a D6 race and a Deluxe chase, each read by a front-end at one version.
    running(keeper)
    d6, swd = d6_race(client), swd_chase(client)
    stale = {
        "coc7e": (keeper.http, f"/chases/{keeper.chase_id}/dice-rolls", {"expression": "1D6", "table_dice": [3]}),
        "d6": (d6.http, d6.url("/d6/skill-rolls"), {"code": "2D", "table_dice": [3, 4]}),
        "swd": (swd.http, swd.url("/swd/trait-rolls"), {"participant_id": swd.ids["Hunter"], "trait_die": "d6", "table_dice": [3, 4]}),
    }
    for system, (http, path, body) in stale.items():
        chase_path = path.rsplit("/", 2)[0] if system != "coc7e" else f"/chases/{keeper.chase_id}"
        track = http.get(f"{chase_path}/track")
        version = track.get_json()["chase"]["version"]

        # The front-end acts on a version the chase has left behind.
        response = http.post(path, json=body, headers={"If-Match": f'"{version - 1}"'})

        # 412, naming If-Match and the chase's version now; nothing was recorded.
        assert response.status_code == 412 and response.mimetype == PROBLEM, (system, response.get_json())
        problem = response.get_json()
        assert problem["type"] == "/problems/precondition-failed" and fields_of(problem) == ["If-Match"]
        assert problem["current_version"] == version
        assert http.get(f"{chase_path}/track").get_json()["chase"]["version"] == version, system

        # Acting on the version it shows is recorded.
        assert http.post(path, json=body, headers={"If-Match": track.headers["ETag"]}).status_code == 200, system


@pytest.mark.parametrize("tag", ['W/"3"', '"three"', "3, 4"])
def test_an_if_match_that_is_no_etag_of_the_chase_is_412(keeper, tag):
    running(keeper)
    before = keeper.events()

    response = keeper.post("/dice-rolls", {"expression": "1D6", "table_dice": [3]}, headers={"If-Match": tag})

    assert response.status_code == 412 and fields_of(response.get_json()) == ["If-Match"]
    assert keeper.events() == before


def test_a_rewind_needs_if_match_428_without_it(keeper):
    # The Keeper wants the chase back as it was after the cut to the chase.
    chase = running(keeper)
    keeper.move("Harvey", 1)
    before = keeper.events()

    # Without If-Match the rewind could throw away what another client recorded meanwhile: 428.
    response = keeper.post("/rewind", {"to_version": chase["version"]})
    assert response.status_code == 428 and response.mimetype == PROBLEM
    assert response.get_json()["type"] == "/problems/precondition-required" and fields_of(response.get_json()) == ["If-Match"]
    assert keeper.events() == before

    # With the ETag of what the Keeper sees, it is done.
    etag = keeper.http.get(f"/chases/{keeper.chase_id}/track").headers["ETag"]
    rewound = keeper.post("/rewind", {"to_version": chase["version"]}, headers={"If-Match": etag})
    assert rewound.status_code == 200 and keeper.location_of(rewound.get_json()["chase"], "Harvey") == keeper.location_of(chase, "Harvey")


# -- 304 and Cache-Control -----------------------------------------------------------------------


def test_if_none_match_on_the_track_view_is_304_until_the_chase_moves(keeper):
    running(keeper)
    first = keeper.http.get(f"/chases/{keeper.chase_id}/track")
    etag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "private, no-cache"

    # Nothing happened since: 304, no body, the same ETag.
    again = keeper.http.get(f"/chases/{keeper.chase_id}/track", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == etag

    # Harvey moves: the same question gets the new view.
    keeper.move("Harvey", 1)
    moved = keeper.http.get(f"/chases/{keeper.chase_id}/track", headers={"If-None-Match": etag})
    assert moved.status_code == 200 and moved.headers["ETag"] != etag


def test_a_view_at_a_past_version_is_cached_for_good(client, keeper):
    # Time travel in coc7e and D6: a past version never changes.
    chase = running(keeper)
    keeper.move("Harvey", 1)
    d6 = d6_race(client)
    for http, path in ((keeper.http, f"/chases/{keeper.chase_id}/track"), (d6.http, d6.url("/track")), (keeper.http, f"/chases/{keeper.chase_id}/rolls")):
        past = http.get(path, query_string={"version": 2})
        assert past.status_code == 200
        assert past.headers["Cache-Control"] == "private, max-age=31536000, immutable", path
        assert "Authorization" in past.headers["Vary"]
    past = keeper.http.get(f"/chases/{keeper.chase_id}/track", query_string={"version": chase["version"]}).get_json()["chase"]
    assert past["version"] == chase["version"] and keeper.location_of(past, "Harvey") == keeper.location_of(chase, "Harvey")


@pytest.mark.parametrize("path", ["/rules/coc7e/weapons", "/rules/coc7e/vehicles", "/rules/coc7e/damage-bonus"])
def test_rules_data_is_public_cacheable_and_revalidates_with_304(client, path):
    first = client.get(path)
    assert first.status_code == 200
    assert first.headers["Cache-Control"] == "public, max-age=86400"
    etag = first.headers["ETag"]

    again = client.get(path, headers={"If-None-Match": etag})

    assert again.status_code == 304 and again.data == b""


# -- Location ------------------------------------------------------------------------------------


def test_every_201_says_where_the_new_thing_is(client, keeper):
    # A coc7e chase: created, a participant, an obstacle, a player token, an undo request,
    # a webhook and a stream ticket.
    created = keeper.http.post("/chases", json={"name": "Harvey", "dice": "table"})
    assert created.status_code == 201
    keeper.chase_id, keeper.http.token = created.get_json()["chase"]["chase_id"], created.get_json()["keeper_token"]
    assert created.headers["Location"] == f"/chases/{keeper.chase_id}/track"
    assert keeper.http.get(created.headers["Location"]).get_json()["chase"]["chase_id"] == keeper.chase_id

    added = keeper.http.post(f"/chases/{keeper.chase_id}/participants", json={"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6})
    harvey = added.get_json()["participant_id"]
    assert added.headers["Location"] == f"/chases/{keeper.chase_id}/participants/{harvey}"
    shown = keeper.http.get(added.headers["Location"])
    assert shown.status_code == 200 and shown.get_json()["participant"]["name"] == "Harvey"
    # ... at the version the command made (the participant alone: its own tag of that version)
    assert shown.headers["ETag"] == f'"{added.get_json()["chase"]["version"]}"' and added.headers["ETag"] == f'"{shown.get_json()["version"]}-compact"'
    keeper.ids["Harvey"] = harvey

    wall = keeper.post("/obstacles", {"kind": "barrier", "between": [0, 1], "name": "A wall", "skills": ["Climb"], "hit_points": 10})
    assert wall.status_code == 201, wall.get_json()
    assert wall.headers["Location"] == f"/chases/{keeper.chase_id}/obstacles/{wall.get_json()['obstacle_id']}"

    token = keeper.post("/tokens", {"participant_ids": [harvey]})
    assert token.status_code == 201 and token.headers["Location"] == f"/chases/{keeper.chase_id}/track"
    player = ChaseClient(keeper.http.client)
    player.chase_id, player.http.token = keeper.chase_id, token.get_json()["token"]
    keeper.post("/dice-rolls", {"expression": "1D6", "table_dice": [2]})
    asked = player.post("/undo-requests", {"count": 1})
    assert asked.status_code == 201
    assert asked.headers["Location"] == f"/chases/{keeper.chase_id}/undo-requests/{asked.get_json()['request_id']}"

    hook = keeper.post("/webhooks", {"url": "https://bot.example/hook"})
    assert hook.status_code == 201
    shown = keeper.http.get(hook.headers["Location"]).get_json()
    assert shown["webhook_id"] == hook.get_json()["webhook_id"] and "secret" not in shown

    ticket = keeper.post("/stream-tickets")
    assert ticket.status_code == 201 and ticket.headers["Location"] == f"/chases/{keeper.chase_id}/stream"


def test_participants_added_in_d6_and_savage_worlds_have_a_location_too(client):
    for table, path, spec in (
        (D6Table(client), "/d6/participants", {"name": "Ann", "role": "racer", "move": 10, "physique": "3D"}),
        (SavageTable(client, "swade"), "/swade/participants", {"name": "Rex", "role": "chaser", "maneuver_die": "d8", "spirit": "d6", "toughness": 6, "pace": 6}),
    ):
        added = table.http.post(table.url(path), json=spec)
        assert added.status_code == 201, added.get_json()
        shown = table.http.get(added.headers["Location"])
        assert shown.get_json()["participant_id"] == added.get_json()["participant_id"] and shown.get_json()["participant"]["name"] == spec["name"]


# -- pagination ----------------------------------------------------------------------------------


def follow(http: Any, path: str, key: str, **query: Any) -> tuple[list[dict[str, Any]], int]:
    """Every item of a list, following next from page to page: the items and the pages read."""
    items, pages, url, params = [], 0, path, query
    while url:
        response = http.get(url, query_string=params)
        assert response.status_code == 200, response.get_json()
        body = response.get_json()
        pages += 1
        items += body[key]
        # The Link header and the body name the same next page.
        if body["next"] is None:
            assert "Link" not in response.headers
        else:
            assert response.headers["Link"] == f'<{body["next"]}>; rel="next"'
        url, params = body["next"], None
    return items, pages


def test_events_and_rolls_are_read_page_by_page_following_next(keeper):
    running(keeper)
    for face in range(1, 6):
        keeper.post("/dice-rolls", {"expression": "1D6", "table_dice": [face], "purpose": "luck"})
    all_events, all_rolls = keeper.events(), keeper.rolls()

    events, pages = follow(keeper.http, f"/chases/{keeper.chase_id}/events", "events", limit=3)
    assert events == all_events and pages == -(-len(all_events) // 3)

    # Rolls page too, their filters kept from page to page.
    rolls, pages = follow(keeper.http, f"/chases/{keeper.chase_id}/rolls", "rolls", limit=2, purpose="luck")
    assert [r["roll"]["total"] for r in rolls] == [1, 2, 3, 4, 5] and pages == 3
    assert rolls == [r for r in all_rolls if r["purpose"] == "luck"]
    first = keeper.http.get(f"/chases/{keeper.chase_id}/rolls", query_string={"limit": 2, "purpose": "luck"}).get_json()["next"]
    assert parse_qs(urlsplit(first).query) == {"limit": ["2"], "purpose": ["luck"], "after": [str(rolls[1]["sequence"])]}


def test_a_page_limit_is_bounded(keeper):
    running(keeper)
    for path, limit in (("/events", 10_001), ("/rolls", 10_001), ("/jobs", 1001), ("/events", 0)):
        response = keeper.http.get(f"/chases/{keeper.chase_id}{path}", query_string={"limit": limit})
        assert response.status_code == 422 and fields_of(response.get_json()) == ["limit"], path


def test_a_chases_jobs_and_replay_frames_page_with_next(keeper):
    running(keeper)
    jobs = [keeper.ok(keeper.post(path), 202)["job"] for path in ("/replays", "/checks", "/replays")]
    done = keeper.ok(keeper.http.get(f"/chases/{keeper.chase_id}/jobs/{jobs[0]['job_id']}", query_string={"wait": 10}))["job"]
    assert done["status"] == "done"

    listed, pages = follow(keeper.http, f"/chases/{keeper.chase_id}/jobs", "jobs", limit=2)
    assert [j["job_id"] for j in listed] == [j["job_id"] for j in jobs] and pages == 2

    frames, pages = follow(keeper.http, f"/chases/{keeper.chase_id}/replays/{jobs[0]['job_id']}/frames", "frames", limit=4)
    assert [f["step"] for f in frames] == list(range(1, len(keeper.events()) + 1)) and pages > 1

    # A cursor that names no job of this chase is refused, naming it.
    bad = keeper.http.get(f"/chases/{keeper.chase_id}/jobs", query_string={"after": "no-such-job"})
    assert bad.status_code == 422 and fields_of(bad.get_json()) == ["after"]


# -- unknown query parameters --------------------------------------------------------------------


@pytest.mark.parametrize("path, query, named", [
    ("/track", {"verison": "2"}, ["verison"]),
    ("/events", {"limt": "5"}, ["limt"]),
    ("/rolls", {"page": "2", "purpose": "luck"}, ["page"]),
    ("/export", {"format": "csv"}, ["format"]),
])
def test_unknown_query_parameters_are_refused_by_name(keeper, path, query, named):
    running(keeper)

    response = keeper.http.get(f"/chases/{keeper.chase_id}{path}", query_string=query)

    assert response.status_code == 422 and response.mimetype == PROBLEM
    assert fields_of(response.get_json()) == named


def test_an_unknown_query_parameter_on_a_command_records_nothing(client):
    table = d6_race(client)
    before = table.events()

    response = table.http.post(table.url("/d6/skill-rolls"), json={"code": "2D", "table_dice": [3, 4]}, query_string={"dryrun": "true"})

    assert response.status_code == 422 and fields_of(response.get_json()) == ["dryrun"]
    assert table.events() == before


# -- timestamps ----------------------------------------------------------------------------------


def test_jobs_and_events_show_rfc3339_utc_timestamps(keeper):
    running(keeper)
    job = keeper.ok(keeper.post("/checks"), 202)["job"]
    done = keeper.ok(keeper.http.get(f"/chases/{keeper.chase_id}/jobs/{job['job_id']}", query_string={"wait": 10}))["job"]
    for moment in (job["created_at"], done["created_at"], done["updated_at"], keeper.events()[0]["recorded_at"]):
        assert isinstance(moment, str) and datetime.fromisoformat(moment).utcoffset().total_seconds() == 0, moment


# -- one envelope --------------------------------------------------------------------------------


def test_every_system_answers_a_command_in_one_envelope(client, keeper):
    # A coc7e skill roll, a D6 run and a Deluxe trait roll: the same top-level keys, every roll
    # under rolls, what was decided an object under outcome.
    running(keeper)
    coc7e = keeper.ok(keeper.post("/skill-rolls", {"skill": "Luck", "target": 45, "table_dice": [20, 5]}))
    d6 = d6_race(client)
    ran = d6.run("Ann", 20, [4, 4, 4])
    swd = swd_chase(client)
    rolled = swd.post("/swd/trait-rolls", {"participant_id": swd.ids["Hunter"], "trait_die": "d6", "table_dice": [3, 4]})

    for answer in (coc7e, ran, rolled):
        assert set(answer) == ENVELOPE, answer.keys()
        assert isinstance(answer["rolls"], list) and len(answer["rolls"]) == 1
    assert coc7e["rolls"][0]["result"] == 25 and coc7e["outcome"] is None
    assert ran["outcome"] == {"metres": 20}
    assert rolled["outcome"] == {"total": rolled["rolls"][0]["total"]}

    # A command that rolls nothing answers the same keys: no rolls, no outcome.
    moved = keeper.ok(keeper.post(f"/participants/{keeper.ids['Harvey']}/move", {"locations": 1}))
    assert set(moved) == ENVELOPE and moved["rolls"] == [] and moved["outcome"] is None

    # A job is always under "job": submitted and read.
    submitted = keeper.ok(keeper.post("/checks"), 202)
    read = keeper.ok(keeper.http.get(f"/chases/{keeper.chase_id}/jobs/{submitted['job']['job_id']}"))
    assert set(submitted) == set(read) == {"job"} and read["job"]["job_id"] == submitted["job"]["job_id"]
