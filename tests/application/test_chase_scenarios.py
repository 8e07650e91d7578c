"""Chase scenarios through the application layer (commands in, views out), with table dice.

coc7e-chases.txt "Chases with Multiple Characters", "Movement Actions", "Dexterity and the Order
of Movement", "Actions in a Chase Round", "Passengers" and "Vehicle Reference Charts"; the
Keeper's skill and dice rolls and the roll history they leave.
"""
from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from application.dice import DiceChoice
from domain.dice import InvalidTableDice
from domain.rules.coc7e.chase import InvalidCommand, RuleBroken
from domain.rules.coc7e.participants import InvalidParticipant

REGULAR = [40, 0]  # 40 against 50: a regular success, MOV unchanged


def table(faces: list[int]) -> DiceChoice:
    return DiceChoice(faces=faces)


class Keeper:
    """The Keeper's side of the table: names for participants, table dice by default."""

    def __init__(self, ledger: Any, name: str = "A chase") -> None:
        self.ledger = ledger
        self.chase_id = UUID(ledger.create_chase(name, dice="table")["chase_id"])
        self.ids: dict[str, str] = {}
        self.names: dict[str, str] = {}

    def add(self, name: str, **spec: Any) -> str:
        if spec.get("kind") != "vehicle":
            spec = {"dex": 50, "con": 50, **spec}
        pid, _ = self.ledger.commands["coc7e"].add_participant(self.chase_id, {"name": name, **spec})
        self.ids[name], self.names[pid] = pid, name
        return pid

    def speed(self, name: str, faces: list[int] = REGULAR) -> dict[str, Any]:
        roll, _ = self.ledger.commands["coc7e"].roll_speed(self.chase_id, self.ids[name], table(faces))
        return roll

    def cut(self, **kw: Any) -> dict[str, Any]:
        return self.ledger.commands["coc7e"].cut_to_the_chase(self.chase_id, **kw)

    def move(self, name: str, locations: int = 1) -> dict[str, Any]:
        return self.ledger.commands["coc7e"].move(self.chase_id, self.ids[name], locations)

    def end_turn(self, name: str) -> dict[str, Any]:
        return self.ledger.commands["coc7e"].end_turn(self.chase_id, self.ids[name])

    def delay(self, name: str, until_after: str | None = None) -> dict[str, Any]:
        after = self.ids[until_after] if until_after else None
        return self.ledger.commands["coc7e"].delay(self.chase_id, self.ids[name], after)

    def track(self) -> dict[str, Any]:
        return self.ledger.track(self.chase_id)

    def events(self) -> list[dict[str, Any]]:
        return self.ledger.history.chase_events(self.chase_id)

    def who(self, view: dict[str, Any], name: str) -> dict[str, Any]:
        return view["participants"][self.ids[name]]

    def order(self, view: dict[str, Any]) -> list[str]:
        return [self.names[pid] for pid in view["turn_order"]]

    def whose_turn(self, view: dict[str, Any]) -> str | None:
        return self.names.get(view["whose_turn"])

    def locations(self, view: dict[str, Any]) -> dict[str, int | None]:
        return {self.names[pid]: p["location"] for pid, p in view["participants"].items()}

    def actions(self, view: dict[str, Any]) -> dict[str, int]:
        return {self.names[pid]: p["movement_actions"] for pid, p in view["participants"].items() if p["status"] == "in_chase"}


@pytest.fixture
def keeper(ledger) -> Keeper:
    return Keeper(ledger)


def everyone_runs(keeper: Keeper, pursuers: dict[str, int], quarries: dict[str, int]) -> None:
    """Add characters on foot and give each a regular speed roll (MOV unchanged)."""
    for role, group in (("pursuer", pursuers), ("quarry", quarries)):
        for name, mov in group.items():
            keeper.add(name, role=role, mov=mov)
            keeper.speed(name)


# -- "Chases with Multiple Characters" -----------------------------------------------------------


