"""Hazards, barriers, conflict and vehicles through the application layer: server dice, the roll
history, snapshots and rebuilt views keep the new state exactly (issue 3).
"""
from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from application.access import KEEPER, Principal
from application.dice import DiceChoice
from application.systems.coc7e.rolls import RollChoices
from domain.errors import InvalidInput
from infrastructure.bootstrap import build_ledger


def play(ledger: Any, dice: str = "server") -> tuple[UUID, dict[str, str]]:
    """A car chasing Harvey's bicycle past a hazard and a barrier, with server dice (or table)."""
    chase_id = UUID(ledger.create_chase("Bicycle chase", dice=dice)["chase_id"])
    ids: dict[str, str] = {}

    def add(name: str, **spec: Any) -> str:
        ids[name], _ = ledger.commands["coc7e"].add_participant(chase_id, {"name": name, **spec})
        return ids[name]

    add("Car", kind="vehicle", chart_vehicle="Car, economy", role="pursuer")  # MOV 13 to the bicycle's 10: 4 movement actions
    add("Driver", dex=60, mov=8, vehicle_id=ids["Car"], seat="driver", skills={"Drive Auto": 50}, hp=12)
    add("Bicycle", kind="vehicle", chart_vehicle="Bicycle", role="quarry")
    add("Harvey", dex=55, mov=8, vehicle_id=ids["Bicycle"], seat="driver", skills={"Ride": 60}, hp=12)
    for vehicle in ("Car", "Bicycle"):
        ledger.commands["coc7e"].roll_speed(chase_id, ids[vehicle], DiceChoice(faces=[40, 0]))
    ledger.commands["coc7e"].cut_to_the_chase(chase_id, opening_range=1)
    ledger.commands["coc7e"].name_location(chase_id, 2, "Bridge")
    ledger.commands["coc7e"].place_obstacle(chase_id, {"kind": "hazard", "between": [1, "Bridge"], "name": "Potholes", "skills": ["Drive Auto", "Ride"]})
    ledger.commands["coc7e"].place_obstacle(chase_id, {"kind": "barrier", "between": ["Bridge", 3], "preset": "Internal door or thin wooden fence", "skills": ["Ride"]})
    return chase_id, ids


def test_a_chase_with_server_dice_records_every_roll_in_the_history(ledger):
    chase_id, ids = play(ledger)
    # The car's turn (DEX 60): up to the potholes, then across them with the server's dice.
    ledger.commands["coc7e"].move(chase_id, ids["Car"], 1)
    outcome, view = ledger.commands["coc7e"].negotiate(chase_id, ids["Car"], skill="Drive Auto")
    assert outcome["rolls"][0]["source"]["kind"] == "server"
    if outcome["mishap"]:
        ledger.commands["coc7e"].rule_consequences(chase_id, ids["Car"])
    rolls = ledger.rolls(chase_id)
    sequences = [r["sequence"] for r in rolls]
    assert sequences == list(range(1, len(rolls) + 1))  # no gaps: every roll is a row
    assert {r["event"] for r in rolls} >= {"SpeedRolled", "SkillRolled"}
    assert any(r["purpose"] == "negotiate hazard: Potholes" for r in rolls)


def test_a_table_dice_chase_may_ask_the_server_for_a_whole_command(ledger):
    chase_id, ids = play(ledger, dice="table")
    ledger.commands["coc7e"].move(chase_id, ids["Car"], 1)
    with pytest.raises(InvalidInput) as missing:  # the core dice resolver refuses it
        ledger.commands["coc7e"].negotiate(chase_id, ids["Car"], skill="Drive Auto")
    assert missing.value.field == "rolls.skill" and "d100" in missing.value.message
    outcome, _ = ledger.commands["coc7e"].negotiate(chase_id, ids["Car"], skill="Drive Auto", rolls=RollChoices(source="server"))
    assert outcome["rolls"][0]["source"]["kind"] == "server"


def test_time_travel_shows_the_vehicle_build_view_before_a_loss(ledger):
    chase_id, ids = play(ledger, dice="table")
    keeper = Principal(KEEPER, str(chase_id))
    before = ledger.track(chase_id)["version"]
    ledger.commands["coc7e"].rule_consequences(chase_id, ids["Car"], incident="moderate", delay=False, rolls=RollChoices(faces={"damage": [3], f"occupants.{ids['Driver']}": [2]}), by=keeper)
    now = ledger.vehicles(chase_id)["vehicles"][0]
    then = ledger.history.view_at(chase_id, before, "vehicles")["vehicles"][0]
    assert (now["build"], now["condition"], len(now["build_losses"])) == (1, "impaired", 1)
    assert (then["build"], then["condition"], then["build_losses"]) == (4, "sound", [])


def long_play(ledger: Any) -> UUID:
    """Enough commands for snapshots: obstacles, a mishap, Build lost, the bicycle's 0.5 Build."""
    chase_id, ids = play(ledger, dice="table")
    table = lambda **faces: RollChoices(faces=faces)
    ledger.commands["coc7e"].move(chase_id, ids["Car"], 1)
    ledger.commands["coc7e"].negotiate(chase_id, ids["Car"], skill="Drive Auto", rolls=table(skill=[90, 5]))
    ledger.commands["coc7e"].rule_consequences(chase_id, ids["Car"], rolls=RollChoices(faces={"damage": [3], f"occupants.{ids['Driver']}": [1], "movement_actions": [1]}))
    for round_ in range(8):
        view = ledger.track(chase_id)
        for pid in list(view["turn_order"]):
            if ledger.track(chase_id)["whose_turn"] == pid:
                ledger.commands["coc7e"].end_turn(chase_id, pid)
        ledger.commands["coc7e"].name_location(chase_id, 10 + round_, f"Street {round_}")
    return chase_id


def test_the_new_state_survives_snapshots_and_view_rebuilds_exactly(tmp_path):
    env = {"SQLITE_DBNAME": str(tmp_path / "chase.sqlite3")}
    writer = build_ledger(env)
    chase_id = long_play(writer)
    live_track, live_vehicles, live_rolls = writer.track(chase_id), writer.vehicles(chase_id), writer.rolls(chase_id)
    assert live_vehicles["vehicles"][1]["starting_build"] == 0.5
    assert live_vehicles["vehicles"][0]["build_losses"]

    # A snapshot was taken along the way; a fresh process loads the chase from it, equal to a replay.
    snapshots = list(writer.snapshots.get(chase_id, desc=True, limit=1))
    assert snapshots
    reader = build_ledger(env)
    from_snapshot = reader.repository.get(chase_id)
    replayed = None
    for event in reader.events.get(chase_id):
        replayed = event.mutate(replayed)
    assert vars(from_snapshot) == vars(replayed)
    assert from_snapshot.obstacles and from_snapshot.location_names and from_snapshot.build_losses

    # Views cleared and caught up from the log again are exactly as they were.
    writer.views.clear(writer.name)
    writer.updater.catch_up()
    assert writer.track(chase_id) == live_track
    assert writer.vehicles(chase_id) == live_vehicles
    assert writer.rolls(chase_id) == live_rolls
    writer.close()
    reader.close()
