"""On PostgreSQL: how the event recorder (infrastructure/postgres_recorder.py) copes with what the
server, a pooler or a write along will not do, and what it leaves on its connections.

Measured before (session 9 review): behind PgBouncer (which refuses libpq's startup ``options``)
the API could not connect at all; every connection of the pool kept the events table's lock
timeout for every statement of every store; a database without the recording function cost
every command a failed call; a write the folding stand-in cursor could not take failed the
command; a view row over an index's size limit (SQLSTATE class 54) was retried as a busy store
and then failed the command.
"""
from __future__ import annotations

import logging
import secrets
from typing import Any
from uuid import UUID

import psycopg
import pytest
from eventsourcing.persistence import DataError

from api import create_app
from infrastructure.postgres_recorder import FoldedWrites
from infrastructure.settings import ConfigurationError, persistence_env
from tests.conftest import BearerClient, ChaseClient
from tests.e2e.record_helpers import HARVEY, running, undo

pytestmark = pytest.mark.postgres

# What PgBouncer answers a client whose start-up packet holds ``options`` (unless its
# ignore_startup_parameters names it), as psycopg raises it.
POOLER_REFUSAL = 'connection failed: connection to server at "127.0.0.1", port 6432 failed: FATAL:  unsupported startup parameter: options'
RECORD_CALL = b'"chaseledger_events_record"('  # the recording function's call, as the recorder sends it


def chase_client(ledger: Any) -> ChaseClient:
    app = create_app(lambda: ledger)
    app.config["TESTING"] = True
    return ChaseClient(BearerClient(app.test_client()).client)


def roll(keeper: ChaseClient, face: int) -> dict[str, Any]:
    return keeper.ok(keeper.post("/dice-rolls", {"expression": "1D6", "table_dice": [face]}))