def test_pursuers_and_quarries_are_placed_in_mov_order(keeper):
    everyone_runs(keeper, {"Cultist": 7, "Ghoul": 8, "Hound": 10}, {"Harvey": 7, "Amy": 9})

    view = keeper.cut()

    # The slowest pursuer at the back; the others ahead by their MOV difference.
    # The slowest quarry two ahead of the foremost pursuer; the others ahead of it by MOV.
    assert keeper.locations(view) == {"Cultist": 0, "Ghoul": 1, "Hound": 3, "Harvey": 5, "Amy": 7}
    # One movement action plus the MOV above the slowest (7).
    assert keeper.actions(view) == {"Cultist": 1, "Ghoul": 2, "Hound": 4, "Harvey": 1, "Amy": 3}
    assert view["slowest_mov"] == 7 and view["round"] == 1
    assert [row["participants"] for row in view["locations"][:4]] == [[keeper.ids["Cultist"]], [keeper.ids["Ghoul"]], [], [keeper.ids["Hound"]]]


def test_the_keeper_may_open_at_one_location(keeper):
    everyone_runs(keeper, {"Cultist": 7, "Ghoul": 8, "Hound": 10}, {"Harvey": 7, "Amy": 9})

    view = keeper.cut(opening_range=1)

    assert keeper.locations(view) == {"Cultist": 0, "Ghoul": 1, "Hound": 3, "Harvey": 4, "Amy": 6}


def test_a_pursuer_slower_than_the_slowest_quarry_is_left_behind(keeper):
    # Pursuers MOV 6, 7, 9 after quarries MOV 7, 8: the MOV 6 one cannot keep up.
    everyone_runs(keeper, {"Cultist": 6, "Ghoul": 7, "Hound": 9}, {"Harvey": 7, "Amy": 8})

    view = keeper.cut()

    assert keeper.who(view, "Cultist")["status"] == "left_behind"
    assert keeper.locations(view) == {"Cultist": None, "Ghoul": 0, "Hound": 2, "Harvey": 4, "Amy": 5}
    # The one left behind counts neither for the slowest MOV nor for the turn order.
    assert keeper.actions(view) == {"Ghoul": 1, "Hound": 3, "Harvey": 1, "Amy": 2}
    assert "Cultist" not in keeper.order(view)
    with pytest.raises(RuleBroken) as refused:
        keeper.move("Cultist")
    assert "Dexterity and the Order of Movement" in refused.value.rule


def test_a_failed_speed_roll_can_leave_a_pursuer_behind(keeper):
    keeper.add("Farmer", role="pursuer", mov=7)
    keeper.add("Dog", role="pursuer", mov=9)
    keeper.add("Harvey", role="quarry", mov=7)
    keeper.speed("Farmer", [70, 2])  # 72 against CON 50: failure, MOV 6
    keeper.speed("Dog")
    keeper.speed("Harvey")

    view = keeper.cut()

    assert keeper.who(view, "Farmer")["status"] == "left_behind"
    assert keeper.locations(view) == {"Farmer": None, "Dog": 0, "Harvey": 2}
    assert keeper.actions(view) == {"Dog": 3, "Harvey": 1}


def test_a_quarry_faster_than_every_pursuer_escapes_unless_it_stays(ledger):
    # Amy (MOV 9) outruns the cultist (MOV 7); Harvey (MOV 6) does not.
    fled = Keeper(ledger, "Amy runs")
    everyone_runs(fled, {"Cultist": 7}, {"Harvey": 6, "Amy": 9})
    view = fled.cut()
    assert fled.who(view, "Amy")["status"] == "escaped"
    assert fled.locations(view) == {"Cultist": 0, "Harvey": 2, "Amy": None}
    assert view["phase"] == "running"

    # Amy's player chooses to stay with Harvey: she is placed by her MOV and keeps her actions.
    stayed = Keeper(ledger, "Amy stays")
    everyone_runs(stayed, {"Cultist": 7}, {"Harvey": 6, "Amy": 9})
    view = stayed.cut(staying=[stayed.ids["Amy"]])
    assert stayed.who(view, "Amy")["status"] == "in_chase"
    assert stayed.locations(view) == {"Cultist": 0, "Harvey": 2, "Amy": 5}
    assert stayed.actions(view) == {"Cultist": 2, "Harvey": 1, "Amy": 4}


