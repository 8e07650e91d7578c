"""Deluxe action-card chases played at random (swd-chases.txt): the chase length, each round's
maneuver rolls and the Action cards they earn (dealt from the server's deck, or entered from a
physical one and kept), passengers' cooperative rolls, attacks and Force with Advantage, and what
they leave to resolve, round after round until time runs out.
"""
from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import rule

from tests.application.record.machine import in_phase
from tests.application.record.savage import DIE, SavageMachine


class SwdMachine(SavageMachine):
    SYSTEM = "swd"

    @rule(data=st.data())
    @in_phase("setup")
    def begin(self, data: Any, mode: str = "") -> None:
        self.ready_to_begin(data)
        body = {"length": data.draw(st.none() | st.integers(1, 4)), "deck": data.draw(st.sampled_from([None, "server", "table"])),
                "constant": self.odd(data, data.draw(st.sampled_from([0, 0, -2])), -10, 10)}
        self.use(data).send("begin", "/swd/begin", body, if_match=self.if_match(data))

    @rule(data=st.data(), what=st.sampled_from(["attack", "end turn", "force", "cooperate", "maneuver"]))
    @in_phase("running")
    def play_a_turn(self, data: Any, what: str) -> None:
        """What waits first; the round's maneuver rolls; then, card by card, attacks, Force, turns ending."""
        if self.turn_comes(data):
            return
        if self.view.get("stage") == "maneuvering" and what != "cooperate" and not self.rarely(data):
            what = "maneuver"
        if what in ("maneuver", "cooperate"):
            getattr(self, what)(data)
        elif what == "end turn":
            self.end_turn(data)
        else:
            self.act_with_advantage(data, what)

    @rule(data=st.data(), what=st.sampled_from(["end turn", "attack"]))
    @in_phase("running")
    def play_another_turn(self, data: Any, what: str) -> None:
        """Turns come round more often than anything else at the table."""
        self.play_a_turn(data, what)

    def maneuver(self, data: Any) -> None:
        waiting = [u for u in self.units() if self.view["participants"][u].get("cards_earned") is None]
        unit = data.draw(st.sampled_from(waiting)) if waiting and not self.rarely(data) else self.someone(data)
        body: dict[str, Any] = {"modifier": data.draw(st.integers(-1, 2)), **self.dice(data, self.trait_faces(data, self.operator(unit)))}
        if (self.view.get("deck", {}).get("action") or {}).get("mode") == "table" and self.rarely(data):
            body["cards"] = self.cards(data, data.draw(st.integers(1, 2)))  # the GM enters the cards dealt at once
        self.use(data).send("maneuver", f"/swd/participants/{unit}/maneuver", body, token=self.token(data, unit))

    def cooperate(self, data: Any) -> None:
        passengers = [pid for pid, p in self.view["participants"].items() if p["seat"] == "passenger"]
        pid = data.draw(st.sampled_from(passengers)) if passengers and not self.rarely(data) else self.someone(data)
        body = {"modifier": data.draw(st.integers(-1, 1)), **self.dice(data, self.trait_faces(data, self.view["participants"].get(pid)))}
        self.use(data).send("cooperate", f"/swd/participants/{pid}/cooperate", body, token=self.token(data, pid))

    def act_with_advantage(self, data: Any, action: str) -> None:
        pid = self.unit_acts(data)
        target = self.rival(data)
        unit = self.view.get("whose_turn") or ""
        body: dict[str, Any] = {"target_id": target, "modifier": data.draw(st.integers(-2, 2))}
        if action == "attack":
            die = data.draw(DIE)
            body.update(trait_die=die, unstable_platform=data.draw(st.booleans()), running=data.draw(st.booleans()),
                        **self.dice(data, self.trait_faces(data, self.view["participants"].get(pid), die)))
        else:
            body.update(self.dice(data, self.trait_faces(data, self.operator(unit)), self.trait_faces(data, self.operator(target))))
        self.use(data).send(action, f"/swd/participants/{pid}/{action}", body, token=self.token(data, pid))