def behind_a_pooler_refusing_startup_options(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every connection made with startup options is refused, as PgBouncer refuses it."""
    connect = psycopg.Connection.connect.__func__  # type: ignore[attr-defined]

    def refusing(cls: Any, conninfo: str = "", **kwargs: Any) -> Any:
        if kwargs.get("options"):
            raise psycopg.OperationalError(POOLER_REFUSAL)
        return connect(cls, conninfo, **kwargs)

    monkeypatch.setattr(psycopg.Connection, "connect", classmethod(refusing))


def counted_calls(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """The recording function's calls sent from now on, by any connection of this process."""
    calls: list[bytes] = []
    execute = psycopg.Cursor.execute

    def counting(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(query, bytes) and RECORD_CALL in query:
            calls.append(query)
        return execute(self, query, *args, **kwargs)

    monkeypatch.setattr(psycopg.Cursor, "execute", counting)
    return calls


def pool_settings(ledger: Any, *names: str) -> set[tuple[str, ...]]:
    """The settings of every connection of the ledger's pool, outside any transaction."""
    pool = ledger.factory.datastore.pool
    conns = [pool.getconn() for _ in range(pool.max_size)]
    try:
        return {tuple(c.execute(f"SHOW {name}").fetchone()[name] for name in names) for c in conns}
    finally:
        for conn in conns:
            pool.putconn(conn)


def recorded_with_views(pg: psycopg.Connection, chase_id: str) -> tuple[int, int]:
    """The chase's last event's version, and its views' version."""
    (events,) = pg.execute("SELECT max(originator_version) FROM chaseledger_events WHERE originator_id = %s", (chase_id,)).fetchone()
    (views,) = pg.execute("SELECT version FROM chase_track_views WHERE chase_id = %s", (chase_id,)).fetchone()
    return events, views


def set_aside(pg: psycopg.Connection) -> list[tuple[str, int, str]]:
    return pg.execute("SELECT chase_id, version, error FROM chase_projection_errors").fetchall()


def test_behind_a_pooler_that_refuses_startup_options_commands_are_still_recorded(pg, ledger_factory, monkeypatch, caplog):
    # Given PostgreSQL behind a pooler that refuses libpq's startup options,
    behind_a_pooler_refusing_startup_options(monkeypatch)
    # when an API process starts and a chase is played through it,
    caplog.set_level(logging.WARNING, logger="infrastructure.postgres_startup")
    ledger = ledger_factory()
    keeper = chase_client(ledger)
    running(keeper)
    rolled = roll(keeper, 4)
    # then its commands are recorded, with their views,
    assert recorded_with_views(pg, keeper.chase_id) == (rolled["chase"]["version"],) * 2
    # on connections made without the options (the server's own plan_cache_mode),
    assert pool_settings(ledger, "plan_cache_mode") == {("auto",)}
    # and the operator is told once, however many connections the pool made.
    told = [r for r in caplog.records if "startup options" in r.getMessage()]
    assert len(told) == 1 and "unsupported startup parameter: options" in told[0].getMessage()


def test_startup_options_can_be_turned_off(pg, postgres_env, ledger_factory):
    # Given an operator who turned the startup options off (a pooler that would refuse them),
    postgres_env["CHASE_LEDGER_POSTGRES_STARTUP_OPTIONS"] = "off"
    ledger = ledger_factory()
    keeper = chase_client(ledger)
    running(keeper)
    # then the commands are recorded on connections that started without them.
    rolled = roll(keeper, 2)
    assert recorded_with_views(pg, keeper.chase_id) == (rolled["chase"]["version"],) * 2
    assert pool_settings(ledger, "plan_cache_mode") == {("auto",)}
    # A value that is neither is refused when the process starts.
    with pytest.raises(ConfigurationError):
        persistence_env(dict(postgres_env, CHASE_LEDGER_POSTGRES_STARTUP_OPTIONS="sometimes"))


def test_the_events_lock_timeout_stays_in_the_transactions_that_lock_the_events(pg, postgres_env, ledger_factory):
    # Given an API process whose commands wait at most 7 seconds for the events table's lock,
    postgres_env["POSTGRES_LOCK_TIMEOUT"] = "7"
    ledger = ledger_factory()
    keeper = chase_client(ledger)
    running(keeper)
    # when commands are recorded by the recording function (a roll) and in a pipeline (an undo's marks),
    roll(keeper, 5)
    undo(keeper)
    # then no connection of the pool keeps that timeout for the other stores' statements,
    (default,) = pg.execute("SHOW lock_timeout").fetchone()
    assert pool_settings(ledger, "lock_timeout", "plan_cache_mode") == {(default, "force_generic_plan")}
    # while the function sets it for the command's transaction alone.
    (source,) = pg.execute("SELECT prosrc FROM pg_proc WHERE proname = 'chaseledger_events_record'").fetchone()
    assert "set_config('lock_timeout', '7s', true)" in source


def test_a_process_that_found_the_recording_function_missing_calls_it_no_more(keeper, pg, ledger_factory, monkeypatch):
    # Given a chase, on a database whose recording function is missing (an older schema),
    running(keeper)
    pg.execute('DROP FUNCTION "chaseledger_events_record"')
    calls = counted_calls(monkeypatch)
    # when commands are sent, each is recorded with its views,
    for face in (1, 2, 3):
        rolled = roll(keeper, face)
        assert recorded_with_views(pg, keeper.chase_id) == (rolled["chase"]["version"],) * 2
    # but only the first called the function: the others went straight to the pipeline.
    assert len(calls) == 1
    # A process started afterwards makes the function again and records through it.
    later = chase_client(ledger_factory())
    later.http.token, later.chase_id = keeper.http.token, keeper.chase_id
    rolled = roll(later, 6)
    assert recorded_with_views(pg, keeper.chase_id) == (rolled["chase"]["version"],) * 2
    assert len(calls) == 2


def test_a_write_the_folding_stand_in_cannot_take_goes_in_the_pipeline(keeper, ledger, pg, monkeypatch):
    # Given a chase, and a view write that fails when sent to the stand-in cursor that folds the
    # writes into the recording function (as a write that renders its statement would),
    running(keeper)
    write_in = ledger.views.write_in

    def unfoldable(cursor: Any, encoded: Any) -> Any:
        if isinstance(cursor, FoldedWrites):
            raise TypeError("a cursor with no connection to render with")
        return write_in(cursor, encoded)

    monkeypatch.setattr(ledger.views, "write_in", unfoldable)
    # when a command is sent, it is recorded with its views, in the pipeline,
    rolled = roll(keeper, 3)
    assert recorded_with_views(pg, keeper.chase_id) == (rolled["chase"]["version"],) * 2
    assert set_aside(pg) == []
    assert keeper.track()["version"] == rolled["chase"]["version"]


def test_a_view_write_that_fails_on_every_cursor_sets_the_chase_aside(keeper, ledger, pg, monkeypatch):
    # Given a chase, and a view write that fails whatever cursor it is sent to,
    running(keeper)
    before, _ = recorded_with_views(pg, keeper.chase_id)

    def failing(cursor: Any, encoded: Any) -> Any:
        raise DataError("the store refuses these rows")

    monkeypatch.setattr(ledger.views, "write_in", failing)
    # when a command is sent, it is recorded all the same (as on SQLite),
    rolled = roll(keeper, 3)
    assert recorded_with_views(pg, keeper.chase_id) == (rolled["chase"]["version"], before)
    # and the chase is set aside for the operator, at the command's event, with the error.
    assert set_aside(pg) == [(keeper.chase_id, rolled["chase"]["version"], "DataError: the store refuses these rows")]
    assert keeper.track()["version"] == rolled["chase"]["version"]


def test_a_view_row_over_an_index_size_limit_sets_the_chase_aside_at_once(keeper, ledger, pg, monkeypatch):
    # Given a chase, and a participant whose id is longer than a btree index row may be (2704
    # bytes; random, so that PostgreSQL cannot compress it): the track's rows are keyed by it,
    keeper.create()
    chase_id = UUID(keeper.chase_id)
    long_id = secrets.token_urlsafe(3000)
    calls = counted_calls(monkeypatch)
    # when the command that adds it is recorded (SQLSTATE 54000, program limit exceeded),
    done = ledger.runner.run(chase_id, lambda c: c.add_participant(long_id, HARVEY))
    # then its event is recorded, without trying the refused write again,
    events, views = recorded_with_views(pg, keeper.chase_id)
    assert events == done.track["version"] and views == events - 1
    assert len(calls) == 1
    # the chase is set aside for the operator with PostgreSQL's error,
    [(aside, version, error)] = set_aside(pg)
    assert (aside, version) == (keeper.chase_id, events) and "index row size" in error
    # and reads show the participant, rendered from the chase's events.
    assert long_id in ledger.track(chase_id)["participants"]
    # The projector's retry meets the same refusal: the chase stays set aside, no store busy.
    [retried] = ledger.updater.retry(keeper.chase_id)
    assert retried["projected"] is False and retried["attempts"] == 2 and "index row size" in retried["error"]
