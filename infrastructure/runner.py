"""Long-running loops of the worker processes: the projection runner and the job sweeper.

The projection runner (``chase project``, or ``chase worker --project``) keeps the views (track,
vehicle builds, roll history) current by following the notification log, so they are up to date
even for events no command caught up (a job's, another service's). On PostgreSQL it sleeps on
LISTEN on the channel eventsourcing NOTIFYs on every insert into the events table (the same
signal eventsourcing's own ``PostgresSubscription`` waits on); on SQLite it polls.

Each wake-up calls the application's ``Projector.catch_up()`` (application/projector.py), whose
batches write the chases they move on and the tracking position in one transaction (the position
compare-and-set, each chase's views compare-and-set on their version), set aside a chase that
cannot be projected, and retry the set-aside chases that are due. That is why this runner is not
eventsourcing's ``ProjectionRunner``: that runner owns its tracking position and writes one
event per transaction, but here each command also writes its own chase's views (read-your-writes:
a command's response reflects the command), so a chase's views have several writers and must be
compare-and-set, and batches are what make rebuilds fast. What commands wrote is skipped without
being decoded. The runner waits a moment after a notification (``settle``) so that the command
that wrote the events has usually written their views first.
"""
from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Mapping
from typing import Any

log = logging.getLogger(__name__)


class ViewFollower:
    """Follows the notification log into the views until stopped."""

    def __init__(self, ledger: Any, env: Mapping[str, str], poll: float = 1.0, settle: float = 0.05, heartbeat_file: str | None = None) -> None:
        self.ledger = ledger
        self.heartbeat_file = heartbeat_file  # touched on every round (``chase project --health``)
        self.env = dict(env)
        self.poll = poll
        self.settle = settle
        self.caught_up = threading.Event()  # set after each catch-up that found the views current
        self.batches = 0

    @property
    def on_postgres(self) -> bool:
        return self.env.get("PERSISTENCE_MODULE") == "eventsourcing.postgres"

    def run(self, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                if self.on_postgres:
                    self._listen(stop)
                else:
                    self._poll(stop)
            except Exception:
                log.warning("projection runner: catch-up failed; retrying", exc_info=True)
                stop.wait(min(5.0, self.poll * 2))

    def catch_up(self) -> int:
        written = self.ledger.updater.catch_up()
        if written:
            self.batches += 1
        self.caught_up.set()
        if self.heartbeat_file:
            try:
                with open(self.heartbeat_file, "a"):
                    os.utime(self.heartbeat_file)
            except OSError:
                log.warning("projection runner: cannot touch %s", self.heartbeat_file)
        return len(written)

    def _poll(self, stop: threading.Event) -> None:
        while not stop.is_set():
            self.catch_up()
            stop.wait(self.poll)

    def _listen(self, stop: threading.Event) -> None:
        import psycopg
        from psycopg.sql import SQL, Identifier

        env = self.env
        conn = psycopg.connect(
            dbname=env["POSTGRES_DBNAME"], host=env["POSTGRES_HOST"], port=env["POSTGRES_PORT"],
            user=env["POSTGRES_USER"], password=env["POSTGRES_PASSWORD"], autocommit=True,
            connect_timeout=int(float(env.get("POSTGRES_CONNECT_TIMEOUT") or 10)),
        )
        try:
            conn.execute(SQL("LISTEN {0}").format(Identifier(self.ledger.recorder.channel_name)))
            self.catch_up()  # whatever was recorded before LISTEN
            while not stop.is_set():
                notified = False
                for _ in conn.notifies(timeout=self.poll, stop_after=1):
                    notified = True
                if notified and self.settle:
                    time.sleep(self.settle)
                    for _ in conn.notifies(timeout=0, stop_after=1000):  # drain what came meanwhile
                        pass
                self.catch_up()  # also on a quiet poll: a safety net for a missed notification
        finally:
            conn.close()


class Sweeper:
    """Sends again the jobs that are pending (Redis was down), lost by Redis, or abandoned by a
    worker that died (lease expired), every ``interval`` seconds."""

    def __init__(self, jobs: Any, interval: float = 5.0) -> None:
        self.jobs = jobs
        self.interval = interval

    def run(self, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                self.jobs.sweep()
            except Exception as e:  # noqa: BLE001 - Redis or the database away: next round
                log.warning("sweeper: %s", e)
            stop.wait(self.interval)


def start(target: Any, stop: threading.Event, name: str) -> threading.Thread:
    thread = threading.Thread(target=target, args=(stop,), name=name, daemon=True)
    thread.start()
    return thread
