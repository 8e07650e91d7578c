"""Odds before a roll: any command tried out without recording anything (a dry run).

One mechanism for every command of every system, in the core:

* ``trying_out()`` marks the current request (a context variable: per thread and per task) as a
  dry run. While it is on, the CommandRunner runs the command on a throw-away copy of the chase
  and saves nothing (CommandRunner.try_out), and the DiceResolver never hands out the server
  dice -- a dry run through them would show the very faces the next real roll will have.
  Instead every die shows its lowest face (ProbeDice), unless the request gave table-dice
  faces, which are rolled as given: "what happens if the dice show these?".
* The runner answers with the rolls the command made on the copy (DryRunAnswered), and
  ``odds_before`` gives each its exact odds from the systems' roll_odds (the ledger's
  ``try_out``, application/chases.py).

The first roll of a command is the one the player is about to make. Rolls after it depend on
how it went; they are the rolls of the path the dice above took (with lowest faces, usually the
failure's consequences), each with its own odds.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import replace
from typing import Any, Callable, Iterator, Sequence

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


def odds_before(command: Callable[[], Any], odds_of: Callable[[Any], Any], outcome_odds_of: Callable[..., Any]) -> dict[str, Any]:
    """Odds before a roll: ``command`` (a call of any system's command) as a dry run, which
    records nothing; the rolls it would make, each with its
    exact odds (``odds``: each outcome's chance {p, exact} and the chance of success; null
    for a roll no system has odds for), the odds of what they decide together (``outcomes``:
    who wins an opposed roll), and the chase version it was tried on."""
    with dry_run():
        try:
            command()
        except DryRunAnswered as answered:
            by_sequence = {made["roll"]["sequence"]: made["roll"] for made in answered.rolls}
            outcomes = []
            for topic, fields in answered.decided:
                odds = outcome_odds_of(topic, fields, by_sequence)
                if odds is not None:
                    outcomes.append({"event": topic.rsplit(".", 1)[-1], "odds": odds.as_json()})
            return {"version": answered.version, "rolls": [_odds_of_roll(made, odds_of) for made in answered.rolls], "outcomes": outcomes}
    return {"version": None, "rolls": [], "outcomes": []}  # the command never came to a chase: it rolls nothing


def _odds_of_roll(made: dict[str, Any], odds_of: Callable[[Any], Any]) -> dict[str, Any]:
    roll = made["roll"]
    odds = odds_of(roll)
    return {
        "sequence": roll["sequence"], "event": made["event"], "participant_id": made["participant_id"], "purpose": roll.get("purpose"),
        "odds": None if odds is None else replace(odds, observed=None).as_json(),
    }
