"""The track view's actions, each said once (api/compact_actions.py): the default form; ``Prefer:
actions=full`` lists them per participant, as clients written before this change read them.

Listed per participant, every participant repeats every command of the system with its href and
refusal: at 1,000 participants some 10 MB of answer, mostly repeated. The default says one URI
template per command and each participant's refusals grouped, and a client must be able to
rebuild exactly what the full form says from it.
"""
from __future__ import annotations

from typing import Any

from tests.e2e.affordance_checks import expanded
from tests.e2e.d6_table import D6Table
from tests.e2e.savage_worlds_table import SavageTable
from tests.e2e.test_bad_input import FARMER, HARVEY

FULL = {"Prefer": "actions=full"}
COMPACT = {"Prefer": "actions=compact"}


def harvey_and_the_farmer_cut_to(keeper: Any) -> None:
    keeper.create("Harvey and the angry farmer", dice="table")
    keeper.add(**HARVEY)
    keeper.add(**FARMER)
    keeper.speed_roll("Harvey", [70, 2])
    keeper.speed_roll("Farmer", [80, 0])
    keeper.cut(opening_range=2)


def full_track(table: Any) -> dict[str, Any]:
    """The track view with each participant's actions listed in full."""
    answer = table.http.get(f"/chases/{table.chase_id}/track", headers=FULL)
    assert answer.status_code == 200 and answer.headers["Preference-Applied"] == "actions=full", answer.get_json()
    return answer.get_json()["chase"]


def test_the_default_answer_says_exactly_what_the_full_answer_says(keeper):
    # Given Harvey and the farmer cut to the chase
    harvey_and_the_farmer_cut_to(keeper)

    # When the Keeper moves Harvey, asking for no particular form
    response = keeper.post(f"/participants/{keeper.ids['Harvey']}/move", {"locations": 1})

    # Then every participant's actions rebuilt from the answer are the full view's
    default = keeper.ok(response)["chase"]
    full = full_track(keeper)
    assert "Preference-Applied" not in response.headers and "Prefer" in response.headers["Vary"]
    for pid in full["participants"]:
        assert expanded(default, pid) == full["participants"][pid]["actions"]
        assert "actions" not in default["participants"][pid]
        assert not {"allowed_actions", "refused_actions"} & full["participants"][pid].keys()
    # ... and the rest of the view, the chase's own actions too, is the full view's
    assert default["actions"] == full["actions"] and "action_templates" not in full
    assert {pid: {k: v for k, v in p.items() if k not in ("allowed_actions", "refused_actions")} for pid, p in default["participants"].items()} \
        == {pid: {k: v for k, v in p.items() if k != "actions"} for pid, p in full["participants"].items()}


def test_a_command_asking_for_the_full_form_gets_it_under_the_tag_it_always_had(keeper):
    harvey_and_the_farmer_cut_to(keeper)

    response = keeper.post(f"/participants/{keeper.ids['Harvey']}/move", {"locations": 1}, headers=FULL)

    chase = keeper.ok(response)["chase"]
    assert response.headers["Preference-Applied"] == "actions=full" and response.headers["ETag"] == f'"{chase["version"]}"'
    assert all(p["actions"] and "allowed_actions" not in p for p in chase["participants"].values())
    assert chase["participants"] == full_track(keeper)["participants"]


def test_each_refusal_is_said_once_with_the_commands_it_refuses(keeper):
    keeper.create("Harvey and the angry farmer", dice="table")
    keeper.add(**HARVEY)

    harvey = keeper.track()["participants"][keeper.ids["Harvey"]]

    not_cut = [group for group in harvey["refused_actions"] if group["why"] == "the chase has not been cut to yet"]
    assert len(not_cut) == 1 and {"move", "end_turn", "attack"} <= set(not_cut[0]["actions"])
    assert "speed_roll" in harvey["allowed_actions"]


def test_a_player_reads_another_players_participant_mostly_as_one_refusal(keeper):
    keeper.create("Harvey and the angry farmer", dice="table")
    keeper.add(**HARVEY)
    keeper.add(**FARMER)
    player = keeper.player("Harvey")

    chase = player.track()

    farmer = chase["participants"][keeper.ids["Farmer"]]
    assert farmer["allowed_actions"] == []
    not_yours = farmer["refused_actions"][0]
    assert not_yours["why"] == "not your participant" and {"speed_roll", "move", "attack"} <= set(not_yours["actions"])
    assert expanded(chase, keeper.ids["Farmer"]) == full_track(player)["participants"][keeper.ids["Farmer"]]["actions"]


def test_a_read_of_the_track_view_says_it_varies_with_the_preference(keeper):
    keeper.create("Harvey and the angry farmer", dice="table")
    keeper.add(**HARVEY)
    url = f"/chases/{keeper.chase_id}/track"

    default, full, compact = keeper.http.get(url), keeper.http.get(url, headers=FULL), keeper.http.get(url, headers=COMPACT)

    # The same version, a different body: a tag of its own for each form (the tag each had before
    # the compact form was the default), and a cache keys on Prefer
    assert default.headers["ETag"] == '"2-compact"' and full.headers["ETag"] == '"2"'
    assert all("Prefer" in answer.headers["Vary"] for answer in (default, full, compact))
    assert "Preference-Applied" not in default.headers and full.headers["Preference-Applied"] == "actions=full"
    assert "action_templates" not in full.get_json()["chase"] and "action_templates" in default.get_json()["chase"]
    assert len(default.data) < len(full.data)
    # Asking for the compact form by name (as clients did before it was the default): the default, said applied
    assert compact.headers["Preference-Applied"] == "actions=compact" and compact.headers["ETag"] == '"2-compact"' and compact.data == default.data


