"""What must hold of the record once a chase has been played (issue 10 "The record must check
out"), checked through the API as a user or an operator would:

* the export verifies (domain/verification.py, what `chase verify` runs) and holds every chain
  head an answer ever showed; once the chase has ended (its last seed revealed), every server roll
  and every card dealt from a server shuffle is recomputed;
* every version renders: GET /track, /vehicles and /rolls?version=V answer 200, for every V from 1
  to the current version, each showing version V; and the track view at V (folded afresh from the
  log) is the one the command that reached V answered with (the read model, caught up);
* the check job passes: status done, no mismatches;
* the views equal a rebuild: after the operator's rebuild of every view from the log, every
  chase's track view, vehicle-build view and roll history are what they were.
"""
from __future__ import annotations

from typing import Any

from domain.verification import verify
from tests.application.record.play import Play

OPERATOR = "the operator's token"  # CHASE_LEDGER_ADMIN_TOKEN of the ledgers the machines build
VIEWS = ("track", "vehicles", "rolls")


def export_verifies(play: Play, *, ended: bool) -> None:
    export = play.get("/export")
    report = verify(export)  # raises VerificationFailed naming the first event that does not check out
    hashes = {event["hash"] for event in export["events"]}
    lost = play.heads - hashes
    assert not lost, f"chain heads shown in answers are not in the log: {sorted(lost)}"
    assert report.events == play.view["version"] == len(export["events"])
    if ended:
        play.tally.events.update(event["name"] for event in export["events"])
        assert report.server_rolls_unverifiable == 0, f"the chase ended but {report.server_rolls_unverifiable} server rolls cannot be recomputed"


def end_of_play(play: Play) -> None:
    """The Keeper ends the chase if it is still on: its seed is revealed, the whole log checkable.
    (A Savage Worlds chase that never began cannot be ended: the Keeper reveals its seed instead.)"""
    phase = play.get("/track")["chase"]["phase"]
    if phase != "ended" and play.send("end", "/end", {"outcome": "abandoned", "note": "the end of the property test"}) is None:
        assert phase == "setup" and play.system != "coc7e", f"the Keeper could not end a {play.system} chase in {phase}"
        assert play.send("reveal seed", "/reveal-seed") is not None
    play.view = play.get("/track")["chase"]
    play.heads.add(play.view["chain_head"])


def every_version_renders(play: Play) -> int:
    current = play.view["version"]
    for version in range(1, current + 1):
        for view in VIEWS:
            response = play.client.get(f"/chases/{play.chase_id}/{view}", headers=play.headers(), query_string={"version": version})
            assert response.status_code == 200, f"GET /{view}?version={version} of {current}: {response.status_code} {response.get_json()}"
            body = response.get_json()
            if view != "rolls":
                shown = body["chase"]["version"] if view == "track" else body["version"]
                assert shown == version, f"GET /{view}?version={version} shows version {shown}"
            if view == "track" and version in play.shown:
                then = play.shown[version]
                differ = sorted(k for k in set(then) | set(body["chase"]) if then.get(k) != body["chase"].get(k))
                assert not differ, f"the track view at version {version} differs from the one answered then in {differ}: {[(then.get(k), body['chase'].get(k)) for k in differ]}"
    return current


def check_job_passes(play: Play) -> None:
    response = play.client.post(f"/chases/{play.chase_id}/checks", headers=play.headers())
    assert response.status_code == 202, response.get_json()
    job = play.get(f"/jobs/{response.get_json()['job']['job_id']}", wait=10)
    assert job["status"] == "done", job
    assert job["result"]["mismatches"] == [] and job["result"]["equal"], job["result"]


def what_users_see(play: Play) -> dict[str, Any]:
    return {"track": play.get("/track")["chase"], "vehicles": play.get("/vehicles"), "rolls": play.get("/rolls")["rolls"]}


def views_equal_a_rebuild(client: Any, plays: list[Play]) -> None:
    before = [what_users_see(play) for play in plays]
    headers = {"Authorization": f"Bearer {OPERATOR}"}
    response = client.post("/admin/rebuilds", json={}, headers=headers)
    assert response.status_code == 202, response.get_json()
    job = client.get(f"/admin/jobs/{response.get_json()['job']['job_id']}", headers=headers, query_string={"wait": 10}).get_json()
    assert job["status"] == "done", job
    for play, seen in zip(plays, before):
        rebuilt = what_users_see(play)
        for name in seen:
            assert rebuilt[name] == seen[name], f"the {name} view of {play.system} chase {play.chase_id} differs after a rebuild"


def record_checks_out(client: Any, plays: list[Play]) -> None:
    """Everything above, for every chase of one ledger; the versions checked go to the tally."""
    for play in plays:
        export_verifies(play, ended=play.view["phase"] == "ended")
        end_of_play(play)
        export_verifies(play, ended=True)
        play.tally.versions += every_version_renders(play)
        check_job_passes(play)
    views_equal_a_rebuild(client, plays)
