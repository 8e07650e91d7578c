"""The chase rules of coc7e-chases.txt on the aggregate itself: no storage, no HTTP, table dice.

The pure procedures (establish, movement actions, DEX order) are tested as functions; the Chase
aggregate is driven command by command and its events are replayed to check they alone make
its state (DESIGN.md section 3: applying an event is deterministic).
"""
from __future__ import annotations

from typing import Any
from uuid import uuid4

import pytest

from domain.dice import InvalidTableDice, TableDice
from domain.rules.coc7e.chase import Chase, InvalidCommand, ParticipantNotFound, RuleBroken
from domain.rules.coc7e.establishing import establish
from domain.rules.coc7e.movement import allotment, dex_order, movement_actions
from domain.rules.coc7e.participants import InvalidParticipant

REGULAR = [40, 0]  # 40 against CON 50: a regular success, MOV unchanged
FAILURE = [70, 2]  # 72 against CON 50: a failure, MOV - 1


def new_chase() -> Chase:
    return Chase.start(uuid4(), "x", "table", "c")


def add(chase: Chase, name: str, **spec: Any) -> str:
    """Add a participant whose id is its name, so the tests read as the Keeper's notes."""
    defaults = {"dex": 50, "con": 50} if spec.get("kind", "character") != "vehicle" else {}
    chase.add_participant(name, {"name": name, **defaults, **spec})
    return name


def roll_speeds(chase: Chase, faces: list[int] = REGULAR) -> None:
    for p in chase.on_track():
        chase.roll_speed(p.id, TableDice(faces))


def event_names(events: list[Any]) -> list[str]:
    return [type(e).__name__ for e in events]


def harvey_and_the_farmer() -> Chase:
    """coc7e-chases.txt part 2: Harvey MOV 5 after a failed CON roll, the farmer MOV 6."""
    chase = new_chase()
    add(chase, "Harvey", role="quarry", dex=55, con=60, mov=6)
    add(chase, "Farmer", role="pursuer", dex=50, con=55, mov=7)
    chase.roll_speed("Harvey", TableDice([70, 2]))
    chase.roll_speed("Farmer", TableDice([80, 0]))
    chase.cut_to_the_chase()
    return chase


# -- "Speed Roll" -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "faces, level, mov_after",
    [
        ([0, 1], "critical", 7),  # 01: a critical is at least an extreme success
        ([10, 2], "extreme", 7),  # 12 against CON 60: extreme (<= 12), +1 MOV
        ([30, 0], "hard", 6),  # 30: hard, no change
        ([60, 0], "regular", 6),  # 60: regular, no change
        ([70, 2], "failure", 5),  # 72: failure, -1 MOV
        ([0, 0], "fumble", 5),  # 00 with 0 is 100: a fumble fails, -1 MOV
    ],
)
def test_the_speed_roll_adjusts_mov_for_the_chase(faces, level, mov_after):
    chase = new_chase()
    add(chase, "Harvey", role="quarry", con=60, mov=6)

    record = chase.roll_speed("Harvey", TableDice(faces))

    assert record["level"] == level
    harvey = chase.participants["Harvey"]
    assert (harvey.mov, harvey.speed_mov, harvey.chase_mov) == (6, mov_after, mov_after)
    rolled = chase.collect_events()[-1]
    assert (type(rolled).__name__, rolled.mov_before, rolled.mov_after) == ("SpeedRolled", 6, mov_after)


def test_the_speed_roll_record_keeps_every_die_and_its_provenance():
    chase = new_chase()
    add(chase, "Harvey", role="quarry", con=60, mov=6)

    record = chase.roll_speed("Harvey", TableDice([10, 2], entered_by="Harvey's player"))

    assert record["sequence"] == 1 and chase.rolls_made == 1
    assert (record["purpose"], record["skill"], record["target"], record["roller"]) == ("speed roll", "CON", 60, "Harvey")
    assert record["tens"] == [{"face": 10, "kept": True}] and record["units"] == 2
    assert (record["result"], record["level"]) == (12, "extreme")
    assert record["source"] == {"kind": "table", "entered_by": "Harvey's player", "sequence": 1}


