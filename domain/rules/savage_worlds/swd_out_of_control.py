"""Out of Control in a Deluxe chase: a participant who becomes Shaken rolls 2d6 on the table.

swd-chases.txt "Resolve Actions": "All participants who become Shaken at any time must
immediately make an Out-of-Control roll (see SWD)"; "A note about Tricks during Chases": "if a
driver is Shaken as the result of a Trick, they must immediately make an Out-of-Control roll".
The participant is the one who makes the unit's rolls ("Resolving a Chase"): a character on
their own, or a vehicle's driver; a passenger who becomes Shaken makes none.

The table is not printed in the extract; "see SWD" sends to the Savage Worlds Deluxe core book,
as for the Attack Range and Complication table (swd_chase.py). It is the book's "Out of Control"
table (Savage Worlds Deluxe Edition p. 117), encoded below row by row, each row citing it. In a
Deluxe chase there is no map: the inches a Spin, Skid or Slip moves the vehicle, its new facing,
and how many times it rolls or flips place a miniature on a table-top, so they are not rolled;
the collision damage of a Roll Over or a Flip is (the vehicle and everyone inside, each rolled as
a follow-up, with the dice of the Deluxe core book's collisions, swd_actions.collision_dice, at
the vehicle's Top Speed; the GM may give others). A character on foot has no vehicle to roll
over: the result is recorded, and any damage is the GM's to roll.
"""
from __future__ import annotations

from dataclasses import dataclass

from domain.rules.savage_worlds.errors import SWD, SWD_BOOK, InvalidValue

OUT_OF_CONTROL = f"{SWD} \"Resolve Actions\" (see SWD) -> {SWD_BOOK} p. 117, Out of Control"
SHAKEN_RULE = "Resolve Actions: became Shaken, an Out-of-Control roll at once"


@dataclass(frozen=True)
class DeluxeOutOfControlRow:
    low: int
    high: int
    name: str
    collision: bool  # collision damage for the vehicle and everyone inside
    effect: str
    source: str = OUT_OF_CONTROL


TABLE: tuple[DeluxeOutOfControlRow, ...] = (
    DeluxeOutOfControlRow(2, 2, "Roll Over", True, "a Slip, then it rolls over: collision damage for the vehicle and everyone inside; exterior weapons and accessories ruined"),
    DeluxeOutOfControlRow(3, 4, "Spin", False, "it spins away and ends facing a new way"),
    DeluxeOutOfControlRow(5, 9, "Skid", False, "it skids a little left or right"),
    DeluxeOutOfControlRow(10, 11, "Slip", False, "it slips left or right"),
    DeluxeOutOfControlRow(12, 12, "Flip", True, "it flips end over end: collision damage for the vehicle, its passengers and anything it hits (a slow, heavy vehicle such as a tank Slips or Skids instead, the GM's call)"),
)


def out_of_control(total: int, heavy: bool = False) -> DeluxeOutOfControlRow:
    """The row of a 2d6 total; ``heavy``: the GM rules the vehicle too slow and heavy to flip
    (a Flip is then a Slip)."""
    for row in TABLE:
        if row.low <= total <= row.high:
            return _slip() if heavy and row.name == "Flip" else row
    raise InvalidValue("table_dice", f"2d6 totals 2 to 12, not {total} ({OUT_OF_CONTROL})")


def _slip() -> DeluxeOutOfControlRow:
    return next(r for r in TABLE if r.name == "Slip")
