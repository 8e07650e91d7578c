"""Splitting up (optional rule splitting_up): coc7e-chases.txt "Splitting Up", "Chases with
Multiple Characters" ("If they split up there will be multiple chases and each chase should be
tracked and resolved separately").

The Keeper names the groups that take different routes; each becomes a chase of its own, recorded
from then on apart from the original (its own log, seed, rolls and end), and those left stay in the
original. The original records where each group went (ChaseSplit); each new chase starts from the
original's state for its group (SplitFrom: the round as far as it has gone, the group's places,
movement actions and mishaps, the track's names, hazards, barriers and forks) and knows the chase
it came from and its sister chases, so every view links them.
"""
from __future__ import annotations

import copy
from dataclasses import asdict
from typing import Any, Protocol, Sequence

from domain.recorded_chase import RecordedChase
from domain.rules.coc7e import chase_events, rounds
from domain.rules.coc7e.errors import CHASES, InvalidCommand, RuleBroken
from domain.rules.coc7e.participants import Participant

SPLITTING = f'{CHASES} "Splitting Up"'
MAX_GROUPS = 10

Event = RecordedChase.Event


class SplittingChase(rounds.RoundsChase, Protocol):
    id: Any
    name: str
    dice: str
    optional_rules: list[str]
    location_names: dict[str, str]
    obstacles: dict[str, dict[str, Any]]
    forks: dict[str, list[str]]
    paths: dict[str, dict[str, str]]
    modes: dict[str, dict[str, Any]]
    build_losses: dict[str, list[dict[str, Any]]]
    split_into: list[str]

    def require_optional_rule(self, name: str) -> Any: ...


class ChaseSplit(Event):
    """Groups of the chase went their own ways, each now a chase of its own."""

    TOPIC = "coc7e:Chase.ChaseSplit"
    splits: list  # [{"chase_id": ..., "participant_ids": [... those aboard included]}]

    def apply(self, chase: Any) -> None:
        for split in self.splits:
            gone = set(split["participant_ids"])
            for pid in gone:
                chase.participants[pid].status = "split_off"
                chase.track.remove(pid)
                chase.mishaps.pop(pid, None)
            done = chase.turn_order[: chase.turn_index]
            chase.turn_order = done + [pid for pid in chase.turn_order[chase.turn_index :] if pid not in gone]
            chase.split_into.append(split["chase_id"])


class SplitFrom(Event):
    """A chase split off another: it starts from the original's state for its group."""

    TOPIC = "coc7e:Chase.SplitFrom"
    origin: str
    sisters: list  # the other chases split off at the same time
    state: dict  # participants, positions, round, turn order, slowest MOV, track and rules

    def apply(self, chase: Any) -> None:
        s = copy.deepcopy(self.state)
        chase.participants = {pid: Participant(**p) for pid, p in s.pop("participants").items()}
        for pid, location in s.pop("positions").items():
            chase.track.place(pid, location)
        for key, value in s.items():
            setattr(chase, key, value)
        chase.phase = "running"
        chase.turn_index = 0
        chase.split_from = self.origin
        chase.split_sisters = list(self.sisters)


def groups_of(chase: SplittingChase, groups: Any) -> list[list[str]]:
    """The groups named, checked: each a list of participants in the chase on the track (those
    aboard a vehicle go with it), no one in two groups, a quarry in each, someone left behind."""
    if not isinstance(groups, list) or not 1 <= len(groups) <= MAX_GROUPS:
        raise InvalidCommand("groups", f"name 1 to {MAX_GROUPS} groups, each a list of participant ids")
    seen: set[str] = set()
    out = []
    for i, group in enumerate(groups):
        if not isinstance(group, list) or not group or not all(isinstance(pid, str) for pid in group):
            raise InvalidCommand(f"groups.{i}", "a non-empty list of participant ids")
        members = []
        for pid in group:
            p = chase.participant(pid)
            if p.aboard:
                raise InvalidCommand(f"groups.{i}", f"{p.name} rides in a vehicle: name the vehicle, whose occupants go with it")
            if p.status != "in_chase":
                raise RuleBroken(f"{p.name} is not in the chase ({p.status})", SPLITTING)
            if pid in seen:
                raise InvalidCommand(f"groups.{i}", f"{p.name} is in two groups")
            seen.add(pid)
            members.append(pid)
        if not any(chase.participants[pid].role == "quarry" for pid in members):
            raise RuleBroken("each group that splits off takes a route of its own: it needs a fleeing character", SPLITTING)
        out.append(members)
    if not [p for p in chase.on_track() if p.status == "in_chase" and p.id not in seen]:
        raise RuleBroken("someone stays in this chase: name the groups that split off from it", SPLITTING)
    return out


