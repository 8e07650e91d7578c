"""On SQLite: what a client is told while the store refuses writes (a full disk, a read-only
database file), and what /ready says meanwhile.

The disk is a real one that fills: a tmpfs of a few hundred kilobytes, mounted for the test (as
root; CI runs as root). Measured before: on a full disk a roll was answered 500 and /ready said
ready; nothing was lost.
"""
from __future__ import annotations

import errno
import os
import sqlite3
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from api import create_app
from infrastructure import readiness
from infrastructure.bootstrap import build_ledger
from infrastructure.store_refusals import refusal
from tests.conftest import ChaseClient
from tests.e2e.record_helpers import running

PROBLEM = "application/problem+json"
DISK_SIZE = "2m"  # room for a chase's database, its WAL and a few rolls, then filled


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A filesystem of DISK_SIZE, mounted for the test."""
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={DISK_SIZE}", "tmpfs", str(mount)], capture_output=True, text=True)
    if done.returncode != 0:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"cannot mount a small disk (CI runs as root): {done.stderr.strip()}", pytrace=False)
        pytest.skip(f"cannot mount a small disk (needs root): {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=True)


def fill(disk: Path) -> Path:
    """Writes a file on ``disk`` until the disk is full; the file."""
    filler = disk / "filler"
    with open(filler, "wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 4096)
        except OSError as e:
            assert e.errno == errno.ENOSPC
    return filler


def refused_for_now(response: Any, kind: str) -> dict[str, Any]:
    """A 503 problem saying to come back later."""
    assert response.status_code == 503, (response.status_code, response.get_json())
    assert response.content_type == PROBLEM and response.headers.get("Retry-After")
    body = response.get_json()
    assert body["type"] == f"/problems/{kind}", body
    return body


def roll(keeper: ChaseClient, face: int) -> Any:
    return keeper.post("/dice-rolls", {"expression": "1D6", "table_dice": [face]})


def test_a_full_disk_is_answered_503_and_not_ready_and_nothing_is_lost(small_disk, monkeypatch):
    # (Each /ready here probes the store: this test follows it from one check to the next.)
    monkeypatch.setattr(readiness, "PROBE_EVERY", 0.0)
    # Given a chase being played on a SQLite file on a small disk,
    ledger = build_ledger({"SQLITE_DBNAME": str(small_disk / "chase.sqlite3")})
    try:
        app = create_app(lambda: ledger)
        keeper = ChaseClient(app.test_client())
        running(keeper)
        version = keeper.ok(roll(keeper, 4))["chase"]["version"]
        rolls = len(keeper.rolls())
        # when the disk fills up,
        filler = fill(small_disk)
        # then a roll is answered 503 with Retry-After, saying the store refuses writes,
        body = refused_for_now(roll(keeper, 5), "store-unavailable")
        assert "full" in body["detail"] and str(small_disk) not in body["detail"]
        # /ready says not ready, naming the store,
        ready = keeper.http.get("/ready")
        assert ready.status_code == 503 and "full" in ready.get_json()["checks"]["store"]
        # the chase can still be read, as it was.
        assert keeper.track()["version"] == version
        assert len(keeper.rolls()) == rolls
        # Once there is room again, the roll is recorded, right after the one before: nothing was lost.
        filler.unlink()
        assert keeper.http.get("/ready").status_code == 200
        assert keeper.ok(roll(keeper, 5))["chase"]["version"] == version + 1
        assert len(keeper.rolls()) == rolls + 1
    finally:
        ledger.close()


def test_sqlites_refusals_of_writes_are_told_apart_from_its_other_errors(tmp_path):
    # Given a database file opened read-only, and the same file opened to write,
    database = tmp_path / f"{uuid.uuid4().hex}.sqlite3"
    with sqlite3.connect(database) as conn:
        conn.execute("CREATE TABLE t (x)")
    read_only = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    writer = sqlite3.connect(database)
    try:
        # a write to the read-only one is a store refusing writes,
        with pytest.raises(sqlite3.OperationalError) as refused:
            read_only.execute("INSERT INTO t VALUES (1)")
        assert refusal(refused.value) == "unavailable"
        # while a statement that is wrong is no refusal of the store's.
        with pytest.raises(sqlite3.OperationalError) as wrong:
            writer.execute("INSERT INTO no_such_table VALUES (1)")
        assert refusal(wrong.value) is None
    finally:
        read_only.close()
        writer.close()
