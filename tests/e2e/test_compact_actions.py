"""``Prefer: actions=compact`` (api/compact_actions.py): the track view's actions, each said once.

In full, every participant lists every command of the system with its href and refusal: at 1,000
participants some 10 MB of answer, mostly repeated. A client that asks for the compact form gets
one URI template per command and each participant's refusals grouped, and must be able to
rebuild exactly what the full form says from it.
"""
from __future__ import annotations

from typing import Any

from tests.e2e.d6_table import D6Table
from tests.e2e.savage_worlds_table import SavageTable
from tests.e2e.test_bad_input import FARMER, HARVEY

COMPACT = {"Prefer": "actions=compact"}


def expanded(chase: dict[str, Any], pid: str) -> list[dict[str, Any]]:
    """A participant's full ``actions``, as a client rebuilds them from the compact form."""
    p = chase["participants"][pid]
    refusals = {name: group for group in p["refused_actions"] for name in group["actions"]}
    out = []
    for action, where in chase["action_templates"].items():  # the full list's order
        entry = {"action": action, "method": where["method"], "href": where["href"].replace("{participant_id}", pid)}
        if action in p["allowed_actions"]:
            out.append({**entry, "allowed": True})
        elif action in refusals:
            out.append({**entry, "allowed": False, "why": refusals[action]["why"], "rule": refusals[action]["rule"]})
    return out


def harvey_and_the_farmer_cut_to(keeper: Any) -> None:
    keeper.create("Harvey and the angry farmer", dice="table")
    keeper.add(**HARVEY)
    keeper.add(**FARMER)
    keeper.speed_roll("Harvey", [70, 2])
    keeper.speed_roll("Farmer", [80, 0])
    keeper.cut(opening_range=2)


def test_the_compact_answer_says_exactly_what_the_full_answer_says(keeper):
    # Given Harvey and the farmer cut to the chase
    harvey_and_the_farmer_cut_to(keeper)

    # When the Keeper moves Harvey, preferring compact actions
    response = keeper.post(f"/participants/{keeper.ids['Harvey']}/move", {"locations": 1}, headers=COMPACT)

    # Then every participant's actions rebuilt from the compact answer are the full view's
    compact = keeper.ok(response)["chase"]
    full = keeper.track()
    assert response.headers["Preference-Applied"] == "actions=compact"
    assert "Prefer" in response.headers["Vary"]
    for pid in full["participants"]:
        assert expanded(compact, pid) == full["participants"][pid]["actions"]
        assert "actions" not in compact["participants"][pid]
    # ... and the rest of the view, the chase's own actions too, is the full view's
    assert compact["actions"] == full["actions"]
    assert {pid: {k: v for k, v in p.items() if k not in ("allowed_actions", "refused_actions")} for pid, p in compact["participants"].items()} \
        == {pid: {k: v for k, v in p.items() if k != "actions"} for pid, p in full["participants"].items()}


def test_each_refusal_is_said_once_with_the_commands_it_refuses(keeper):
    keeper.create("Harvey and the angry farmer", dice="table")
    keeper.add(**HARVEY)

    harvey = keeper.ok(keeper.http.get(f"/chases/{keeper.chase_id}/track", headers=COMPACT))["chase"]["participants"][keeper.ids["Harvey"]]

    not_cut = [group for group in harvey["refused_actions"] if group["why"] == "the chase has not been cut to yet"]
    assert len(not_cut) == 1 and {"move", "end_turn", "attack"} <= set(not_cut[0]["actions"])
    assert "speed_roll" in harvey["allowed_actions"]


def test_a_player_reads_another_players_participant_mostly_as_one_refusal(keeper):
    keeper.create("Harvey and the angry farmer", dice="table")
    keeper.add(**HARVEY)
    keeper.add(**FARMER)
    player = keeper.player("Harvey")

    chase = player.ok(player.http.get(f"/chases/{keeper.chase_id}/track", headers=COMPACT))["chase"]

    farmer = chase["participants"][keeper.ids["Farmer"]]
    assert farmer["allowed_actions"] == []
    not_yours = farmer["refused_actions"][0]
    assert not_yours["why"] == "not your participant" and {"speed_roll", "move", "attack"} <= set(not_yours["actions"])
    assert expanded(chase, keeper.ids["Farmer"]) == player.track()["participants"][keeper.ids["Farmer"]]["actions"]


