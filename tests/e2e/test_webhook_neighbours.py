"""What a hostile neighbour could do with a webhook, and what stops it. Anyone may create a chase
and register a webhook on it, so the receiver may be built to hurt the server: answer slowly, a
byte at a time; answer with a gzip bomb; point at the server's own network; or wait for the URL,
secret path and all, to show up where the chase's players can read it.

The receivers are small HTTP servers on 127.0.0.1 in threads of the test; the ledger is on a
SQLite file (tests/integration/test_webhook_neighbours_postgres.py runs the same on PostgreSQL),
its delivery jobs on the inline executor.
"""
from __future__ import annotations

import gzip
import logging
import socket
import threading
import tracemalloc
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from uuid import UUID

import pytest

from api import create_app
from infrastructure.bootstrap import build_ledger
from tests.conftest import ChaseClient
from tests.e2e.test_webhooks import RECEIVERS_ALLOWED, Receiver, roll, start, wait_for

BOMB_BYTES = 16 << 20  # what the gzip answer inflates to (it is about 16 KB on the wire)


class HostileReceiver:
    """Answers ``slow``ly (the status line, then a header byte every 0.2 s until told to stop)
    or with a ``bomb`` (a gzip body of BOMB_BYTES zeros)."""

    def __init__(self, how: str) -> None:
        self.stop = threading.Event()
        self.posts = 0
        bomb = gzip.compress(b"\0" * BOMB_BYTES, compresslevel=9)
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                self.rfile.read(int(self.headers["Content-Length"]))
                receiver.posts += 1
                try:
                    if how == "slow":
                        self.wfile.write(b"HTTP/1.1 200 OK\r\nX-Drip: ")
                        while not receiver.stop.wait(0.2):
                            self.wfile.write(b"x")
                            self.wfile.flush()
                        return
                    self.send_response(200)
                    self.send_header("Content-Encoding", "gzip")
                    self.send_header("Content-Length", str(len(bomb)))
                    self.end_headers()
                    self.wfile.write(bomb)
                except OSError:
                    pass  # the sender hung up: what it should do

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_port}/hooks/chase"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.stop.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def store(tmp_path) -> dict[str, str]:
    """Where the ledger keeps its events (tests/integration/test_webhook_neighbours_postgres.py: PostgreSQL)."""
    return {"SQLITE_DBNAME": str(tmp_path / "chase.sqlite3")}


@pytest.fixture
def table(store) -> Iterator[tuple[Any, Any]]:
    ledger = build_ledger({**store, "CHASE_LEDGER_JOB_BACKOFF": "1", "CHASE_LEDGER_WEBHOOK_TIMEOUT": "1", **RECEIVERS_ALLOWED})
    client = create_app(lambda: ledger).test_client()
    yield ledger, client
    ledger.close()


@pytest.fixture
def shipped(store) -> Iterator[tuple[Any, Any]]:
    """The server as shipped: no CHASE_LEDGER_WEBHOOK_ALLOW."""
    ledger = build_ledger({**store, "CHASE_LEDGER_JOB_BACKOFF": "1", "CHASE_LEDGER_WEBHOOK_TIMEOUT": "1"})
    client = create_app(lambda: ledger).test_client()
    yield ledger, client
    ledger.close()


def hook_of(client: Any, chase_id: str, keeper: dict[str, str]) -> dict[str, Any]:
    return client.get(f"/chases/{chase_id}/webhooks", headers=keeper).get_json()["webhooks"][0]


def deliveries(client: Any, chase_id: str, hook_id: str, keeper: dict[str, str]) -> list[dict[str, Any]]:
    return client.get(f"/chases/{chase_id}/webhooks/{hook_id}/deliveries", headers=keeper).get_json()["deliveries"]


def test_a_slow_receiver_is_cut_off_at_the_deadline_and_holds_up_no_other_job(table):
    ledger, client = table
    receiver = HostileReceiver("slow")  # a header byte every 0.2 s, for as long as the test lasts
    try:
        # Step 1: a neighbour's chase, its webhook pointing at the slow receiver; an event starts a delivery.
        chase_id, keeper = start(client)
        hook = client.post(f"/chases/{chase_id}/webhooks", json={"url": receiver.url}, headers=keeper).get_json()
        roll(ledger, chase_id, 1)
        assert wait_for(lambda: receiver.posts >= 1)

        # Step 2: meanwhile another Keeper asks for random hazards on their own chase: the job is
        # done while the receiver is still dripping its answer (it never stops on its own).
        other = ChaseClient(client)
        other.create("Rush hour in Arkham", dice="server")
        job = other.ok(other.post("/random-hazards", {"locations": 2}), 202)["job"]
        done = other.ok(other.http.get(f"/chases/{other.chase_id}/jobs/{job['job_id']}", query_string={"wait": 15}))["job"]
        assert done["status"] == "done" and not receiver.stop.is_set()

        # Step 3: the delivery was given up at its deadline (1 s here), though bytes kept coming.
        assert wait_for(lambda: len(deliveries(client, chase_id, hook["webhook_id"], keeper)) >= 1)
        first = deliveries(client, chase_id, hook["webhook_id"], keeper)[-1]
        assert first["status"] == "failed" and first["error"] == "no answer within the 1 s deadline"
    finally:
        receiver.close()


