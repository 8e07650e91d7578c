"""What a hostile neighbour can do with replays and undos: storage grows with what changed.

An undo stores the changes to the state it restores, not the whole state; a replay stores its
views whole only at keyframes; a page of frames is bounded in bytes; a chase's replays are
bounded per hour (429 with Retry-After); finished replays' frames are removed after a while.
Collected again on PostgreSQL by tests/integration/test_replay_storage_postgres.py.
"""
from __future__ import annotations

import json
import threading
from dataclasses import replace
from typing import Any
from uuid import UUID

import pytest

from application import replay_frames
from application.jobs import FramesRemoved, TooManyReplays
from application.views import fold
from infrastructure.bootstrap import build_ledger
from infrastructure.systems import verify

PARTICIPANTS = 40


def big_chase(ledger: Any, size: int = PARTICIPANTS) -> UUID:
    """A chase of ``size`` participants (Harvey and the pursuers), a few rolls made."""
    chase_id = UUID(ledger.create_chase("A crowded chase", dice="server")["chase_id"])
    coc7e = ledger.commands["coc7e"]
    coc7e.add_participant(chase_id, {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6})
    for n in range(size - 1):
        coc7e.add_participant(chase_id, {"name": f"Pursuer {n}", "role": "pursuer", "dex": 40 + n % 50, "con": 50, "mov": 7})
    for _ in range(3):
        coc7e.roll_dice(chase_id, "1D6", purpose="flavour")
    return chase_id


def stored_bytes(ledger: Any, chase_id: UUID, version: int) -> int:
    return len(ledger.recorder.select_events(chase_id, gt=version - 1, lte=version)[0].state)


def finished(ledger: Any, job: dict[str, Any]) -> dict[str, Any]:
    """The job once done (the inline executor runs it in the background on a database file)."""
    return ledger.jobs.wait(job["job_id"], 60)


# -- undo, redo: the changes, not the chase ----------------------------------------------------


def test_an_undo_and_a_redo_in_a_big_chase_store_what_changed_and_restore_it_exactly(ledger):
    # Step 1: a chase of 40 participants; the Keeper rolls, then undoes the roll.
    chase_id = big_chase(ledger)
    before_roll = ledger.track(chase_id)
    whole = stored_bytes(ledger, chase_id, 1) + len(json.dumps(before_roll))  # a floor for the whole state
    ledger.commands["coc7e"].roll_dice(chase_id, "1D6", purpose="who flinches")
    rolled = ledger.track(chase_id)
    undone = ledger.history.undo(chase_id, 1)

    # Step 2: the undo stored a few hundred bytes, not the state of 40 participants.
    assert stored_bytes(ledger, chase_id, undone["version"]) < 2_000 < whole
    assert ledger.track(chase_id)["participants"] == before_roll["participants"]
    assert [r["undone"] for r in ledger.rolls(chase_id)][-1] is True

    # Step 3: the redo too; the chase is as it was after the roll.
    redone = ledger.history.redo(chase_id)
    assert stored_bytes(ledger, chase_id, redone["version"]) < 2_000
    assert ledger.track(chase_id)["participants"] == rolled["participants"]

    # Step 4: the log replayed from its first event shows the same, and verifies.
    assert ledger.renderers.all(fold(ledger.events.get(chase_id))[0])["track"] == ledger.history.track_at(chase_id, redone["version"])
    report = verify(ledger.history.export(chase_id), kept_head=ledger.track(chase_id)["chain_head"])
    assert report.events == redone["version"]


def test_a_rewind_past_new_participants_drops_them_and_a_redo_brings_them_back_in_order(ledger):
    # Step 1: five participants, then three more join.
    chase_id = big_chase(ledger, 5)
    mark = ledger.track(chase_id)
    for n in range(3):
        ledger.commands["coc7e"].add_participant(chase_id, {"name": f"Latecomer {n}", "role": "pursuer", "dex": 50, "con": 50, "mov": 7})
    crowded = ledger.track(chase_id)

    # Step 2: rewound to before they joined, they are gone; redone, they are back in their order.
    ledger.history.rewind(chase_id, mark["version"])
    assert ledger.track(chase_id)["participants"] == mark["participants"]
    ledger.history.redo(chase_id)
    assert ledger.track(chase_id)["participants"] == crowded["participants"]


# -- replays: frames that grow with what changed -----------------------------------------------


