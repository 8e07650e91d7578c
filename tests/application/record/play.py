"""One chase played over HTTP for the record's property tests (issue 10), every answer checked.

Every command goes through the Flask test client with the Keeper's token (or a player's), so the
tests see what users see. Each answer is checked as it comes: never a 5xx; an accepted command
answers with its chase, whose version and chain head are the ETag and X-Chain-Head it sends; a
refused one (a 4xx: a rule says no, a bad value, someone else's participant) leaves the log as it
was: the same version and the same chain head.

Table dice are entered as a person at the table enters them: a first guess, and when the answer
names the dice the roll takes (a 422: "this roll takes 2 dice (d8, d6)", "a d8 is still to roll",
"enter the faces of d100: 1 tens die ..."), valid faces of those dice, sent again. Every attempt
counts as a command of its own, the refused ones included.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

from hypothesis import strategies as st

REENTRIES = 6  # attempts at a roll's faces after the first, as the answers tell which dice it takes
TAKES = re.compile(r"takes \d+ dice \(([^)]*)\)")
STILL = re.compile(r"an? (d\d+(?: tens| units)?) is still to roll")
NOT_A_FACE = re.compile(r"at position (\d+) is not a face of an? (d\d+(?: tens| units)?)")
PERCENT = re.compile(r"d100: (\d+) tens")
DICE = re.compile(r"(\d*)[dD](\d+)")
LABEL = re.compile(r"d\d+(?: tens| units)?")
# Errors a background job may fail with when a rule refuses it (application/jobs.py PERMANENT).
REFUSALS = ("RuleBroken", "InvalidCommand", "HistoryRefused", "InvalidTableDice", "InvalidValue", "ChaseNotFound", "Forbidden")


@dataclass
class Tally:
    """What the machines covered, for the lead's closing note: chases, commands, versions."""

    chases: int = 0
    accepted: int = 0
    refused: int = 0
    versions: int = 0
    by_kind: Counter = field(default_factory=Counter)  # (kind, "accepted" | status) -> count
    events: Counter = field(default_factory=Counter)  # event name -> how many the chases recorded

    def line(self, system: str) -> str:
        return (f"{system}: {self.chases} chases, {self.accepted + self.refused} commands "
                f"({self.accepted} accepted, {self.refused} refused), {self.versions} versions rendered and checked, "
                f"{sum(self.events.values())} events of {len(self.events)} kinds")

    def accepted_kinds(self) -> set[str]:
        return {kind for (kind, status), n in self.by_kind.items() if status == "accepted" and n}


def legal_face(label: str, draw: Callable[[Any], Any]) -> int:
    """A face of the die a message names: "d100 tens" (00-90), "d100 units" (0-9), "d8" (1-8)."""
    if label == "d100 tens":
        return draw(st.integers(0, 9)) * 10
    if label == "d100 units":
        return draw(st.integers(0, 9))
    return draw(st.integers(1, int(label[1:])))


def fits(face: Any, label: str) -> bool:
    if label == "d100 tens":
        return face in range(0, 100, 10)
    if label == "d100 units":
        return face in range(10)
    return face in range(1, int(label[1:]) + 1)


def faces_for(message: str, faces: list[int], draw: Callable[[Any], Any]) -> list[int] | None:
    """The faces to enter next, from what a refusal says the roll takes; None if it says nothing."""
    if m := TAKES.search(message):
        labels = [label.strip() for label in m.group(1).split(",") if LABEL.fullmatch(label.strip())]
        kept = [f for f, label in zip(faces, labels) if fits(f, label)]
        kept = kept if len(kept) == min(len(faces), len(labels)) else []
        return kept + [legal_face(label, draw) for label in labels[len(kept):]]
    if m := STILL.search(message):
        return faces + [legal_face(m.group(1), draw)]
    if (m := NOT_A_FACE.search(message)) and int(m.group(1)) < len(faces):
        faces = list(faces)
        faces[int(m.group(1))] = legal_face(m.group(2), draw)
        return faces
    if m := PERCENT.search(message):
        return [legal_face("d100 tens", draw) for _ in range(int(m.group(1)))] + [legal_face("d100 units", draw)]
    if "enter the faces" in message:
        wanted = message.split(" is ")[-1] if " is " in message else message.split("faces of")[-1]
        dice = [f"d{sides}" for count, sides in DICE.findall(wanted) for _ in range(int(count or 1))]
        return [legal_face(label, draw) for label in dice or ["d6", "d6"]]  # a trait roll: the answer says more
    return None


