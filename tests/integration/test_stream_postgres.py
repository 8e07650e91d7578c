"""Live updates on PostgreSQL without Redis: a stream hears every API process's commands.

The stream's process polls the event log (its notification ids) for the chases its streams
follow, so the commands of another process (another gunicorn worker, another container) reach
the stream without Redis; each event once, in order.
"""
from __future__ import annotations

from collections.abc import Iterator
from uuid import UUID

import pytest

from application.dice import DiceChoice
from infrastructure.bootstrap import build_ledger
from tests.e2e.test_stream import Served

pytestmark = pytest.mark.postgres


@pytest.fixture
def served(postgres_env: dict[str, str]) -> Iterator[Served]:
    served = Served({**postgres_env, "CHASE_LEDGER_STREAM_POLL": "0.2", "CHASE_LEDGER_STREAM_HEARTBEAT": "0.3"})
    yield served
    served.close()


def test_a_stream_on_postgresql_hears_another_process_once_each(served: Served):
    view, token = served.ledger.start_chase("Across containers", dice="server")
    chase_id = UUID(view["chase_id"])
    other = build_ledger(served.env)  # another API process, on the same database
    try:
        stream = served.stream(chase_id, token)
        assert [e["id"] for e in stream.take(1)] == [1]

        # Rolls in the other process and in this one, interleaved.
        for n in range(6):
            ledger = other if n % 2 else served.ledger
            ledger.commands["coc7e"].roll_dice(chase_id, "1D6", purpose=f"roll {n}", dice=DiceChoice())

        events = stream.take_until(7)
        stream.close()
        assert [e["id"] for e in events] == [2, 3, 4, 5, 6, 7]
        assert [e["data"]["data"]["roll"]["purpose"] for e in events] == [f"roll {n}" for n in range(6)]
    finally:
        other.close()
