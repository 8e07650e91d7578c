"""The Savage Worlds chase aggregates as event-sourced objects: stable topics, deterministic
replay, undo, and refusals of other systems' procedures (domain only, no application)."""
from __future__ import annotations

import hashlib
from typing import Any
from uuid import uuid4

import pytest

from domain.dice import Draw, TableDice, derive_index
from domain.recorded_chase import RecordedChase
from domain.rules.savage_worlds.cards import FULL_DECK, card, shuffled as cards_shuffled
from domain.rules.savage_worlds.errors import InvalidValue, RuleBroken
from domain.rules.savage_worlds.swade_aggregate import SwadeChase
from domain.rules.savage_worlds.swd_aggregate import SwdChase
from domain.verification import dice_of, shuffled

ROW = ["2S", "3H", "4D", "5C", "RJ", "6S", "7H", "8D", "9C"]


class SeededDice:
    """Server dice without the infrastructure: die i of roll ``sequence`` from derive_index."""

    def __init__(self, seed: bytes, chase_id: Any, entropy: str = "", epoch: int = 0) -> None:
        self.seed, self.chase_id, self.entropy, self.epoch = seed, str(chase_id), entropy, epoch

    def draw(self, sequence, dice):
        faces = tuple(d.face(derive_index(self.seed, self.chase_id, sequence, i, d.sides, self.entropy)) for i, d in enumerate(dice))
        return Draw(faces, {"kind": "server", "epoch": self.epoch, "entropy": self.entropy})


class DeckDice:
    """savage_decks.DeckDice over one seed (the chase never reveals it here)."""

    def __init__(self, seed: bytes, chase: Any) -> None:
        self.seed, self.chase = seed, chase

    def for_shuffle(self):
        return SeededDice(self.seed, self.chase.id, self.chase.entropy, self.chase.seed_epoch)

    def for_provenance(self, provenance):
        return SeededDice(self.seed, self.chase.id, provenance.get("entropy", ""), provenance.get("epoch", 0))


class Played:
    """A chase and every event it recorded, to replay it to any version (as the repository does)."""

    def __init__(self, cls, dice: str = "table", seed: bytes = b"seed") -> None:
        self.seed = seed
        self.chase = cls.start(uuid4(), "A chase", dice, hashlib.sha256(seed).hexdigest())
        self.events = list(self.chase.collect_events())
        self.decks = DeckDice(seed, self.chase)

    def do(self, command) -> Any:
        result = command(self.chase)
        self.events += self.chase.collect_events()
        return result

    def at(self, version: int) -> Any:
        state = None
        for event in self.events[:version]:
            state = event.mutate(state)
        return state

    def undo(self, count: int = 1) -> None:
        self.do(lambda c: c.undo(count, self.at(c.undo_target(count)), "gm"))


def swade(dice: str = "table", seed: bytes = b"seed") -> Played:
    played = Played(SwadeChase, dice, seed)
    played.do(lambda c: c.add_participant("sedan", {"name": "Sedan", "kind": "vehicle", "role": "chaser", "toughness": 10, "top_speed": 60}))
    played.do(lambda c: c.add_participant("dan", {"name": "Dan", "with_id": "sedan", "seat": "driver", "maneuver_die": "d8"}))
    played.do(lambda c: c.add_participant("bike", {"name": "Bike", "kind": "vehicle", "role": "quarry", "toughness": 8, "top_speed": 60}))
    played.do(lambda c: c.add_participant("eve", {"name": "Eve", "with_id": "bike", "seat": "driver", "maneuver_die": "d8"}))
    cards = ROW if dice == "table" else 9
    played.do(lambda c: c.begin("vehicular", {"sedan": 3, "bike": 5}, chase_cards=cards, deck_dice=played.decks))
    return played


# -- topics ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("cls, prefix", [(SwadeChase, "swade:Chase"), (SwdChase, "swd:Chase")])
def test_every_event_has_its_own_stable_topic(cls, prefix):
    assert cls.TOPIC == prefix
    events = {name: value for name, value in vars(cls).items() if isinstance(value, type) and issubclass(value, RecordedChase.Event) and name != "Event"}
    events["Created"] = cls.Created
    assert len(events) >= 30
    for name, event in events.items():
        assert event.__dict__["TOPIC"] == f"{prefix}.{name}", name


def test_the_two_systems_share_no_topic():
    def topics(cls):
        return {v.TOPIC for v in vars(cls).values() if isinstance(v, type) and "TOPIC" in v.__dict__}

    assert not topics(SwadeChase) & topics(SwdChase)


# -- replay and undo ------------------------------------------------------------------------------


def test_replaying_the_events_gives_the_same_state():
    played = swade()
    played.do(lambda c: c.deal_action_cards({"sedan": "KH", "bike": "5D"}))
    played.do(lambda c: c.change_position(TableDice([5, 2]), "dan", 1))
    played.do(lambda c: c.damage(TableDice([5, 5]), "bike", "2d6", roller_id="dan"))
    replayed = played.at(len(played.events))
    assert vars(replayed) == vars(played.chase)
    assert played.chase.track.positions == {"sedan": 4, "bike": 5}
    assert [f["kind"] for f in played.chase.pending] == ["control roll", "bump"]