def test_a_read_of_the_track_view_says_it_varies_with_the_preference(keeper):
    keeper.create("Harvey and the angry farmer", dice="table")
    keeper.add(**HARVEY)
    url = f"/chases/{keeper.chase_id}/track"

    full, compact = keeper.http.get(url), keeper.http.get(url, headers=COMPACT)

    # The same version, a different body: a tag of its own for each form, and a cache keys on Prefer
    assert full.headers["ETag"] == '"2"' and compact.headers["ETag"] == '"2-compact"'
    assert "Prefer" in full.headers["Vary"] and "Prefer" in compact.headers["Vary"]
    assert "Preference-Applied" not in full.headers and compact.headers["Preference-Applied"] == "actions=compact"
    assert "action_templates" not in full.get_json()["chase"]
    assert len(compact.data) < len(full.data)


def test_a_conditional_read_never_takes_one_form_for_the_other(keeper):
    keeper.create("Harvey and the angry farmer", dice="table")
    keeper.add(**HARVEY)
    url = f"/chases/{keeper.chase_id}/track"
    full, compact = keeper.http.get(url), keeper.http.get(url, headers=COMPACT)

    # A compact client holding only the full form's tag is sent the compact form, not told "you have it".
    crossed = keeper.http.get(url, headers={**COMPACT, "If-None-Match": full.headers["ETag"]})
    assert crossed.status_code == 200 and crossed.get_data() == compact.get_data()
    # ... nor is a full client holding the compact form's tag.
    crossed = keeper.http.get(url, headers={"If-None-Match": compact.headers["ETag"]})
    assert crossed.status_code == 200 and crossed.get_data() == full.get_data()

    # With its own tag each form is 304, naming that tag.
    kept = keeper.http.get(url, headers={**COMPACT, "If-None-Match": compact.headers["ETag"]})
    assert kept.status_code == 304 and kept.data == b"" and kept.headers["ETag"] == compact.headers["ETag"]
    assert keeper.http.get(url, headers={"If-None-Match": full.headers["ETag"]}).status_code == 304

    # The compact form's tag still names the version a command acts on (If-Match).
    moved = keeper.post("/dice-rolls", {"expression": "1D6", "table_dice": [3]}, headers={**COMPACT, "If-Match": compact.headers["ETag"]})
    assert moved.status_code == 200 and moved.headers["ETag"] == '"3-compact"'
    stale = keeper.post("/dice-rolls", {"expression": "1D6", "table_dice": [3]}, headers={"If-Match": compact.headers["ETag"]})
    assert stale.status_code == 412


def test_a_past_version_read_compactly_offers_nothing(keeper):
    keeper.create("Harvey and the angry farmer", dice="table")
    keeper.add(**HARVEY)
    keeper.add(**FARMER)

    chase = keeper.ok(keeper.http.get(f"/chases/{keeper.chase_id}/track", query_string={"version": 2}, headers=COMPACT))["chase"]

    harvey = chase["participants"][keeper.ids["Harvey"]]
    assert harvey["allowed_actions"] == [] and harvey["refused_actions"] == []


def test_a_minimal_answer_wins_over_compact_actions(keeper):
    keeper.create("Harvey and the angry farmer", dice="table")

    response = keeper.post("/participants", HARVEY, headers={"Prefer": "return=minimal, actions=compact"})

    assert response.headers["Preference-Applied"] == "return=minimal"
    assert "participants" not in keeper.ok(response, 201)["chase"]


def test_d6_and_savage_worlds_templates_name_their_own_paths(client):
    d6 = D6Table(client)
    d6.add(name="Hunter", role="pursuer", move=10, position=0)
    savage = SavageTable(client, "swade")
    savage.add(name="Rook", role="chaser", maneuver_die="d8")

    for table, prefix in ((d6, "/d6/participants/"), (savage, "/swade/participants/")):
        chase = table.http.get(table.url("/track"), headers=COMPACT).get_json()["chase"]
        pid = next(iter(table.ids.values()))
        assert all(prefix + "{participant_id}" in where["href"] for where in chase["action_templates"].values())
        assert expanded(chase, pid) == table.track()["participants"][pid]["actions"]
