"""D6 races and chases played at random (d6-movement.txt): pursuers, quarries and racers at
positions in metres, the course and the GM's optional rules, each round's movement actions of
every type at rates the view offers (and some it does not), fatigue and skill rolls, the rounds
ending with catches and finishes; with the server's dice or the table's.
"""
from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import rule

from tests.application.record.machine import RecordMachine, in_phase

CODES = st.sampled_from(["1D", "2D+1", "3D", "4D+2", "5D-1"])
TERRAIN = st.sampled_from(["easy", "moderate", "rough", "very rough", "hazardous"])


class D6Machine(RecordMachine):
    SYSTEM = "d6"

    def set_up(self, data: Any) -> None:
        """A pursuer and a quarry ahead of it, or two racers."""
        if data.draw(st.booleans()):
            self.add(data, "pursuer", 0)
            self.add(data, "quarry", data.draw(st.sampled_from([5, 20, 40])))
        else:
            self.add(data, "racer", 0)
            self.add(data, "racer", 0)

    def add(self, data: Any, role: str, position: float) -> None:
        body = {
            "name": self.name(role), "role": role, "move": data.draw(st.sampled_from([6, 10, 12])), "position": position,
            "physique": data.draw(CODES), "skills": {"running": data.draw(CODES), "stamina": data.draw(CODES)},
            "flying_move": data.draw(st.sampled_from([None, None, 20])), "fatigue_limit": data.draw(st.sampled_from([None, 1, 2])),
        }
        self.use(data).send("add participant", "/d6/participants", body, if_match=self.if_match(data))

    def faces(self, data: Any, code: str) -> dict[str, Any]:
        """Table dice for a roll of ``code``: the ordinary dice, the Wild Die and its rerolls."""
        if self.view["dice"] != "table" or self.rarely(data):
            return {}
        faces = [data.draw(st.integers(1, 6)) for _ in range(int(code.split("D")[0]))]
        while faces[-1] == 6:
            faces.append(data.draw(st.integers(1, 6)))
        return {"table_dice": faces}

    def progress(self, data: Any) -> None:
        if self.view["phase"] == "setup":
            self.begin(data)
        elif self.view["phase"] == "running":
            self.move(data)

    @rule(data=st.data())
    @in_phase("setup")
    def begin(self, data: Any) -> None:
        stretches = [{"from": start, "to": start + 30, "terrain": data.draw(TERRAIN)} for start in data.draw(st.sampled_from([[], [0], [20, 60]]))]
        body = {
            "finish": data.draw(st.sampled_from([None, 60, 150])), "terrain": stretches,
            "acceleration": data.draw(st.booleans()), "speed_limit": data.draw(st.booleans()),
            "wild_die_one": data.draw(st.sampled_from(["remove", "no_effect", "complication"])),
        }
        self.use(data).send("begin", "/d6/begin", body, if_match=self.if_match(data))

    @rule(data=st.data())
    @in_phase("running")
    def move(self, data: Any) -> None:
        """A movement action at a rate the view offers (a free short move now and then), or one it does not."""
        pid = self.someone(data, list(self.view["turn_order"]) or None)
        p = self.view["participants"].get(pid, {})
        open_types = p.get("may_move") or {"running": {"options": [{"rate": 10}], "free_up_to": 5}}
        movement = data.draw(st.sampled_from(sorted(open_types)))
        offered = open_types[movement]
        rates = [o["rate"] for o in offered["options"]] + ([offered["free_up_to"]] if offered.get("free_up_to") else [])
        rate = self.odd(data, data.draw(st.sampled_from(rates or [10])), 1000, 0.5, 3)
        code = p.get("skills", {}).get(movement) or p.get("physique") or "3D"
        free = offered.get("free_up_to") is not None and rate <= offered["free_up_to"]
        body: dict[str, Any] = {"movement": movement, "rate": rate, **({} if free else self.faces(data, code))}
        if self.rarely(data):
            body.update(modifier=data.draw(st.integers(-5, 10)), on_failure=data.draw(st.sampled_from(["move", "trip"])))
        if movement == "leaping" and self.rarely(data):
            body["running_start"] = data.draw(st.integers(0, 2))
        self.use(data).send("move", f"/d6/participants/{pid}/move", body, token=self.token(data, pid))

    @rule(data=st.data())
    @in_phase("running")
    def move_again(self, data: Any) -> None:
        """Movement comes round more often than anything else at the table."""
        self.move(data)

    @rule(data=st.data(), what=st.sampled_from(["fatigue roll", "skill roll", "end round", "end round"]))
    @in_phase("running")
    def roll_or_end_the_round(self, data: Any, what: str) -> None:
        play = self.use(data)
        if what == "end round":
            play.send("end round", "/d6/end-round", {}, token=self.token(data), if_match=self.if_match(data))
            return
        pid = self.someone(data)
        p = self.view["participants"].get(pid, {})
        if what == "fatigue roll":
            code = p.get("skills", {}).get("stamina") or "3D"
            play.send("fatigue roll", f"/d6/participants/{pid}/fatigue-roll", {"skill": "stamina", **self.faces(data, code)}, token=self.token(data, pid))
            return
        code = data.draw(CODES)
        body = {"participant_id": pid, "code": code, "difficulty": data.draw(st.none() | st.integers(0, 30)), "purpose": "a slick surface", **self.faces(data, code)}
        play.send("skill roll", "/d6/skill-rolls", body, token=self.token(data, pid))

    @rule(data=st.data())
    @in_phase("running")
    def rule_on_fatigue(self, data: Any) -> None:
        """The GM changes someone's fatigue limit (a second wind, the heat), now and then sent by a player."""
        pid = self.someone(data)
        body = {"fatigue_limit": data.draw(st.sampled_from([None, 0, 1, 3]))}
        self.use(data).send("fatigue limit", f"/d6/participants/{pid}/fatigue-limit", body, token=self.token(data, pid), if_match=self.if_match(data))