def test_a_conditional_read_never_takes_one_form_for_the_other(keeper):
    keeper.create("Harvey and the angry farmer", dice="table")
    keeper.add(**HARVEY)
    url = f"/chases/{keeper.chase_id}/track"
    default, full = keeper.http.get(url), keeper.http.get(url, headers=FULL)

    # A full client holding only the default form's tag is sent the full form, not told "you have it".
    crossed = keeper.http.get(url, headers={**FULL, "If-None-Match": default.headers["ETag"]})
    assert crossed.status_code == 200 and crossed.get_data() == full.get_data()
    # ... nor is a default client holding the full form's tag.
    crossed = keeper.http.get(url, headers={"If-None-Match": full.headers["ETag"]})
    assert crossed.status_code == 200 and crossed.get_data() == default.get_data()

    # With its own tag each form is 304, naming that tag.
    kept = keeper.http.get(url, headers={**FULL, "If-None-Match": full.headers["ETag"]})
    assert kept.status_code == 304 and kept.data == b"" and kept.headers["ETag"] == full.headers["ETag"]
    assert keeper.http.get(url, headers={"If-None-Match": default.headers["ETag"]}).status_code == 304

    # Any form's tag names the version a command acts on (If-Match).
    moved = keeper.post("/dice-rolls", {"expression": "1D6", "table_dice": [3]}, headers={**FULL, "If-Match": full.headers["ETag"]})
    assert moved.status_code == 200 and moved.headers["ETag"] == '"3"'
    assert keeper.post("/dice-rolls", {"expression": "1D6", "table_dice": [3]}, headers={"If-Match": '"3-compact"'}).status_code == 200
    stale = keeper.post("/dice-rolls", {"expression": "1D6", "table_dice": [3]}, headers={"If-Match": full.headers["ETag"]})
    assert stale.status_code == 412


def test_a_client_that_kept_the_full_form_before_the_upgrade_is_sent_the_default_form(keeper):
    """Before the compact form was the default, a read with no Prefer was the full form under the
    plain version: a browser (or cache) that kept it revalidates with that tag after the upgrade.
    Told 304, it would show the full form to a client that reads the default one (no action
    buttons in the browser table)."""
    keeper.create("Harvey and the angry farmer", dice="table")
    keeper.add(**HARVEY)
    url = f"/chases/{keeper.chase_id}/track"
    version = keeper.track()["version"]

    revalidated = keeper.http.get(url, headers={"If-None-Match": f'"{version}"'})

    assert revalidated.status_code == 200 and revalidated.headers["ETag"] == f'"{version}-compact"'
    harvey = revalidated.get_json()["chase"]["participants"][keeper.ids["Harvey"]]
    assert "allowed_actions" in harvey and "actions" not in harvey
    # A client that still asks for the full form does hold it: 304.
    kept = keeper.http.get(url, headers={**FULL, "If-None-Match": f'"{version}"'})
    assert kept.status_code == 304 and kept.data == b"" and kept.headers["ETag"] == f'"{version}"'


def test_a_past_version_offers_nothing_in_either_form(keeper):
    keeper.create("Harvey and the angry farmer", dice="table")
    keeper.add(**HARVEY)
    keeper.add(**FARMER)
    url = f"/chases/{keeper.chase_id}/track"

    chase = keeper.ok(keeper.http.get(url, query_string={"version": 2}))["chase"]
    full = keeper.ok(keeper.http.get(url, query_string={"version": 2}, headers=FULL))["chase"]

    harvey = chase["participants"][keeper.ids["Harvey"]]
    assert harvey["allowed_actions"] == [] and harvey["refused_actions"] == [] and chase["actions"] == []
    assert full["participants"][keeper.ids["Harvey"]]["actions"] == []


def test_a_minimal_answer_wins_over_either_form_under_a_tag_of_its_own(keeper):
    keeper.create("Harvey and the angry farmer", dice="table")

    response = keeper.post("/participants", HARVEY, headers={"Prefer": "return=minimal, actions=full"})

    # The minimal body is another representation of version 2: not the view's tag
    assert response.headers["Preference-Applied"] == "return=minimal" and response.headers["ETag"] == '"2-minimal"'
    assert "participants" not in keeper.ok(response, 201)["chase"]
    # ... and it names the version a command acts on.
    rolled = keeper.post("/dice-rolls", {"expression": "1D6", "table_dice": [3]}, headers={"Prefer": "return=minimal", "If-Match": response.headers["ETag"]})
    assert rolled.status_code == 200 and rolled.headers["ETag"] == '"3-minimal"'


def test_d6_and_savage_worlds_templates_name_their_own_paths(client):
    d6 = D6Table(client)
    d6.add(name="Hunter", role="pursuer", move=10, position=0)
    savage = SavageTable(client, "swade")
    savage.add(name="Rook", role="chaser", maneuver_die="d8")

    for table in (d6, savage):
        pid = next(iter(table.ids.values()))
        full = table.http.get(table.url("/track"), headers=FULL).get_json()["chase"]
        assert expanded(table.track(), pid) == full["participants"][pid]["actions"]
    for table, prefix in ((d6, "/d6/participants/"), (savage, "/swade/participants/")):
        assert all(prefix + "{participant_id}" in where["href"] for where in table.track()["action_templates"].values())
