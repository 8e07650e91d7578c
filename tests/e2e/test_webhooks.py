"""Webhooks (issue 18 part 6): every event of a chase, POSTed to the Keeper's URL, signed as
Standard Webhooks specifies, in order, again after a failure, with the event id for
de-duplication; each attempt listed with its status.

The receiver is a small HTTP server on 127.0.0.1 in a thread of the test; it checks each
message with the standardwebhooks library's own verify. The ledger is on a SQLite file, so the
delivery jobs run on the inline executor's thread, retried after CHASE_LEDGER_JOB_BACKOFF.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from uuid import UUID

import pytest
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from api import create_app
from application.dice import DiceChoice
from infrastructure.bootstrap import build_ledger

# The receivers of these tests listen on the loopback address, which webhooks may not reach
# unless the operator allows it, as a self-hosted server does.
RECEIVERS_ALLOWED = {"CHASE_LEDGER_WEBHOOK_ALLOW": "127.0.0.1"}


class Receiver:
    """Takes webhook POSTs; answers from a script (500 first, say), then 200."""

    def __init__(self, answers: list[int] | None = None, delay: float = 0.0) -> None:
        self.answers = list(answers or [])
        self.received: list[tuple[dict[str, str], str, int]] = []  # headers, body, our answer
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers["Content-Length"])).decode()
                time.sleep(delay)
                answer = receiver.answers.pop(0) if receiver.answers else 200
                receiver.received.append(({k.lower(): v for k, v in self.headers.items()}, body, answer))
                self.send_response(answer)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hooks/chase"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def taken(self) -> list[tuple[dict[str, str], str]]:
        return [(headers, body) for headers, body, answer in self.received if answer == 200]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def wait_for(predicate: Any, timeout: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return bool(predicate())


@pytest.fixture
def table(tmp_path) -> Iterator[tuple[Any, Any]]:
    ledger = build_ledger({"SQLITE_DBNAME": str(tmp_path / "chase.sqlite3"), "CHASE_LEDGER_JOB_BACKOFF": "1", **RECEIVERS_ALLOWED})
    client = create_app(lambda: ledger).test_client()
    yield ledger, client
    ledger.close()


def start(client: Any) -> tuple[str, dict[str, str]]:
    created = client.post("/chases", json={"name": "Watched", "dice": "server"}).get_json()
    return created["chase"]["chase_id"], {"Authorization": f"Bearer {created['keeper_token']}"}


def roll(ledger: Any, chase_id: str, times: int) -> None:
    for _ in range(times):
        ledger.commands["coc7e"].roll_dice(UUID(chase_id), "1D6", dice=DiceChoice())


def test_every_event_arrives_signed_in_order_with_its_event_id(table):
    ledger, client = table
    receiver = Receiver()
    try:
        chase_id, keeper = start(client)

        # Step 1: the Keeper registers the receiver's URL and is shown its secret, once.
        registered = client.post(f"/chases/{chase_id}/webhooks", json={"url": receiver.url}, headers=keeper)
        assert registered.status_code == 201
        hook = registered.get_json()
        assert hook["secret"].startswith("whsec_") and hook["delivered_version"] == 1
        listed = client.get(f"/chases/{chase_id}/webhooks", headers=keeper).get_json()["webhooks"]
        assert [h["webhook_id"] for h in listed] == [hook["webhook_id"]] and "secret" not in listed[0]

        # Step 2: the table plays on: five rolls, events 2 to 6.
        roll(ledger, chase_id, 5)
        assert wait_for(lambda: len(receiver.taken()) >= 5)
        assert wait_for(lambda: client.get(f"/chases/{chase_id}/webhooks", headers=keeper).get_json()["webhooks"][0]["delivered_version"] == 6)

        # Each message checks out with the library's verify, under the secret shown once...
        verifier = Webhook(hook["secret"])
        payloads = [verifier.verify(body, headers) for headers, body in receiver.taken()]
        # ...comes in the log's order, each once, as recorded (the event as /events shows it)...
        assert [p["data"]["version"] for p in payloads] == [2, 3, 4, 5, 6]
        assert [p["data"] for p in payloads] == ledger.history.chase_events(UUID(chase_id), after=1)
        assert all(p["type"] == "chase.DiceRolled" for p in payloads)
        # ...and its webhook-id is the event's id, for the receiver to drop duplicates.
        assert [h["webhook-id"] for h, _ in receiver.taken()] == [f"{chase_id}:{v}" for v in range(2, 7)]
        # A message altered on the way, or signed with another secret, does not check out.
        headers, body = receiver.taken()[0]
        with pytest.raises(WebhookVerificationError):
            verifier.verify(body.replace('"version":2', '"version":9'), headers)
        with pytest.raises(WebhookVerificationError):
            Webhook("whsec_" + "QUJD" * 8).verify(body, headers)
    finally:
        receiver.close()


def test_a_failed_delivery_is_retried_and_order_still_holds(table):
    ledger, client = table
    receiver = Receiver(answers=[500])  # the receiver is down for the first message
    try:
        chase_id, keeper = start(client)
        hook = client.post(f"/chases/{chase_id}/webhooks", json={"url": receiver.url}, headers=keeper).get_json()

        roll(ledger, chase_id, 3)  # events 2, 3 and 4; the receiver refuses event 2 (500)
        listed = lambda: client.get(f"/chases/{chase_id}/webhooks", headers=keeper).get_json()["webhooks"][0]  # noqa: E731
        assert wait_for(lambda: listed()["delivered_version"] == 4)

        # Event 2 came again (the same id) before 3 and 4 were ever sent: the order holds.
        ids = [headers["webhook-id"] for headers, _, _ in receiver.received]
        assert ids == [f"{chase_id}:{v}" for v in (2, 2, 3, 4)]
        assert [answer for _, _, answer in receiver.received] == [500, 200, 200, 200]
        # The Keeper sees each attempt, newest first: the failure with the receiver's answer.
        deliveries = client.get(f"/chases/{chase_id}/webhooks/{hook['webhook_id']}/deliveries", headers=keeper).get_json()["deliveries"]
        assert [(d["version"], d["status"], d["response_status"]) for d in reversed(deliveries)] == [
            (2, "failed", 500), (2, "delivered", 200), (3, "delivered", 200), (4, "delivered", 200)]
        assert deliveries[-1]["event_id"] == f"{chase_id}:2" and "500" in deliveries[-1]["error"]
    finally:
        receiver.close()


def test_only_the_keeper_registers_and_only_http_urls(table, tmp_path):
    ledger, client = table
    chase_id, keeper = start(client)
    participant = client.post(f"/chases/{chase_id}/participants", headers=keeper, json={
        "name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6, "hp": 12, "skills": {}}).get_json()["participant_id"]
    player_token = client.post(f"/chases/{chase_id}/tokens", headers=keeper, json={"participant_ids": [participant]}).get_json()["token"]
    player = {"Authorization": f"Bearer {player_token}"}

    assert client.post(f"/chases/{chase_id}/webhooks", json={"url": "http://127.0.0.1:9/x"}, headers=player).status_code == 403
    assert client.get(f"/chases/{chase_id}/webhooks", headers=player).status_code == 403
    refused = client.post(f"/chases/{chase_id}/webhooks", json={"url": "file:///etc/passwd"}, headers=keeper)
    assert refused.status_code == 422 and refused.get_json()["errors"][0]["field"] == "url"
    assert client.get(f"/chases/{chase_id}/webhooks/nope/deliveries", headers=keeper).status_code == 404
    assert client.get(f"/chases/{chase_id}/webhooks", headers=keeper).get_json() == {"webhooks": []}  # nothing recorded


def test_a_webhook_registered_in_another_process_gets_what_this_one_records(tmp_path):
    """Each API process remembers for a second that no chase has a webhook; a webhook registered
    in another process still gets every event this one records meanwhile."""
    receiver = Receiver()
    env = {"SQLITE_DBNAME": str(tmp_path / "chase.sqlite3"), "CHASE_LEDGER_JOB_BACKOFF": "1", **RECEIVERS_ALLOWED}
    playing, registering = build_ledger(env), build_ledger(env)  # two API processes on one store
    try:
        client = create_app(lambda: playing).test_client()
        chase_id, keeper = start(client)
        # The first process plays while no chase anywhere has a webhook: it remembers that.
        roll(playing, chase_id, 2)
        # The Keeper registers a webhook through the other process, from the current version on.
        other = create_app(lambda: registering).test_client()
        registered = other.post(f"/chases/{chase_id}/webhooks", json={"url": receiver.url}, headers=keeper)
        assert registered.status_code == 201, registered.get_json()
        after = registered.get_json()["delivered_version"]
        # The first process records two more rolls at once, while it may still believe there is none.
        roll(playing, chase_id, 2)
        # Both arrive all the same, in order.
        assert wait_for(lambda: len(receiver.taken()) >= 2)
        # Once it has looked again, the first process sends its next event itself.
        time.sleep(1.1)  # past the second it trusts "no webhook anywhere" (not a timing assertion)
        roll(playing, chase_id, 1)
        assert wait_for(lambda: len(receiver.taken()) >= 3)
        versions = [int(headers["webhook-id"].rsplit(":", 1)[1]) for headers, _ in receiver.taken()]
        assert versions == [after + 1, after + 2, after + 3]
    finally:
        receiver.close()
        playing.close()
        registering.close()
