"""The record of a Savage Worlds chase: the same event log, dice sources, undo, hash chain and
verifier as every chase, with the server's deck (DESIGN.md sections 4 to 6)."""
from __future__ import annotations

import copy

import pytest

from domain.chain import hash_record
from domain.verification import VerificationFailed
from infrastructure.systems import verify
from tests.e2e.savage_worlds_table import SavageTable
from tests.e2e.test_savage_worlds_swade_maneuvers import cars


def server_chase(client) -> SavageTable:
    table = SavageTable(client, "swade", dice="server")
    table.vehicle_with_driver("Sedan", "chaser", "Dan")
    table.vehicle_with_driver("Bike", "quarry", "Eve")
    table.begin(mode="vehicular", placements={"Sedan": 2, "Bike": 6})
    return table


def dealt(chase: dict) -> dict[str, str]:
    return {c["participant_id"]: c["card"] for c in chase["action_cards"]}


def rechain(export: dict) -> dict:
    """Rehash a changed export so that only the verifier's recomputation can catch the change."""
    previous = "0" * 64
    for event in export["events"]:
        event["data"]["previous_hash"] = previous
        event["hash"] = previous = hash_record({k: event[k] for k in ("chase_id", "version", "type", "recorded_at", "data")})
    return export


# -- the server's deck --------------------------------------------------------------------------------


def test_a_deal_undone_and_dealt_again_gives_the_same_cards_and_stays_in_the_log(client):
    table = server_chase(client)
    first = dealt(table.post("/swade/action-cards")["chase"])

    chase = table.post("/undo", {"count": 1})["chase"]
    assert chase["action_cards"] == [] and chase["round"] == 0
    again = dealt(table.post("/swade/action-cards")["chase"])

    assert again == first
    names = table.names()
    assert names.count("ActionCardDealt") == 4 and "Undone" in names  # the undone deal is still in the log


def test_entropy_given_after_the_shuffle_does_not_change_the_cards_to_come(client):
    table = server_chase(client)
    first = dealt(table.post("/swade/action-cards")["chase"])
    table.post("/undo", {"count": 1})
    table.post("/entropy", {"entropy": "the players' lucky charm"})
    assert dealt(table.post("/swade/action-cards")["chase"]) == first


def test_a_seed_revealed_mid_chase_reshuffles_the_deck_before_its_next_deal(client):
    table = server_chase(client)
    table.post("/reveal-seed")
    table.post("/swade/action-cards")
    shuffles = [e for e in table.events() if e["name"] == "DeckShuffled"]
    assert shuffles[-1]["data"]["reason"].startswith("the seed of its shuffle was revealed")
    assert shuffles[-1]["data"]["provenance"]["epoch"] == 1


def test_the_export_verifies_every_server_roll_and_every_card_dealt(client):
    table = server_chase(client)
    table.post("/swade/action-cards")
    table.post("/swade/trait-rolls", {"participant_id": table.ids["Dan"], "trait_die": "d8", "purpose": "Notice"})
    table.post("/end", {"outcome": "abandoned"})
    export = table.get("/export")

    report = verify(export)
    rolls = [e["data"]["roll"] for e in export["events"] if e["data"].get("roll")]
    assert [r.get("kind") for r in rolls][:2] == ["shuffle", "shuffle"]
    assert report.server_rolls_verified == len(rolls) and report.seeds_revealed == 1
    assert report.cards_verified == 9 + 2  # the row and the two Action cards
    # No shuffle shows its order: only the cards it holds.
    assert all("dice" not in r for r in rolls if r.get("kind") == "shuffle")

    # A dealt card changed (and the chain rehashed to hide it) is caught at its event.
    forged = copy.deepcopy(export)
    deal = next(e for e in forged["events"] if e["name"] == "ActionCardDealt")
    deal["data"]["card"] = "QH" if deal["data"]["card"] != "QH" else "KH"
    with pytest.raises(VerificationFailed) as failed:
        verify(rechain(forged))
    assert failed.value.version == deal["version"] and "revealed seed puts" in failed.value.reason

    # A card claimed to come from a shuffle that is not in the log is caught too.
    forged = copy.deepcopy(export)
    deal = next(e for e in forged["events"] if e["name"] == "ChaseCardDealt")
    deal["data"]["shuffle_sequence"] = 999
    with pytest.raises(VerificationFailed) as failed:
        verify(rechain(forged))
    assert failed.value.version == deal["version"] and "not a server shuffle" in failed.value.reason

    # A server trait roll's face changed is caught as well.
    forged = copy.deepcopy(export)
    roll_event = next(e for e in forged["events"] if e["name"] == "TraitRolled")
    die = roll_event["data"]["roll"]["dice"][0]
    die["face"] = 1 if die["face"] != 1 else 2
    with pytest.raises(VerificationFailed) as failed:
        verify(rechain(forged))
    assert failed.value.version == roll_event["version"]


