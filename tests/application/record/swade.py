"""Adventure Edition chases played at random (swade-chases-reference.txt): the set-up with its row
of Chase Cards and each unit's card, the round's Action cards, and the maneuvers (Change Position,
Dropping Back, Evade, Hold Steady, Flee, Force, Ram, attacks) with what they leave to resolve.
"""
from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import rule

from tests.application.record.machine import UNKNOWN, in_phase
from tests.application.record.savage import DIE, SavageMachine

MODES = ("foot", "mounted", "vehicular", "airplane", "sailing ship", "jet", "starship")


class SwadeMachine(SavageMachine):
    SYSTEM = "swade"

    @rule(data=st.data(), mode=st.sampled_from(MODES))
    @in_phase("setup")
    def begin(self, data: Any, mode: str) -> None:
        self.ready_to_begin(data)
        deck = data.draw(st.sampled_from([None, "server", "table"]))
        physical = (deck or self.play.dice) == "table"
        count = self.odd(data, data.draw(st.integers(3, 12)), 1, 54)
        units = self.units()
        body: dict[str, Any] = {"mode": mode, "linear": data.draw(st.booleans()), "deck": deck,
                                "placements": {unit: data.draw(st.integers(0, count - 1)) for unit in units}}
        body["placements"].update(self.odd(data, {}, {UNKNOWN: 0}, {units[0]: count} if units else {}))
        if physical:
            body["row"] = self.odd(data, self.cards(data, count, "chase"), ["ZZ"] * count, ["RJ"] * count)
        else:
            body["chase_cards"] = count
        self.use(data).send("begin", "/swade/begin", body, if_match=self.if_match(data))

    @rule(data=st.data(), what=st.sampled_from(["change-position", "end turn", "attack", "evade", "hold-steady", "drop-back", "flee", "force", "ram"]))
    @in_phase("running")
    def play_a_turn(self, data: Any, what: str) -> None:
        """What waits first; a new round's Action cards; else a maneuver of the unit whose turn it is."""
        if self.turn_comes(data):
            return
        if self.view.get("whose_turn") is None and not self.rarely(data):
            self.deal_action_cards(data)
        elif self.rival_here() and data.draw(st.booleans()):  # on the same Chase Card: Force, Ram or strike
            getattr(self, data.draw(st.sampled_from(["force", "ram", "attack"])))(data)
        elif what == "end turn" or (self.play.last == what and not self.rarely(data)):  # a maneuver once a turn
            self.end_turn(data)
        else:
            getattr(self, what.replace("-", "_"))(data)

    @rule(data=st.data(), what=st.sampled_from(["change-position", "end turn"]))
    @in_phase("running")
    def play_another_turn(self, data: Any, what: str) -> None:
        """Turns come round more often than anything else at the table."""
        self.play_a_turn(data, what)

    def rival_here(self) -> bool:
        people = self.view["participants"]
        me = people.get(self.view.get("whose_turn") or "") or {}
        return any(people[u]["role"] != me.get("role") and people[u].get("location") == me.get("location") for u in self.units())

    def deal_action_cards(self, data: Any) -> None:
        physical = (self.view.get("deck", {}).get("action") or {}).get("mode") == "table"
        units = [u for u in self.units() if self.view["participants"][u]["status"] == "in_chase"]
        body = {"cards": dict(zip(units, self.cards(data, len(units))))} if physical else {}
        body = self.odd(data, body, {"cards": {u: "RJ" for u in units}}, {"cards": {UNKNOWN: "2C"}}, {"cards": None})
        self.use(data).send("action cards", "/swade/action-cards", body)

    def maneuver(self, data: Any, name: str, body: dict[str, Any]) -> None:
        pid = self.unit_acts(data)
        self.use(data).send(name, f"/swade/participants/{pid}/{name}", body, token=self.token(data, pid))

    def maneuvering_dice(self, data: Any, target: str | None = None) -> dict[str, Any]:
        unit = self.view.get("whose_turn") or ""
        defender = self.trait_faces(data, self.operator(target)) if target else None
        return self.dice(data, self.trait_faces(data, self.operator(unit)), defender)

    def toward_a_rival(self, data: Any) -> int:
        """Mostly toward the closest rival (to Force, Ram or strike it), now and then away."""
        people = self.view["participants"]
        me = people.get(self.view.get("whose_turn") or "") or {}
        rivals = [people[u]["location"] for u in self.units() if people[u]["role"] != me.get("role") and people[u].get("location") is not None]
        if not rivals or me.get("location") is None or self.rarely(data):
            return data.draw(st.sampled_from([1, -1]))
        closest = min(rivals, key=lambda at: abs(at - me["location"]))
        return 1 if closest >= me["location"] else -1

    def change_position(self, data: Any) -> None:
        body = {"direction": self.toward_a_rival(data), "as_action": data.draw(st.booleans()),
                "cards": data.draw(st.none() | st.integers(1, 2)), **self.maneuvering_dice(data)}
        self.maneuver(data, "change-position", body)

    def drop_back(self, data: Any) -> None:
        self.maneuver(data, "drop-back", {"cards": data.draw(st.integers(1, 2))})

    def evade(self, data: Any) -> None:
        self.maneuver(data, "evade", {"as_action": data.draw(st.booleans())})

    def hold_steady(self, data: Any) -> None:
        self.maneuver(data, "hold-steady", {})

    def flee(self, data: Any) -> None:
        self.maneuver(data, "flee", {"modifier": data.draw(st.integers(-1, 2)), **self.maneuvering_dice(data)})

    def force(self, data: Any) -> None:
        target = self.rival(data)
        self.maneuver(data, "force", {"target_id": target, "direction": data.draw(st.sampled_from([1, -1])), **self.maneuvering_dice(data, target)})

    def ram(self, data: Any) -> None:
        target = self.rival(data)
        self.maneuver(data, "ram", {"target_id": target, **self.maneuvering_dice(data, target)})

    def attack(self, data: Any) -> None:
        die = data.draw(DIE)
        attacker = self.view["participants"].get(self.view.get("whose_turn") or "")
        body = {"target_id": self.rival(data), "trait_die": die, "ranged": data.draw(st.booleans()),
                "weapon_range": data.draw(st.sampled_from([None, "12/24/48", "5/10/20"])), "running": data.draw(st.booleans()),
                **self.dice(data, self.trait_faces(data, attacker, die))}
        self.maneuver(data, "attack", body)
