"""A big chase's answers keep each participant as last shown while nothing about them changed
(issue 12 part 6, api/affordances.py): what a client reads is the same however it is written out,
and a participant's part changes as soon as what it shows does."""
from __future__ import annotations

import json

from tests.e2e.test_bad_input import FARMER, HARVEY


def test_an_answer_written_out_indented_shows_every_participant_as_a_compact_one(keeper, client):
    # Given a chase with two participants, read once (each participant's part kept, encoded)
    keeper.create("Harvey and the angry farmer", dice="table")
    keeper.add(**HARVEY)
    keeper.add(**FARMER)
    compact = keeper.ok(keeper.http.get(f"/chases/{keeper.chase_id}/track"))

    # When the server writes its answers out indented, as Flask does when asked to
    client.application.json.compact = False
    response = keeper.http.get(f"/chases/{keeper.chase_id}/track")

    # Then the answer is indented and says the same, every participant with their actions in full
    assert b'\n  "chase": {' in response.data
    assert json.loads(response.data) == compact
    assert all(p["actions"] for p in compact["chase"]["participants"].values())


def test_a_participant_who_changed_is_shown_as_they_now_are(keeper):
    # Given a chase read in full after each of its participants joined
    keeper.create("Harvey and the angry farmer", dice="table")
    harvey = keeper.ok(keeper.post("/participants", HARVEY), 201)["participant_id"]
    keeper.add(**FARMER)
    before = keeper.ok(keeper.http.get(f"/chases/{keeper.chase_id}/track"))["chase"]["participants"][harvey]

    # When Harvey makes his speed roll
    answer = keeper.ok(keeper.post(f"/participants/{harvey}/speed-roll", {"table_dice": [10, 5]}))

    # Then the answer shows his new speed and that he may not roll again, while the farmer still may
    shown = answer["chase"]["participants"][harvey]
    speed_roll = next(a for a in shown["actions"] if a["action"] == "speed_roll")
    assert before["speed_mov"] is None and shown["speed_mov"] is not None
    assert next(a for a in before["actions"] if a["action"] == "speed_roll")["allowed"] and not speed_roll["allowed"]
    farmer = next(p for pid, p in answer["chase"]["participants"].items() if pid != harvey)
    assert next(a for a in farmer["actions"] if a["action"] == "speed_roll")["allowed"]
