"""Random hazards and barriers: coc7e-chases.txt "Random Hazards and Barriers".

"Roll 1D100: 01-59 = Clear, 60+ = 1 Regular hazard/barrier, 85+ = 1 Hard hazard/barrier,
96+ = 1 Extreme hazard/barrier." An especially hazardous environment (rush hour, country lanes
at midnight) adds a penalty die to the roll, one unlikely to have any dangers (a quiet freeway)
a bonus die. With a penalty die the higher result is kept, so hazards come more often.

The Keeper rolls once per location ahead ("The Keeper decides that Harvey can see the next three
locations, then rolls randomly to determine what they are"). Each roll is its own event with the
chase's next roll sequence number, so the roll history, the hash chain and the offline verifier
treat it like any other percentile roll. What the hazard or barrier *is* (its skills, hit points)
stays the Keeper's choice, made with the hazard and barrier commands.

Every call carries an idempotency key, kept in the events: a key already used is refused, so a
background job that runs twice records its rolls once. Undo and rewind do not give a key back.
"""
from __future__ import annotations

from typing import Any, Protocol

from domain.dice import DiceSource
from domain.recorded_chase import RecordedChase
from domain.rules.coc7e import percentile
from domain.rules.coc7e.errors import CHASES, InvalidCommand, RuleBroken

RANDOM_HAZARDS = f'{CHASES} "Random Hazards and Barriers"'

# Lowest result of each outcome, highest first (the table is data; "96+" includes 100, "00").
TABLE: tuple[tuple[int, str], ...] = ((96, "extreme"), (85, "hard"), (60, "regular"), (1, "clear"))

# Environment -> (bonus dice, penalty dice).
ENVIRONMENTS: dict[str, tuple[int, int]] = {"normal": (0, 0), "hazardous": (0, 1), "quiet": (1, 0)}
TABLE_NAME = "random hazards and barriers"  # a roll record's "table": how the verifier knows it
MAX_LOCATIONS = 10
MAX_KEY_LENGTH = 200


class RandomHazardsAlreadyRolled(RuleBroken):
    """The idempotency key was used before: these rolls are already recorded."""

    def __init__(self, key: str) -> None:
        super().__init__(f"random hazards were already rolled with the key {key!r}", RANDOM_HAZARDS)
        self.key = key


def outcome_of(result: int) -> str:
    """"clear", "regular", "hard" or "extreme" for a 1D100 result (1..100)."""
    if isinstance(result, bool) or not isinstance(result, int) or not 1 <= result <= 100:
        raise ValueError("a 1D100 result is a whole number from 1 to 100")
    return next(outcome for lowest, outcome in TABLE if result >= lowest)


def roll_location(dice: DiceSource, sequence: int, environment: str = "normal") -> dict[str, Any]:
    """One roll on the table: every die face, the result kept and the outcome (a roll record)."""
    if environment not in ENVIRONMENTS:
        raise InvalidCommand("environment", f"must be one of {', '.join(ENVIRONMENTS)}")
    bonus, penalty = ENVIRONMENTS[environment]
    draw = dice.draw(sequence, percentile.dice_for(bonus, penalty))
    read = percentile.resolve(0, draw.faces, bonus, penalty)
    return {
        "table": TABLE_NAME,
        "environment": environment,
        "bonus_dice": bonus,
        "penalty_dice": penalty,
        "tens": read["tens"],
        "units": read["units"],
        "result": read["result"],
        "outcome": outcome_of(read["result"]),
        "source": dict(draw.provenance, sequence=sequence),
    }


def used_keys(chase: Any) -> dict[str, list[int]]:
    """Idempotency keys used so far in a chase, with the roll sequence numbers each recorded
    (absent from chases, and their snapshots, that never rolled random hazards)."""
    return vars(chase).get("random_hazard_keys", {})


class HazardsChase(Protocol):
    """What rolling random hazards uses of a chase (domain.rules.coc7e.chase.Chase)."""

    rolls_made: int
    round: int

    def require_not_ended(self) -> None: ...

    def require_optional_rule(self, name: str) -> Any: ...

    def trigger_event(self, event_class: Any, **kwargs: Any) -> None: ...


class RandomHazardRolled(RecordedChase.Event):
    """One location ahead rolled on the random hazards table."""

    TOPIC = "coc7e:Chase.RandomHazardRolled"
    key: str
    location: int | None  # the stretch from this location to the next; None: not placed
    participant_id: str | None  # always None: nobody rolls it (the roll history's column)
    outcome: str
    by: str
    roll: dict

    def apply(self, chase: Any) -> None:
        chase.rolls_made = self.roll["sequence"]
        keys = chase.__dict__.setdefault("random_hazard_keys", {})
        keys.setdefault(self.key, []).append(self.roll["sequence"])


def roll_random_hazards(
    chase: HazardsChase,
    dice: DiceSource,
    key: str,
    locations: int = 1,
    environment: str = "normal",
    from_location: int | None = None,
    by: str = "keeper",
) -> list[dict[str, Any]]:
    """Roll ``locations`` locations ahead on the random hazards table; one event each."""
    chase.require_not_ended()
    chase.require_optional_rule("random_hazards")
    if not isinstance(key, str) or not key.strip() or len(key) > MAX_KEY_LENGTH:
        raise InvalidCommand("key", f"an idempotency key of 1 to {MAX_KEY_LENGTH} characters is required")
    if isinstance(locations, bool) or not isinstance(locations, int) or not 1 <= locations <= MAX_LOCATIONS:
        raise InvalidCommand("locations", f"must be a whole number from 1 to {MAX_LOCATIONS}")
    if environment not in ENVIRONMENTS:
        raise InvalidCommand("environment", f"must be one of {', '.join(ENVIRONMENTS)}")
    if from_location is not None and (isinstance(from_location, bool) or not isinstance(from_location, int)):
        raise InvalidCommand("from_location", "must be a whole number")
    if key in used_keys(chase):
        raise RandomHazardsAlreadyRolled(key)
    records = []
    for i in range(locations):
        sequence = chase.rolls_made + 1
        location = None if from_location is None else from_location + i
        record = {"sequence": sequence, "roller": None, "purpose": "random hazards", "round": chase.round,
                  "location": location, **roll_location(dice, sequence, environment)}
        chase.trigger_event(
            RandomHazardRolled, key=key, location=location, participant_id=None, outcome=record["outcome"], by=by, roll=record,
        )
        records.append(record)
    return records


def without_keys(state: dict[str, Any]) -> dict[str, Any]:
    """A chase's game state less its idempotency keys: they are part of the record, not of the
    game, so undo and rewind never give one back."""
    state.pop("random_hazard_keys", None)
    return state
