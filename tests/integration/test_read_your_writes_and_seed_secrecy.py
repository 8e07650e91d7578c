"""A full chase with server dice on PostgreSQL: every answer reflects its command, in this
process and in another one, and the secret seed never leaves the seed table.

The chase is not ended: ending it is where DESIGN.md section 4 reveals the seed.
"""
from __future__ import annotations

import base64
from typing import Any
from uuid import uuid4

import pytest

from api import create_app
from domain.dice import D, commitment_of, derive_index
from tests.conftest import ChaseClient
from tests.e2e.test_harvey_and_the_farmer import FARMER, HARVEY

pytestmark = pytest.mark.postgres


class RecordingClient:
    """A Flask test client that keeps every response it got."""

    def __init__(self, ledger: Any) -> None:
        app = create_app(lambda: ledger)
        app.config["TESTING"] = True
        self.http = app.test_client()
        self.responses: list[Any] = []

    def _keep(self, response: Any) -> Any:
        self.responses.append(response)
        return response

    def get(self, *args: Any, **kw: Any) -> Any:
        return self._keep(self.http.get(*args, **kw))

    def post(self, *args: Any, **kw: Any) -> Any:
        return self._keep(self.http.post(*args, **kw))


def stored_version(pg: Any, chase_id: str) -> int:
    (version,) = pg.execute("SELECT max(originator_version) FROM chaseledger_events WHERE originator_id = %s", (chase_id,)).fetchone()
    return version


