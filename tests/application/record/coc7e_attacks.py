"""An attack the rules allow, whenever a Call of Cthulhu chase offers one: the coc7e machine's
``fight`` rule draws freely (anyone, any method, odd damage), and since combat grew state (a
movement action an attack, reloading, diving, hit locations) its draws seldom met a legal
attack, so whether a run ever played one hung on hypothesis's draws. This rule is enabled only
when the one whose turn it is can attack a rival, and draws from those legal choices alone.

The legal attack, from coc7e-chases.txt "Conflict" (part 4): on the attacker's turn, for one
movement action (a passenger, who has none, acts once, "Passengers"), within their attacks per
round; on the same location with fighting (a vehicle rams with its driving skill, "Vehicles in
combat"), or from another location with a firearm (not a vehicle); never on whom they travel with,
nor on anyone out of the chase (domain/rules/coc7e/conflict_procedures.py).
"""
from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

OUT_OF_ACTION = ("wrecked", "undrivable")


class LegalAttacks:
    """A mixin of the coc7e machine: its ``view``, ``use`` and ``several_rolls``."""

    view: dict[str, Any]

    def attacker_ready(self) -> dict[str, Any] | None:
        """The one whose turn it is, if they may attack now (no mishap waiting on the Keeper)."""
        if self.play is None or self.view["phase"] != "running" or self.view.get("mishaps"):
            return None
        a = self.view["participants"].get(self.view.get("whose_turn") or "")
        if not a or a["status"] != "in_chase" or a["unconscious"] or a["dead"] or a.get("held_by"):
            return None
        if a.get("dived_for_cover_until_round") is not None or a["attacks_made"] >= a["attacks_per_round"]:
            return None
        if a["vehicle_id"] and a["attacks_made"]:  # a passenger acts once a round
            return None
        if not a["vehicle_id"] and a["movement_actions"] < 1:
            return None
        return a

    def rivals_in_reach(self) -> list[tuple[str, str]]:
        """(rival, method) for every rival the attacker reaches: a blow where they stand, a shot elsewhere."""
        a = self.attacker_ready()
        if a is None:
            return []
        reach = []
        for tid, t in self.view["participants"].items():
            if tid == a["id"] or t["role"] == a["role"] or t["status"] != "in_chase" or t["condition"] in OUT_OF_ACTION:
                continue
            if t["vehicle_id"] == a["id"] or a["vehicle_id"] == tid or (a["vehicle_id"] and t["vehicle_id"] == a["vehicle_id"]):
                continue  # they travel together
            if t["location"] == a["location"]:
                reach.append((tid, "fighting"))
            elif a["kind"] != "vehicle":
                reach.append((tid, "firearm"))
        return reach

    @precondition(lambda self: bool(self.rivals_in_reach()))
    @rule(data=st.data())
    def attack_a_rival_in_reach(self, data: Any) -> None:
        """The one whose turn it is attacks a rival they can reach, so every run attacks."""
        attacker = self.view["whose_turn"]
        target, method = data.draw(st.sampled_from(self.rivals_in_reach()))
        body: dict[str, Any] = {"target_id": target, "method": method, **self.several_rolls(data)}
        if method == "firearm":
            body["damage"] = data.draw(st.sampled_from(["1D10", "1D6", "1D8"]))
        else:
            body["response"] = data.draw(st.sampled_from(["dodge", "none"]))
        self.use(data).send("attack", f"/participants/{attacker}/attack", body)