def test_faces_that_do_not_fit_the_roll_are_refused_and_nothing_is_recorded():
    chase = new_chase()
    add(chase, "Harvey", role="quarry", con=60, mov=6)
    chase.collect_events()

    for faces in ([5, 2], [70, 10], [70], [70, 2, 3], [True, 2]):
        with pytest.raises(InvalidTableDice):
            chase.roll_speed("Harvey", TableDice(faces))

    assert chase.collect_events() == []
    assert chase.participants["Harvey"].speed_mov is None and chase.rolls_made == 0


def test_a_participant_makes_one_speed_roll_per_chase():
    chase = new_chase()
    add(chase, "Harvey", role="quarry", con=60, mov=6)
    chase.roll_speed("Harvey", TableDice([70, 2]))

    with pytest.raises(RuleBroken) as refused:
        chase.roll_speed("Harvey", TableDice([10, 2]))

    assert "Speed Roll" in refused.value.rule
    assert chase.participants["Harvey"].speed_mov == 5


# -- Establishing the chase: pure function ----------------------------------------------------


def test_establish_places_several_pursuers_and_quarries_by_mov():
    # "Chases with Multiple Characters": the slowest pursuer at the back, the others ahead by
    # their MOV difference; the slowest quarry two ahead of the foremost pursuer, the others
    # ahead of it by their MOV difference.
    result = establish({"p7": 7, "p8": 8, "p10": 10}, {"q7": 7, "q9": 9})

    assert result.placements == {"p7": 0, "p8": 1, "p10": 3, "q7": 5, "q9": 7}
    assert result.escaped == [] and result.left_behind == []


def test_establish_with_the_tenser_opening_range_of_one():
    result = establish({"p7": 7, "p8": 8, "p10": 10}, {"q7": 7, "q9": 9}, opening_range=1)

    assert result.placements == {"p7": 0, "p8": 1, "p10": 3, "q7": 4, "q9": 6}


def test_a_pursuer_slower_than_the_slowest_quarry_is_left_behind_before_placing():
    # Pursuers MOV 6, 7, 9 after quarries MOV 7, 8: the MOV 6 pursuer "is left behind", so
    # the MOV 7 pursuer is the one at the back.
    result = establish({"p6": 6, "p7": 7, "p9": 9}, {"q7": 7, "q8": 8})

    assert result.left_behind == ["p6"]
    assert result.placements == {"p7": 0, "p9": 2, "q7": 4, "q8": 5}


def test_establish_lets_a_quarry_faster_than_every_pursuer_escape_unless_it_stays():
    pursuers, quarries = {"p7": 7}, {"q6": 6, "q9": 9}

    fled = establish(pursuers, quarries)
    stayed = establish(pursuers, quarries, staying={"q9"})

    assert fled.escaped == ["q9"] and fled.placements == {"p7": 0, "q6": 2}
    assert stayed.escaped == [] and stayed.placements == {"p7": 0, "q6": 2, "q9": 5}


def test_establish_compares_speeds_one_on_one():
    # "Compare speeds": the quarry escapes when faster; an equal MOV establishes a chase.
    assert establish({"farmer": 6}, {"harvey": 7}).escaped == ["harvey"]
    assert not establish({"farmer": 6}, {"harvey": 7}).chase_is_on
    assert establish({"farmer": 6}, {"harvey": 6}).placements == {"farmer": 0, "harvey": 2}


def test_establish_with_every_pursuer_left_behind_means_the_quarries_got_away():
    result = establish({"p4": 4}, {"q5": 5, "q6": 6}, staying={"q6"})

    assert result.left_behind == ["p4"]
    assert sorted(result.escaped) == ["q5", "q6"] and result.placements == {}


# -- Movement actions and DEX order: pure functions -------------------------------------------


def test_movement_actions_are_one_plus_the_mov_difference_to_the_slowest():
    assert [movement_actions(mov, 6) for mov in (6, 7, 9)] == [1, 2, 4]


def test_allotment_pays_what_is_owed_from_this_rounds_actions():
    # The farmer (2 movement actions a round) slipped in the mud and owes 1.
    assert allotment(6, 5, owed=0) == (2, 0)
    assert allotment(6, 5, owed=1) == (1, 0)


