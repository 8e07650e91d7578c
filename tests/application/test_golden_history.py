"""History that outlives the code (DESIGN.md section 3, issue 11): databases written by earlier
versions of Chase Ledger load with today's code, show the same views, verify, and take new
commands that chain onto their old heads.

Each folder under tests/fixtures/ (v1, v2, v3 (the chain in RFC 8785, issue 18), then one more per schema change) holds a SQLite database
written by the code of that version (its generate.py says how, and expected.json by which
commit) and expected.json, the read side as that code rendered it: per chase its views, roll
history, events, export, tokens and what `chase verify` printed. Every test opens a fresh copy
of each database with today's code.

How views are compared: every field saved in expected.json must be present in what today's code
shows and equal to it, recursively; objects may have gained fields (a superset is fine, so
later sessions may add fields to views), while lists keep their length and order and values
their type. Nothing else may differ: today there is nothing that legitimately renders
differently, so there is no other tolerance.
"""
from __future__ import annotations

import json
import shutil
from functools import cache
from pathlib import Path
from typing import Any, Iterator
from uuid import UUID

import pytest
from eventsourcing.application import Repository
from eventsourcing.domain import Aggregate
from eventsourcing.utils import resolve_topic

from api import create_app
from domain.chain import JCS, SORTED_JSON, hash_record
from application.views import project_chase
from infrastructure.bootstrap import build_ledger
from tests.application.golden import Golden, assert_contains, job_as_shown_today, new_commands

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
VERSIONS = sorted(p.name for p in FIXTURES.iterdir() if (p / "expected.json").is_file())


@cache
def expected(version: str) -> dict[str, Any]:
    return json.loads((FIXTURES / version / "expected.json").read_text(encoding="utf-8"))


@pytest.fixture(params=VERSIONS)
def golden(request, tmp_path) -> Iterator[Golden]:
    """Today's code on a copy of the database a version wrote (the fixture itself is never touched)."""
    database = tmp_path / "chase-ledger.sqlite3"
    shutil.copyfile(FIXTURES / request.param / "chase-ledger.sqlite3", database)
    ledger = build_ledger({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(database)})
    app = create_app(lambda: ledger)
    app.config["TESTING"] = True
    yield Golden(ledger, app.test_client(), expected(request.param), tmp_path, fixture=request.param)
    ledger.close()


def test_every_topic_ever_recorded_still_names_an_event_class():
    # v1 is the first fixture, with chases of every system, and more only ever come.
    assert "v1" in VERSIONS
    assert {"coc7e", "swade", "swd"} <= {c["system"] for c in expected("v1")["chases"].values()}
    # A topic in stored history must resolve for ever: code may move, its TOPIC may not change.
    for version in VERSIONS:
        for topic in expected(version)["event_classes"]["recorded"]:
            assert issubclass(resolve_topic(topic), Aggregate.Event), (version, topic)


def test_each_fixture_keeps_the_chain_encoding_it_was_written_with():
    # v1's and v2's chases were chained with sorted JSON (their Created names no encoding); from v3
    # on, with RFC 8785 (issue 18): v3 holds chases of every system, D6 too, and issue 18's chase,
    # whose skills sort differently in the two encodings.
    assert "v3" in VERSIONS
    assert {c["system"] for c in expected("v3")["chases"].values()} >= {"coc7e", "swade", "swd", "d6"}
    for version in VERSIONS:
        for saved in expected(version)["chases"].values():
            created = saved["events"][0]["data"]
            assert created.get("chain_encoding", SORTED_JSON) == (SORTED_JSON if version in ("v1", "v2") else JCS), (version, saved["play"])
    issue_18 = next(c for c in expected("v3")["chases"].values() if c["play"].endswith("the_ligature_and_the_grin"))
    added = {k: issue_18["events"][1][k] for k in ("chase_id", "version", "type", "recorded_at", "data")}
    assert hash_record(added, JCS) == issue_18["events"][1]["hash"] != hash_record(added, SORTED_JSON)


def test_every_chase_shows_the_views_it_showed_when_written(golden: Golden):
    # The views as stored then, and time travel folded afresh by today's code, show what was saved.
    for chase_id, saved in golden.chases.items():
        golden.assert_shows(chase_id, saved)