# -- "Dexterity and the Order of Movement", "Actions in a Chase Round" ------------------------


def test_dex_order_breaks_ties_by_the_higher_fighting_or_firearms_skill(keeper):
    keeper.add("Brawler", role="pursuer", dex=60, mov=7, skills={"Fighting (Brawl)": 50})
    keeper.add("Gunman", role="pursuer", dex=60, mov=7, skills={"Firearms (Handgun)": 70, "Dodge": 90})
    keeper.add("Harvey", role="quarry", dex=55, mov=7, skills={"Dodge": 80})
    keeper.add("Dog", role="pursuer", dex=70, mov=7)
    for name in keeper.ids:
        keeper.speed(name)

    view = keeper.cut()

    # Dodge does not count; Firearms 70 beats Fighting 50, though the brawler joined first.
    assert keeper.order(view) == ["Dog", "Gunman", "Brawler", "Harvey"]


def test_a_delayed_participant_acts_after_the_one_it_waits_for(keeper):
    keeper.add("Dog", role="pursuer", dex=70, mov=8)
    keeper.add("Harvey", role="quarry", dex=55, mov=7)
    keeper.add("Farmer", role="pursuer", dex=50, mov=7)
    for name in keeper.ids:
        keeper.speed(name)
    view = keeper.cut()
    assert keeper.order(view) == ["Dog", "Harvey", "Farmer"]

    # The dog waits to see where Harvey runs.
    view = keeper.delay("Dog", until_after="Harvey")

    assert keeper.order(view) == ["Harvey", "Dog", "Farmer"]
    assert keeper.whose_turn(view) == "Harvey"
    with pytest.raises(RuleBroken):
        keeper.move("Dog")
    view = keeper.move("Harvey", 1)
    assert keeper.whose_turn(view) == "Dog"
    assert keeper.who(view, "Dog")["movement_actions"] == 2  # delaying spent nothing


def test_delaying_without_naming_anyone_waits_until_the_last(keeper):
    keeper.add("Dog", role="pursuer", dex=70, mov=8)
    keeper.add("Harvey", role="quarry", dex=55, mov=7)
    keeper.add("Farmer", role="pursuer", dex=50, mov=7)
    for name in keeper.ids:
        keeper.speed(name)
    keeper.cut()

    view = keeper.delay("Dog")

    assert keeper.order(view) == ["Harvey", "Farmer", "Dog"]
    keeper.move("Harvey")
    view = keeper.end_turn("Farmer")
    assert keeper.whose_turn(view) == "Dog"
    # The last to act has no one left to wait for.
    with pytest.raises(RuleBroken) as refused:
        keeper.delay("Dog")
    assert "Actions in a Chase Round" in refused.value.rule


def test_when_everyone_has_acted_round_two_begins_with_fresh_movement_actions(keeper):
    keeper.add("Dog", role="pursuer", dex=70, mov=8)
    keeper.add("Harvey", role="quarry", dex=55, mov=7)
    keeper.add("Farmer", role="pursuer", dex=50, mov=7)
    for name in keeper.ids:
        keeper.speed(name)
    keeper.cut()
    keeper.delay("Dog", until_after="Harvey")

    # Round 1: Harvey runs, the dog runs one of its two, the farmer stands still.
    keeper.move("Harvey", 1)
    view = keeper.move("Dog", 1)
    assert keeper.who(view, "Dog")["movement_actions"] == 1 and keeper.whose_turn(view) == "Dog"
    view = keeper.end_turn("Dog")
    assert (view["round"], keeper.whose_turn(view)) == (1, "Farmer")
    view = keeper.end_turn("Farmer")

    # Round 2: the DEX order again (the delay was for round 1 only), every action back.
    assert view["round"] == 2
    assert keeper.order(view) == ["Dog", "Harvey", "Farmer"] and keeper.whose_turn(view) == "Dog"
    assert keeper.actions(view) == {"Dog": 2, "Harvey": 1, "Farmer": 1}
    assert not any(p["acted"] for p in view["participants"].values())
    names = [e["name"] for e in keeper.events()]
    assert names[-3:] == ["TurnEnded", "RoundEnded", "RoundBegan"]
    assert names.count("TurnEnded") == 3


