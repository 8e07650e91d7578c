"""The track's features: location names, and hazards and barriers placed between two locations.

coc7e-chases.txt "Keeping Track of the Chase" (a line of dots, each a location), "Hazards" ("a
hazard is written in the space between two dots"), "Barriers", "Sample Barriers and Hit Points"
and "Chases with Multiple Characters" (3. "Position hazards: Note down any hazards, barriers, or
other landmarks"). The Keeper adds, changes and removes them at set-up or in play, each change
an event. Locations are numbered from 0 at the back of the chase and may be named; a name can
stand for the number wherever a location is asked for. An obstacle is kept as a plain dict (JSON
in events and snapshots) and read as domain.rules.coc7e.obstacles' Hazard or Barrier.
"""
from __future__ import annotations

from typing import Any, Protocol

from domain.rules.coc7e import obstacle_events, obstacles
from domain.rules.coc7e.errors import InvalidCommand, ObstacleNotFound, RuleBroken

MAX_LOCATION = 100_000
OBSTACLE_FIELDS = ("name", "skills", "difficulty", "hit_points", "between", "kind")


class TrackChase(Protocol):
    """What the track procedures use of a chase (domain.rules.coc7e.chase.Chase)."""

    obstacles: dict[str, dict[str, Any]]
    location_names: dict[str, str]

    def require_not_ended(self) -> None: ...

    def trigger_event(self, event_class: Any, **kwargs: Any) -> None: ...


def name_location(chase: TrackChase, location: int, name: str) -> None:
    """Name (or rename) a location: "Each dot represents one location" ("Keeping Track")."""
    chase.require_not_ended()
    index = location_index(chase, location, "location")
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > 200:
        raise InvalidCommand("name", "1 to 200 characters")
    for key, other in chase.location_names.items():
        if other.lower() == name.strip().lower() and int(key) != index:
            raise InvalidCommand("name", f"already names location {key}; location names are unique")
    chase.trigger_event(obstacle_events.LocationNamed, location=index, name=name.strip(), previous=chase.location_names.get(str(index)))


def remove_location_name(chase: TrackChase, location: int) -> None:
    chase.require_not_ended()
    index = location_index(chase, location, "location")
    if str(index) not in chase.location_names:
        raise InvalidCommand("location", f"location {index} has no name")
    chase.trigger_event(obstacle_events.LocationNameRemoved, location=index, name=chase.location_names[str(index)])


def place_obstacle(chase: TrackChase, obstacle_id: str, spec: dict[str, Any]) -> None:
    """A hazard or barrier between two adjacent locations, with its skill(s) and difficulty."""
    chase.require_not_ended()
    obstacle = _checked_obstacle(chase, obstacle_id, spec)
    _require_free_boundary(chase, obstacle)
    chase.trigger_event(obstacle_events.ObstaclePlaced, obstacle=obstacle)


def change_obstacle(chase: TrackChase, obstacle_id: str, changes: dict[str, Any]) -> None:
    """Change a hazard or barrier in play; a barrier keeps the damage it took unless its hit
    points (or preset) are given anew."""
    chase.require_not_ended()
    before = find_obstacle(chase, obstacle_id)
    unknown = sorted(set(changes) - set(OBSTACLE_FIELDS) - {"preset"})
    if unknown:
        raise InvalidCommand(unknown[0], "cannot be changed")
    if not changes:
        raise InvalidCommand("body", f"give one or more of {', '.join(OBSTACLE_FIELDS)}, preset")
    spec = {k: before[k] for k in ("kind", "name", "skills", "difficulty")}
    spec["between"] = [before["from_location"], before["to_location"]]
    new_hit_points = "hit_points" in changes or "preset" in changes
    if before["kind"] == "barrier" and not new_hit_points and changes.get("kind", "barrier") == "barrier":
        spec["hit_points"] = before["starting_hit_points"]
    spec.update(changes)
    after = _checked_obstacle(chase, obstacle_id, spec)
    after["debris_of"] = before["debris_of"]
    if before["kind"] == after["kind"] == "barrier" and not new_hit_points:
        after.update(hit_points=before["hit_points"], destroyed=before["destroyed"], preset=before["preset"])
    _require_free_boundary(chase, after, ignore=obstacle_id)
    chase.trigger_event(obstacle_events.ObstacleChanged, obstacle_id=obstacle_id, before=before, after=after)


def remove_obstacle(chase: TrackChase, obstacle_id: str, reason: str = "") -> None:
    chase.require_not_ended()
    chase.trigger_event(obstacle_events.ObstacleRemoved, obstacle_id=obstacle_id, obstacle=find_obstacle(chase, obstacle_id), reason=reason or "")


def find_obstacle(chase: TrackChase, obstacle_id: str) -> dict[str, Any]:
    try:
        return chase.obstacles[obstacle_id]
    except KeyError:
        raise ObstacleNotFound(f"no hazard or barrier {obstacle_id} on this chase's track") from None


