"""What must hold of the record once a chase has been played (issue 10 "The record must check
out"), checked through the API as a user or an operator would:

* the export verifies (domain/verification.py, what `chase verify` runs) and holds every chain
  head an answer ever showed; once the chase has ended (its last seed revealed), every server roll
  and every card dealt from a server shuffle is recomputed;
* every roll a command answered with is in the roll history as it was shown, and the history's
  filters pick exactly the rows they name;
* every version renders: GET /track, /vehicles and /rolls?version=V answer 200, for every V from 1
  to the current version, each showing version V; and the track view at V (folded afresh from the
  log) is the one the command that reached V answered with (the read model, caught up);
* the replay job shows, event by event, the views time travel shows at each version;
* the check job passes: status done, no mismatches;
* the views equal a rebuild: after the operator's rebuild of every view from the log, every
  chase's track view, vehicle-build view and roll history are what they were.

And as play goes on (``history_restores``, after each undo, rewind or redo): the game is what it
was at the version it restores.
"""
from __future__ import annotations

from typing import Any

from infrastructure.systems import verify
from tests.application.record.play import Play
from tests.e2e.record_helpers import RECORD_FIELDS, as_stored, live_parts_out, without

OPERATOR = "the operator's token"  # CHASE_LEDGER_ADMIN_TOKEN of the ledgers the machines build
VIEWS = ("track", "vehicles", "rolls")


def export_verifies(play: Play, *, ended: bool, last: bool = False) -> None:
    export = play.get("/export")
    report = verify(export)  # raises VerificationFailed naming the first event that does not check out
    hashes = {event["hash"] for event in export["events"]}
    lost = play.heads - hashes
    assert not lost, f"chain heads shown in answers are not in the log: {sorted(lost)}"
    assert report.events == play.view["version"] == len(export["events"])
    if last:
        play.tally.events.update(event["name"] for event in export["events"])
    if ended:
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


def rolls_stay_as_shown(play: Play) -> None:
    """Every roll a command answered with is in the roll history, recorded as it was shown; and
    the history's filters (live, and at the current version) pick exactly the rows they name."""
    rows = play.get("/rolls")["rolls"]
    history = {row["sequence"]: row["roll"] for row in rows}
    for sequence, roll in play.rolls_shown.items():
        assert history.get(sequence) == roll, f"roll {sequence} was answered as {roll} but the history has {history.get(sequence)}"
    someone = next((row["participant_id"] for row in rows if row["participant_id"]), "nobody")
    for name, value in (("source", "server"), ("source", "table"), ("undone", True), ("undone", False), ("round", 1),
                        ("participant_id", someone), ("purpose", rows[0]["purpose"] if rows else "none")):
        wanted = [row for row in rows if row[name] == value]
        query = {name: str(value).lower() if isinstance(value, bool) else value}
        assert play.get("/rolls", **query)["rolls"] == wanted, f"GET /rolls?{name}={value} is not the rows with that {name}"
        at_version = play.get("/rolls", version=play.view["version"], **query)["rolls"]
        assert at_version == wanted, f"GET /rolls?{name}={value}&version={play.view['version']} is not the rows with that {name}"


def every_version_renders(play: Play) -> dict[int, dict[str, Any]]:
    """The track and vehicle-build views at every version (time travel), checked as they come."""
    seen: dict[int, dict[str, Any]] = {}
    current = play.view["version"]
    for version in range(1, current + 1):
        for view in VIEWS:
            response = play.client.get(f"/chases/{play.chase_id}/{view}", headers=play.headers(), query_string={"version": version})
            assert response.status_code == 200, f"GET /{view}?version={version} of {current}: {response.status_code} {response.get_json()}"
            body = response.get_json()
            if view == "rolls":
                continue
            seen.setdefault(version, {})[view] = body = body["chase"] if view == "track" else body
            assert body["version"] == version, f"GET /{view}?version={version} shows version {body['version']}"
            if view == "track" and version in play.shown:
                then, body = live_parts_out(play.shown[version]), live_parts_out(body)  # a past version offers no actions
                differ = sorted(k for k in set(then) | set(body) if then.get(k) != body.get(k))
                assert not differ, f"the track view at version {version} differs from the one answered then in {differ}: {[(then.get(k), body.get(k)) for k in differ]}"
    return seen