# -- Vehicles, drivers and "Passengers" ---------------------------------------------------------


def car_chase(keeper: Keeper) -> None:
    """Amy drives a standard car (MOV 14, Build 5, armor 2) with Harvey aboard; a police car follows."""
    keeper.add("Car", kind="vehicle", role="quarry", mov=14, build=5, armor=2, driving_skill="Drive Auto")
    keeper.add("Amy", dex=60, mov=8, vehicle_id=keeper.ids["Car"], seat="driver", skills={"Drive Auto": 60})
    keeper.add("Harvey", dex=55, mov=8, vehicle_id=keeper.ids["Car"], skills={"Firearms (Handgun)": 40})
    keeper.add("Police car", kind="vehicle", role="pursuer", mov=14, build=5, armor=2)
    keeper.add("Officer", dex=58, mov=8, vehicle_id=keeper.ids["Police car"], seat="driver", skills={"Drive Auto": 50})


def test_the_driver_makes_the_vehicles_speed_roll_with_drive_auto(keeper):
    car_chase(keeper)

    car = keeper.speed("Car", [50, 5])  # 55 against Amy's Drive Auto 60: regular
    police = keeper.speed("Police car", [0, 5])  # 05 against the officer's 50: extreme

    assert (car["skill"], car["target"], car["roller"], car["level"]) == ("Drive Auto", 60, keeper.ids["Amy"], "regular")
    assert (police["skill"], police["target"], police["level"]) == ("Drive Auto", 50, "extreme")
    view = keeper.track()
    assert keeper.who(view, "Car")["speed_mov"] == 14 and keeper.who(view, "Police car")["speed_mov"] == 15
    # Neither the driver nor a passenger rolls for themselves.
    for name in ("Amy", "Harvey"):
        with pytest.raises(RuleBroken) as refused:
            keeper.speed(name)
        assert "Speed Roll" in refused.value.rule


def test_a_vehicle_cannot_roll_for_speed_without_a_driver_who_has_the_skill(keeper):
    keeper.add("Truck", kind="vehicle", role="pursuer", mov=13, build=7, armor=2)
    with pytest.raises(RuleBroken):
        keeper.speed("Truck")

    keeper.add("Cultist", dex=50, mov=8, vehicle_id=keeper.ids["Truck"], seat="driver", skills={"Ride": 30})
    with pytest.raises(InvalidCommand) as invalid:
        keeper.speed("Truck")
    assert invalid.value.field == "skills"

    with pytest.raises(InvalidParticipant) as second:
        keeper.add("Another", dex=50, mov=8, vehicle_id=keeper.ids["Truck"], seat="driver", skills={"Drive Auto": 50})
    assert second.value.field == "seat"
    assert all(e["name"] != "SpeedRolled" for e in keeper.events())


