"""Helpers of test_golden_history.py: a golden database opened with today's code, the comparison
of what it shows with what was saved, and the new commands sent to its old chases."""
from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from infrastructure import cli
from tests.e2e.record_helpers import as_stored  # the view as stored: what the API adds for a client taken out


def differences(saved: Any, now: Any, where: str = "") -> list[str]:
    """Where ``now`` fails to contain ``saved``: every saved field present and equal, recursively
    (objects may have gained fields; lists keep their length and order; values their type)."""
    if isinstance(saved, dict):
        if not isinstance(now, dict):
            return [f"{where or '.'}: an object was saved, now {now!r}"]
        return [d for key, value in saved.items()
                for d in (differences(value, now[key], f"{where}.{key}") if key in now else [f"{where}.{key}: missing"])]
    if isinstance(saved, list):
        if not isinstance(now, list) or len(now) != len(saved):
            return [f"{where or '.'}: a list of {len(saved)} was saved, now {now!r:.200}"]
        return [d for i, (a, b) in enumerate(zip(saved, now)) for d in differences(a, b, f"{where}[{i}]")]
    if type(saved) is not type(now) or saved != now:
        return [f"{where or '.'}: {saved!r} was saved, now {now!r}"]
    return []


# What a view works out under today's rules rather than reads from the record (advice such as the
# difficulties a participant would face next) may change when a rule is corrected: each such
# correction is named here, with the fixtures written before it and the fields it changes. What the
# record says (events, rolls, positions, outcomes) never gets an entry.
RULE_FIXES = (
    (
        {"v3"},
        re.compile(r"\.participants\.[^.]+\.may_move\.[a-z]+\.options\[\d+\]\.difficulty$"),
        "d6-movement.txt \"Fatigue\": the fatigue modifier is added to fast movement only (commit 14f0c8e, "
        "after v3 was written); a fatigued D6 participant's next climb, leap or swim is advised without it",
    ),
)


def assert_contains(saved: Any, now: Any, what: str, fixture: str = "") -> None:
    found = [d for d in differences(saved, now)
             if not any(fixture in fixtures and path.search(d.split(": ", 1)[0]) for fixtures, path, _ in RULE_FIXES)]
    assert not found, f"{what} differs from what was saved:\n" + "\n".join(found[:30])


def job_as_shown_today(saved: dict[str, Any]) -> dict[str, Any]:
    """A job as saved, as the API shows it since issue 18: its stored moments (epoch seconds,
    unchanged in the database) as RFC 3339 UTC; saved fixtures showed the numbers themselves."""
    shown = dict(saved)
    for name in ("created_at", "updated_at"):
        if isinstance(shown.get(name), (int, float)):
            shown[name] = datetime.fromtimestamp(shown[name], timezone.utc).isoformat()
    return shown