def obstacle_ahead(chase: TrackChase, location: int | None) -> dict[str, Any] | None:
    """The hazard or standing barrier between ``location`` and the next one."""
    if location is None:
        return None
    return next((o for o in chase.obstacles.values() if o["from_location"] == location and _active(o)), None)

# -- internals -----------------------------------------------------------------------------

def location_index(chase: TrackChase, value: Any, field: str) -> int:
    """A location by index (0 at the back of the chase) or by the name the Keeper gave it."""
    if isinstance(value, str):
        for key, name in chase.location_names.items():
            if name.lower() == value.strip().lower():
                return int(key)
        raise InvalidCommand(field, f"unknown location {value!r}: no location has that name")
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_LOCATION:
        raise InvalidCommand(field, f"unknown location {value!r}: locations are numbered 0 (the back of the chase) to {MAX_LOCATION}, or named")
    return value


def _checked_obstacle(chase: TrackChase, obstacle_id: str, spec: dict[str, Any]) -> dict[str, Any]:
    kind = spec.get("kind")
    if kind not in ("hazard", "barrier"):
        raise InvalidCommand("kind", "must be hazard or barrier")
    between = spec.get("between")
    if not isinstance(between, (list, tuple)) or len(between) != 2:
        raise InvalidCommand("between", "give the two adjacent locations the obstacle lies between")
    a, b = (location_index(chase, x, "between") for x in between)
    if abs(a - b) != 1:
        raise InvalidCommand("between", f"locations {a} and {b} are not adjacent: a {kind} lies between two neighbouring locations ({obstacles.HAZARDS})")
    start = min(a, b)
    preset = spec.get("preset")
    skills, difficulty = spec.get("skills"), spec.get("difficulty", "regular")
    if not isinstance(skills, (list, tuple, str)):
        raise InvalidCommand("skills", f"the Keeper names a skill or choice of skills ({obstacles.SKILLS_AND_HAZARDS})")
    if kind == "hazard":
        if preset is not None or spec.get("hit_points") is not None:
            raise InvalidCommand("preset" if preset is not None else "hit_points", f"only barriers have hit points ({obstacles.BREAKING})")
        pure: Any = obstacles.hazard(spec.get("name"), start, skills, difficulty)
    elif preset is not None:
        if spec.get("hit_points") is not None:
            raise InvalidCommand("hit_points", "a preset gives the hit points; leave them out or leave out the preset")
        chosen = obstacles.preset(preset) if isinstance(preset, str) else obstacles.preset("")
        pure = obstacles.barrier(spec.get("name") or chosen.name, start, skills, difficulty, chosen.hit_points)
        preset = chosen.name
    else:
        pure = obstacles.barrier(spec.get("name"), start, skills, difficulty, spec.get("hit_points"))
    hit_points = getattr(pure, "hit_points", None)
    return {
        "id": obstacle_id, "kind": kind, "name": pure.name, "from_location": start, "to_location": start + 1,
        "skills": list(pure.skills), "difficulty": pure.difficulty, "hit_points": hit_points,
        "starting_hit_points": hit_points, "preset": preset, "destroyed": False, "debris_of": spec.get("debris_of"),
    }


def _require_free_boundary(chase: TrackChase, obstacle: dict[str, Any], ignore: str | None = None) -> None:
    for other in chase.obstacles.values():
        if other["id"] != ignore and other["from_location"] == obstacle["from_location"] and _active(other):
            raise RuleBroken(
                f"{other['name']} already lies between locations {other['from_location']} and {other['to_location']}; change or remove it",
                obstacles.HAZARDS,
            )


def debris_spec(chase: TrackChase, barrier: dict[str, Any], debris: dict[str, Any]) -> dict[str, Any]:
    """"The debris that results from smashing a barrier may present a hazard" (as the Keeper rules)."""
    if not isinstance(debris, dict):
        raise InvalidCommand("debris", "give the debris hazard's skills and difficulty")
    spec = {
        "kind": "hazard", "between": [barrier["from_location"], barrier["to_location"]],
        "name": debris.get("name") or f"Debris of {barrier['name']}", "skills": debris.get("skills"),
        "difficulty": debris.get("difficulty", "regular"), "debris_of": barrier["id"],
    }
    try:
        return _checked_obstacle(chase, f"{barrier['id']}.debris", spec)
    except InvalidCommand as e:
        raise InvalidCommand(f"debris.{e.field}", e.message) from None


def _active(o: dict[str, Any]) -> bool:
    """Hazards, and barriers still standing ("When a barrier is reduced to 0 hit points it is no longer a barrier")."""
    return not o["destroyed"]


def pure(o: dict[str, Any]) -> obstacles.Hazard | obstacles.Barrier:
    if o["kind"] == "hazard":
        return obstacles.Hazard(o["name"], o["from_location"], tuple(o["skills"]), o["difficulty"])
    return obstacles.Barrier(o["name"], o["from_location"], tuple(o["skills"]), o["difficulty"], o["hit_points"], o["starting_hit_points"])