def test_the_vehicle_acts_on_its_drivers_dex_and_passengers_have_no_movement_actions(keeper):
    car_chase(keeper)
    keeper.speed("Car", [50, 5])  # regular: MOV 14
    keeper.speed("Police car", [0, 5])  # extreme: MOV 15

    view = keeper.cut()

    # The car is placed like any quarry; its driver and passenger ride at its location.
    assert keeper.locations(view) == {"Car": 2, "Amy": 2, "Harvey": 2, "Police car": 0, "Officer": 0}
    # The car on Amy's DEX 60, the police car on the officer's 58, then Harvey (55) as
    # a passenger; a driver has no turn of their own.
    assert keeper.order(view) == ["Car", "Police car", "Harvey"]
    assert keeper.actions(view) == {"Car": 1, "Police car": 2, "Harvey": 0, "Amy": 0, "Officer": 0}

    view = keeper.move("Car", 1)
    assert keeper.locations(view)["Harvey"] == 3 and keeper.locations(view)["Amy"] == 3
    view = keeper.move("Police car", 2)
    assert keeper.whose_turn(view) == "Harvey"

    # Harvey's turn: he cannot move, but he can shoot back from the racing car (a penalty die).
    with pytest.raises(RuleBroken) as refused:
        keeper.move("Harvey", 1)
    assert "Passengers" in refused.value.rule
    shot, _ = keeper.ledger.commands["coc7e"].roll_skill(
        keeper.chase_id, "Firearms (Handgun)", participant_id=keeper.ids["Harvey"], penalty=1,
        purpose="shooting from a moving car", dice=table([30, 50, 5]),
    )
    assert (shot["target"], shot["result"], shot["level"]) == (40, 55, "failure")
    view = keeper.end_turn("Harvey")

    assert view["round"] == 2 and keeper.order(view) == ["Car", "Police car", "Harvey"]
    assert keeper.locations(view) == {"Car": 3, "Amy": 3, "Harvey": 3, "Police car": 2, "Officer": 2}


def test_those_aboard_an_escaped_vehicle_escape_with_it(keeper):
    car_chase(keeper)
    keeper.speed("Car", [10, 0])  # 10 against 60: extreme, MOV 15
    keeper.speed("Police car", [40, 0])  # regular, MOV 14

    view = keeper.cut()

    assert view["outcome"] == "escaped" and keeper.who(view, "Car")["status"] == "escaped"
    assert keeper.who(view, "Amy")["status"] == "escaped"
    assert keeper.who(view, "Harvey")["status"] == "escaped"


# -- The Keeper's rolls and the roll history ---------------------------------------------------


def test_a_skill_roll_uses_the_participants_own_value(keeper):
    keeper.add("Harvey", role="quarry", dex=55, mov=7, skills={"Climb": 40})

    climb, _ = keeper.ledger.commands["coc7e"].roll_skill(keeper.chase_id, "Climb", participant_id=keeper.ids["Harvey"], dice=table([20, 9]))
    dex, _ = keeper.ledger.commands["coc7e"].roll_skill(keeper.chase_id, "DEX", participant_id=keeper.ids["Harvey"], difficulty="hard", dice=table([30, 0]))

    assert (climb["target"], climb["result"], climb["level"], climb["success"]) == (40, 29, "regular", True)
    # 30 against DEX 55 is a regular success: not enough at Hard difficulty (27 or less).
    assert (dex["target"], dex["level"], dex["difficulty"], dex["success"]) == (55, "regular", "hard", False)
    with pytest.raises(InvalidCommand) as invalid:
        keeper.ledger.commands["coc7e"].roll_skill(keeper.chase_id, "Swim", participant_id=keeper.ids["Harvey"], dice=table([10, 9]))
    assert invalid.value.field == "skill"


@pytest.mark.parametrize(
    "bonus, penalty, faces, result, kept",
    [
        (2, 0, [60, 20, 0, 5], 5, [False, False, True]),  # 65, 25, 05: two bonus dice keep the best
        (1, 0, [0, 40, 0], 40, [False, True]),  # 00 and 0 make 100: the bonus die keeps 40
        (0, 1, [20, 80, 3], 83, [False, True]),  # 23, 83: a penalty die keeps the worst
        (1, 1, [20, 3], 23, [True]),  # one bonus and one penalty die cancel out
    ],
)
def test_bonus_and_penalty_dice_on_a_given_target(keeper, bonus, penalty, faces, result, kept):
    roll, _ = keeper.ledger.commands["coc7e"].roll_skill(keeper.chase_id, "Stealth", target=50, bonus=bonus, penalty=penalty, dice=table(faces))

    assert roll["result"] == result
    assert [t["kept"] for t in roll["tens"]] == kept
    assert [t["face"] for t in roll["tens"]] == faces[:-1] and roll["units"] == faces[-1]
    assert (roll["bonus_dice"], roll["penalty_dice"], roll["roller"]) == (bonus, penalty, None)


