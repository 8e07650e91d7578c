"""The Injury table, rolled when a character is Incapacitated (the Adventure Edition's procedures).

swade-chases-reference.txt "INJURY TABLE": 2d6 (swade_tables.INJURIES), Guts and Head with a d6
on their own sub-table; an Arm injury is the left or right arm, "rolled randomly if not
targeted" (a d6 here: 1-3 left, 4-6 right). The roll waits as a follow-up right after the damage
that Incapacitated the character; the chase goes on (or ends, if no one is left on that side)
once it is rolled. Each roll is a table roll of the record; the injury is InjuryTaken, kept in
the participant's log beside vehicles' damage (savage_base.SavageChase.vehicle_log).
"""
from __future__ import annotations

from typing import Any, ClassVar, Protocol

from domain.dice import DiceSource
from domain.rules.savage_worlds import savage_rolls
from domain.rules.savage_worlds.swade_tables import GUTS, HEAD, INJURIES, row_for

INJURY_TABLE = "swade-chases-reference.txt \"INJURY TABLE\""
SUB_TABLES = {"Guts": GUTS, "Head": HEAD}
ARM_SIDES = ((1, 3, "left"), (4, 6, "right"))  # "(rolled randomly if not targeted)"


class InjuringChase(savage_rolls.RollingChase, Protocol):
    """What the Injury table's rolls use of a chase (swade_aggregate.SwadeChase)."""

    InjuryTaken: ClassVar[type]

    def require(self, kind: str, participant_id: str | None, **details: Any) -> None: ...

    def resolved(self, follow_up: dict[str, Any], outcome: str) -> None: ...


def resolve_injury(chase: InjuringChase, head: dict[str, Any], *, dice: DiceSource, **_: Any) -> str:
    pid = head["participant_id"]
    faces = savage_rolls.roll_table(chase, dice, pid, "Injury", 2, 6, {"table": INJURY_TABLE})
    row = row_for(INJURIES, sum(faces))
    chase.resolved(head, row.name)
    if row.name in (*SUB_TABLES, "Arm"):
        chase.require("injury sub-table", pid, table=row.name, rule=f"INJURY TABLE: {row.name}, a d6")
    else:
        _injured(chase, pid, {"name": row.name, "effect": row.effect, "source": row.source, "total": sum(faces)})
    return row.name


def resolve_sub_table(chase: InjuringChase, head: dict[str, Any], *, dice: DiceSource, **_: Any) -> str:
    pid, table = head["participant_id"], head["table"]
    face = savage_rolls.roll_table(chase, dice, pid, f"Injury: {table}", 1, 6, {"table": INJURY_TABLE})[0]
    if table == "Arm":
        side = next(s for low, high, s in ARM_SIDES if low <= face <= high)
        injury = {"name": f"Arm ({side})", "effect": f"cannot use the {side} arm", "source": INJURY_TABLE}
    else:
        sub = row_for(SUB_TABLES[table], face)
        injury = {"name": f"{table}: {sub.name}", "effect": sub.effect, "source": sub.source}
    chase.resolved(head, injury["name"])
    _injured(chase, pid, {**injury, "face": face})
    return injury["name"]


def _injured(chase: InjuringChase, participant_id: str, injury: dict[str, Any]) -> None:
    chase.trigger_event(chase.InjuryTaken, participant_id=participant_id, injury=injury)
    chase.after_status_change()  # held back until the injury was rolled (savage_rolls.apply_damage)