def test_views_rebuilt_from_the_log_show_the_same(golden: Golden):
    # The operator rebuilds every view from the log: today's projections, not the stored rows.
    job = golden.ledger.jobs.rebuild_views()
    job = golden.ledger.jobs.wait(job["job_id"], timeout=120)
    assert job["status"] == "done", job
    total = sum(saved["export"]["event_count"] for saved in golden.chases.values())
    assert job["result"]["events"] == total

    for chase_id, saved in golden.chases.items():
        golden.assert_shows(chase_id, saved)


def test_every_export_passes_chase_verify_with_the_head_kept_then(golden: Golden, capsys):
    for chase_id, saved in golden.chases.items():
        # A client kept the chain head the old code answered with; the export today still holds it.
        export = golden.get(chase_id, "/export")
        assert len(export["events"]) == saved["export"]["event_count"] and export["events"][-1]["hash"] == saved["verify"]["head"]

        code, output = golden.verify(export, saved["verify"]["head"], capsys)

        assert code == 0, output
        assert output == saved["verify"]["output"]


def test_new_commands_chain_onto_the_old_head(golden: Golden, capsys):
    for chase_id, saved in golden.chases.items():
        head, count = saved["verify"]["head"], saved["export"]["event_count"]

        # The Keeper (and a player, with the tokens issued then) act on the old chase: an undo,
        # rolls with table dice and the server's dice (on the seed the old database keeps),
        # then the seed is revealed.
        new_commands(golden, chase_id, saved)

        events = golden.get(chase_id, "/events?limit=10000")["events"]
        assert_contains(saved["events"], events[:count], f"{saved['play']}: the old events")
        assert len(events) > count
        assert events[count]["data"]["previous_hash"] == head  # the first new event chains onto the old head
        code, output = golden.verify(golden.get(chase_id, "/export"), head, capsys)
        assert code == 0, output
        assert "0 server rolls whose seed is not revealed yet" in output, output  # every server roll recomputed


def test_the_jobs_recorded_then_read_back_and_their_keys_still_hold(golden: Golden):
    for chase_id, saved in golden.chases.items():
        for job_id, job in saved["jobs"].items():
            assert_contains(job_as_shown_today(job), golden.get(chase_id, f"/jobs/{job_id}")["job"], f"{saved['play']}: job {job_id}")
        for job_id, frames in saved["replay_frames"].items():
            now = golden.get(chase_id, f"/replays/{job_id}/frames?limit=1000")["frames"]
            assert_contains(frames, now, f"{saved['play']}: the frames of replay {job_id}")
        for job_id, job in saved["jobs"].items():
            if job["kind"] == "random_hazards":
                # The same idempotency key names the same job: it is found, done, and records nothing more.
                again = golden.post(chase_id, "/random-hazards", {"locations": job["params"]["locations"]}, 202,
                                    headers={"Idempotency-Key": job["params"]["key"]})["job"]
                assert again["job_id"] == job_id and again["status"] == "done"
        assert len(golden.get(chase_id, "/events?limit=10000")["events"]) == saved["export"]["event_count"]


def test_chases_load_from_their_snapshots_as_a_fold_of_their_events(golden: Golden):
    unsnapshotted = Repository(event_store=golden.ledger.events)
    for chase_id, saved in golden.chases.items():
        cid = UUID(chase_id)
        # The snapshots the old code took are there, and at every version the chase loads the same
        # from them, from its events alone, and as a fold of its events.
        assert sorted(s.originator_version for s in golden.ledger.snapshots.get(cid)) == saved["snapshot_versions"]
        folded = None
        for event in golden.ledger.events.get(cid):
            folded = event.mutate(folded)
            version = event.originator_version
            from_snapshot = golden.ledger.repository.get(cid, version=version, projector_func=project_chase)
            from_events = unsnapshotted.get(cid, version=version, projector_func=project_chase)
            assert vars(from_snapshot) == vars(folded) == vars(from_events), f"{saved['play']} at version {version}"
        assert folded is not None and folded.version == saved["export"]["event_count"]
        assert vars(golden.ledger.repository.get(cid, projector_func=project_chase)) == vars(folded)
