"""Call of Cthulhu chases played at random (coc7e-chases.txt): characters, creatures and vehicles
from the charts with their drivers and passengers, speed rolls, the cut to the chase, moves,
delays and turns, hazards and barriers (placed, changed, removed, negotiated, broken down),
attacks and fighting maneuvers, mishaps and the Keeper's consequences, skill and dice rolls, and
the random hazards job; on the server's dice and the table's.
"""
from __future__ import annotations

from typing import Any
from hypothesis import strategies as st
from hypothesis.stateful import rule

from tests.application.record.checks import history_restores
from tests.application.record.coc7e_attacks import LegalAttacks
from tests.application.record.machine import UNKNOWN, RecordMachine, in_phase

SKILLS = ("Climb", "Jump", "Dodge", "Fighting (Brawl)", "Firearms (Handgun)", "Drive Auto", "Stealth", "Swim")
CHART = ("Car, standard", "Sports car", "Motorcycle, heavy", "Pickup truck", "Horse (with rider)", "Bicycle", "Tank")
PRESETS = ("Internal door or thin wooden fence", "Standard back door", "Mature tree")
INCIDENTS = ("default", "minor", "moderate", "severe", "deadly", "road kill", None)



class Coc7eMachine(LegalAttacks, RecordMachine):
    SYSTEM = "coc7e"

    def set_up(self, data: Any) -> None:
        """A quarry and a pursuer: on foot, or in vehicles from the charts with their drivers."""
        vehicles = data.draw(st.booleans())
        for role in ("quarry", "pursuer"):
            if vehicles:
                self.add_vehicle(data, data.draw(st.sampled_from(CHART)), role)
                self.board_a_vehicle(data, "driver")
            else:
                self.add_character(data, role)

    # -- helpers -----------------------------------------------------------------------------

    def percentile_guess(self, data: Any, extra_tens: int = 0) -> list[int]:
        return [data.draw(st.integers(0, 9)) * 10 for _ in range(1 + extra_tens)] + [data.draw(st.integers(0, 9))]

    def one_roll(self, data: Any, guess: list[int]) -> dict[str, Any]:
        """A one-roll command's dice: the chase's own, the server's, or faces from the table."""
        mode = data.draw(st.sampled_from(["chase", "chase", "server", "table"]))
        body: dict[str, Any] = self.entropy(data)
        if mode == "server":
            body["dice"] = "server"
        elif mode == "table" or (self.play.dice == "table" and not self.rarely(data)):
            body["table_dice"] = guess
        return body

    def several_rolls(self, data: Any) -> dict[str, Any]:
        """A several-roll command's dice: faces are entered roll by roll as the answers name them."""
        mode = data.draw(st.sampled_from(["chase", "chase", "server", "table"]))
        body: dict[str, Any] = self.entropy(data)
        if mode != "chase":
            body["dice"] = mode
        return body

    def ids(self, **where: Any) -> list[str]:
        return [pid for pid, p in self.view["participants"].items() if all(p.get(k) == v for k, v in where.items())]

    def location(self, data: Any) -> int:
        """Mostly where the one whose turn it is stands (so that the obstacle lies ahead of them)."""
        here = (self.view["participants"].get(self.view.get("whose_turn") or "") or {}).get("location")
        if here is not None and not self.rarely(data):
            return here
        return data.draw(st.integers(0, max(3, len(self.view["locations"]))))

    def ahead_of(self, pid: str) -> dict[str, Any] | None:
        """The hazard or standing barrier between ``pid``'s location and the next, if any."""
        here = (self.view["participants"].get(pid) or {}).get("location")
        return next((o for o in self.view["obstacles"] if here is not None and min(o["between"]) == here and not o.get("destroyed")), None)

    def near(self, data: Any, pid: str) -> str:
        """Someone at the same location as ``pid`` (mostly of the other side), else anyone."""
        people = self.view["participants"]
        me = people.get(pid) or {}
        there = [other for other, p in people.items() if other != pid and p["location"] == me.get("location") and p["status"] == "in_chase"]
        foes = [other for other in there if people[other]["role"] != me.get("role")]
        choice = foes or there or [other for other in people if other != pid]
        return data.draw(st.sampled_from(choice)) if choice and not self.rarely(data) else self.someone(data)

    def obstacle_ids(self, data: Any) -> str:
        ids = [o["id"] for o in self.view["obstacles"]]
        return data.draw(st.sampled_from(ids + ["no-such-obstacle"])) if ids else "no-such-obstacle"

    # -- set-up --------------------------------------------------------------------------------

    @rule(data=st.data(), who=st.sampled_from(["vehicle and driver", "character", "passenger", "character"]))
    @in_phase("setup")
    def join_the_chase(self, data: Any, who: str) -> None:
        """Someone more joins; once there are four or more, the speed rolls and the cut (mostly)."""
        count = len(self.view["participants"])
        if count >= 7 or (count >= 4 and not self.rarely(data)):
            self.speed_roll(data, everyone=True)
            return
        if self.rarely(data):
            who = data.draw(st.sampled_from(["vehicle", "driver"]))  # a vehicle without its driver, a second driver: refused later
        if who == "character":
            self.add_character(data, data.draw(st.sampled_from(["pursuer", "quarry"])))
            return
        if who.startswith("vehicle"):
            self.add_vehicle(data, data.draw(st.sampled_from(CHART)))
        if who != "vehicle":
            self.board_a_vehicle(data, "passenger" if who == "passenger" else "driver")

    def add_character(self, data: Any, role: str) -> None:
        spec = {
            "name": self.name("Investigator"), "role": role, "kind": data.draw(st.sampled_from(["character", "creature"])),
            "dex": self.odd(data, data.draw(st.integers(20, 90)), 1, 500), "con": data.draw(st.integers(20, 90)),
            "mov": self.odd(data, data.draw(st.integers(5, 10)), 1, 30), "hp": self.odd(data, data.draw(st.integers(4, 16)), 1, 2),
            "damage_bonus": data.draw(st.sampled_from(["0", "+1D4", "-1", "+2D6", "-2"])),
            "skills": {s: data.draw(st.integers(10, 80)) for s in data.draw(st.sets(st.sampled_from(SKILLS), max_size=4))},
        }
        if not self.rarely(data):
            spec["skills"].update({"Fighting (Brawl)": data.draw(st.integers(20, 70)), "Dodge": data.draw(st.integers(20, 60)),
                                   "Firearms (Handgun)": data.draw(st.integers(20, 60))})
        self.use(data).send("add participant", "/participants", spec)

    def add_vehicle(self, data: Any, vehicle: str, role: str | None = None) -> None:
        spec = {"kind": "vehicle", "chart_vehicle": vehicle, "era": data.draw(st.sampled_from(["modern", "1920s"])),
                "role": role or data.draw(st.sampled_from(["pursuer", "quarry"])), "name": self.name(vehicle)}
        spec.update(self.odd(data, {}, {"build": 1}, {"build": 100}, {"armor": 50}, {"mov": 1}))  # fragile or formidable
        self.use(data).send("add vehicle", "/participants", spec)

    def board_a_vehicle(self, data: Any, seat: str, vehicle: str | None = None) -> None:
        vehicles = self.ids(kind="vehicle")
        if vehicle is None:
            vehicle = vehicles[-1] if vehicles and not self.rarely(data) else self.someone(data, vehicles)
        skills = {"Drive Auto": data.draw(st.integers(20, 80)), "Pilot": 30, "Ride": 40, "Operate Heavy Machinery": 25, "Dodge": 30}
        spec = {"name": self.name("Driver" if seat == "driver" else "Passenger"), "vehicle_id": vehicle, "seat": seat,
                "dex": data.draw(st.integers(20, 90)), "mov": 8, "hp": 10, "skills": skills}
        self.use(data).send("board vehicle", "/participants", spec)

    @rule(data=st.data(), everyone=st.booleans())
    @in_phase("setup")
    def speed_roll(self, data: Any, everyone: bool = False) -> None:
        """A speed roll for someone still to make one (or for everyone, then the cut to the chase)."""
        if everyone:
            self.ready_to_cut(data)
        waiting = [pid for pid, p in self.view["participants"].items() if p["speed_mov"] is None and not p["vehicle_id"]]
        if not waiting and not self.rarely(data):
            self.cut_to_the_chase(data)
            return
        for pid in waiting if everyone else [data.draw(st.sampled_from(waiting)) if waiting and not self.rarely(data) else self.someone(data)]:
            body = self.one_roll(data, self.percentile_guess(data))
            self.use(data).send("speed roll", f"/participants/{pid}/speed-roll", body, token=self.token(data, pid))
        if everyone:
            self.cut_to_the_chase(data)

    def progress(self, data: Any) -> None:
        """What moves the chase on: someone joins (then the speed rolls and the cut), a turn is
        taken, or an end undone."""
        phase = self.view["phase"]
        if phase == "setup":
            self.join_the_chase(data, "character")
        elif phase == "running":
            self.take_a_turn(data, data.draw(st.sampled_from(["move", "end turn"])))
        else:
            self.keep_the_record(data, "undo")

    def ready_to_cut(self, data: Any) -> None:
        """What the Keeper still needs before the cut (now and then forgotten: refused): a quarry
        on foot or in a vehicle, and a driver for every vehicle."""
        if self.rarely(data):
            return
        if not self.ids(role="quarry", vehicle_id=None):
            self.add_character(data, "quarry")
        for vehicle in self.ids(kind="vehicle"):
            if not any(p["vehicle_id"] == vehicle and p["seat"] == "driver" for p in self.view["participants"].values()):
                self.board_a_vehicle(data, "driver", vehicle)

    @rule(data=st.data())
    @in_phase("setup")
    def cut_to_the_chase(self, data: Any) -> None:
        """The cut to the chase (now and then before everyone has rolled: refused)."""
        waiting = [pid for pid, p in self.view["participants"].items() if p["speed_mov"] is None and not p["vehicle_id"]]
        if waiting and not self.rarely(data):
            self.speed_roll(data)
            return
        quarries = self.ids(role="quarry", vehicle_id=None)
        body = {"opening_range": data.draw(st.integers(1, 2)), "staying": data.draw(st.lists(st.sampled_from(quarries), max_size=1)) if quarries else []}
        body["staying"] = self.odd(data, body["staying"], [UNKNOWN], self.ids(role="pursuer")[:1])
        self.use(data).send("cut to the chase", "/cut-to-the-chase", body, if_match=self.if_match(data))

    # -- the track -----------------------------------------------------------------------------

    @rule(data=st.data(), what=st.sampled_from(["place", "place", "change", "remove", "name"]))
    @in_phase("setup", "running")
    def change_the_track(self, data: Any, what: str) -> None:
        """The Keeper's hazards and barriers, and the names of locations."""
        play = self.use(data)
        if what == "place":
            kind = data.draw(st.sampled_from(["hazard", "barrier"]))
            start = self.location(data)
            between = self.odd(data, [start, start + 1], [start + 1, start], ["Barn", "Bridge"], [0, 2], [start, start])
            body: dict[str, Any] = {"kind": kind, "between": between, "name": self.name(kind),
                                    "skills": data.draw(st.lists(st.sampled_from(SKILLS[:4]), min_size=1, max_size=2, unique=True)),
                                    "difficulty": data.draw(st.sampled_from(["regular", "hard", "extreme"]))}
            if kind == "barrier":
                body.update(data.draw(st.sampled_from([{}, {"hit_points": 5}, {"hit_points": 25}, {"preset": data.draw(st.sampled_from(PRESETS))}])))
            play.send("place obstacle", "/obstacles", body)
        elif what == "change":
            change = data.draw(st.sampled_from([{"difficulty": "hard"}, {"kind": "hazard"}, {"kind": "barrier", "hit_points": 8}, {"skills": ["Jump"]}, {"hit_points": None}]))
            play.send("change obstacle", f"/obstacles/{self.obstacle_ids(data)}", change, method="PATCH")
        elif what == "remove":
            play.send("remove obstacle", f"/obstacles/{self.obstacle_ids(data)}", None, method="DELETE")
        elif data.draw(st.booleans()):
            play.send("remove location name", f"/locations/{self.location(data)}", None, method="DELETE")
        else:
            play.send("name location", f"/locations/{self.location(data)}", {"name": data.draw(st.sampled_from(["Muddy track", "Barn", "Bridge"]))}, method="PUT")

    # -- rounds --------------------------------------------------------------------------------

    @rule(data=st.data(), what=st.sampled_from(["move", "end turn", "move", "delay"]))
    @in_phase("running")
    def take_a_turn(self, data: Any, what: str) -> None:
        """A move (or, with a hazard or barrier ahead, negotiating or breaking it), the end of a
        turn, or a delay."""
        pid = self.who_acts(data)
        people = self.view["participants"]
        me = people.get(pid) or {}
        foes_here = [p for p in people.values() if p["location"] == me.get("location") and p["role"] != me.get("role") and p["status"] == "in_chase"]
        if foes_here and data.draw(st.booleans()):  # caught up: the pursuit turns into a fight
            self.fight(data, data.draw(st.sampled_from(["fighting", "maneuver"])))
            return
        if what == "move" and self.ahead_of(pid) and not self.rarely(data):
            self.face_an_obstacle(data, data.draw(st.sampled_from(["reckless", "cautious", "break"])))
            return
        play, token = self.use(data), self.token(data, pid)
        if what == "move":
            locations = data.draw(st.integers(1, 3))
            actions = (self.view["participants"].get(pid) or {}).get("movement_actions") or 1
            if not self.rarely(data):
                locations = max(1, min(locations, actions))
            play.send("move", f"/participants/{pid}/move", {"locations": locations}, token=token)
        elif what == "end turn":
            play.send("end turn", f"/participants/{pid}/end-turn", {}, token=token)
        else:
            later = self.view["turn_order"][1:]
            body = {"until_after": self.odd(data, data.draw(st.sampled_from(later + [None])), pid, UNKNOWN)} if later else {}
            play.send("delay", f"/participants/{pid}/delay", body, token=token)

    @rule(data=st.data(), what=st.sampled_from(["move", "end turn"]))
    @in_phase("running")
    def take_another_turn(self, data: Any, what: str) -> None:
        """Turns come round more often than anything else at the table."""
        self.take_a_turn(data, what)

    @rule(data=st.data(), approach=st.sampled_from(["reckless", "cautious", "break"]))
    @in_phase("running")
    def face_an_obstacle(self, data: Any, approach: str) -> None:
        facing = [pid for pid in self.view["participants"] if self.ahead_of(pid)]
        turn = self.view.get("whose_turn")
        pid = turn if turn in facing or not facing or self.rarely(data) else data.draw(st.sampled_from(facing))
        body = self.several_rolls(data)
        if approach == "break":
            if data.draw(st.booleans()):
                body["damage"] = data.draw(st.sampled_from(["1D8+DB", "2D6", "1D3"]))
            if self.rarely(data):
                body["debris"] = {"skills": ["Jump"], "difficulty": "hard"}
            self.use(data).send("break barrier", f"/participants/{pid}/break-barrier", body, token=self.token(data, pid))
            return
        ahead = self.ahead_of(pid) or {}
        body["approach"] = approach
        if approach == "cautious":
            body["bonus_dice"] = data.draw(st.integers(1, 2))
        skills = ahead.get("skills") or []
        if len(skills) > 1 or self.rarely(data):
            body["skill"] = data.draw(st.sampled_from(list(skills) + ["Swim"]))
        if self.rarely(data):
            body["keeper_accepts_skill"] = True
        self.use(data).send("negotiate", f"/participants/{pid}/negotiate", body, token=self.token(data, pid))

    @rule(data=st.data(), method=st.sampled_from(["fighting", "maneuver", "firearm", "fighting"]))
    @in_phase("running")
    def fight(self, data: Any, method: str) -> None:
        """An attack or maneuver; while a mishap waits, the roll as if a hazard or the Keeper's ruling."""
        mishaps = [m["participant_id"] for m in self.view["mishaps"]]
        if (mishaps and not self.rarely(data)) or (not mishaps and self.rarely(data)):  # the Keeper rules on anyone, now and then
            self.mishap(data, data.draw(st.sampled_from(mishaps)) if mishaps else self.someone(data))
            return
        pid = self.who_acts(data)
        target = self.near(data, pid)
        people = self.view["participants"]
        if (people.get(target) or {}).get("location") != (people.get(pid) or {}).get("location") and not self.rarely(data):
            method = "firearm"  # only firearms reach another location
        body = {"target_id": target, "method": method, **self.several_rolls(data)}
        if method == "firearm":
            body["damage"] = self.odd(data, "1D10", "1D10+DB", "0", "-1D4", "1D6-1D6")
        else:
            body["response"] = data.draw(st.sampled_from(["dodge", "fight back", "maneuver", "none"]))
        if self.rarely(data):
            body["aftermath"] = {"accident": data.draw(st.booleans())}
        self.use(data).send("attack", f"/participants/{pid}/attack", body, token=self.token(data, pid))

    def mishap(self, data: Any, pid: str) -> None:
        if data.draw(st.booleans()):
            body = {"skill": data.draw(st.sampled_from(["DEX", "Dodge", "Climb"])), **self.several_rolls(data)}
            self.use(data).send("mishap roll", f"/participants/{pid}/mishap-roll", body, token=self.token(data, pid))
            return
        body: dict[str, Any] = {"incident": data.draw(st.sampled_from(INCIDENTS)), **self.several_rolls(data)}
        extra = data.draw(st.sampled_from([{}, {"delay": False}, {"delay": True}, {"to_location": 0}, {"damage": "1D6"}, {"difficulty": "hard"},
                                           {"to_location": "Barn"}, {"to_location": 99}, {"damage": "0"}, {"incident": None, "delay": False}]))
        who = pid if not self.rarely(data) else self.someone(data)
        self.use(data).send("consequences", f"/participants/{who}/consequences", {**body, **extra})

    # -- rolls the Keeper calls for, and the random hazards job ---------------------------------

    @rule(data=st.data(), what=st.sampled_from(["skill roll", "dice roll", "random hazards"]))
    def keeper_calls_for_a_roll(self, data: Any, what: str) -> None:
        getattr(self, what.replace(" ", "_"))(data)

    def skill_roll(self, data: Any) -> None:
        bonus, penalty = data.draw(st.integers(0, 2)), data.draw(st.integers(0, 1))
        body = {"skill": data.draw(st.sampled_from(["Luck", "Climb", "DEX", "Spot Hidden"])), "bonus_dice": bonus, "penalty_dice": penalty,
                "difficulty": data.draw(st.sampled_from(["regular", "hard", "extreme"]))}
        pid = self.someone(data) if data.draw(st.booleans()) else None
        body.update({"participant_id": pid} if pid else {"target": data.draw(st.integers(0, 99))})
        if pid and data.draw(st.booleans()):
            body["target"] = self.odd(data, 50, 0, 999)
        body.update(self.one_roll(data, self.percentile_guess(data, max(bonus, penalty))))
        self.use(data).send("skill roll", "/skill-rolls", body, token=self.token(data, pid))

    def dice_roll(self, data: Any) -> None:
        expression = self.odd(data, data.draw(st.sampled_from(["1D6", "1D10+1D4+2", "2D6", "1D3+DB", "1D100"])), "0", "-1D4", "1D6-1D6", "DB", "D6+3")
        body: dict[str, Any] = {"expression": expression, "purpose": "a roll the Keeper calls for"}
        if "DB" in expression or data.draw(st.booleans()):
            body["participant_id"] = self.someone(data)
        guess = [data.draw(st.integers(1, 6)) for _ in range(expression.count("D"))]
        body.update(self.one_roll(data, guess))
        self.use(data).send("dice roll", "/dice-rolls", body, token=self.token(data, body.get("participant_id")))

    def random_hazards(self, data: Any) -> None:
        play = self.use(data)
        locations, environment = data.draw(st.integers(1, 3)), data.draw(st.sampled_from(["normal", "hazardous", "quiet"]))
        body: dict[str, Any] = {"locations": locations, "environment": environment, "from_location": data.draw(st.none() | st.integers(0, 6))}
        if play.dice == "table" or self.rarely(data):
            tens = 1 if environment == "normal" else 2
            body["table_dice"] = [face for _ in range(locations) for face in self.percentile_guess(data, tens - 1)]
        # The same key again is the same job: recorded once, however often it is sent.
        key = data.draw(st.sampled_from(play.keys)) if play.keys and self.rarely(data) else f"hazards {len(play.keys)}"
        play.keys.append(key)
        play.job("random hazards", "/random-hazards", body, key=key)

    # -- the Keeper's own reveal and rewind ------------------------------------------------------

    @rule(data=st.data(), what=st.sampled_from(["reveal the seed", "rewind to the cut"]))
    def keeper_reveals_or_rewinds(self, data: Any, what: str) -> None:
        """The Keeper's own, unconditioned: a reveal mid-chase, or a rewind to the chase as it was
        before its last action (a version the record must restore), so that every coc7e run
        plays both whatever the shared record rule's draws were."""
        play = self.use(data)
        before = self.view["version"]
        if what == "reveal the seed":
            play.send("reveal seed", "/reveal-seed", {})
        elif play.send("undo", "/undo", {"count": 1, "reason": "to find the version before the last action"}):
            to_version = self.view["version"] - 1  # the undo's own event is the last; the one before ends an earlier action
            play.send("redo", "/redo", {})
            play.send("rewind", "/rewind", {"to_version": max(1, to_version)}, if_match=self.view["version"])
        history_restores(play, before)
