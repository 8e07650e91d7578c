"""Analytics on PostgreSQL: the session scenario and the player's report, collected again here
(the ``ledger`` fixture builds the application on PostgreSQL), and a rebuild from the log."""
from __future__ import annotations

import pytest

from application.access import SYSTEM
from tests.application.test_analytics_record import (  # noqa: F401
    test_a_campaign_reports_every_chase_of_its_sessions,
    test_analytics_rebuilt_from_the_log_equal_the_live_ones,
    test_undo_requests_are_counted_for_the_player_who_asked,
)
from tests.e2e.test_analytics_session import (  # noqa: F401
    test_a_player_reads_the_session_without_the_keepers_rolls,
    test_a_session_of_two_chases_reports_what_the_keeper_works_out_by_hand,
    test_only_a_chases_keeper_adds_it_to_a_session,
)

pytestmark = pytest.mark.postgres


def test_the_undone_mark_reaches_the_postgres_analytics_facts(ledger, pg):
    from tests.application.test_analytics_record import harvey_and_the_farmer

    chase_id, harvey, _ = harvey_and_the_farmer(ledger)
    ledger.commands["coc7e"].move(chase_id, harvey, 1)
    ledger.history.undo(chase_id, 1)

    facts = ledger.views.analytics_facts([str(chase_id)])

    moves = [f for f in facts if f["kind"] == "count" and f["data"]["name"] == "movement actions spent"]
    assert [(f["undone"], f["undone_by"]) for f in moves] == [(True, "system")]
    assert ledger.analytics.chase_report(chase_id, SYSTEM)["game"]["undos"] == 1