@dataclass
class Golden:
    """Today's code (the application and its HTTP API) on a copy of a golden database."""

    ledger: Any
    client: Any
    expected: dict[str, Any]
    workdir: Path
    exports: list[Path] = field(default_factory=list)
    fixture: str = ""  # its folder's name: "v1", "v2", ...

    @property
    def chases(self) -> dict[str, dict[str, Any]]:
        return self.expected["chases"]

    def request(self, method: str, chase_id: str, path: str, body: dict[str, Any] | None = None, status: int = 200,
                *, player: str | None = None, headers: dict[str, str] | None = None) -> dict[str, Any]:
        """A request with the chase's Keeper token (or a player's, by label) kept in the fixture."""
        saved = self.chases[chase_id]
        token = saved["players"][player] if player else saved["keeper_token"]
        response = self.client.open(f"/chases/{chase_id}{path}", method=method, json=body,
                                    headers={"Authorization": f"Bearer {token}", **(headers or {})})
        assert response.status_code == status, (saved["play"], method, path, response.status_code, response.get_json())
        return response.get_json()

    def get(self, chase_id: str, path: str) -> dict[str, Any]:
        return self.request("GET", chase_id, path)

    def post(self, chase_id: str, path: str, body: dict[str, Any] | None = None, status: int = 200, **kw: Any) -> dict[str, Any]:
        return self.request("POST", chase_id, path, body or {}, status, **kw)

    def assert_shows(self, chase_id: str, saved: dict[str, Any]) -> None:
        """The chase's views, roll history, log and time travel contain what was saved."""
        play = saved["play"]
        assert_contains(saved["track"], as_stored(self.get(chase_id, "/track")["chase"]), f"{play}: the track view", self.fixture)
        assert_contains(saved["vehicles"], self.get(chase_id, "/vehicles"), f"{play}: the vehicle-build view")
        assert_contains(saved["rolls"], self.get(chase_id, "/rolls")["rolls"], f"{play}: the roll history")
        assert_contains(saved["events"], self.get(chase_id, "/events?limit=10000")["events"], f"{play}: the events")
        for version, views in saved["time_travel"].items():
            assert_contains(views["track"], as_stored(self.get(chase_id, f"/track?version={version}")["chase"]), f"{play}: the track at {version}", self.fixture)
            assert_contains(views["vehicles"], self.get(chase_id, f"/vehicles?version={version}"), f"{play}: the vehicles at {version}")
            assert_contains(views["rolls"], self.get(chase_id, f"/rolls?version={version}")["rolls"], f"{play}: the rolls at {version}")

    def verify(self, export: dict[str, Any], head: str, capsys: Any) -> tuple[int, str]:
        """`chase verify FILE --head HEAD` in this process: its exit code and what it printed."""
        path = self.workdir / f"export-{len(self.exports)}.json"
        self.exports.append(path)
        path.write_text(json.dumps(export))
        capsys.readouterr()
        code = cli.main(["verify", str(path), "--head", head])
        captured = capsys.readouterr()
        return code, captured.out + captured.err


def new_commands(golden: Golden, chase_id: str, saved: dict[str, Any]) -> None:
    """Commands of today's code on an old chase: an undo (of its end, if it ended: that commits a
    fresh seed), an undo request answered, a roll with table dice and one with the server's dice,
    entropy from each player, and the seed revealed."""
    post = lambda path, body=None, **kw: golden.post(chase_id, path, body, **kw)  # noqa: E731
    chase = saved["track"]
    if chase["phase"] == "ended":
        chase = post("/undo", {"count": 1, "reason": "the end was called too soon"})["chase"]
        assert chase["phase"] != "ended" and chase["seed_commitment"], saved["play"]
    for request in saved["track"]["undo_requests"]:
        if request["answer"] is None:
            chase = post(f"/undo-requests/{request['request_id']}", {"accept": True})["chase"]
    if saved["system"] == "coc7e":
        post("/dice-rolls", {"expression": "1D6", "purpose": "a new roll on an old chase", "table_dice": [4]})
        post("/dice-rolls", {"expression": "1D6", "purpose": "a new server roll", "dice": "server"})
    elif saved["system"] == "d6":
        post("/d6/skill-rolls", {"code": "2D", "purpose": "a new roll on an old chase", "table_dice": [3, 2]})
        post("/d6/skill-rolls", {"code": "2D", "purpose": "a new server roll", "dice": "server"})
    else:
        roller = next(p for p in chase["participants"].values() if p["kind"] == "character")
        faces = [3, 2] if roller["wild_card"] else [3]
        trait_rolls = f"/{saved['system']}/trait-rolls"
        post(trait_rolls, {"participant_id": roller["id"], "trait_die": "d6", "purpose": "a new roll on an old chase", "table_dice": faces})
        post(trait_rolls, {"participant_id": roller["id"], "trait_die": "d6", "purpose": "a new server roll", "dice": "server"})
    post("/undo", {"count": 1, "reason": "one roll too many"})
    for player in saved["players"]:
        post("/entropy", {"entropy": f"{player}, years later"}, player=player)
    chase = post("/reveal-seed")["chase"]
    assert chase["seed_commitment"] is not None  # play goes on: a fresh seed is committed
