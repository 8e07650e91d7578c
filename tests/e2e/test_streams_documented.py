"""The two live streams send only the events their documented schemas allow (api/stream.py),
checked by schemathesis against `chase serve`, where the streams are really sent.

Measured before: each stream documented its events as one string, and schemathesis, which reads
each Server-Sent Event as an object (id, event, data), refused every event both streams sent.
"""
from __future__ import annotations

from pathlib import Path

import schemathesis

from tests.e2e.served_process import ChaseServe, Client


def test_each_stream_sends_what_its_document_says(tmp_path: Path):
    env = {"SQLITE_DBNAME": str(tmp_path / "chase.sqlite3"), "CHASE_LEDGER_STREAM_MAX_SECONDS": "1"}
    server = ChaseServe(env, tmp_path / "serve.log", workers=1, threads=4)
    try:
        # A chase with a few events, and a replay of it (run at once: inline jobs).
        keeper = Client(server.port)
        _, created = keeper.request("POST", "/chases", {"name": "Streamed", "dice": "server"})
        chase_id, keeper.token = created["chase"]["chase_id"], created["keeper_token"]
        for _ in range(3):
            assert keeper.request("POST", f"/chases/{chase_id}/dice-rolls", {"expression": "1D100"})[0] == 200
        _, accepted = keeper.request("POST", f"/chases/{chase_id}/replays")
        job_id = accepted["job"]["job_id"]
        assert keeper.request("GET", f"/chases/{chase_id}/jobs/{job_id}?wait=10")[1]["job"]["status"] == "done"
        schema = schemathesis.openapi.from_url(f"http://127.0.0.1:{server.port}/openapi.json")
        auth = {"Authorization": f"Bearer {keeper.token}"}

        # The chase's stream (its events so far, then it ends), and the replay's frames then its
        # end: every event conforms to the stream's document, as every check of schemathesis does.
        chase_stream = schema["/chases/{chase_id}/stream"]["GET"]
        chase_stream.Case(path_parameters={"chase_id": chase_id}, headers=auth).call_and_validate()
        replay_stream = schema["/chases/{chase_id}/replays/{job_id}/stream"]["GET"]
        answer = replay_stream.Case(path_parameters={"chase_id": chase_id, "job_id": job_id}, query={"pace": 0}, headers=auth).call_and_validate()
        assert b"event: frame" in answer.content and b"event: end" in answer.content
        assert server.errors_logged() == []
    finally:
        server.stop()