class Play:
    """One chase of one system, played through the API by its Keeper and players."""

    def __init__(self, client: Any, system: str, dice: str, draw: Callable[[Any], Any], tally: Tally) -> None:
        self.client, self.system, self.dice, self.draw, self.tally = client, system, dice, draw, tally
        response = client.post("/chases", json={"name": f"A {system} chase", "system": system, "dice": dice})
        assert response.status_code == 201, response.get_json()
        body = response.get_json()
        self.chase_id, self.keeper = body["chase"]["chase_id"], body["keeper_token"]
        self.view: dict[str, Any] = body["chase"]
        self.heads = {self.view["chain_head"]}  # every chain head an answer showed: the log must keep them all
        self.shown = {self.view["version"]: self.view}  # the track view as answers showed it, by version
        self.rolls_shown: dict[int, dict[str, Any]] = {}  # every roll an answer showed, by sequence
        self.tokens: dict[str, str] = {}  # participant id -> a player's token for them
        self.keys: list[str] = []  # idempotency keys of the random hazards jobs sent
        self.last = ""  # the kind of the last command accepted
        tally.chases += 1

    # -- sending commands --------------------------------------------------------------------

    def headers(self, token: str | None = None, **extra: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {token or self.keeper}", **extra}

    def get(self, path: str, **query: Any) -> dict[str, Any]:
        response = self.client.get(f"/chases/{self.chase_id}{path}", headers=self.headers(), query_string=query)
        assert response.status_code == 200, (path, query, response.status_code, response.get_json())
        return response.get_json()

    def send(self, kind: str, path: str, body: dict[str, Any] | None = None, *, method: str = "POST",
             token: str | None = None, if_match: int | None = None) -> dict[str, Any] | None:
        """A command; its answer if accepted, None if refused (after re-entering table dice)."""
        body = dict(body or {})
        before = (self.view["version"], self.view["chain_head"])
        headers = self.headers(token, **({"If-Match": f'"{if_match}"'} if if_match is not None else {}))
        fixed: set[str] = set()
        for _ in range(REENTRIES + 1):
            response = self.client.open(f"/chases/{self.chase_id}{path}", method=method, json=body, headers=headers)
            answer = response.get_json(silent=True) or {}
            assert response.status_code < 500, f"{kind}: {method} {path} {body} answered {response.status_code} {answer}"
            if response.status_code < 400:
                self.tally.accepted += 1
                self.tally.by_kind[kind, "accepted"] += 1
                self.last = kind
                self._accepted(response, answer, before, by_player=token is not None)
                return answer
            self.tally.refused += 1
            self.tally.by_kind[kind, response.status_code] += 1
            self.unchanged(before, f"{kind} refused with {response.status_code}: {answer.get('detail')}")
            if response.status_code != 422 or not self._reenter(body, answer, fixed):
                return None
        return None

    def _accepted(self, response: Any, answer: dict[str, Any], before: tuple[int, str], by_player: bool) -> None:
        for roll in answer.get("rolls") or []:  # a token or a job answers without rolls
            self.rolls_shown[roll["sequence"]] = roll
        chase = answer.get("chase")
        if chase is None:
            return  # a token: nothing recorded in the log
        assert response.headers["ETag"] == f'"{chase["version"]}-compact"', (response.headers, chase["version"])
        assert response.headers["X-Chain-Head"] == chase["chain_head"]
        assert chase["version"] >= before[0], "an accepted command took the chase back in its log"
        self.view = self.get("/track")["chase"] if by_player else chase
        assert self.view["version"] == chase["version"] and self.view["chain_head"] == chase["chain_head"]
        self.heads.add(chase["chain_head"])
        self.shown[self.view["version"]] = self.view

    def unchanged(self, before: tuple[int, str], what: str) -> None:
        """A refusal recorded nothing: the chase is at the same version with the same chain head."""
        now = self.get("/track")["chase"]
        assert (now["version"], now["chain_head"]) == before, f"{what}; yet the log moved from version {before[0]} to {now['version']}"

    def _reenter(self, body: dict[str, Any], problem: dict[str, Any], fixed: set[str]) -> bool:
        """Change the faces the refusal was about; False when it was about something else."""
        for error in problem.get("errors") or []:
            name, message = error.get("field", ""), error.get("message", "")
            if "asked of the server dice" in message:
                body.pop("dice", None)
                return True
            if name == "table_dice":
                key = "defender_table_dice" if "table_dice" in fixed and "defender_table_dice" in body else "table_dice"
                if "takes no roll" in message:
                    body.pop("table_dice", None)
                    return True
                faces = faces_for(message, list(body.get(key) or []), self.draw)
                if faces is None:
                    return False
                fixed.add(key)
                body[key] = faces
                return True
            if name.startswith("rolls."):
                path = name.split(".")[1:]
                holder = body.setdefault("rolls", {})
                for part in path[:-1]:
                    holder = holder.setdefault(part, {})
                faces = faces_for(message, list(holder.get(path[-1]) or []), self.draw)
                if faces is None:
                    return False
                holder[path[-1]] = faces
                return True
        return False

    # -- players and jobs --------------------------------------------------------------------

    def player_token(self, participant_id: str) -> str | None:
        """A player's token for one participant, issued by the Keeper the first time it is needed."""
        if participant_id not in self.tokens:
            answer = self.send("issue player token", "/tokens", {"participant_ids": [participant_id]})
            if answer is None:
                return None
            self.tokens[participant_id] = answer["token"]
        return self.tokens[participant_id]

    def job(self, kind: str, path: str, body: dict[str, Any], key: str | None = None) -> dict[str, Any] | None:
        """A background job (random hazards): done, or failed by a rule with the log unchanged."""
        before = (self.view["version"], self.view["chain_head"])
        headers = self.headers(**({"Idempotency-Key": key} if key else {}))
        response = self.client.post(f"/chases/{self.chase_id}{path}", json=body, headers=headers)
        answer = response.get_json(silent=True) or {}
        assert response.status_code < 500, f"{kind}: {path} {body} answered {response.status_code} {answer}"
        if response.status_code >= 400:
            self.tally.refused += 1
            self.tally.by_kind[kind, response.status_code] += 1
            self.unchanged(before, f"{kind} refused with {response.status_code}: {answer.get('detail')}")
            return None
        done = self.get(f"/jobs/{answer['job']['job_id']}", wait=10)["job"]
        if done["status"] == "failed" and str(done["error"]).startswith(REFUSALS):
            self.tally.refused += 1
            self.tally.by_kind[kind, "job refused"] += 1
            self.unchanged(before, f"{kind} refused: {done['error']}")
            return None
        assert done["status"] == "done", f"{kind} {body}: the job is {done['status']}: {done['error']}"
        self.tally.accepted += 1
        self.tally.by_kind[kind, "accepted"] += 1
        self.view = self.get("/track")["chase"]
        self.heads.add(self.view["chain_head"])
        self.shown[self.view["version"]] = self.view
        if not done["result"]["recorded_now"]:
            self.unchanged(before, f"{kind} with a key already used")
        return done