def test_a_replay_stores_its_views_whole_only_at_keyframes_and_reads_every_frame_whole(ledger):
    # Step 1: a chase of 40 participants, an undo at the end, replayed.
    chase_id = big_chase(ledger)
    ledger.history.undo(chase_id, 1)
    job = finished(ledger, ledger.jobs.replay(chase_id))
    assert job["status"] == "done", job

    # Step 2: every frame read back is the views folded afresh up to its event.
    frames = ledger.jobs.frames(job["job_id"], chase_id, 0, 1000)
    events = list(ledger.events.get(chase_id))
    assert [f["step"] for f in frames] == list(range(1, len(events) + 1))
    for step, frame in enumerate(frames, 1):
        assert frame["views"] == json.loads(json.dumps(ledger.renderers.all(fold(events[:step])[0]))), step

    # Step 3: what is stored is a small part of the frames whole: views whole once per keyframe.
    stored = ledger.jobs.store.frames(job["job_id"], 0, 1000)
    assert sum("views" in f for f in stored) == len(range(1, len(events) + 1, replay_frames.KEYFRAME))
    assert len(json.dumps(stored)) * 5 < len(json.dumps(frames))

    # Step 4: a page from the middle (past a keyframe) reads the same frames.
    assert ledger.jobs.frames(job["job_id"], chase_id, replay_frames.KEYFRAME + 3, 4) == frames[replay_frames.KEYFRAME + 3: replay_frames.KEYFRAME + 7]


def test_a_page_of_frames_stops_at_its_byte_bound_and_the_next_page_goes_on(ledger, monkeypatch):
    # Step 1: a replay whose frames are bigger than the page's bound allows all of.
    chase_id = big_chase(ledger, 10)
    job = finished(ledger, ledger.jobs.replay(chase_id))
    every = ledger.jobs.frames(job["job_id"], chase_id, 0, 1000)
    monkeypatch.setattr(replay_frames, "PAGE_BYTES", 3 * len(json.dumps(every[-1]["views"])))

    # Step 2: asked for a thousand, a page holds a few, and says more follow.
    first, more = ledger.jobs.frame_page(job["job_id"], chase_id, 0, 1000)
    assert 1 < len(first) < len(every) and more

    # Step 3: following the pages reads every frame once, in order.
    read, after = list(first), first[-1]["step"]
    while more:
        page, more = ledger.jobs.frame_page(job["job_id"], chase_id, after, 1000)
        read += page
        after = page[-1]["step"]
    assert read == every


def test_frames_page_over_http_stops_at_the_byte_bound_with_a_next_link(client, ledger, monkeypatch):
    # A client asks for a thousand frames of a chase; the page stops early, with `next`.
    created = client.post("/chases", json={"name": "Rush hour", "dice": "server"}).get_json()
    auth = {"Authorization": f"Bearer {created['keeper_token']}"}
    url = f"/chases/{created['chase']['chase_id']}"
    for n in range(6):
        client.post(url + "/participants", json={"name": f"Runner {n}", "role": "pursuer", "dex": 50, "con": 50, "mov": 7}, headers=auth)
    job = finished(ledger, client.post(url + "/replays", headers=auth).get_json()["job"])
    monkeypatch.setattr(replay_frames, "PAGE_BYTES", 1)
    page = client.get(f"{url}/replays/{job['job_id']}/frames?limit=1000", headers=auth).get_json()
    assert [f["step"] for f in page["frames"]] == [1] and "after=1" in page["next"]


# -- quotas and retention ------------------------------------------------------------------


def test_a_chase_has_a_bounded_number_of_replays_an_hour_then_a_429_with_retry_after(client, ledger):
    # Step 1: the chase may have two replays an hour.
    ledger.jobs.settings = replace(ledger.jobs.settings, replays_per_window=2)
    created = client.post("/chases", json={"name": "Rush hour", "dice": "server"}).get_json()
    auth = {"Authorization": f"Bearer {created['keeper_token']}"}
    url = f"/chases/{created['chase']['chase_id']}"
    assert [client.post(url + "/replays", headers=auth).status_code for _ in range(2)] == [202, 202]

    # Step 2: the third is refused as problem+json, saying when to retry.
    refused = client.post(url + "/replays", headers=auth)
    assert refused.status_code == 429 and refused.mimetype == "application/problem+json"
    assert refused.get_json()["type"] == "/problems/too-many-replays"
    assert 3000 < int(refused.headers["Retry-After"]) <= 3600

    # Step 3: another chase is not held back by it.
    other = client.post("/chases", json={"name": "Elsewhere", "dice": "server"}).get_json()
    assert client.post(f"/chases/{other['chase']['chase_id']}/replays", headers={"Authorization": f"Bearer {other['keeper_token']}"}).status_code == 202