def test_a_deluxe_chase_with_the_servers_dice_and_deck(client):
    table = SavageTable(client, "swd", dice="server")
    table.add(name="Hunter", role="chaser", maneuver_die="d12+2", spirit="d6", toughness=6, pace=6)
    table.add(name="Thief", role="quarry", maneuver_die="d4", wild_card=False, toughness=5, pace=6)
    table.begin(length=1)
    body = table.act("Hunter", "maneuver")
    roll = body["rolls"][0]
    assert roll["source"]["kind"] == "server" and roll["trait_die"] == "d12+2" and roll["trait_bonus"] == 2
    hunter = table.who(body["chase"], "Hunter")
    assert len(hunter["action_cards"]) == (1 + roll["raises"] if roll["success"] else 0)
    if table.pending(body["chase"]) == ["keep card"]:
        table.resolve()
    table.act("Thief", "maneuver")
    chase = table.track()
    while chase["phase"] == "running":
        if chase["pending"]:
            chase = table.resolve()["chase"]
        else:
            chase = table.end_turn(next(n for n, i in table.ids.items() if i == chase["whose_turn"]))["chase"]
    assert chase["outcome"] in ("escaped", "captured")
    report = verify(table.get("/export"))
    dealt_cards = sum(1 for e in table.events() if e["name"] == "ActionCardDealt")
    assert report.cards_verified == dealt_cards and report.server_rolls_unverifiable == 0


# -- undo, redo, time travel -------------------------------------------------------------------------


def test_undo_and_redo_a_maneuver(client):
    table = cars(client)
    before = table.track()
    moved = table.act("Sedan", "change-position", direction=1, table_dice=[5, 2])["chase"]
    assert table.position("Sedan", moved) == 4

    chase = table.post("/undo")["chase"]
    assert table.position("Sedan", chase) == 3 and chase["locations"] == before["locations"]
    [undone] = [r for r in table.rolls() if r["purpose"] == "Change Position"]
    assert undone["undone"] and [d["face"] for d in undone["roll"]["dice"]] == [5, 2]
    # The maneuver is no longer used this turn: it may be taken again, with new dice.
    table.act("Sedan", "change-position", direction=-1, table_dice=[5, 2])
    assert [r["sequence"] for r in table.rolls() if r["purpose"] == "Change Position"] == [1, 2]


def test_redo_restores_the_undone_maneuver(client):
    table = cars(client)
    table.act("Sedan", "change-position", direction=1, table_dice=[5, 2])
    table.post("/undo")
    chase = table.post("/redo")["chase"]
    assert table.position("Sedan", chase) == 4


def test_time_travel_shows_the_row_and_the_vehicles_as_they_were(client):
    table = cars(client)
    version = table.track()["version"]
    table.act("Sedan", "change-position", direction=1, table_dice=[5, 2])
    table.damage("Bike", "2d6+8", [5, 5])
    past = table.get(f"/track?version={version}")["chase"]
    assert table.position("Sedan", past) == 3 and past["version"] == version
    vehicles = table.get(f"/vehicles?version={version}")["vehicles"]
    assert next(v for v in vehicles if v["name"] == "Bike")["wounds"] == 0
    assert table.vehicle("Bike")["wounds"] == 2


def test_commands_answer_with_the_version_and_chain_head(client):
    table = cars(client)
    response = table.http.post(table.url(f"/swade/participants/{table.ids['Sedan']}/evade"), json={})
    chase = response.get_json()["chase"]
    assert response.headers["ETag"] == f'"{chase["version"]}-compact"' and response.headers["X-Chain-Head"] == chase["chain_head"]
    assert table.events()[-1]["hash"] == chase["chain_head"]


def test_every_kind_of_savage_roll_reads_back_from_its_faces(client):
    table = SavageTable(client, "swade")
    table.vehicle_with_driver("Sedan", "chaser", "Dan")
    table.add(name="Goon", with_id="Sedan", maneuver_die="d6", wild_card=False, toughness=5)
    table.vehicle_with_driver("Bike", "quarry", "Eve")
    table.begin(mode="vehicular", placements={"Sedan": 3, "Bike": 5}, row=["2S", "3H", "4D", "5C", "RJ", "6S", "7H", "8D", "9C"])
    table.deal(Sedan="RJ", Bike="5D")
    table.post("/swade/trait-rolls", {"participant_id": table.ids["Goon"], "trait_die": "d6", "table_dice": [1, 4]})  # an Extra's 1 and its check die
    table.act("Sedan", "change-position", direction=1, table_dice=[1, 1])  # a Critical Failure, Joker or not
    table.resolve(table_dice=[1, 1])  # Out of Control 2: Major Collision
    table.resolve(table_dice=[2])  # d4 Wounds
    table.resolve(table_dice=[4, 5])  # Critical Hit: Crew
    # d8 (Str), d6, the raise's d6; then the d8's and the d6's aces rerolled; the Joker's +2.
    table.damage("Bike", "Str+d6", [8, 6, 4, 2, 3], roller_id="Goon", strength="d8", raise_bonus=True)
    table.post("/end", {"outcome": "abandoned"})
    export = table.get("/export")

    report = verify(export)
    assert report.rolls == report.table_rolls == 6

    forged = copy.deepcopy(export)
    damage = next(e for e in forged["events"] if e["name"] == "DamageRolled")
    assert damage["data"]["roll"]["total"] == 8 + 2 + 6 + 3 + 4 + 2
    damage["data"]["roll"]["total"] += 5
    with pytest.raises(VerificationFailed) as failed:
        verify(rechain(forged))
    assert failed.value.version == damage["version"]

    forged = copy.deepcopy(export)
    trait = next(e for e in forged["events"] if e["name"] == "TraitRolled" and e["data"]["roll"]["purpose"] == "Change Position")
    trait["data"]["roll"]["critical_failure"] = False
    with pytest.raises(VerificationFailed, match="trait roll 2"):
        verify(rechain(forged))