def test_a_roll_with_the_wrong_number_of_faces_for_its_bonus_dice_is_refused(keeper):
    with pytest.raises(InvalidTableDice):
        keeper.ledger.commands["coc7e"].roll_skill(keeper.chase_id, "Stealth", target=50, bonus=2, dice=table([20, 3]))

    assert keeper.ledger.rolls(keeper.chase_id) == []


@pytest.mark.parametrize(
    "damage_bonus, faces, expression, total",
    [
        ("+1D4", [2, 3], "1D3+1D4", 5),
        ("-1", [1], "1D3-1", 0),
        ("0", [3], "1D3", 3),
    ],
)
def test_db_in_a_dice_roll_is_the_rollers_damage_bonus(keeper, damage_bonus, faces, expression, total):
    pid = keeper.add("Farmer", role="pursuer", mov=7, damage_bonus=damage_bonus)

    roll, _ = keeper.ledger.commands["coc7e"].roll_dice(keeper.chase_id, "1D3+DB", participant_id=pid, purpose="damage", dice=table(faces))

    assert (roll["expression"], roll["total"]) == (expression, total)
    assert [d["face"] for d in roll["dice"]] == faces
    assert roll["dice"][0]["die"] == "d3"


def test_the_roll_history_records_every_roll_with_its_dice_and_source(keeper):
    keeper.add("Harvey", role="quarry", dex=55, con=60, mov=6, skills={"Dodge": 45})
    keeper.add("Farmer", role="pursuer", dex=50, con=55, mov=7, damage_bonus="+1D4")
    keeper.speed("Harvey", [70, 2])
    keeper.speed("Farmer", [80, 0])
    keeper.cut()
    keeper.ledger.commands["coc7e"].roll_skill(keeper.chase_id, "Dodge", participant_id=keeper.ids["Harvey"], purpose="weave through the crowd", dice=table([0, 9]))
    keeper.ledger.commands["coc7e"].roll_dice(keeper.chase_id, "1D3", purpose="lost movement actions", dice=DiceChoice(source="server"))

    rolls = keeper.ledger.rolls(keeper.chase_id)

    assert [r["sequence"] for r in rolls] == [1, 2, 3, 4]
    speed = rolls[0]
    assert (speed["participant_id"], speed["purpose"], speed["round"], speed["source"]) == (keeper.ids["Harvey"], "speed roll", 0, "table")
    assert (speed["roll"]["skill"], speed["roll"]["target"], speed["roll"]["level"]) == ("CON", 60, "failure")
    assert speed["roll"]["tens"] == [{"face": 70, "kept": True}] and speed["roll"]["units"] == 2
    dodge = rolls[2]
    assert (dodge["purpose"], dodge["round"], dodge["roll"]["skill"], dodge["roll"]["target"]) == ("weave through the crowd", 1, "Dodge", 45)
    assert (dodge["roll"]["result"], dodge["roll"]["level"]) == (9, "extreme")
    assert dodge["roll"]["source"] == {"kind": "table", "entered_by": "keeper", "sequence": 3}
    server = rolls[3]
    assert server["source"] == "server" and server["roll"]["source"]["sequence"] == 4
    assert 1 <= server["roll"]["dice"][0]["face"] <= 3 and server["roll"]["total"] == server["roll"]["dice"][0]["face"]
    # The history can be filtered by source and by participant.
    assert [r["sequence"] for r in keeper.ledger.rolls(keeper.chase_id, source="server")] == [4]
    assert [r["sequence"] for r in keeper.ledger.rolls(keeper.chase_id, participant_id=keeper.ids["Harvey"])] == [1, 3]
