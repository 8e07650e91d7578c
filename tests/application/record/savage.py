"""What Savage Worlds chases of both rules (swade, swd) share, played at random: units (characters,
vehicles with drivers and passengers, groups following a leader), trait and damage rolls,
recovering from Shaken, the GM's conditions, resolving what waits (chase.pending) and ending
turns; with the server's dice and deck, or the table's dice and a physical deck.
"""
from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import rule

from domain.rules.savage_worlds.cards import FULL_DECK
from tests.application.record.machine import RecordMachine, in_phase

DIE = st.sampled_from(["d4", "d6", "d8", "d10", "d12", "d12+2", "d4-2", "d12+99"])
CARDS = [card.code for card in FULL_DECK]
# The dice a follow-up's roll takes, when it is not a trait roll (swade_follow_ups.py, swd_actions.py ROLLS).
TABLE_ROLLS = {"critical failure": [6], "out of control": [6, 6], "collision wounds": [4], "critical hit": [6, 6], "injury": [6, 6], "injury sub-table": [6]}



class SavageMachine(RecordMachine):
    """Rules both Savage Worlds machines play; ``SYSTEM`` is swade or swd."""

    def set_up(self, data: Any) -> None:
        """A chaser and a quarry: in vehicles with their drivers, or on foot."""
        vehicles = data.draw(st.booleans())
        for role in ("chaser", "quarry"):
            if vehicles:
                self.add_vehicle(data, role)
                self.join_a_unit(data, "driver")
            else:
                self.add_character(data, role)

    # -- helpers -----------------------------------------------------------------------------

    @property
    def prefix(self) -> str:
        return f"/{self.SYSTEM}"

    def units(self) -> list[str]:
        return [pid for pid, p in self.view["participants"].items() if p["with_id"] is None]

    def operator(self, unit_id: str) -> dict[str, Any] | None:
        """Who rolls a unit's maneuvering rolls: a vehicle's driver, else the unit itself."""
        people = self.view["participants"]
        unit = people.get(unit_id)
        if unit is None or unit["kind"] != "vehicle":
            return unit
        return next((p for p in people.values() if p["with_id"] == unit_id and p["seat"] == "driver"), None)

    def trait_faces(self, data: Any, roller: dict[str, Any] | None, die: str | None = None) -> list[int]:
        """A first guess at a trait roll's faces: the trait die, and the Wild Die for a Wild Card
        (aces and an Extra's check die are asked for by the answer)."""
        label = die or (roller or {}).get("maneuver_die") or "d6"
        sides = int(label[1:].split("+")[0].split("-")[0])
        faces = [data.draw(st.integers(1, sides))]
        if (roller or {}).get("wild_card", True):
            faces.append(data.draw(st.integers(1, 6)))
        return faces

    def dice(self, data: Any, guess: list[int] | None, defender: list[int] | None = None) -> dict[str, Any]:
        """A roll's dice: the chase's own, the server's, or faces from the table (the guess)."""
        mode = data.draw(st.sampled_from(["chase", "chase", "server", "table"]))
        body: dict[str, Any] = self.entropy(data)
        if mode == "server":
            body["dice"] = "server"
        elif mode == "table" or self.play.dice == "table":
            if guess is not None:
                body["table_dice"] = guess
            if defender is not None:
                body["defender_table_dice"] = defender
        return body

    def cards(self, data: Any, count: int, deck: str = "action") -> list[str]:
        """Cards a physical deck could deal now: none the chase shows in play or discarded."""
        seen = set()
        view = self.view
        if deck == "action":
            seen |= {c["card"] for c in view.get("action_cards", [])}
            for p in view["participants"].values():
                seen |= {c["card"] for c in p.get("action_cards", [])}
            for head in view.get("pending", []):
                seen |= set(head["cards"]) if isinstance(head.get("cards"), list) else set()  # a Bump's "cards" is a count
        else:
            seen |= {loc.get("card") for loc in view["locations"]}
        seen |= set((view.get("deck", {}).get(deck) or {}).get("discards", []))
        left = [c for c in CARDS if c not in seen] or CARDS
        return data.draw(st.lists(st.sampled_from(left), min_size=count, max_size=count, unique=len(left) >= count))

    def rival(self, data: Any) -> str:
        """A unit of the other side, on the same Chase Card as the unit whose turn it is if any is."""
        people = self.view["participants"]
        me = people.get(self.view.get("whose_turn") or "") or {}
        rivals = [u for u in self.units() if people[u]["role"] != me.get("role") and people[u]["status"] == "in_chase"]
        close = [u for u in rivals if people[u].get("location") == me.get("location")]
        choice = close or rivals
        return data.draw(st.sampled_from(choice)) if choice and not self.rarely(data) else self.someone(data, self.units())

    def unit_acts(self, data: Any) -> str:
        """The unit whose turn it is (or someone in it), mostly; now and then anyone."""
        unit = self.view.get("whose_turn")
        if unit and data.draw(st.integers(0, 9)) < 8:
            aboard = [pid for pid, p in self.view["participants"].items() if p["unit"] == unit]
            return data.draw(st.sampled_from(aboard)) if aboard else unit
        return self.someone(data)

    # -- set-up --------------------------------------------------------------------------------

    @rule(data=st.data(), who=st.sampled_from(["vehicle and driver", "character", "passenger", "member", "vehicle", "character"]))
    @in_phase("setup")
    def join_the_chase(self, data: Any, who: str) -> None:
        """Someone more joins; once there are four or more, the chase begins (mostly)."""
        count = len(self.view["participants"])
        if count >= 7 or (count >= 4 and not self.rarely(data)):
            self.begin(data, data.draw(st.sampled_from(["vehicular", "foot", "airplane"])))
            return
        if who == "character":
            self.add_character(data, data.draw(st.sampled_from(["chaser", "quarry"])))
            return
        if who.startswith("vehicle"):
            self.add_vehicle(data, data.draw(st.sampled_from(["chaser", "quarry"])))
        if who != "vehicle":
            self.join_a_unit(data, {"vehicle and driver": "driver"}.get(who, who))

    def add_character(self, data: Any, role: str) -> None:
        spec = {"name": self.name("Hero"), "role": role, "maneuver_die": data.draw(DIE), "spirit": data.draw(DIE),
                "wild_card": not self.rarely(data), "toughness": data.draw(st.integers(4, 8)),
                "pace": data.draw(st.integers(4, 8)), "mounted": self.rarely(data)}
        if data.draw(st.booleans()):
            spec["top_speed"] = data.draw(st.sampled_from([12.0, 24.0, 60.0]))
        self.use(data).send("add participant", f"{self.prefix}/participants", spec)

    def add_vehicle(self, data: Any, role: str) -> None:
        spec = {"name": self.name("Car"), "kind": "vehicle", "role": role, "toughness": data.draw(st.integers(6, 14)),
                "top_speed": data.draw(st.sampled_from([40.0, 60.0, 120.0])), "handling": data.draw(st.integers(-2, 2)),
                "max_wounds": data.draw(st.integers(0, 4)), "weapons": data.draw(st.integers(0, 1)), "has_systems": data.draw(st.booleans()),
                "scale": data.draw(st.sampled_from(["Normal", "Large", "Small"]))}
        self.use(data).send("add vehicle", f"{self.prefix}/participants", spec)

    def join_a_unit(self, data: Any, seat: str, unit: str | None = None) -> None:
        """A driver or passenger for the latest vehicle, a member for a leader's group."""
        people = self.view["participants"]
        kinds = [u for u in self.units() if (people[u]["kind"] == "vehicle") == (seat != "member")]
        if unit is None:
            unit = kinds[-1] if kinds and not self.rarely(data) else self.someone(data, self.units())
        spec = {"name": self.name(seat.title()), "with_id": unit, "seat": seat,
                "maneuver_die": data.draw(DIE), "spirit": data.draw(DIE), "toughness": 5, "wild_card": not self.rarely(data)}
        self.use(data).send("join unit", f"{self.prefix}/participants", spec)

    def progress(self, data: Any) -> None:
        """What moves the chase on: someone joins (and it begins), a turn is played, or an end undone."""
        phase = self.view["phase"]
        if phase == "setup":
            self.join_the_chase(data, "character")
        elif phase == "running":
            self.play_a_turn(data, data.draw(st.sampled_from(["end turn", "change-position", "attack"])))
        else:
            self.keep_the_record(data, "undo")

    def ready_to_begin(self, data: Any) -> None:
        """What the GM still needs before the chase begins (now and then forgotten: refused):
        a chaser and a quarry, and a driver for every vehicle."""
        if self.rarely(data):
            return
        people = self.view["participants"]
        roles = {people[u]["role"] for u in self.units()}
        for role in ("chaser", "quarry"):
            if role not in roles:
                self.add_character(data, role)
        for unit in self.units():
            if self.view["participants"][unit]["kind"] == "vehicle" and self.operator(unit) is None:
                self.join_a_unit(data, "driver", unit)

    # -- play ----------------------------------------------------------------------------------

    def turn_comes(self, data: Any) -> bool:
        """What the table does first: resolve what waits (True when it did)."""
        if self.view.get("pending") and not self.rarely(data):
            self.resolve(data)
            return True
        return False

    @rule(data=st.data(), what=st.sampled_from(["trait roll", "damage roll", "recover", "conditions"]))
    @in_phase("running")
    def the_gm_calls_for(self, data: Any, what: str) -> None:
        """Rolls and conditions outside the maneuvers: Notice, damage, Spirit to recover, a power."""
        play = self.use(data)
        people = self.view["participants"]
        if what == "trait roll":
            pid, die = self.someone(data), data.draw(DIE)
            body = {"participant_id": pid, "trait_die": die, "purpose": "Notice", "modifier": data.draw(st.integers(-2, 2)),
                    **self.dice(data, self.trait_faces(data, people.get(pid), die))}
            play.send("trait roll", f"{self.prefix}/trait-rolls", body, token=self.token(data, pid))
        elif what == "damage roll":
            expression = self.odd(data, data.draw(st.sampled_from(["2d6+1", "4d6+4", "Str+d6", "3d8+2", "d4"])), "Str", "2d6-10", "d100", "0", "Str+Str")
            roller = self.someone(data) if data.draw(st.booleans()) else None
            body: dict[str, Any] = {"target_id": self.rival(data), "expression": expression, "roller_id": roller,
                                    "raise_bonus": data.draw(st.booleans()), "modifier": self.odd(data, data.draw(st.integers(0, 4)), -20, 20)}
            if expression.startswith("Str"):
                body["strength"] = data.draw(DIE)
            body.update(self.dice(data, [data.draw(st.integers(1, 3)) for _ in range(2)]))
            play.send("damage roll", f"{self.prefix}/damage-rolls", body, token=self.token(data, roller))
        elif what == "recover":
            shaken = [pid for pid, p in people.items() if p["conditions"]["shaken"]]
            pid = data.draw(st.sampled_from(shaken)) if shaken and not self.rarely(data) else self.someone(data)
            body = {"modifier": data.draw(st.integers(-2, 2)), **self.dice(data, self.trait_faces(data, people.get(pid), "d6"))}
            play.send("recover", f"{self.prefix}/participants/{pid}/recover", body, token=self.token(data, pid))
        else:
            change = data.draw(st.sampled_from([{"shaken": True}, {"shaken": False}, {"distracted": True}, {"vulnerable": True}, {"fatigue": 1}, {"fatigue": 3}]))
            play.send("conditions", f"{self.prefix}/participants/{self.someone(data)}/conditions", {**change, "reason": "a power"})

    @rule(data=st.data())
    @in_phase("running")
    def resolve(self, data: Any) -> None:
        """Resolve what waits first: the roll it takes, or the GM's choice (a Bump's direction, a card)."""
        pending = self.view.get("pending") or []
        if not pending and not self.rarely(data):
            self.progress(data)
            return
        head = pending[0] if pending else {"kind": "nothing"}
        kind = head["kind"]
        body: dict[str, Any] = {"modifier": self.odd(data, data.draw(st.integers(-1, 1)), -20, 20)}
        if kind == "bump":
            body.update(direction=self.odd(data, data.draw(st.sampled_from([1, -1])), None), cards=data.draw(st.none() | st.integers(1, 2)))
        elif kind == "chase card":
            body["card"] = self.odd(data, self.cards(data, 1, "chase")[0], "ZZ", "Joker", None)
        elif kind == "deal action cards":
            body["cards"] = self.cards(data, head.get("count", 1))
        elif kind == "keep card":
            body["card"] = self.odd(data, data.draw(st.sampled_from(list(head.get("cards") or []) + [None])), "2C", "ZZ")
        elif kind in TABLE_ROLLS:
            body.update(self.dice(data, [data.draw(st.integers(1, sides)) for sides in TABLE_ROLLS[kind]]))
        else:  # a maneuvering or Spirit roll, or damage dice: the answer tells the faces it takes
            pid = head.get("participant_id", "")
            roller = self.view["participants"].get(pid) if kind == "recover from shaken" else self.operator(pid)
            body.update(self.dice(data, self.trait_faces(data, roller)))
        self.use(data).send(f"resolve {kind}", f"{self.prefix}/resolve", body, token=self.token(data, head.get("participant_id")))

    def end_turn(self, data: Any) -> None:
        pid = self.unit_acts(data)
        self.use(data).send("end turn", f"{self.prefix}/participants/{pid}/end-turn", {}, token=self.token(data, pid))
