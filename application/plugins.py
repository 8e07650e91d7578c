"""What a game system plugs into the core: one GameSystem per plug-in package.

The core (the ChaseLedger, the command runner, the view pipeline, the jobs, verification and the
API's problem mapping) loops over these and names no system. The registry of entries is
infrastructure/systems.py; adding a system is README.md "Adding a game system".
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from application.analytics.facts import GameCounts
from application.declared import Command
from application.dice import DiceResolver
from application.permissions import ActingFor, Permission
from application.projections import Render
from application.runner import CommandRunner
from domain.odds import Odds, OutcomeOdds, RollOdds
from domain.verification import RollCheck

# A job's work: (the ledger, the running job, its parameters) -> its result (application/jobs.py).
JobHandler = Callable[[Any, Any, dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class JobKind:
    """A kind of background job a system adds, and its lane ("interactive", "batch"; "webhooks" is the core's)."""

    handler: JobHandler
    lane: str


@dataclass(frozen=True)
class GameSystem:
    """One plug-in: a package in each layer that needs it, described once.

    ``package`` names the plug-in's packages (application/systems/<package>/ and
    api/systems/<package>/, whose ``blueprints`` and ``VIEW_SCHEMAS`` the API registers);
    ``chases`` maps each system it plays ("coc7e"; "swade" and "swd") to its aggregate class.
    """

    package: str
    title: str  # its name in the API documents (POST /chases "system"): "Call of Cthulhu 7e"
    chases: Mapping[str, type]
    # the command service of a system whose commands are not declared yet, given the core's parts
    commands: Callable[[CommandRunner, DiceResolver], Any] | None
    views: Mapping[str, Mapping[str, Render]]  # system -> view name -> render; each has "track"
    value_types: Mapping[str, type] = field(default_factory=dict)  # stable name -> dataclass kept in snapshots
    roll_checks: Sequence[RollCheck] = ()  # `chase verify`: what the system's rolls came to
    job_kinds: Mapping[str, JobKind] = field(default_factory=dict)
    roll_odds: Sequence[RollOdds] = ()  # exact odds of the system's recorded rolls (domain/odds.py)
    game_counts: GameCounts = GameCounts()  # analytics: what its events count and its dice faces
    outcome_odds: Sequence[OutcomeOdds] = ()  # ... and of what its commands decide from several rolls (who wins)
    # system -> what may be done now in a chase of it, from its commands' guards (domain/affordances.py)
    affordances: Mapping[str, Callable[[Any], Any]] = field(default_factory=dict)
    optional_rules: Sequence[str] = ()  # names a chase's creation may list (POST /chases "optional_rules")
    # system -> whom a player acts for, where not their own participants alone (application/permissions.py)
    acting_for: Mapping[str, ActingFor] = field(default_factory=dict)
    # system -> its chase-level Permissions whose sender turns on the chase (``now``: application/permissions.py)
    chase_now: Mapping[str, Mapping[str, Permission]] = field(default_factory=dict)
    # its commands, each declared once (application/declared.py; the API derives their routes)
    declared: Sequence[Command[Any, Any]] = ()
    about: str = ""  # a sentence on its commands for the API document (the tag of its routes)


def roll_odds_of(systems: Sequence[GameSystem]) -> RollOdds:
    """The exact odds of a recorded roll from the first of ``systems`` that knows it (the
    registry's odds_of, and the roll history's, given the systems the ledger was built with)."""

    def odds_of(roll: Mapping[str, Any]) -> Odds | None:
        for system in systems:
            for roll_odds in system.roll_odds:
                odds = roll_odds(roll)
                if odds is not None:
                    return odds
        return None

    return odds_of


def outcome_odds_of(systems: Sequence[GameSystem]) -> OutcomeOdds:
    """The exact odds of what an event decided from several rolls, from the first of ``systems``
    that knows the event (a dry run's answer: application/chases.py ``try_out``)."""

    def odds_of(topic: str, fields: Mapping[str, Any], rolls: Mapping[int, Mapping[str, Any]]) -> Odds | None:
        for system in systems:
            for outcome_odds in system.outcome_odds:
                odds = outcome_odds(topic, fields, rolls)
                if odds is not None:
                    return odds
        return None

    return odds_of