def test_undo_restores_the_row_positions_and_turn_and_keeps_the_roll_numbers():
    played = swade()
    played.do(lambda c: c.deal_action_cards({"sedan": "KH", "bike": "5D"}))
    played.do(lambda c: c.change_position(TableDice([5, 2]), "dan", 1))
    played.undo()
    chase = played.chase
    assert chase.track.positions == {"sedan": 3, "bike": 5} and chase.turn["changed_position"] is False
    assert chase.rolls_made == 1  # never reused
    roll = played.do(lambda c: c.change_position(TableDice([2, 3]), "dan", 1))
    assert [e.roll["sequence"] for e in played.events if getattr(e, "roll", None)] == [1, 2] and not roll.success


def test_a_name_a_chase_does_not_have_is_an_attribute_error_not_a_refusal():
    # A Savage Worlds chase has no Call of Cthulhu procedure, and no name made by a typo: asking
    # for one is a bug in the caller (AttributeError), never a refusal by the rules (a 409). A
    # command sent to a chase of another system is refused by the core instead (the runner).
    chase = swade().chase
    with pytest.raises(AttributeError) as raised:
        chase.roll_speed("dan")
    assert not isinstance(raised.value, RuleBroken)
    with pytest.raises(AttributeError):
        chase.recorded_rols()  # a typo of recorded_rolls
    assert not hasattr(chase, "place_obstacle")


def test_a_savage_participant_spec_is_checked():
    played = Played(SwdChase)
    with pytest.raises(InvalidValue) as refused:
        played.do(lambda c: c.add_participant("x", {"name": "X", "role": "chaser", "mov": 7}))
    assert refused.value.field == "mov"
    with pytest.raises(InvalidValue, match="role"):
        played.do(lambda c: c.add_participant("x", {"name": "X", "role": "pursuer"}))


# -- the verifier reads a shuffle as the deck does ----------------------------------------------------


def test_the_verifier_shuffles_as_the_deck_does():
    codes = [c.code for c in FULL_DECK]
    roll = {"shuffle": {"cards": codes}}
    dice = dice_of(roll)
    assert [d.sides for d in dice] == list(range(54, 1, -1))
    faces = [d.face(derive_index(b"s", "chase", 7, i, d.sides)) for i, d in enumerate(dice)]
    assert shuffled(codes, faces) == [c.code for c in cards_shuffled(FULL_DECK, faces)]
    assert [card(c) for c in shuffled(codes, faces)] == list(cards_shuffled(FULL_DECK, faces))


# -- the deck running out, a turn ending after its unit left the chase -----------------------------


def test_a_physical_action_deck_that_runs_out_is_shuffled_again_with_the_cards_in_play_kept_out():
    played = swade()
    order = [c.code for c in FULL_DECK if not c.is_joker] + ["RJ", "BJ"]
    for round_number in range(27):
        pair = order[2 * round_number: 2 * round_number + 2]
        played.do(lambda c: c.deal_action_cards({"sedan": pair[0], "bike": pair[1]}))
        while played.chase.whose_turn is not None:
            if played.chase.pending:
                played.do(lambda c: c.resolve(TableDice([7, 2])))  # every Complication avoided
            else:
                played.do(lambda c: c.end_turn(c.whose_turn))
    shuffles = [e.reason for e in played.events if type(e).__name__ == "DeckShuffled" and e.deck == "action"]
    assert shuffles[-1].startswith("the deck has run out")
    assert played.chase.deck("action").undealt == tuple(FULL_DECK)


def test_a_unit_wrecked_in_its_own_turn_can_still_end_it():
    played = Played(SwadeChase)
    for pid, spec in {
        "sedan": {"name": "Sedan", "kind": "vehicle", "role": "chaser", "toughness": 10, "top_speed": 60},
        "dan": {"name": "Dan", "with_id": "sedan", "seat": "driver", "maneuver_die": "d8"},
        "van": {"name": "Van", "kind": "vehicle", "role": "chaser", "toughness": 10, "top_speed": 60},
        "vic": {"name": "Vic", "with_id": "van", "seat": "driver", "maneuver_die": "d8"},
        "bike": {"name": "Bike", "kind": "vehicle", "role": "quarry", "toughness": 8, "top_speed": 60},
        "eve": {"name": "Eve", "with_id": "bike", "seat": "driver", "maneuver_die": "d8"},
    }.items():
        played.do(lambda c: c.add_participant(pid, spec))
    played.do(lambda c: c.begin("vehicular", {"sedan": 2, "van": 2, "bike": 5}, chase_cards=ROW))
    played.do(lambda c: c.deal_action_cards({"sedan": "KH", "van": "QH", "bike": "5D"}))
    played.do(lambda c: c.change_position(TableDice([1, 1]), "dan", 1))  # Out of Control
    played.do(lambda c: c.resolve(TableDice([1, 1])))  # Major Collision: d4 Wounds and a Critical Hit
    played.do(lambda c: c.resolve(TableDice([4])))  # four Wounds: wrecked
    chase = played.chase
    assert chase.participants["sedan"].status == "wrecked" and chase.participants["dan"].status == "wrecked"
    assert chase.phase == "running" and chase.whose_turn == "sedan" and "sedan" not in chase.track.positions
    played.do(lambda c: c.resolve(TableDice([3, 3])))  # its Critical Hit: the wreck takes no more
    played.do(lambda c: c.end_turn("dan"))
    ended = [e for e in played.events if type(e).__name__ == "TurnEnded"][-1]
    assert chase.whose_turn == "van" and (ended.participant_id, ended.reason) == ("sedan", "wrecked")