def test_allotment_carries_a_debt_larger_than_a_round_into_the_next_rounds():
    # A slowest participant (1 action a round) who lost 3 movement actions pays over 3 rounds.
    actions, owed = allotment(6, 6, owed=3)
    assert (actions, owed) == (0, 2)
    actions, owed = allotment(6, 6, owed=owed)
    assert (actions, owed) == (0, 1)
    actions, owed = allotment(6, 6, owed=owed)
    assert (actions, owed) == (0, 0)
    assert allotment(6, 6, owed=owed) == (1, 0)


def test_dex_order_is_highest_dex_first_ties_to_the_higher_combat_skill_then_joining():
    # Entries: (id, DEX, best Fighting/Firearms, order of joining).
    order = dex_order([("slow", 40, 90, 0), ("brawler", 60, 30, 1), ("gunman", 60, 70, 2), ("twin", 60, 70, 3), ("quick", 80, 0, 4)])

    assert order == ["quick", "gunman", "twin", "brawler", "slow"]


# -- The aggregate: establishing ---------------------------------------------------------------


def test_cut_to_the_chase_places_everyone_and_begins_round_one():
    chase = new_chase()
    for name, role, mov in (("p7", "pursuer", 7), ("p8", "pursuer", 8), ("p10", "pursuer", 10), ("q7", "quarry", 7), ("q9", "quarry", 9)):
        add(chase, name, role=role, mov=mov)
    roll_speeds(chase)
    chase.collect_events()

    chase.cut_to_the_chase()

    assert event_names(chase.collect_events()) == ["ChaseEstablished", "RoundBegan"]
    assert chase.phase == "running" and chase.round == 1
    assert chase.track.positions == {"p7": 0, "p8": 1, "p10": 3, "q7": 5, "q9": 7}
    assert {pid: p.movement_actions for pid, p in chase.participants.items()} == {"p7": 1, "p8": 2, "p10": 4, "q7": 1, "q9": 3}


def test_the_speed_roll_counts_when_speeds_are_compared():
    # Harvey's extreme CON roll (6 -> 7) against the farmer's failure (7 -> 6): Harvey escapes.
    chase = new_chase()
    add(chase, "Harvey", role="quarry", dex=55, con=60, mov=6)
    add(chase, "Farmer", role="pursuer", dex=50, con=55, mov=7)
    chase.roll_speed("Harvey", TableDice([10, 2]))
    chase.roll_speed("Farmer", TableDice([80, 0]))

    chase.cut_to_the_chase()

    assert (chase.phase, chase.outcome) == ("ended", "escaped")
    assert chase.participants["Harvey"].status == "escaped"
    assert chase.whose_turn is None


def test_cutting_to_the_chase_needs_every_speed_roll_and_a_sensible_range():
    chase = new_chase()
    add(chase, "Harvey", role="quarry", mov=6)
    add(chase, "Farmer", role="pursuer", mov=7)
    chase.roll_speed("Harvey", TableDice(REGULAR))

    with pytest.raises(RuleBroken) as refused:
        chase.cut_to_the_chase()
    assert "Speed Roll" in refused.value.rule and "Farmer" in str(refused.value)

    chase.roll_speed("Farmer", TableDice(REGULAR))
    with pytest.raises(InvalidCommand) as invalid:
        chase.cut_to_the_chase(opening_range=3)
    assert invalid.value.field == "opening_range"
    assert chase.phase == "setup"


def test_only_a_quarry_can_choose_to_stay():
    chase = new_chase()
    add(chase, "Harvey", role="quarry", mov=6)
    add(chase, "Farmer", role="pursuer", mov=7)
    roll_speeds(chase)

    with pytest.raises(InvalidCommand) as invalid:
        chase.cut_to_the_chase(staying=["Farmer"])
    with pytest.raises(ParticipantNotFound):
        chase.cut_to_the_chase(staying=["Nobody"])

    assert invalid.value.field == "staying" and chase.phase == "setup"


def test_no_one_joins_after_the_cut_unless_the_table_uses_the_optional_rule():
    # Joining a chase in progress is an optional rule of part 5; this table does not use it.
    chase = harvey_and_the_farmer()
    chase.change_optional_rules([])

    with pytest.raises(RuleBroken) as refused:
        add(chase, "Constable", role="pursuer", mov=8)

    assert "Characters Joining a Chase in Progress" in refused.value.rule and "joining_and_leaving" in refused.value.message
    assert "Constable" not in chase.participants