def test_the_quota_frees_up_as_the_hour_goes_by(ledger):
    clock = [1_000_000.0]
    ledger.jobs.clock = lambda: clock[0]
    ledger.jobs.settings = replace(ledger.jobs.settings, replays_per_window=1)
    chase_id = big_chase(ledger, 2)
    finished(ledger, ledger.jobs.replay(chase_id))
    with pytest.raises(TooManyReplays) as refused:
        ledger.jobs.replay(chase_id)
    assert refused.value.retry_after == 3600
    clock[0] += 3601
    assert finished(ledger, ledger.jobs.replay(chase_id))["status"] == "done"


def test_two_replays_asked_at_once_do_not_both_pass_the_quota(tmp_path, monkeypatch, request):
    ledger = build_ledger({"SQLITE_DBNAME": str(tmp_path / "chase.sqlite3")})  # (threads share a file, not one connection)
    request.addfinalizer(ledger.close)
    ledger.jobs.settings = replace(ledger.jobs.settings, replays_per_window=1)
    chase_id = big_chase(ledger, 2)
    # Each request counts the chase's recent replays, then waits (a moment at most) for the
    # other to have counted too: the moment a busy server may leave between counting and asking.
    both_counted = threading.Barrier(2)
    recent = ledger.jobs.store.recent

    def counted_then_slow(*args: Any) -> Any:
        found = recent(*args)
        try:
            both_counted.wait(1)
        except threading.BrokenBarrierError:  # the other request waits for this one to finish
            pass
        return found

    monkeypatch.setattr(ledger.jobs.store, "recent", counted_then_slow)
    accepted: list[dict[str, Any]] = []
    refused: list[TooManyReplays] = []

    def ask() -> None:
        try:
            accepted.append(ledger.jobs.replay(chase_id))
        except TooManyReplays as e:
            refused.append(e)

    # Two requests for a replay of the chase arrive at once; its quota is one.
    threads = [threading.Thread(target=ask) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)

    # One is accepted, the other refused: the chase has one replay.
    assert len(accepted) == 1 and len(refused) == 1
    assert len([j for j in ledger.jobs.store.of_chase(str(chase_id), None, 10) if j["kind"] == "replay"]) == 1


def test_old_replays_frames_are_removed_and_reading_them_says_to_replay_again(client, ledger):
    # Step 1: a replay, read; then its retention time goes by and the sweeper runs.
    clock = [1_000_000.0]
    ledger.jobs.clock = lambda: clock[0]
    created = client.post("/chases", json={"name": "Rush hour", "dice": "server"}).get_json()
    auth = {"Authorization": f"Bearer {created['keeper_token']}"}
    chase_id = UUID(created["chase"]["chase_id"])
    job = finished(ledger, ledger.jobs.replay(chase_id))
    assert ledger.jobs.frames(job["job_id"], chase_id)
    clock[0] += ledger.jobs.settings.replay_retention + 1
    ledger.jobs.sweep()

    # Step 2: its frames are gone from the store; reading them is a 404 that says what to do.
    assert ledger.jobs.store.frames(job["job_id"], 0, 10) == []
    gone = client.get(f"/chases/{chase_id}/replays/{job['job_id']}/frames", headers=auth)
    assert gone.status_code == 404 and gone.get_json()["type"] == "/problems/frames-removed"
    assert "replay the chase again" in gone.get_json()["detail"]


def test_only_the_newest_finished_replays_of_a_chase_keep_their_frames(ledger):
    # Two finished replays kept at most: a fourth replay's submission removes the first's frames.
    ledger.jobs.settings = replace(ledger.jobs.settings, replays_kept=2)
    chase_id = big_chase(ledger, 2)
    jobs = [finished(ledger, ledger.jobs.replay(chase_id)) for _ in range(3)]
    finished(ledger, ledger.jobs.replay(chase_id))
    with pytest.raises(FramesRemoved):
        ledger.jobs.frames(jobs[0]["job_id"], chase_id)
    assert all(ledger.jobs.frames(job["job_id"], chase_id) for job in jobs[1:])
