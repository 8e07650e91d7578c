"""The floor bench/http.py measures the API against: the least a web app on eventsourcing does.

``gunicorn bench.floor_app:app`` (bench/http.py starts it with the same settings as `chase
serve`). One eventsourcing ``Application`` on the same persistence settings as the API (same
store, same aggregate cache; infrastructure.settings.persistence_env), one aggregate per chase
snapshotted every 20 events as the chases are, and one event per ``POST .../rolls``: load the
aggregate, record a die, save. A save that loses a race to another writer on the same aggregate
is re-run on fresh state with the same jittered backoff as ChaseLedger._execute, so both sides
pay the same for collisions. No views, no tokens, no hash chain, no schemas; eventsourcing's own
event recorder (the API's also writes a command's views in its events' transaction).
"""
from __future__ import annotations

import os
import random
import secrets
import threading
import time
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate, event
from eventsourcing.persistence import IntegrityError
from flask import Flask, abort, jsonify, request

from api.threaded_wsgi import ThreadedWsgi
from infrastructure.bootstrap import _postgres_startup_lock
from infrastructure.edge_settings import EdgeSettings
from infrastructure.settings import POSTGRES, persistence_env

SNAPSHOT_INTERVAL = 20  # as application.chases.SNAPSHOT_INTERVAL
RETRIES, BACKOFF, BACKOFF_CAP = 30, 0.002, 0.05  # as application.chases


class Tally(Aggregate):
    """A chase reduced to a counter of rolls."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.rolls = 0

    @event("Rolled")
    def rolled(self, roll: dict[str, Any]) -> None:
        self.rolls += 1


class Floor(Application):
    name = "BenchFloor"  # its own tables beside the API's in the same PostgreSQL database
    is_snapshotting_enabled = True
    snapshotting_intervals = {Tally: SNAPSHOT_INTERVAL}


app = Flask("bench_floor")
app.config["MAX_CONTENT_LENGTH"] = EdgeSettings.max_body_bytes  # as the API bounds a body (api/guards.py)
_floor: dict[str, Floor] = {}
_lock = threading.Lock()


def floor() -> Floor:
    """Built on first use in each gunicorn worker (after the fork), like the API's ledger; on
    PostgreSQL under the API's start-up lock, as workers creating the tables at once collide."""
    if "app" not in _floor:
        with _lock:
            if "app" not in _floor:
                env = persistence_env()
                env.pop("APPLICATION_RECORDER_TOPIC", None)  # eventsourcing's own recorder: the floor writes no views
                if env["PERSISTENCE_MODULE"] == POSTGRES:
                    with _postgres_startup_lock(env):
                        _floor["app"] = Floor(env)
                else:
                    _floor["app"] = Floor(env)
    return _floor["app"]


@app.get("/health")
def health() -> Any:
    return {"status": "ok"}


@app.post("/tallies")
def create() -> Any:
    tally = Tally(name=(request.get_json(silent=True) or {}).get("name", "tally"))
    floor().save(tally)
    return jsonify(tally_id=str(tally.id), version=tally.version), 201


@app.get("/tallies/<uuid:tally_id>")
def show(tally_id: UUID) -> Any:
    try:
        tally = floor().repository.get(tally_id)
    except AggregateNotFoundError:
        abort(404)
    return jsonify(tally_id=str(tally.id), version=tally.version, rolls=tally.rolls)


@app.post("/tallies/<uuid:tally_id>/rolls")
def roll(tally_id: UUID) -> Any:
    purpose = request.get_json()["purpose"]
    for attempt in range(RETRIES):
        if attempt:
            time.sleep(random.uniform(0, min(BACKOFF_CAP, BACKOFF * 2**attempt)))
        try:
            tally = floor().repository.get(tally_id)
        except AggregateNotFoundError:
            abort(404)
        record = {"sequence": tally.rolls + 1, "purpose": purpose, "expression": "1D6", "total": 1 + secrets.randbelow(6)}
        tally.rolled(record)
        try:
            floor().save(tally)
        except IntegrityError:
            continue
        return jsonify(version=tally.version, roll=record)
    return jsonify(error="lost the race too often"), 409


@app.get("/tallies/<uuid:tally_id>/events")
def events(tally_id: UUID) -> Any:
    """The purposes of the rolls recorded after ``?after=`` (for bench/http.py's count)."""
    after = int(request.args.get("after", 0))
    recorded = floor().events.get(tally_id, gt=after or None)
    return jsonify(events=[{"version": e.originator_version, "purpose": e.roll["purpose"]} for e in recorded if hasattr(e, "roll")])


# Served as `chase serve` serves the API's requests (infrastructure/cli.py, api/threaded_wsgi.py):
# Flask on a pool of threads inside a uvicorn worker, the body read on the event loop, so the
# floor pays what the API pays to be served.
asgi = ThreadedWsgi(app, int(os.environ.get("CHASE_LEDGER_THREADS", "4")))