@pytest.mark.parametrize(
    "spec, field",
    [
        ({"role": "quarry", "con": 50, "mov": 6}, "dex"),
        ({"role": "quarry", "dex": 50, "mov": 6}, "con"),
        ({"role": "quarry", "dex": 50, "con": 50}, "mov"),
        ({"dex": 50, "con": 50, "mov": 6}, "role"),
        ({"role": "quarry", "dex": 50, "con": 50, "mov": 0}, "mov"),
        ({"role": "quarry", "dex": True, "con": 50, "mov": 6}, "dex"),
        ({"role": "quarry", "dex": 50, "con": 50, "mov": 6, "skills": {"Dodge": 500}}, "skills.Dodge"),
        ({"role": "quarry", "dex": 50, "con": 50, "mov": 6, "vehicle_id": "no-such-car"}, "vehicle_id"),
    ],
)
def test_a_participant_described_badly_is_refused_naming_the_field(spec, field):
    chase = new_chase()
    chase.collect_events()

    with pytest.raises(InvalidParticipant) as invalid:
        chase.add_participant("x", {"name": "X", **spec})

    assert invalid.value.field == field
    assert chase.participants == {} and chase.collect_events() == []


# -- The aggregate: rounds ---------------------------------------------------------------------


def test_harvey_and_the_farmer_play_round_one_in_dex_order():
    chase = harvey_and_the_farmer()
    assert chase.track.positions == {"Farmer": 0, "Harvey": 2}
    assert chase.turn_order == ["Harvey", "Farmer"]

    # The farmer may not move before Harvey (DEX 55 before DEX 50).
    with pytest.raises(RuleBroken) as refused:
        chase.move("Farmer", 1)
    assert "Dexterity and the Order of Movement" in refused.value.rule

    # Harvey spends his one movement action: his turn ends by itself.
    chase.move("Harvey", 1)
    assert chase.whose_turn == "Farmer"
    # The farmer cannot move three locations on two movement actions.
    with pytest.raises(RuleBroken) as refused:
        chase.move("Farmer", 3)
    assert "Movement Actions" in refused.value.rule

    chase.collect_events()
    chase.move("Farmer", 2)

    # The gap closed from 2 to 1; round 2 begins with fresh movement actions.
    assert event_names(chase.collect_events()) == ["Moved", "TurnEnded", "RoundEnded", "RoundBegan"]
    assert chase.track.positions == {"Farmer": 2, "Harvey": 3}
    assert chase.round == 2 and chase.whose_turn == "Harvey"
    assert (chase.participants["Harvey"].movement_actions, chase.participants["Farmer"].movement_actions) == (1, 2)


def test_reaching_the_quarrys_location_records_that_the_pursuer_caught_up():
    chase = harvey_and_the_farmer()
    chase.move("Harvey", 1)
    chase.move("Farmer", 2)
    chase.move("Harvey", 1)
    chase.move("Farmer", 1)
    chase.collect_events()

    chase.move("Farmer", 1)

    caught = [e for e in chase.collect_events() if type(e).__name__ == "CaughtUp"]
    assert [(e.pursuer_id, e.quarry_id, e.location) for e in caught] == [("Farmer", "Harvey", 4)]


def test_ending_a_turn_early_forfeits_the_unused_movement_actions():
    chase = harvey_and_the_farmer()
    chase.move("Harvey", 1)
    chase.move("Farmer", 1)
    chase.collect_events()

    chase.end_turn("Farmer")

    ended = chase.collect_events()[0]
    assert (type(ended).__name__, ended.movement_actions_unused) == ("TurnEnded", 1)
    assert chase.round == 2 and chase.track.location_of("Farmer") == 1


def test_a_delayed_participant_acts_after_the_one_waited_for():
    chase = harvey_and_the_farmer()

    chase.delay("Harvey")  # default: until the last has acted

    assert chase.turn_order == ["Farmer", "Harvey"] and chase.whose_turn == "Farmer"
    chase.move("Farmer", 2)  # the farmer reaches Harvey's location before Harvey runs on
    assert chase.whose_turn == "Harvey" and chase.round == 1
    with pytest.raises(RuleBroken) as refused:
        chase.delay("Harvey")
    assert "Actions in a Chase Round" in refused.value.rule