def replay_shows_every_version(play: Play, seen: dict[int, dict[str, Any]]) -> None:
    """The replay job's frames show, event by event, the views time travel shows at that version."""
    response = play.client.post(f"/chases/{play.chase_id}/replays", headers=play.headers())
    assert response.status_code == 202, response.get_json()
    job = play.get(f"/jobs/{response.get_json()['job']['job_id']}", wait=10)["job"]
    assert job["status"] == "done", job
    frames: list[dict[str, Any]] = []
    while len(frames) < len(seen):
        page = play.get(f"/replays/{job['job_id']}/frames", after=len(frames), limit=1000)["frames"]
        assert page, f"the replay has {len(frames)} frames of {len(seen)} versions"
        frames += page
    for frame in frames:
        views = seen[frame["version"]]
        for name in views:
            # A frame is the view as stored; time travel answers it with what the API adds (api/affordances.py).
            replayed, travelled = frame["views"][name], as_stored(views[name]) if name == "track" else views[name]
            differ = sorted(k for k in set(replayed) | set(travelled) if replayed.get(k) != travelled.get(k))
            assert not differ, (f"the replay's frame {frame['step']} shows another {name} view than version {frame['version']}: "
                                f"{[(k, replayed.get(k), travelled.get(k)) for k in differ]}")


def check_job_passes(play: Play) -> None:
    response = play.client.post(f"/chases/{play.chase_id}/checks", headers=play.headers())
    assert response.status_code == 202, response.get_json()
    job = play.get(f"/jobs/{response.get_json()['job']['job_id']}", wait=10)["job"]
    assert job["status"] == "done", job
    assert job["result"]["mismatches"] == [] and job["result"]["equal"], job["result"]


def what_users_see(play: Play) -> dict[str, Any]:
    return {"track": play.get("/track")["chase"], "vehicles": play.get("/vehicles"), "rolls": play.get("/rolls")["rolls"]}


def views_equal_a_rebuild(client: Any, plays: list[Play]) -> None:
    before = [what_users_see(play) for play in plays]
    headers = {"Authorization": f"Bearer {OPERATOR}"}
    response = client.post("/admin/rebuilds", json={}, headers=headers)
    assert response.status_code == 202, response.get_json()
    job = client.get(f"/admin/jobs/{response.get_json()['job']['job_id']}", headers=headers, query_string={"wait": 10}).get_json()["job"]
    assert job["status"] == "done", job
    for play, seen in zip(plays, before):
        rebuilt = what_users_see(play)
        for name in seen:
            assert rebuilt[name] == seen[name], f"the {name} view of {play.system} chase {play.chase_id} differs after a rebuild"


# Which version's game an undo, rewind or redo brings back, read from its event (domain/recorded_chase.py).
RESTORES = {"Undone": lambda data: data["restored_version"], "Rewound": lambda data: data["to_version"],
            "Redone": lambda data: data["undo_version"] - 1}


def history_restores(play: Play, before: int) -> None:
    """After an accepted undo, rewind or redo (or an undo request accepted): the game is as it was
    at the version it restores, in the track view (but for the record's own bookkeeping,
    tests/e2e/record_helpers.py RECORD_FIELDS) and in the vehicle-build view."""
    for event in play.get("/events", after=before)["events"]:
        if event["name"] not in RESTORES:
            continue
        target = RESTORES[event["name"]](event["data"])
        then = live_parts_out(play.get("/track", version=target)["chase"])
        now = live_parts_out(play.get("/track", version=event["version"])["chase"])
        differ = sorted(k for k in set(then) | set(now) if k not in RECORD_FIELDS and then.get(k) != now.get(k))
        assert not differ, f"{event['name']} at version {event['version']} did not bring back the game of version {target}: {differ}"
        vehicles = [without(play.get("/vehicles", version=v), {"version"}) for v in (target, event["version"])]
        assert vehicles[0] == vehicles[1], f"{event['name']} at version {event['version']} did not bring back the vehicles of version {target}"


def record_checks_out(client: Any, plays: list[Play]) -> None:
    """Everything above, for every chase of one ledger; the versions checked go to the tally."""
    for play in plays:
        export_verifies(play, ended=play.view["phase"] == "ended")
        end_of_play(play)
        export_verifies(play, ended=True, last=True)
        rolls_stay_as_shown(play)
        seen = every_version_renders(play)
        replay_shows_every_version(play, seen)
        play.tally.versions += len(seen)
        check_job_passes(play)
    views_equal_a_rebuild(client, plays)