def test_a_gzip_bomb_answer_is_never_inflated(table):
    ledger, client = table
    receiver = HostileReceiver("bomb")
    try:
        chase_id, keeper = start(client)
        hook = client.post(f"/chases/{chase_id}/webhooks", json={"url": receiver.url}, headers=keeper).get_json()

        # Step 1: the receiver takes the event and answers 16 KB of gzip that inflate to 16 MB.
        tracemalloc.start()
        try:
            roll(ledger, chase_id, 1)
            assert wait_for(lambda: hook_of(client, chase_id, keeper)["delivered_version"] == 2)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()

        # Step 2: the event counts as delivered, and the answer's body was never inflated, nor
        # even read: the server's memory grew by far less than the bomb would have taken.
        assert [d["status"] for d in deliveries(client, chase_id, hook["webhook_id"], keeper)] == ["delivered"]
        assert peak < BOMB_BYTES // 4, f"{peak} bytes allocated while delivering"
    finally:
        receiver.close()


SERVERS_OWN = [
    "http://127.0.0.1:6379/", "http://localhost:5432/", "http://2130706433/", "http://0x7f.1/", "http://127.1/",
    "http://0.0.0.0:8000/", "http://[::1]:6379/", "http://[::ffff:127.0.0.1]/", "http://169.254.169.254/latest/meta-data/",
    "http://10.0.0.5/", "http://192.168.1.1/", "http://[fe80::1]/", "http://224.0.0.1/", "http://240.0.0.1/",
    "https://user:secret@bot.example/hook",
]


def test_webhooks_reach_no_address_of_the_servers_own_network(shipped):
    ledger, client = shipped
    chase_id, keeper = start(client)
    # Each URL at the server's own network (however the address is written), or with
    # credentials in it, is refused when it is registered, naming the field.
    for url in SERVERS_OWN:
        refused = client.post(f"/chases/{chase_id}/webhooks", json={"url": url}, headers=keeper)
        assert refused.status_code == 422, url
        assert refused.get_json()["errors"][0]["field"] == "url", url
    assert client.get(f"/chases/{chase_id}/webhooks", headers=keeper).get_json() == {"webhooks": []}


def test_a_name_that_resolves_to_the_server_at_delivery_gets_nothing(shipped, monkeypatch):
    """DNS rebinding: the name is public when registered, loopback when the event is sent."""
    ledger, client = shipped
    receiver = Receiver()
    port = int(receiver.url.split(":")[2].split("/")[0])
    answer = {"address": "93.184.216.34"}  # public, as the name's owner answers at registration
    real = socket.getaddrinfo

    def rebinding(host: Any, *args: Any, **kw: Any) -> Any:
        if host == "rebind.example":
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (answer["address"], port))]
        return real(host, *args, **kw)

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    try:
        chase_id, keeper = start(client)
        registered = client.post(f"/chases/{chase_id}/webhooks", json={"url": f"http://rebind.example:{port}/hook"}, headers=keeper)
        assert registered.status_code == 201
        hook = registered.get_json()
        # Step 1: the name's owner now answers with the server's own address, and an event is recorded.
        answer["address"] = "127.0.0.1"
        roll(ledger, chase_id, 1)
        # Step 2: the delivery is refused by the policy after the lookup; the server itself got nothing.
        assert wait_for(lambda: len(deliveries(client, chase_id, hook["webhook_id"], keeper)) >= 1)
        first = deliveries(client, chase_id, hook["webhook_id"], keeper)[-1]
        assert first["status"] == "failed" and "policy" in first["error"] and first["response_status"] is None
        assert receiver.received == []
    finally:
        receiver.close()


def test_the_webhook_url_is_in_no_job_a_player_reads_nor_in_any_log_line(table, caplog):
    ledger, client = table
    caplog.set_level(logging.DEBUG)
    receiver = Receiver(answers=[500] * 5)
    secret_path = "hooks/s3cr3t-path-of-the-keeper"
    url = receiver.url.replace("hooks/chase", secret_path)
    try:
        chase_id, keeper = start(client)
        participant = client.post(f"/chases/{chase_id}/participants", headers=keeper, json={
            "name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6, "hp": 12, "skills": {}}).get_json()["participant_id"]
        token = client.post(f"/chases/{chase_id}/tokens", headers=keeper, json={"participant_ids": [participant]}).get_json()["token"]
        player = {"Authorization": f"Bearer {token}"}
        client.post(f"/chases/{chase_id}/webhooks", json={"url": url}, headers=keeper)

        # Step 1: an event; the receiver refuses it at every attempt, and the delivery job fails.
        roll(ledger, chase_id, 1)
        listed = lambda: client.get(f"/chases/{chase_id}/jobs", headers=player)  # noqa: E731
        assert wait_for(lambda: any(job["status"] == "failed" for job in listed().get_json()["jobs"]), timeout=30)

        # Step 2: a player lists the chase's jobs: the failed delivery says why, never where.
        jobs = listed()
        assert jobs.status_code == 200
        errors = [job["error"] for job in jobs.get_json()["jobs"] if job["error"]]
        assert errors and all("the receiver answered 500" in e for e in errors)
        assert secret_path not in jobs.get_data(as_text=True)
        # Step 3: nor does any log line of the server (its own warnings, the HTTP client's lines).
        assert caplog.records and secret_path not in caplog.text and receiver.url.split("/hooks")[0] not in caplog.text
    finally:
        receiver.close()
