"""The worked examples of tests/e2e, played again over HTTP on PostgreSQL.

The e2e test functions are imported so that pytest collects them here too, where the
``ledger`` fixture (tests/integration/conftest.py) builds the application on PostgreSQL.
"""
from __future__ import annotations

import pytest
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore

from infrastructure.postgres_store import PostgresChaseViews
from infrastructure.postgres_tables import PostgresSeedVault

# Every test function of the e2e module, collected again here, on PostgreSQL.
from tests.e2e.test_harvey_and_the_farmer import *
from tests.e2e.test_harvey_and_the_farmer import FARMER, HARVEY, set_up

pytestmark = pytest.mark.postgres


def test_the_ledger_here_is_built_on_postgres(ledger):
    assert isinstance(ledger.recorder, PostgresApplicationRecorder)
    assert isinstance(ledger.factory.datastore, PostgresDatastore)
    assert isinstance(ledger.views, PostgresChaseViews)
    assert isinstance(ledger.seeds, PostgresSeedVault)
    assert ledger.recorder.events_table_name == "chaseledger_events"


def test_a_scenario_leaves_its_rows_in_the_postgres_tables(keeper, pg, ledger):
    set_up(keeper)
    keeper.speed_roll("Harvey", [70, 2])
    keeper.speed_roll("Farmer", [80, 0])
    keeper.cut()
    keeper.move("Harvey", 1)
    chase = keeper.move("Farmer", 2)

    chase_id = keeper.chase_id
    events = pg.execute(
        "SELECT originator_version FROM chaseledger_events WHERE originator_id = %s ORDER BY originator_version",
        (chase_id,),
    ).fetchall()
    assert [v for (v,) in events] == list(range(1, chase["version"] + 1))
    assert pg.execute("SELECT version FROM chase_track_views WHERE chase_id = %s", (chase_id,)).fetchone() == (chase["version"],)
    rolls = pg.execute("SELECT sequence FROM chase_roll_history WHERE chase_id = %s ORDER BY sequence", (chase_id,)).fetchall()
    assert [s for (s,) in rolls] == [1, 2]
    assert pg.execute("SELECT count(*) FROM chase_seeds WHERE chase_id = %s", (chase_id,)).fetchone() == (1,)
    # Commands wrote their chase's views; the projector, following the log, finds them there.
    assert ledger.updater.catch_up() == {}
    (tracked,) = pg.execute("SELECT notification_id FROM chaseledger_tracking WHERE application_name = 'ChaseLedger'").fetchone()
    (last,) = pg.execute("SELECT max(notification_id) FROM chaseledger_events").fetchone()
    assert tracked == last
    # The participants the scenario added are in the view PostgreSQL holds.
    # The views are stored per chase by name ("track", "vehicles"), the track's participants a row each.
    (doc,) = pg.execute("SELECT doc -> 'track' FROM chase_track_views WHERE chase_id = %s", (chase_id,)).fetchone()
    assert doc["chase_id"] == chase_id
    rows = pg.execute("SELECT doc FROM chase_track_rows WHERE chase_id = %s", (chase_id,)).fetchall()
    assert {row["name"] for (row,) in rows} == {HARVEY["name"], FARMER["name"]}
