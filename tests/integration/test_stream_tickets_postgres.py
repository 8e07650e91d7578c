"""Stream tickets on PostgreSQL: two API processes agree on the key kept in the database."""
from __future__ import annotations

from application.access import Principal


def test_a_ticket_one_process_issued_opens_the_stream_in_another(ledger_factory):
    first, second = ledger_factory(), ledger_factory()  # no CHASE_LEDGER_TICKET_SECRET: one is generated
    keeper = Principal("keeper", "chase-1", (), "keeper")

    ticket = first.tickets.issue("chase-1", keeper)["ticket"]

    assert second.tickets.redeem("chase-1", ticket) == keeper
