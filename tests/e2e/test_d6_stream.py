"""A D6 chase followed live over Server-Sent Events, through a real HTTP server: its movement
events arrive as recorded, like every chase's (api/stream.py)."""
from __future__ import annotations

from uuid import UUID

from application.declared import Request
from application.dice import DiceChoice
from application.systems.d6.inputs import D6Begin, D6Move, D6ParticipantCreate
from tests.e2e.test_stream import Served, served  # noqa: F401  (the fixture: the API on a real server)


def test_a_d6_chase_streams_its_moves_and_round_ends_as_recorded(served: Served):  # noqa: F811
    # Step 1: a D6 chase on server dice, a pursuer and a quarry, begun.
    ledger = served.ledger
    view, token = ledger.start_chase("Over the rooftops", dice="server", system="d6")
    chase_id = UUID(view["chase_id"])
    d6 = ledger.declared
    ann = d6.send(d6.command("d6", "add_participant"), chase_id, D6ParticipantCreate("Ann", "pursuer", 10, "3D")).outcome.participant_id
    d6.send(d6.command("d6", "add_participant"), chase_id, D6ParticipantCreate("Thief", "quarry", 10, "3D", position=30))
    d6.send(d6.command("d6", "begin"), chase_id, D6Begin())

    # Step 2: a front-end follows it; Ann runs and the GM ends the round.
    stream = served.stream(chase_id, token)
    assert stream.status == 200
    d6.send(d6.command("d6", "move"), chase_id, D6Move("running", 20), Request(dice=DiceChoice()), participant_id=ann)
    d6.send(d6.command("d6", "end_round"), chase_id)
    final = ledger.track(chase_id)["version"]
    seen = stream.take_until(final)
    stream.close()

    # Step 3: every event, in order, as the log has it.
    log = ledger.history.chase_events(chase_id)
    assert [e["id"] for e in seen] == list(range(1, final + 1))
    assert [e["data"] for e in seen] == log
    assert [e["event"] for e in seen][-3:] == ["Moved", "RoundEnded", "RoundBegan"]
