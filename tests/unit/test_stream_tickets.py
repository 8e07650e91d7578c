"""Stream tickets (application/tickets.py): short-lived, one chase, signed by the server."""
from __future__ import annotations

import pytest

from application.access import Forbidden, Principal, Unauthenticated
from application.tickets import StreamTickets


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_a_ticket_stands_for_the_player_who_asked_until_it_expires():
    clock = Clock()
    tickets = StreamTickets(lambda: b"server secret", ttl=60, clock=clock)
    player = Principal("player", "chase-1", ("p-1", "p-2"), "player (Harvey, Ann)")

    issued = tickets.issue("chase-1", player)
    assert issued["expires"] == 1_000_060

    clock.now += 59  # still good just before it expires: the same player, the same participants
    assert tickets.redeem("chase-1", issued["ticket"]) == player
    clock.now += 2  # expired
    with pytest.raises(Unauthenticated, match="expired"):
        tickets.redeem("chase-1", issued["ticket"])


def test_a_ticket_opens_only_its_chase_and_only_under_the_servers_secret():
    tickets = StreamTickets(lambda: b"server secret")
    ticket = tickets.issue("chase-1", Principal("keeper", "chase-1"))["ticket"]

    with pytest.raises(Forbidden):
        tickets.redeem("chase-2", ticket)
    with pytest.raises(Unauthenticated):  # another server (another secret) does not take it
        StreamTickets(lambda: b"another secret").redeem("chase-1", ticket)
    payload, _, signature = ticket.partition(".")
    raised = payload.replace(payload[-4:], "AAAA")  # a payload edited (say, a later expiry)
    with pytest.raises(Unauthenticated):
        tickets.redeem("chase-1", f"{raised}.{signature}")
