"""Odds before a roll: any command tried out without recording anything (a dry run).

One mechanism for every command of every system, in the core:

* ``trying_out()`` marks the current request (a context variable: per thread and per task) as a
  dry run. While it is on, the CommandRunner runs the command on a throw-away copy of the chase
  and saves nothing (CommandRunner.try_out), and the DiceResolver never hands out the server
  dice -- a dry run through them would show the very faces the next real roll will have.
  Instead every die shows its lowest face (ProbeDice), unless the request gave table-dice
  faces, which are rolled as given: "what happens if the dice show these?".
* The runner answers with the rolls the command made on the copy (DryRunAnswered), and the
  ledger gives each its exact odds from the systems' roll_odds (application/chases.py).

The first roll of a command is the one the player is about to make. Rolls after it depend on
how it went; they are the rolls of the path the dice above took (with lowest faces, usually the
failure's consequences), each with its own odds.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Iterator, Sequence

from domain.dice import Die, Draw

_TRYING_OUT: ContextVar[bool] = ContextVar("chase_ledger_dry_run", default=False)


def trying_out() -> bool:
    """Whether the command now running is a dry run."""
    return _TRYING_OUT.get()


@contextmanager
def dry_run() -> Iterator[None]:
    """Everything run inside is a dry run: nothing recorded, no server dice drawn."""
    token = _TRYING_OUT.set(True)
    try:
        yield
    finally:
        _TRYING_OUT.reset(token)


class ProbeDice:
    """The dice of a dry run: every die shows its lowest face (1; 00 and 0 on percentile dice),
    which never Aces, so a roll of dice that Ace ends at once."""

    def draw(self, sequence: int, dice: Sequence[Die]) -> Draw:
        return Draw(tuple(die.face(0) for die in dice), {"kind": "dry run"})


class DryRunAnswered(Exception):
    """A dry run got as far as the command's rolls: the roll records it made on the copy, with
    the event that recorded each, and its other events (what the rolls decided), each as (TOPIC,
    fields) -- not an error: the runner's way of stopping before a save."""

    def __init__(self, rolls: list[dict[str, Any]], decided: list[tuple[str, dict[str, Any]]], version: int) -> None:
        super().__init__(f"dry run at version {version}: {len(rolls)} roll(s)")
        self.rolls = rolls
        self.decided = decided
        self.version = version
