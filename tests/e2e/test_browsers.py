"""A browser app on another origin (issue 18 part 2): CORS preflights, CORS answers, and an
EventSource that opens the chase's stream with a ticket in its URL instead of the token.

The server is the ASGI host `chase serve` runs (api/asgi.py on uvicorn), with
CHASE_LEDGER_CORS_ORIGINS naming the table's web app.
"""
from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest

from application.dice import DiceChoice
from tests.e2e.test_stream import Served, SSEClient

APP = "https://table.example"


@pytest.fixture
def served(tmp_path, monkeypatch) -> Iterator[Served]:
    monkeypatch.setenv("CHASE_LEDGER_CORS_ORIGINS", f"{APP}, https://other.example")
    served = Served({"SQLITE_DBNAME": str(tmp_path / "chase.sqlite3"), "CHASE_LEDGER_STREAM_POLL": "0.2"})
    yield served
    served.close()


def call(served: Served, method: str, path: str, headers: dict[str, str], body: Any = None) -> tuple[int, dict[str, str], Any]:
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
    payload = None if body is None else json.dumps(body)
    if payload is not None:
        headers = {**headers, "Content-Type": "application/json"}
    conn.request(method, path, body=payload, headers=headers)
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, json.loads(data) if data.startswith(b"{") else data


def test_a_preflight_is_answered_before_any_token_is_asked_for(served: Served):
    chase, _ = served.ledger.start_chase("Across origins", dice="server")

    # The browser asks, without a token, whether its page may POST a participant with a token and If-Match.
    status, headers, _ = call(served, "OPTIONS", f"/chases/{chase['chase_id']}/participants", {
        "Origin": APP, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type, if-match, idempotency-key, prefer",
    })

    # It is told yes (not 401): the origin, the method and those headers are allowed.
    assert status == 200
    assert headers["access-control-allow-origin"] == APP
    assert "POST" in headers["access-control-allow-methods"]
    allowed = headers["access-control-allow-headers"].lower()
    assert all(h in allowed for h in ("authorization", "content-type", "if-match", "idempotency-key", "prefer"))
    assert "access-control-allow-credentials" not in headers  # tokens, never cookies


def test_a_page_on_an_allowed_origin_reads_the_answer_and_its_version_headers(served: Served):
    chase, token = served.ledger.start_chase("Across origins", dice="server")

    status, headers, body = call(served, "GET", f"/chases/{chase['chase_id']}", {"Origin": APP, "Authorization": f"Bearer {token}"})

    assert status == 200 and body["chase"]["chase_id"] == chase["chase_id"]
    assert headers["access-control-allow-origin"] == APP
    exposed = headers["access-control-expose-headers"]
    assert all(name in exposed for name in ("ETag", "X-Chase-Version", "X-Chain-Head", "Location", "Link"))
    # And what a retried or compact answer says of itself
    assert all(name in exposed for name in ("Preference-Applied", "Idempotent-Replayed"))
    assert "Origin" in headers["vary"]  # a shared cache keeps each origin's answer apart
    # A refusal reaches the page too, so it can show the problem rather than a network error.
    status, headers, body = call(served, "GET", f"/chases/{chase['chase_id']}", {"Origin": APP})
    assert status == 401 and headers["access-control-allow-origin"] == APP


def test_a_page_on_another_origin_is_not_let_in(served: Served):
    chase, token = served.ledger.start_chase("Across origins", dice="server")

    _, headers, _ = call(served, "OPTIONS", f"/chases/{chase['chase_id']}/participants", {"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"})
    assert "access-control-allow-origin" not in headers
    _, headers, _ = call(served, "GET", f"/chases/{chase['chase_id']}", {"Origin": "https://evil.example", "Authorization": f"Bearer {token}"})
    assert "access-control-allow-origin" not in headers


def test_an_event_source_follows_the_chase_with_a_ticket_and_never_the_token(served: Served):
    ledger = served.ledger
    chase, token = ledger.start_chase("Followed from a browser", dice="server")
    chase_id = UUID(chase["chase_id"])
    ledger.commands["coc7e"].roll_dice(chase_id, "1D6", dice=DiceChoice())

    # Step 1: the page asks for a ticket with its token (in the header, as always).
    status, headers, ticket = call(served, "POST", f"/chases/{chase_id}/stream-tickets", {"Origin": APP, "Authorization": f"Bearer {token}"})
    assert status == 201 and headers["access-control-allow-origin"] == APP
    assert ticket["expires_in"] == 60 and token not in ticket["ticket"]

    # Step 2: EventSource opens the stream with only the ticket in its URL, and hears the chase.
    stream = SSEClient(served.port, f"/chases/{chase_id}/stream?ticket={ticket['ticket']}", token=None)
    assert stream.status == 200 and stream.response.getheader("Access-Control-Allow-Origin") is None  # (no Origin sent)
    assert [e["id"] for e in stream.take(2)] == [1, 2]
    ledger.commands["coc7e"].roll_dice(chase_id, "1D6", dice=DiceChoice())
    (live,) = stream.take(1)
    assert live["id"] == 3 and live["event"] == "DiceRolled"
    stream.close()

    # The ticket opens streams only: not the chase's other endpoints, nor a command.
    status, _, _ = call(served, "GET", f"/chases/{chase_id}?ticket={ticket['ticket']}", {})
    assert status == 401
    status, _, _ = call(served, "POST", f"/chases/{chase_id}/end?ticket={ticket['ticket']}", {}, {"outcome": "escaped"})
    assert status == 401
    # Nor another chase's stream, nor once tampered with.
    other, _ = ledger.start_chase("Another table", dice="server")
    assert SSEClient(served.port, f"/chases/{other['chase_id']}/stream?ticket={ticket['ticket']}", token=None).status == 403
    forged = ticket["ticket"][:-2] + ("AA" if not ticket["ticket"].endswith("AA") else "BB")
    assert SSEClient(served.port, f"/chases/{chase_id}/stream?ticket={forged}", token=None).status == 401
