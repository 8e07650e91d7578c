"""A movement action in a D6 race or chase: declare a rate, meet its difficulty, move.

d6-movement.txt: the difficulty of the rate by movement type ("What's in this Chapter"), the
terrain crossed ("Movement Difficulty Modifiers"), fatigue, the GM's extra modifiers ("Other
Movement Options"); a short distance is free ("Short Distances"); one movement action of each
type per round and the optional cap ("Maximum Movement"); acceleration limits and slowing on a
failed roll when the GM turns them on ("Accelerating and Decelerating").
"""
from __future__ import annotations

from typing import Any, ClassVar, Protocol

from domain.dice import DiceSource
from domain.rules.d6.errors import InvalidValue, RuleBroken, rule, whole
from domain.rules.d6.movement import (
    MOVEMENT,
    RUNNING_START_BONUS,
    RUNNING_START_ROUNDS,
    SPEED_LIMIT,
    acceleration_limits,
    difficulty,
    farthest,
    fatigue_modifier,
    free_distance,
    metres,
    slowed,
    steps_beyond,
    terrain_modifier,
    whole_or_half,
)
from domain.rules.d6.participants import D6Participant
from domain.rules.d6.rolls import MAX_DIFFICULTY, MAX_MODIFIER, make_roll, the_one

ON_FAILURE = ("move", "trip")  # running: "covers only his Move or may even trip", the GM's call
ACCELERATION = rule("Accelerating and Decelerating")


class MovingChase(Protocol):
    """What a movement action uses of a D6 chase (chase.D6Chase)."""

    Moved: ClassVar[type]
    rolls_made: int
    round: int
    settings: dict[str, Any]
    course: dict[str, Any]

    def require_running(self) -> None: ...

    def require_in_chase(self, participant_id: str) -> D6Participant: ...

    def trigger_event(self, event_class: Any, **kwargs: Any) -> None: ...


def move(
    chase: MovingChase, dice: DiceSource | None, participant_id: str, movement: str, rate: Any, *, modifier: int = 0,
    on_failure: str | None = None, wild_die_one: str | None = None, running_start: int = 0,
) -> float:
    """One movement action (or a free short move) at ``rate`` metres this round (a leap: its
    distance); returns the metres covered."""
    chase.require_running()
    p = chase.require_in_chase(participant_id)
    if movement not in MOVEMENT:
        raise InvalidValue("movement", f"is one of {', '.join(MOVEMENT)}")
    kind = MOVEMENT[movement]
    base = p.base_rate(movement)
    if base is None:
        raise RuleBroken(f"{p.name} has no flying Move", rule("Short Distances", "swimming, flying, or base Move"))
    rate = metres(rate, "rate", minimum=0.5)
    whole("modifier", modifier, -MAX_MODIFIER, MAX_MODIFIER)
    if on_failure is not None and on_failure not in ON_FAILURE:
        raise InvalidValue("on_failure", f"the GM's ruling on a failed roll is one of {', '.join(ON_FAILURE)}")
    whole("running_start", running_start, 0, RUNNING_START_ROUNDS)
    if running_start and movement != "leaping":
        raise InvalidValue("running_start", "a running start is for leaping")
    if movement in p.this_round.get("moved", []):
        raise RuleBroken(f"{p.name} has already moved by {movement} this round: one movement action of each type per round", rule("Maximum Movement"))
    if chase.settings.get("speed_limit") and rate > SPEED_LIMIT * base:
        raise RuleBroken(f"{rate} m is beyond the GM's limit of 4 times the {movement} Move ({SPEED_LIMIT * base} m)", rule("Maximum Movement"))
    current = p.rates.get(movement, 0)
    accelerating = bool(chase.settings.get("acceleration")) and kind.rate
    if accelerating:
        slowest, fastest = acceleration_limits(current, base)
        if not slowest <= rate <= fastest:
            raise RuleBroken(f"from {current} m a round, {p.name} may go {slowest} to {fastest} m by {movement} this round", ACCELERATION)
    if kind.rate and rate <= free_distance(base):
        # "Short Distances": half the rate or less, without it counting as an action; no roll.
        if getattr(dice, "entered", None):
            raise InvalidValue("table_dice", f"a short distance (up to {free_distance(base)} m) takes no roll: enter no faces")
        _moved(chase, p, movement, rate, None, {}, None, "free", rate, rate, False, f"a short distance (up to {free_distance(base)} m) needs no roll")
        return rate
    return _rolled(chase, dice, p, movement, rate, base, current, accelerating, modifier, on_failure, wild_die_one, running_start)


