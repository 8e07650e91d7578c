"""``Prefer: return=minimal`` (issue 12 part 6): a command answered without the whole track view.

At 1,000 participants the track view is some 420 KB; a client that keeps its own copy asks for
the chase's envelope only. The command is recorded all the same, and reads answer in full.
"""
from __future__ import annotations

from api.representation import MINIMAL_CHASE
from tests.e2e.savage_worlds_table import SavageTable
from tests.e2e.test_bad_input import FARMER, HARVEY

MINIMAL = {"Prefer": "return=minimal"}


def test_a_command_preferring_a_minimal_answer_gets_the_chase_envelope_only(keeper):
    # Given a chase with Harvey on it
    keeper.create("Harvey and the angry farmer", dice="table")
    keeper.add(**HARVEY)

    # When the Keeper adds the farmer, preferring a minimal answer
    response = keeper.post("/participants", FARMER, headers=MINIMAL)

    # Then the answer names the participant added and the chase's version, and nothing more
    body = keeper.ok(response, 201)
    assert set(body["chase"]) == set(MINIMAL_CHASE)
    assert body["chase"]["version"] == 3 and body["participant_id"]
    assert response.headers["Preference-Applied"] == "return=minimal"
    # (its own tag: the envelope is another representation of version 3 than the view)
    assert response.headers["ETag"] == '"3-minimal"' and response.headers["X-Chain-Head"] == body["chase"]["chain_head"]
    assert "Prefer" in response.headers["Vary"]
    # ... and the farmer is on the track all the same, shown in full to a read
    track = keeper.http.get(f"/chases/{keeper.chase_id}/track", headers=MINIMAL)
    assert "Preference-Applied" not in track.headers
    assert track.get_json()["chase"]["participants"][body["participant_id"]]["name"] == "Farmer"


def test_a_roll_preferring_a_minimal_answer_still_shows_the_roll(keeper):
    keeper.create("Harvey and the angry farmer", dice="table")
    keeper.add(**HARVEY)

    body = keeper.ok(keeper.post("/dice-rolls", {"expression": "1D6", "table_dice": [4]}, headers=MINIMAL))

    assert body["rolls"][0]["total"] == 4
    assert "participants" not in body["chase"] and "locations" not in body["chase"]


def test_without_the_preference_a_command_answers_with_the_whole_view(keeper):
    keeper.create("Harvey and the angry farmer", dice="table")

    response = keeper.post("/participants", HARVEY)

    assert "participants" in keeper.ok(response, 201)["chase"]
    assert "Preference-Applied" not in response.headers


def test_a_savage_worlds_command_answers_minimally_too(client):
    table = SavageTable(client, "swade")
    table.add(name="Rook", role="chaser", maneuver_die="d8")

    response = table.http.post(table.url("/swade/participants"), json={"name": "Hare", "role": "quarry", "maneuver_die": "d6"}, headers=MINIMAL)

    assert response.status_code == 201 and set(response.get_json()["chase"]) == set(MINIMAL_CHASE)