def test_a_delayer_is_not_put_behind_someone_who_never_delayed():
    # All DEX 50: A (Fighting 60) acts first, then C (40), then D (30). A waits for C only.
    chase = new_chase()
    add(chase, "A", role="pursuer", mov=7, skills={"Fighting (Brawl)": 60})
    add(chase, "C", role="pursuer", mov=7, skills={"Fighting (Brawl)": 40})
    add(chase, "D", role="pursuer", mov=7, skills={"Fighting (Brawl)": 30})
    add(chase, "Q", role="quarry", dex=40, mov=7)
    roll_speeds(chase)
    chase.cut_to_the_chase()
    assert chase.turn_order == ["A", "C", "D", "Q"]

    chase.delay("A", until_after="C")

    assert chase.turn_order == ["C", "A", "D", "Q"]


def test_two_delayers_waiting_on_the_same_participant_go_by_dex():
    # "If this leads to more than one character wishing to act simultaneously, the one with
    # the highest DEX takes priority."
    chase = new_chase()
    add(chase, "A", role="pursuer", dex=70, mov=7)
    add(chase, "B", role="pursuer", dex=60, mov=7)
    add(chase, "C", role="quarry", dex=50, mov=7)
    add(chase, "D", role="quarry", dex=40, mov=7)
    roll_speeds(chase)
    chase.cut_to_the_chase()

    chase.delay("A", until_after="C")
    chase.delay("B", until_after="C")

    assert chase.turn_order == ["C", "A", "B", "D"]


def test_nothing_moves_once_the_keeper_ends_the_chase():
    chase = harvey_and_the_farmer()
    chase.end("caught", "the farmer grabs Harvey's collar")

    for command in (lambda: chase.move("Harvey", 1), lambda: chase.end_turn("Harvey"), lambda: chase.end("escaped"),
                    lambda: chase.roll_skill(TableDice([10, 1]), None, "Luck", 50)):
        with pytest.raises(RuleBroken):
            command()
    assert (chase.phase, chase.outcome) == ("ended", "caught")


# -- Replaying the events ------------------------------------------------------------------------


def replay(events: list[Any]) -> Chase:
    chase = None
    for event in events:
        chase = event.mutate(chase)
    assert chase is not None
    return chase


def test_replaying_the_events_rebuilds_the_same_chase():
    # A chase with every kind of event: rolls, a delay, moves, caught up, rounds, the end.
    chase = harvey_and_the_farmer()
    chase.roll_dice(TableDice([2]), "1D3", "Farmer", purpose="lost movement actions")
    chase.move("Harvey", 1)
    chase.move("Farmer", 2)
    chase.delay("Harvey")
    chase.roll_skill(TableDice([30, 0]), "Farmer", "DEX", purpose="mud")
    chase.move("Farmer", 1)  # onto Harvey's location
    chase.end("caught")
    events = chase.collect_events()
    assert {"Created", "ParticipantAdded", "SpeedRolled", "ChaseEstablished", "RoundBegan", "DiceRolled", "Moved",
            "TurnDelayed", "SkillRolled", "CaughtUp", "TurnEnded", "RoundEnded", "ChaseEnded"} <= set(event_names(events))

    rebuilt = replay(events)

    assert rebuilt.version == chase.version == len(events)
    assert vars(rebuilt) == vars(chase)
    assert rebuilt.participants["Farmer"].speed_mov == 6 and rebuilt.track.positions == {"Harvey": 3, "Farmer": 3}


def test_replaying_part_of_the_log_gives_the_state_at_that_point():
    chase = harvey_and_the_farmer()
    established_at = chase.version
    chase.move("Harvey", 1)
    events = chase.collect_events()

    earlier = replay(events[: established_at])

    assert earlier.round == 1 and earlier.whose_turn == "Harvey"
    assert earlier.track.positions == {"Farmer": 0, "Harvey": 2}
    assert chase.track.positions == {"Farmer": 0, "Harvey": 3}