def assess(terrain: list[dict[str, Any]], p: D6Participant, movement: str, base: int, rate: float, modifier: int = 0) -> dict[str, Any]:
    """The difficulty of ``rate`` for ``p`` now: the type's base, the rate, the worst terrain the
    path crosses, fatigue when the move is fast (counting this round once) and the GM's modifier."""
    kind = MOVEMENT[movement]
    worst, terrain_name = terrain_modifier(terrain, p.position, p.position + rate)
    fast = kind.rate and rate > base  # a rate beyond one movement: what tires ("most characters cannot move rapidly for long")
    # "Any additional fast movement beyond that predetermined length requires a fatigue modifier":
    # a move at one movement or less, or a leap, is no fast movement and pays none.
    fatigue = fatigue_modifier(p.fast_rounds + (0 if p.this_round.get("fast") else 1), p.fatigue_limit) if fast else 0
    parts = {"base": kind.base_difficulty, "rate": kind.increase * steps_beyond(movement, base, rate), "terrain": worst, "fatigue": fatigue, "gm": modifier}
    return {"difficulty": sum(parts.values()), "parts": parts, "terrain": terrain_name, "fast": fast, "modifiers": worst + fatigue + modifier}


def _rolled(
    chase: MovingChase, dice: DiceSource | None, p: D6Participant, movement: str, rate: float, base: int, current: float,
    accelerating: bool, modifier: int, on_failure: str | None, one: str | None, running_start: int,
) -> float:
    found = assess(chase.course.get("terrain", []), p, movement, base, rate, modifier)
    needed, parts, modifiers, fast = found["difficulty"], found["parts"], found["modifiers"], found["fast"]
    if needed > MAX_DIFFICULTY:
        # The bound every D6 roll has (a skill roll's difficulty): past it, the exact odds of an
        # exploding Wild Die reaching it run to thousands of digits, and no table plays it.
        raise InvalidValue("rate", f"{rate} m is a difficulty of {needed}, past the {MAX_DIFFICULTY} any roll may have: move slower")
    bonus = {"running start": RUNNING_START_BONUS * _running_start(p, chase.round, running_start)} if running_start else {}
    made, record = make_roll(
        chase, dice, p.id, f"{movement} {rate} m", p.dice_for(movement), difficulty=needed, one=the_one(chase, one), bonus=bonus,
        extra={"movement": movement, "difficulty_parts": parts, "terrain": found["terrain"]},
    )
    allows = farthest(movement, base, made.total - modifiers)
    said = f"total {made.total} against {needed}; it would cover {allows} m"
    if made.success:
        outcome, distance = "moved", rate
        if accelerating and allows > rate:
            said += f", but the acceleration limit holds {p.name} to the rate declared"
    elif accelerating and current > 0 and made.total < difficulty(movement, base, current) + modifiers:
        # "if a character does not make a movement roll that would allow him to move at the
        # previous round's rate, that character automatically slows by two times his base Move"
        new = slowed(current, base)
        outcome = "slowed" if new > 0 else "stopped" if new == 0 else "tripped"
        distance = max(new, 0)
        said += f"; short of holding {current} m, {p.name} slows by 2 x {base} m: {outcome}"
    elif on_failure == "trip":
        outcome, distance = "tripped", 0
        said += "; the GM rules a trip"
    elif accelerating and current > 0:
        # The previous rate was made, the rate declared was not: as fast as the total allows.
        outcome, distance = "fell short", whole_or_half(max(current, min(rate, allows)))
        said += f"; {p.name} holds {distance} m"
    elif movement in ("running", "flying"):
        # "fails his running roll covers only his Move": never more than the rate declared
        outcome, distance = "covered only the base rate", min(rate, base)
        said += f"; a failed roll covers only the Move ({base} m)"
    else:
        outcome, distance = "fell short", whole_or_half(min(rate, allows))
        said += f"; {p.name} covers what the total allows"
    new_rate = distance if MOVEMENT[movement].rate else None
    _moved(chase, p, movement, rate, needed, parts, record, outcome, distance, new_rate, fast, said)
    return distance


def _running_start(p: D6Participant, round_now: int, wanted: int) -> int:
    """"Leaping": +5 per round of running start, up to two, each round's running difficulty beaten."""
    last = round_now if "running" in p.this_round.get("moved", []) else round_now - 1
    streak = 0
    while streak < wanted and (last - streak) in p.running_beaten:
        streak += 1
    if streak < wanted:
        raise RuleBroken(
            f"{p.name} has beaten the running difficulty in {streak} round(s) in a row before this leap, not {wanted}",
            rule("What's in this Chapter", "leaping: the character must have beat the running difficulty"),
        )
    return wanted


def _moved(
    chase: MovingChase, p: D6Participant, movement: str, rate: float, needed: int | None, parts: dict[str, int],
    record: dict[str, Any] | None, outcome: str, distance: float, new_rate: float | None, fast: bool, said: str,
) -> None:
    chase.trigger_event(
        chase.Moved, participant_id=p.id, movement=movement, rate=rate, difficulty=needed, difficulty_parts=parts, roll=record,
        outcome=outcome, distance=distance, position=whole_or_half(p.position + distance), new_rate=new_rate, fast=fast, explanation=said,
    )
