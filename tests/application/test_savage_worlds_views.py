"""Savage Worlds chases in the application: views are projections of the log (rebuildable, read
your writes), snapshots reload exactly, and the server's deck deals through the seed vault."""
from __future__ import annotations

from uuid import UUID

from hypothesis import given, settings
from hypothesis import strategies as st

from application.access import KEEPER, Principal
from application.dice import DiceChoice
from infrastructure.bootstrap import build_ledger


def play_deluxe(ledger, rounds: int = 8) -> UUID:
    """A Deluxe chase without end, on the server's dice and deck, played round after round."""
    chase_id = UUID(ledger.create_chase("A long Deluxe chase", "server", "swd")["chase_id"])
    hunter, _, _ = ledger.commands["savage_worlds"].add_savage_participant(chase_id, "swd", {"name": "Hunter", "role": "chaser", "maneuver_die": "d8", "spirit": "d6", "toughness": 7, "pace": 6})
    ledger.commands["savage_worlds"].add_savage_participant(chase_id, "swd", {"name": "Thief", "role": "quarry", "maneuver_die": "d6", "spirit": "d6", "toughness": 6, "pace": 6})
    _, _, view = ledger.commands["savage_worlds"].begin_swd(chase_id, None)
    while view["round"] <= rounds and view["phase"] == "running":
        if view["pending"]:
            _, _, view = ledger.commands["savage_worlds"].savage_resolve(chase_id, "swd", {})
        elif view["stage"] == "maneuvering":
            pid = next(p for p, v in view["participants"].items() if v["cards_earned"] is None)
            _, _, view = ledger.commands["savage_worlds"].swd_maneuver(chase_id, pid)
        else:
            _, _, view = ledger.commands["savage_worlds"].savage_end_turn(chase_id, "swd", view["whose_turn"])
    return chase_id


def play_swade(ledger) -> UUID:
    chase_id = UUID(ledger.create_chase("Cars", "table", "swade")["chase_id"])
    sedan, _, _ = ledger.commands["savage_worlds"].add_savage_participant(chase_id, "swade", {"name": "Sedan", "kind": "vehicle", "role": "chaser", "toughness": 10, "top_speed": 60})
    ledger.commands["savage_worlds"].add_savage_participant(chase_id, "swade", {"name": "Dan", "with_id": sedan, "seat": "driver", "maneuver_die": "d8"})
    bike, _, _ = ledger.commands["savage_worlds"].add_savage_participant(chase_id, "swade", {"name": "Bike", "kind": "vehicle", "role": "quarry", "toughness": 8, "top_speed": 60})
    ledger.commands["savage_worlds"].add_savage_participant(chase_id, "swade", {"name": "Eve", "with_id": bike, "seat": "driver", "maneuver_die": "d8"})
    ledger.commands["savage_worlds"].begin_swade(chase_id, "vehicular", {sedan: 3, bike: 3}, chase_cards=["2S", "3H", "4D", "5C", "RJ", "6S", "7H", "8D", "9C"])
    ledger.commands["savage_worlds"].deal_action_cards(chase_id, {sedan: "KH", bike: "5D"})
    ledger.commands["savage_worlds"].swade_maneuver(chase_id, sedan, "ram", {"target_id": bike, "modifier": 0, "defender_modifier": 0}, dice=DiceChoice(faces=[7, 5]), defender_dice=DiceChoice(faces=[3, 2]))
    ledger.commands["savage_worlds"].savage_resolve(chase_id, "swade", {}, DiceChoice(faces=[4, 4, 4, 4, 4]))  # 2d6, Toughness d6, speed d6, raise d6: 20 against 8
    return chase_id


def test_views_rebuilt_from_the_log_equal_the_live_ones(ledger):
    swade, swd = play_swade(ledger), play_deluxe(ledger, rounds=3)
    live = {cid: (ledger.track(cid), ledger.vehicles(cid), ledger.rolls(cid)) for cid in (swade, swd)}
    assert live[swade][1]["vehicles"][1]["wounds"] == 3

    ledger.views.clear(ledger.name)
    ledger.updater.catch_up()

    for cid, (track, vehicles, rolls) in live.items():
        assert ledger.track(cid) == track and ledger.vehicles(cid) == vehicles and ledger.rolls(cid) == rolls


def test_a_long_savage_chase_reloads_from_its_snapshot_with_the_same_state(tmp_path):
    env = {"SQLITE_DBNAME": str(tmp_path / "chase.sqlite3")}
    writer = build_ledger(env)
    chase_id = play_deluxe(writer)
    snapshots = list(writer.snapshots.get(chase_id, desc=True, limit=1))
    if snapshots and snapshots[0].originator_version == writer.repository.get(chase_id).version:
        # The server's dice ended the chase right on a snapshot: one more event to read after it.
        writer.history.contribute_entropy(chase_id, "one more event after the snapshot")
    assert snapshots and snapshots[0].originator_version < writer.repository.get(chase_id).version

    reader = build_ledger(env)
    from_snapshot = reader.repository.get(chase_id)
    replayed = None
    for event in reader.events.get(chase_id):
        replayed = event.mutate(replayed)
    assert vars(from_snapshot) == vars(replayed)
    assert reader.track(chase_id) == writer.track(chase_id)
    writer.close()
    reader.close()


@settings(max_examples=8, deadline=None)
@given(entropy=st.text(min_size=1, max_size=10))
def test_the_servers_deck_deals_the_same_cards_after_an_undo(entropy):
    ledger = build_ledger({"SQLITE_DBNAME": ":memory:"})
    try:
        chase_id = UUID(ledger.create_chase("Cards", "server", "swade")["chase_id"])
        ids = [ledger.commands["savage_worlds"].add_savage_participant(chase_id, "swade", spec)[0] for spec in (
            {"name": "Rook", "role": "chaser", "maneuver_die": "d8"},
            {"name": "Knight", "role": "quarry", "maneuver_die": "d8"},
        )]
        ledger.commands["savage_worlds"].begin_swade(chase_id, "foot", {ids[0]: 2, ids[1]: 6})
        _, _, first = ledger.commands["savage_worlds"].deal_action_cards(chase_id)
        ledger.history.undo(chase_id, by=Principal(KEEPER))
        ledger.history.contribute_entropy(chase_id, entropy)
        _, _, again = ledger.commands["savage_worlds"].deal_action_cards(chase_id)
        assert again["action_cards"] == first["action_cards"]
        events = [e["name"] for e in ledger.history.chase_events(chase_id)]
        assert events.count("ActionCardDealt") == 4
    finally:
        ledger.close()
