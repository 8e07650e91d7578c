"""Setting up a D6 race or chase and ending its rounds: the course, catching up, the finish.

The course is a line in metres: pursuers and quarries (or racers) stand at positions along it
and move forward. Terrain is data per stretch ("Movement Difficulty Modifiers"); the GM's
optional rules are chosen at the start ("Maximum Movement": the cap of four times the Move;
"Accelerating and Decelerating": the limits) with the Wild Die's 1 (DICE). A pursuer who has
reached a quarry's position when the round ends catches up; a quarry past the finish escapes, a
racer past it finishes; the chase ends then, or by the GM's call.
"""
from __future__ import annotations

from typing import Any, ClassVar, Protocol

from domain.rules.d6.dice import DEFAULT_WILD_DIE_ONE
from domain.rules.d6.dice import wild_die_one as one_rule
from domain.rules.d6.errors import InvalidValue, RuleBroken, rule, whole
from domain.rules.d6.movement import TERRAIN, metres
from domain.rules.d6.participants import D6Participant

MAX_STRETCHES = 100
MAX_TERRAIN_MODIFIER = 100
SET_UP = rule("Movement Difficulty Modifiers")


class RoundsChase(Protocol):
    """What set-up and the end of a round use of a D6 chase (chase.D6Chase)."""

    ChaseBegan: ClassVar[type]
    RoundBegan: ClassVar[type]
    RoundEnded: ClassVar[type]
    ChaseEnded: ClassVar[type]
    phase: str
    round: int
    participants: dict[str, D6Participant]
    course: dict[str, Any]

    def require_running(self) -> None: ...

    def trigger_event(self, event_class: Any, **kwargs: Any) -> None: ...


def course_of(finish: Any, terrain: Any) -> dict[str, Any]:
    """The course: where it finishes (metres, or none) and its terrain, stretch by stretch."""
    finish = None if finish is None else metres(finish, "finish", minimum=0.5)
    if not isinstance(terrain, list) or len(terrain) > MAX_STRETCHES:
        raise InvalidValue("terrain", f"a list of at most {MAX_STRETCHES} stretches")
    stretches = []
    for n, stretch in enumerate(terrain):
        where = f"terrain.{n}"
        if not isinstance(stretch, dict):
            raise InvalidValue(where, "a stretch is {\"from\": m, \"to\": m, \"terrain\": name}")
        name = stretch.get("terrain")
        if name not in TERRAIN:
            raise InvalidValue(f"{where}.terrain", f"is one of {', '.join(TERRAIN)} ({SET_UP})")
        start, end = metres(stretch.get("from"), f"{where}.from"), metres(stretch.get("to"), f"{where}.to")
        if end < start:
            raise InvalidValue(f"{where}.to", "a stretch ends where it begins or further on")
        modifier = stretch.get("modifier", TERRAIN[name])
        whole(f"{where}.modifier", modifier, 0, MAX_TERRAIN_MODIFIER)
        # The table's figures are the modifiers; only "very hazardous" reads "+25 or more".
        if modifier != TERRAIN[name] and not (name == "very hazardous" and modifier >= TERRAIN[name]):
            raise InvalidValue(f"{where}.modifier", f"{name} terrain is +{TERRAIN[name]} ({SET_UP})")
        note = stretch.get("note", "")
        if not isinstance(note, str) or len(note) > 200:
            raise InvalidValue(f"{where}.note", "a note of at most 200 characters")
        stretches.append({"from": start, "to": end, "terrain": name, "modifier": modifier, "note": note})
    return {"finish": finish, "terrain": stretches}


def begin(
    chase: RoundsChase, *, finish: Any = None, terrain: Any = (), wild_die_one: Any = DEFAULT_WILD_DIE_ONE,
    acceleration: Any = False, speed_limit: Any = False,
) -> None:
    """Set-up is over: the course and the GM's choices; round 1 begins."""
    check_begin(chase)
    course = course_of(finish, list(terrain) if isinstance(terrain, list | tuple) else terrain)
    settings: dict[str, Any] = {"wild_die_one": one_rule(wild_die_one)}
    for name, value in (("acceleration", acceleration), ("speed_limit", speed_limit)):
        if not isinstance(value, bool):
            raise InvalidValue(name, "must be true or false")
        settings[name] = value
    roles = {p.role for p in chase.participants.values()}
    if not ({"pursuer", "quarry"} <= roles or ("racer" in roles and course["finish"] is not None and len(chase.participants) > 1)):
        raise RuleBroken("a chase needs a pursuer and a quarry; a race, two racers and a finish", rule("Accelerating and Decelerating", "a race or a chase scene"))
    chase.trigger_event(chase.ChaseBegan, settings=settings, course=course)
    chase.trigger_event(chase.RoundBegan, round=1)


def check_begin(chase: RoundsChase) -> None:
    if chase.phase != "setup":
        raise RuleBroken("the chase has already begun", rule("Accelerating and Decelerating"))


def end_round(chase: RoundsChase) -> dict[str, Any]:
    """The round ends: catches, escapes and finishes; the chase ends or the next round begins."""
    chase.require_running()
    racing = sorted((p for p in chase.participants.values() if p.in_chase), key=lambda p: p.joined)
    pursuers = [p for p in racing if p.role == "pursuer"]
    finish = chase.course["finish"]
    caught = []
    for quarry in (p for p in racing if p.role == "quarry"):
        by = next((hunter for hunter in pursuers if hunter.position >= quarry.position), None)
        if by is not None:
            caught.append({"participant_id": quarry.id, "by": by.id})
    taken = {c["participant_id"] for c in caught}
    past = [p for p in racing if finish is not None and p.position >= finish and p.id not in taken]
    escaped = [p.id for p in past if p.role == "quarry"]
    finished = [p.id for p in sorted(past, key=lambda p: -p.position) if p.role == "racer"]
    chase.trigger_event(chase.RoundEnded, round=chase.round, caught=caught, escaped=escaped, finished=finished)
    result = {"caught": caught, "escaped": escaped, "finished": finished}
    quarries = [p for p in chase.participants.values() if p.role == "quarry"]
    names = {pid: p.name for pid, p in chase.participants.items()}
    if quarries and not any(q.in_chase for q in quarries):
        gone = [q for q in quarries if q.status == "escaped"]
        note = "; ".join(f"{q.name} {q.status}" + (f" by {names[q.caught_by]}" if q.caught_by else "") for q in quarries)
        chase.trigger_event(chase.ChaseEnded, outcome="escaped" if gone else "caught", note=f"{note} (round {chase.round})")
    elif finished:
        order = ", ".join(names[pid] for pid in finished)
        chase.trigger_event(chase.ChaseEnded, outcome="finished", note=f"at the finish in round {chase.round}: {order}")
    else:
        chase.trigger_event(chase.RoundBegan, round=chase.round + 1)
    return result