def test_a_full_server_dice_chase_reads_its_writes_and_never_shows_its_seed(ledger, ledger_factory, pg):
    keeper_http, other_http = RecordingClient(ledger), RecordingClient(ledger_factory())
    keeper = ChaseClient(keeper_http)
    other = ChaseClient(other_http)  # another API process, reading what the keeper's process wrote
    checked: list[str] = []

    def command(response: Any, status: int = 200) -> dict[str, Any]:
        """Check that a command's answer reflects it, here and in the other process."""
        body = keeper.ok(response, status)
        chase = body["chase"]
        assert response.headers["ETag"] == f'"{chase["version"]}-compact"'
        assert response.headers["X-Chase-Version"] == str(chase["version"])
        assert chase["version"] == stored_version(pg, chase["chase_id"])  # the view includes the command
        other.chase_id = chase["chase_id"]
        assert other.track() == chase
        if body["rolls"]:
            assert other.rolls()[-1]["roll"] == body["rolls"][-1] == keeper.rolls()[-1]["roll"]
        checked.append(response.request.path)
        return body

    response = keeper_http.post("/chases", json={"name": "Harvey and the angry farmer", "dice": "server"})
    # Every chase endpoint needs a token: both processes send the Keeper's (kept hashed in the
    # shared database, so the token issued through the keeper's process works in the other).
    keeper.http.token = other.http.token = response.get_json()["keeper_token"]
    created = command(response, 201)
    keeper.chase_id = chase_id = created["chase"]["chase_id"]
    for spec in (HARVEY, FARMER):
        body = command(keeper.post("/participants", spec), 201)
        keeper.ids[spec["name"]] = body["participant_id"]
        assert body["participant_id"] in body["chase"]["participants"]
    # Speed rolls with table dice (so that the chase is played out), everything else server dice.
    command(keeper.post(f"/participants/{keeper.ids['Harvey']}/speed-roll", {"table_dice": [70, 2]}))
    command(keeper.post(f"/participants/{keeper.ids['Farmer']}/speed-roll", {"table_dice": [80, 0]}))
    dodge = command(keeper.post("/skill-rolls", {"skill": "Dodge", "target": 40, "participant_id": keeper.ids["Harvey"]}))
    damage = command(keeper.post("/dice-rolls", {"expression": "1D10+1D4+2", "entropy": "the players' word"}))
    chase = command(keeper.post("/cut-to-the-chase", {"opening_range": 2}))["chase"]
    assert chase["phase"] == "running"
    command(keeper.post(f"/participants/{keeper.ids['Harvey']}/move", {"locations": 1}))
    command(keeper.post(f"/participants/{keeper.ids['Farmer']}/move", {"locations": 2}))
    command(keeper.post(f"/participants/{keeper.ids['Harvey']}/move", {"locations": 1}))
    d6 = command(keeper.post("/dice-rolls", {"expression": "1D6", "purpose": "a hazard"}))
    chase = command(keeper.post(f"/participants/{keeper.ids['Farmer']}/move", {"locations": 2}))["chase"]
    assert chase["caught_up"]

    # Conditional commands: the current ETag is accepted, a stale one refused.
    etag = keeper.http.get(f"/chases/{chase_id}").headers["ETag"]
    command(keeper.post("/dice-rolls", {"expression": "1D3"}, headers={"If-Match": etag}))
    stale = keeper.post("/dice-rolls", {"expression": "1D3"}, headers={"If-Match": etag})
    assert stale.status_code == 412 and stale.get_json()["type"] == "/problems/precondition-failed"
    # Refusals are answered too (and searched for the seed below).
    assert keeper.post(f"/participants/{keeper.ids['Harvey']}/move", {"locations": 5}).status_code in (409, 422)
    assert keeper.post("/dice-rolls", {"expression": "1D6", "table_dice": [7]}).status_code == 422
    assert keeper.http.get(f"/chases/{uuid4()}/track").status_code == 404
    # And every read.
    for client in (keeper.http, other.http):
        for path in ("", "/track", "/rolls", "/rolls?source=server", "/events", "/events?after=3"):
            assert client.get(f"/chases/{chase_id}{path}").status_code == 200
    keeper_http.get("/openapi.json")
    assert len(checked) == 14

    # The seed: kept in its table only, committed to in the first event, and every server die
    # recomputes from it (so it is the seed the rolls used).
    (seed,) = pg.execute("SELECT seed FROM chase_seeds WHERE chase_id = %s", (chase_id,)).fetchone()
    seed = bytes(seed)
    assert len(seed) >= 16
    assert created["chase"]["seed_commitment"] == commitment_of(seed)
    for body in (damage, d6):
        roll = body["rolls"][0]
        assert roll["source"]["kind"] == "server"
        entropy = roll["source"].get("entropy", "")
        faces = [d["face"] for d in roll["dice"]]
        sides = [int(d["die"][1:]) for d in roll["dice"]]
        assert faces == [D(n).face(derive_index(seed, chase_id, roll["sequence"], i, n, entropy)) for i, n in enumerate(sides)]
    assert dodge["rolls"][0]["source"]["kind"] == "server"

    secrets = {
        seed.hex().encode(),
        seed.hex().upper().encode(),
        base64.b64encode(seed),
        base64.b64encode(seed).rstrip(b"="),
        base64.urlsafe_b64encode(seed).rstrip(b"="),
        seed,
    }
    responses = keeper_http.responses + other_http.responses
    assert len(responses) > 40
    for response in responses:
        data = response.get_data()
        headers = str(response.headers).encode()
        for secret in secrets:
            assert secret not in data, f"the seed is in the answer to {response.request.method} {response.request.path}"
            assert secret not in headers, f"the seed is in the headers of {response.request.path}"
    # Nor is it in the log or the views, which exports and replays read.
    stored = [bytes(state) for (state,) in pg.execute("SELECT state FROM chaseledger_events").fetchall()]
    stored += [bytes(state) for (state,) in pg.execute("SELECT state FROM chaseledger_snapshots").fetchall()]
    stored += [doc.encode() for (doc,) in pg.execute("SELECT doc::text FROM chase_track_views").fetchall()]
    stored += [doc.encode() for (doc,) in pg.execute("SELECT doc::text FROM chase_track_rows").fetchall()]
    stored += [doc.encode() for (doc,) in pg.execute("SELECT doc::text FROM chase_roll_history").fetchall()]
    assert len(stored) > 20
    for blob in stored:
        for secret in secrets:
            assert secret not in blob
