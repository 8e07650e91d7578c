"""A big chase's answers keep each participant as last shown while nothing about them changed
(issue 12 part 6, api/affordances.py): what a client reads is the same however it is written out,
and a participant's part changes as soon as what it shows does."""
from __future__ import annotations

import json

from tests.e2e.affordance_checks import expanded
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

    # Then the answer is indented and says the same, every participant with what they may do
    assert b'\n  "chase": {' in response.data
    assert json.loads(response.data) == compact
    assert all(p["allowed_actions"] and p["refused_actions"] for p in compact["chase"]["participants"].values())


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
    assert before["speed_mov"] is None and shown["speed_mov"] is not None
    assert "speed_roll" in before["allowed_actions"] and "speed_roll" not in shown["allowed_actions"]
    assert any("speed_roll" in refused["actions"] for refused in shown["refused_actions"])
    farmer = next(p for pid, p in answer["chase"]["participants"].items() if pid != harvey)
    assert "speed_roll" in farmer["allowed_actions"]


def test_a_big_chases_answers_are_those_worked_out_afresh_after_every_command(keeper, ledger):
    """Past 128 participants an answer's participants are joined in blocks kept between answers
    and sent as chunks (api/joined.py), their distances kept (api/distances.py): each answer is
    the one worked out with nothing kept, and says its length."""
    from tests.application.record.from_scratch import nothing_kept

    keeper.create("A pack of pursuers", dice="table")
    names = ["Quarry"] + [f"Pursuer {n}" for n in range(139)]
    for n, name in enumerate(names):
        keeper.add(**dict(FARMER, name=name, role="quarry" if n == 0 else "pursuer"))
    url = f"/chases/{keeper.chase_id}"

    def answered(response):
        assert response.status_code in (200, 201), response.get_json()
        assert int(response.headers["Content-Length"]) == len(response.data)
        with nothing_kept(ledger):
            afresh = keeper.http.get(f"{url}/track").get_json()["chase"]
        assert response.get_json()["chase"] == afresh
        return afresh

    answered(keeper.http.get(f"{url}/track"))
    answered(keeper.post("/dice-rolls", {"expression": "1D6", "table_dice": [3]}))
    late = keeper.post("/participants", dict(FARMER, name="Latecomer", role="pursuer"))
    assert "Latecomer" in {p["name"] for p in answered(late)["participants"].values()}
    answered(keeper.post(f"/participants/{keeper.ids['Pursuer 70']}/speed-roll", {"table_dice": [10, 5]}))
    undone = answered(keeper.post("/undo", {"count": 2}))
    assert "Latecomer" not in {p["name"] for p in undone["participants"].values()}

    # Running: every rival's distance shown, and changed by a move.
    for name in names:
        keeper.speed_roll(name, [40, 0])
    answered(keeper.post("/cut-to-the-chase", {}))
    shown = answered(keeper.http.get(f"{url}/track"))
    quarry = shown["participants"][keeper.ids["Quarry"]]
    assert len(quarry["distances"]) == 139
    moved = answered(keeper.post(f"/participants/{shown['whose_turn']}/move", {"locations": 1}))
    assert moved["participants"][keeper.ids["Quarry"]]["distances"] != quarry["distances"]
    # ... and the full form, kept apart, says of each participant what the default says.
    full = keeper.http.get(f"{url}/track", headers={"Prefer": "actions=full"}).get_json()["chase"]
    assert list(full["participants"]) == list(moved["participants"])
    assert all(expanded(moved, pid) == p["actions"] for pid, p in full["participants"].items())


def test_a_big_chases_full_answer_after_answers_without_the_view_is_the_one_worked_out_afresh(keeper, ledger):
    """Commands answered with ``Prefer: return=minimal`` work out no answer's participants: the
    next full answer steps from the last one shown over several commands at once (application/
    participant_steps.py, application/projections/rows.py), and must show the chase as it is, every
    participant in the chase's order."""
    from tests.application.record.from_scratch import nothing_kept

    keeper.create("A pack of pursuers", dice="table")
    names = ["Quarry"] + [f"Pursuer {n}" for n in range(139)]
    for n, name in enumerate(names):
        keeper.add(**dict(FARMER, name=name, role="quarry" if n == 0 else "pursuer"))
    url = f"/chases/{keeper.chase_id}"
    minimal = {"Prefer": "return=minimal"}

    def afresh() -> dict:
        with nothing_kept(ledger):
            return keeper.http.get(f"{url}/track").get_json()["chase"]

    def same(answer: dict) -> None:
        expected = afresh()
        assert answer == expected
        assert list(answer["participants"]) == list(expected["participants"])  # the chase's order, not only the same ones

    same(keeper.ok(keeper.http.get(f"{url}/track"))["chase"])
    # Two join and one makes a speed roll, answered without the view; then the view is read.
    for name in ("Latecomer", "Straggler"):
        keeper.ids[name] = keeper.ok(keeper.post("/participants", dict(FARMER, name=name, role="pursuer"), headers=minimal), 201)["participant_id"]
    keeper.ok(keeper.post(f"/participants/{keeper.ids['Pursuer 70']}/speed-roll", {"table_dice": [10, 5]}, headers=minimal))
    read = keeper.ok(keeper.http.get(f"{url}/track"))["chase"]
    assert [p["name"] for p in read["participants"].values()][-2:] == ["Latecomer", "Straggler"]
    assert "speed_roll" not in read["participants"][keeper.ids["Pursuer 70"]]["allowed_actions"]
    same(read)
    same(keeper.ok(keeper.post("/dice-rolls", {"expression": "1D6", "table_dice": [3]}))["chase"])

    # Running: those who moved, answered without the view, are shown where they now stand.
    for name in names + ["Latecomer", "Straggler"]:
        if name != "Pursuer 70":
            keeper.speed_roll(name, [40, 0])
    whose = keeper.ok(keeper.post("/cut-to-the-chase", {}, headers=minimal))["chase"]["whose_turn"]
    for _ in range(3):
        whose = keeper.ok(keeper.post(f"/participants/{whose}/move", {"locations": 1}, headers=minimal))["chase"]["whose_turn"]
    same(keeper.ok(keeper.post("/dice-rolls", {"expression": "1D6", "table_dice": [4]}))["chase"])
