"""A replay streamed after its frames were removed (README "Jobs": retention) ends, saying so."""
from __future__ import annotations

import time
from dataclasses import replace

from application.dice import DiceChoice
from tests.e2e.test_stream import Served, SSEClient, served, start_chase  # noqa: F401  (served: a fixture)


def test_a_replay_whose_frames_were_removed_streams_an_end_that_says_to_replay_again(served: Served):
    # Step 1: a chase of a few rolls, replayed, read once.
    ledger = served.ledger
    chase_id, token = start_chase(ledger)
    for _ in range(3):
        ledger.commands["coc7e"].roll_dice(chase_id, "1D6", dice=DiceChoice())
    job = ledger.jobs.wait(ledger.jobs.replay(chase_id)["job_id"], 30)
    assert ledger.jobs.frames(job["job_id"], chase_id)

    # Step 2: its retention time goes by (kept for one second, two seconds ago) and the sweeper runs.
    ledger.jobs.settings = replace(ledger.jobs.settings, replay_retention=1.0)
    ledger.jobs.clock = lambda: time.time() + 2.0
    ledger.jobs.sweep()

    # Step 3: the stream sends no frame, only its end, whose error says to replay again.
    stream = SSEClient(served.port, f"/chases/{chase_id}/replays/{job['job_id']}/stream", token)
    events = list(stream.events())
    stream.close()
    assert [e["event"] for e in events] == ["end"], events
    assert "replay the chase again" in events[0]["data"]["error"]