def check_split(chase: SplittingChase) -> None:
    """The guard of ``split_off`` before the groups named: the rule in use, the chase under way."""
    chase.require_optional_rule("splitting_up")
    if chase.phase != "running":
        raise RuleBroken("a chase splits once it is under way (after the cut to the chase)", SPLITTING)


def split_off(chase: SplittingChase, groups: Any, new_ids: Sequence[Any]) -> list[dict[str, Any]]:
    """Record the split on the original; the state each new chase starts from (its SplitFrom)."""
    check_split(chase)
    checked = groups_of(chase, groups)
    if len(new_ids) != len(checked):
        raise InvalidCommand("groups", "one new chase for each group")
    starts, splits = [], []
    for members, new_id in zip(checked, new_ids):
        everyone = [p.id for p in chase.participants.values() if p.id in members or p.vehicle in members]
        starts.append({
            "participants": {pid: {**asdict(chase.participants[pid]), "status": "in_chase"} for pid in everyone},
            "positions": {pid: chase.track.location_of(pid) for pid in members},
            "round": chase.round,
            "turn_order": [pid for pid in chase.turn_order[chase.turn_index :] if pid in everyone],
            "slowest_mov": chase.slowest_mov,
            "optional_rules": list(chase.optional_rules),
            "location_names": dict(chase.location_names),
            "obstacles": copy.deepcopy(chase.obstacles),
            "forks": copy.deepcopy(chase.forks),
            "paths": {pid: dict(chase.paths[pid]) for pid in everyone if pid in chase.paths},
            "modes": {pid: dict(chase.modes[pid]) for pid in everyone if pid in chase.modes},
            "mishaps": {pid: dict(chase.mishaps[pid]) for pid in everyone if pid in chase.mishaps},
            "build_losses": {pid: list(chase.build_losses[pid]) for pid in everyone if pid in chase.build_losses},
        })
        _next_round_if_done(chase, starts[-1], everyone)
        splits.append({"chase_id": str(new_id), "participant_ids": everyone})
    chase.trigger_event(ChaseSplit, splits=splits)
    if chase.turn_index >= len(chase.turn_order):  # those left had all acted: their next round
        chase.trigger_event(chase_events.RoundEnded, round=chase.round)
        rounds.begin_round(chase, chase.round + 1)
    names = [", ".join(chase.participants[pid].name for pid in members) for members in checked]
    return [
        {"id": new_id, "name": f"{chase.name} ({name})"[:200], "origin": str(chase.id),
         "sisters": [str(other) for other in new_ids if other != new_id], "state": start}
        for new_id, name, start in zip(new_ids, names, starts)
    ]


def begin_split(chase: Any, origin: str, sisters: list[str], state: dict[str, Any]) -> None:
    """A new chase's state, as part of its creation (SplitFrom, like Created, is not undone)."""
    chase.trigger_event(SplitFrom, origin=origin, sisters=sisters, state=state)


def _next_round_if_done(chase: SplittingChase, start: dict[str, Any], everyone: list[str]) -> None:
    """A group none of whom has this round left to play starts the next one: its movement
    actions dealt as a new round deals them (rounds.chase_round), against the kept slowest MOV."""
    if start["turn_order"]:
        return
    group = [chase.participants[pid] for pid in everyone]
    runners = [p for p in group if not p.aboard and not p.incapacitated]
    aboard = [p for p in group if p.aboard and p.seat == "passenger" and not p.incapacitated]
    order, actions, owed, slowest = chase.plan_round(runners, aboard)
    start.update(round=chase.round + 1, turn_order=order, slowest_mov=slowest)
    for pid, n in actions.items():
        start["participants"][pid].update(movement_actions=n, owed=owed[pid], attacks_made=0)
