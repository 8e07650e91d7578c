"""Random hazards as a background job (coc7e-chases.txt "Random Hazards and Barriers"; DESIGN.md 8).

The Keeper rolls the random hazards table for the locations ahead: one roll per location, each an
event on the chase, with the server dice or faces entered at the table. The job's id is derived
from the chase and the idempotency key: the same key submits the same job, and the chase refuses
a key already used, so the rolls are recorded once however often the job runs.
"""
from __future__ import annotations

from typing import Any, Sequence
from uuid import NAMESPACE_URL, UUID, uuid4, uuid5

from application.access import Principal
from application.systems.coc7e.permissions import permit_chase
from application.plugins import JobKind
from domain.dice import InvalidTableDice, TableDice
from domain.rules.coc7e.chase import Chase
from domain.rules.coc7e.random_hazards import ENVIRONMENTS, MAX_LOCATIONS, RandomHazardsAlreadyRolled, used_keys

RANDOM_HAZARDS = "random_hazards"


def roll_random_hazards(
    jobs: Any,
    chase_id: UUID,
    key: str,
    locations: int = 1,
    environment: str = "normal",
    from_location: int | None = None,
    table_dice: Sequence[int] | None = None,
    *,
    by: Principal | None = None,
) -> dict[str, Any]:
    """Submit the roll of the random hazards table for ``locations`` locations ahead to ``jobs``
    (application/jobs.py Jobs); the job as submitted."""
    params = _params(chase_id, key, locations, environment, from_location, table_dice, by)
    jobs.require_chase(chase_id, systems=(Chase.SYSTEM,))
    jobs.ledger.runner.load(chase_id).require_optional_rule("random_hazards")  # refused now (409), not in the worker
    job_id = str(uuid5(NAMESPACE_URL, f"chase-ledger:random-hazards:{chase_id}:{key}"))
    return jobs.submit(RANDOM_HAZARDS, params, chase_id=str(chase_id), job_id=job_id)


def try_random_hazards(
    ledger: Any, chase_id: UUID, locations: int = 1, environment: str = "normal", from_location: int | None = None,
    table_dice: Sequence[int] | None = None, *, by: Principal | None = None,
) -> None:
    """The dry run of rolling random hazards (application/dry_run.py): the job's work, done here
    and now under the caller's dry run, so that nothing is queued and nothing recorded."""
    random_hazards(ledger, None, _params(chase_id, f"dry run {uuid4()}", locations, environment, from_location, table_dice, by))


def _params(
    chase_id: UUID, key: str, locations: int, environment: str, from_location: int | None, table_dice: Sequence[int] | None, by: Principal | None,
) -> dict[str, Any]:
    if by is not None:
        permit_chase(by, "random_hazards")
    if not isinstance(key, str) or not key.strip():
        raise ValueError("an idempotency key is required")
    if environment not in ENVIRONMENTS or not 1 <= locations <= MAX_LOCATIONS:
        raise ValueError("bad environment or number of locations")
    return {
        "chase_id": str(chase_id), "key": key, "locations": locations, "environment": environment,
        "from_location": from_location, "table_dice": list(table_dice) if table_dice is not None else None,
        "by": by.name if by is not None else "keeper",
    }


class TableDiceRolls:
    """Faces entered at the table for several rolls in a row, taken roll by roll (each roll's
    faces checked like TableDice); faces left over are refused."""

    def __init__(self, faces: Sequence[int], entered_by: str = "keeper") -> None:
        self.left = list(faces)
        self.entered_by = entered_by

    def draw(self, sequence: int, dice: Sequence[Any]) -> Any:
        taken, self.left = self.left[: len(dice)], self.left[len(dice):]
        return TableDice(taken, self.entered_by).draw(sequence, dice)

    def finish(self) -> None:
        if self.left:
            raise InvalidTableDice(f"{len(self.left)} faces were entered beyond those the rolls take")


def random_hazards(ledger: Any, run: Any, params: dict[str, Any]) -> dict[str, Any]:
    """The job: roll the table (the server dice, or faces entered at the table); recorded once
    per idempotency key."""
    chase_id, key = UUID(params["chase_id"]), params["key"]
    faces = params.get("table_dice")

    def command(chase: Any) -> list[dict[str, Any]]:
        dice = TableDiceRolls(faces) if faces is not None else ledger.dice.server(chase)
        records = chase.roll_random_hazards(
            dice, key, params["locations"], params["environment"], params.get("from_location"), params.get("by", "keeper")
        )
        if isinstance(dice, TableDiceRolls):
            dice.finish()
        return records

    try:
        ledger.runner.run(chase_id, command, systems=(Chase.SYSTEM,))
        recorded_now = True
    except RandomHazardsAlreadyRolled:
        recorded_now = False  # an earlier run recorded them: report what it recorded
    sequences = set(used_keys(ledger.runner.load(chase_id)).get(key, []))
    rolls = [r for r in ledger.rolls(chase_id) if r["sequence"] in sequences]  # catches the views up too
    return {
        "chase_id": str(chase_id),
        "key": key,
        "recorded_now": recorded_now,
        "rolls": [
            {"sequence": r["sequence"], "version": r["version"], "location": r["roll"].get("location"),
             "result": r["roll"]["result"], "outcome": r["roll"]["outcome"], "undone": r["undone"]}
            for r in rolls
        ],
    }


JOB_KINDS = {RANDOM_HAZARDS: JobKind(random_hazards, "interactive")}  # a player waits for these
