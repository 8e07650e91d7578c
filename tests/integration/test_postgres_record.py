"""The record (issue 4) on PostgreSQL: undo, rewind, redo, time travel, the roll history's undone
marks, the seed, export and verify, and tokens shared by every API process.

A selection of the e2e tests is collected again here, where the ``ledger`` fixture
(tests/integration/conftest.py) builds the application on PostgreSQL.
"""
from __future__ import annotations

from typing import Any

import pytest

from api import create_app
from tests.conftest import BearerClient, ChaseClient
from tests.e2e.record_helpers import game, problem, running, undo

# Collected again here, on PostgreSQL.
from tests.e2e.test_authorisation import (  # noqa: F401
    chase,
    test_a_player_requests_an_undo_and_the_keeper_accepts_it,
    test_a_token_of_another_chase_is_403_both_ways,
)
from tests.e2e.test_roll_history_and_seed import (  # noqa: F401
    exported,
    test_a_server_roll_after_a_mid_chase_reveal_uses_the_new_epoch_and_verifies_at_the_end,
    test_an_untouched_export_verifies_and_its_summary_counts_what_it_holds,
    test_the_roll_history_filters,
)
from tests.e2e.test_undo_rewind_redo import (  # noqa: F401
    test_rewinding_to_before_an_undo_makes_the_undone_actions_count_again,
    test_time_travel_to_every_version_equals_the_log_replayed_up_to_it,
    test_undo_and_redo_of_each_kind_of_event_restore_the_exact_state,
    test_undo_of_several_actions_across_a_round_boundary_is_one_event,
)

pytestmark = pytest.mark.postgres


def http(ledger: Any, token: str | None = None) -> BearerClient:
    app = create_app(lambda: ledger)
    app.config["TESTING"] = True
    return BearerClient(app.test_client(), token)


def test_tokens_issued_through_one_process_work_through_another(keeper, ledger_factory, pg):
    running(keeper)
    other = ChaseClient(http(ledger_factory()).client)  # another API process
    other.chase_id, other.ids = keeper.chase_id, keeper.ids
    assert problem(other.http.get(f"/chases/{keeper.chase_id}/track"), 401)

    other.http.token = keeper.keeper_token  # the Keeper's token, issued by the first process
    keeper.move("Harvey", 1)
    undone = undo(other)
    assert undone["whose_turn"] == keeper.ids["Harvey"]
    harvey = other.player("Harvey")  # a player token issued by the other process ...
    first = ChaseClient(keeper.http.client)
    first.chase_id, first.ids, first.http.token = keeper.chase_id, keeper.ids, harvey.keeper_token
    moved = first.move("Harvey", 1)  # ... works through the first
    assert problem(first.post(f"/participants/{keeper.ids['Farmer']}/move", {"locations": 1}), 403)
    assert game(keeper.track()) == game(moved) and other.track() == keeper.track()
    # Only hashes are stored.
    stored = " ".join(str(row) for row in pg.execute("SELECT * FROM chase_tokens").fetchall())
    assert keeper.keeper_token not in stored and harvey.keeper_token not in stored
    assert pg.execute("SELECT count(*) FROM chase_tokens").fetchone() == (2,)


def test_undone_marks_are_in_the_postgres_roll_history(keeper, pg):
    running(keeper)
    keeper.ok(keeper.post("/dice-rolls", {"expression": "1D6", "table_dice": [5]}))
    undo(keeper)
    rows = pg.execute(
        "SELECT sequence, undone, undone_by FROM chase_roll_history WHERE chase_id = %s ORDER BY sequence", (keeper.chase_id,)
    ).fetchall()
    assert rows == [(1, False, None), (2, False, None), (3, True, "keeper")]
    keeper.ok(keeper.post("/redo"))
    (undone,) = pg.execute("SELECT undone FROM chase_roll_history WHERE chase_id = %s AND sequence = 3", (keeper.chase_id,)).fetchone()
    assert undone is False


def test_each_command_notifies_the_events_channel_once_it_is_committed(keeper, pg):
    # Given a chase, and a session listening on the events table's channel (as eventsourcing's
    # subscriptions and projection runners listen),
    keeper.create()
    pg.execute('LISTEN "chaseledger_events"')
    list(pg.notifies(timeout=0.2))  # the chase's creation, already told
    # when a command is recorded,
    keeper.ok(keeper.post("/dice-rolls", {"expression": "1D6", "table_dice": [4]}))
    # then the listener is told, once.
    told = list(pg.notifies(timeout=1.0))
    assert [(n.channel, n.payload) for n in told] == [("chaseledger_events", "")]


def test_a_database_not_yet_given_the_recording_function_still_records_commands_and_their_views(keeper, pg):
    # Given a chase, on a database whose function that records a command's events and views is
    # not there (made by a process of an earlier version, still serving beside this one),
    running(keeper)
    pg.execute('DROP FUNCTION "chaseledger_events_record"')
    # when a command is sent, its roll is recorded, and its views with it,
    rolled = keeper.ok(keeper.post("/dice-rolls", {"expression": "1D6", "table_dice": [4]}))
    (events,) = pg.execute("SELECT max(originator_version) FROM chaseledger_events WHERE originator_id = %s", (keeper.chase_id,)).fetchone()
    (views,) = pg.execute("SELECT version FROM chase_track_views WHERE chase_id = %s", (keeper.chase_id,)).fetchone()
    assert views == events
    assert pg.execute("SELECT count(*) FROM chase_roll_history WHERE chase_id = %s AND version = %s", (keeper.chase_id, events)).fetchone() == (1,)
    assert keeper.track()["version"] == rolled["chase"]["version"] == events
