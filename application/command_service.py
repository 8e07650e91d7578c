"""Runs a declared command (application/declared.py) of any system, one way for all of them.

Who may send it is checked first, from its declaration (its permission, the fields only the
Keeper or the defender's controller may supply); then the core's CommandRunner loads the chase,
checks that it is of a system the command is for, runs the handler, saves and renders
(application/runner.py). A dry run runs it on a throw-away copy and answers the odds of its rolls
(application/dry_run.py). Every command answers the same shape: an ``Answer``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Collection, Generic, Mapping, TypeVar
from uuid import UUID

from application.access import KEEPER, SYSTEM_ROLE, Forbidden, Principal
from application.declared import CHASE, DEFENDER, Acting, Command, Request
from application.dice import DiceResolver
from application.dry_run import odds_before
from application.permissions import PLAYER, ActingFor, alone, refusal, require
from application.runner import CommandRunner
from domain.odds import OutcomeOdds, RollOdds

Outcome = TypeVar("Outcome")


@dataclass(frozen=True)
class Answer(Generic[Outcome]):
    """What a command came to: its typed outcome, the rolls it recorded (in sequence order) and
    the chase's track view after it; for a dry run, ``tried`` (what it would do, with the odds
    of each roll) and nothing else."""

    outcome: Outcome | None
    rolls: list[dict[str, Any]]
    track: dict[str, Any]
    tried: dict[str, Any] | None = None


def rolls_of(chase: Any) -> list[dict[str, Any]]:
    """The rolls of the events not yet saved: what the command being run rolled."""
    own = getattr(chase, "recorded_rolls", None)
    if own is not None:
        return list(own())
    return [e.roll for e in chase.pending_events if isinstance(getattr(e, "roll", None), dict)]


@dataclass(frozen=True)
class CommandService:
    """Sends the declared commands of every system (``commands``: by (system, name))."""

    runner: CommandRunner
    dice: DiceResolver
    odds_of: RollOdds
    outcome_odds_of: OutcomeOdds
    commands: Mapping[tuple[str, str], Command[Any, Any]]
    # system -> whom a player acts for, where not their own participants alone (Savage Worlds'
    # units: application/permissions.py ActingFor); its commands are then permitted on the chase
    acting_for: Mapping[str, ActingFor] = field(default_factory=dict)

    def command(self, system: str, name: str) -> Command[Any, Any]:
        """The declaration of ``name`` in ``system`` (a KeyError names an undeclared one)."""
        return self.commands[system, name]

    def send(
        self, command: Command[Any, Outcome], chase_id: UUID, given: Any = None, request: Request = Request(), participant_id: str | None = None,
    ) -> Answer[Outcome]:
        """Run ``command`` with its typed input ``given`` (None: a command without input), for
        ``participant_id`` when it is a participant's."""
        if (participant_id is None) != (command.scope == CHASE):
            raise TypeError(f"{command.name}: a participant's command, and only one, is sent for a participant")
        if command.input is not None and not isinstance(given, command.input):
            raise TypeError(f"{command.name} takes a {command.input.__name__}, not {type(given).__name__}")
        on_the_chase = any(system in self.acting_for for system in command.systems)
        if not on_the_chase:  # (who may send it is known before the chase is loaded)
            permit(command, given, request.principal, participant_id)
        if request.dry_run:
            tried = odds_before(lambda: self._run(command, chase_id, given, request, participant_id), self.odds_of, self.outcome_odds_of)
            return Answer(None, [], {}, tried)
        return self._run(command, chase_id, given, request, participant_id)

    def _run(self, command: Command[Any, Outcome], chase_id: UUID, given: Any, request: Request, participant_id: str | None) -> Answer[Outcome]:
        checked_before = not any(system in self.acting_for for system in command.systems)

        def act(chase: Any) -> tuple[Outcome, list[dict[str, Any]]]:
            if not checked_before:  # (every chase of such a command is checked here, whether its system has crews or not)
                acting_for = self.acting_for.get(chase.SYSTEM)
                crews = None if acting_for is None else (lambda: acting_for(chase))
                permit(command, given, request.principal, participant_id, crews)
            return command.handler(chase, given, Acting(participant_id, request, self.dice, chase)), rolls_of(chase)

        done = self.runner.run(chase_id, act, expected_version=request.expected_version, systems=command.systems)
        outcome, rolls = done.result
        return Answer(outcome, rolls, done.track)


def permit(
    command: Command[Any, Any], given: Any, by: Principal, participant_id: str | None,
    crews: Callable[[], Mapping[str, Collection[str]]] | None = None,
) -> None:
    """Refuses (403) what ``by`` may not send, from the declaration: the command itself and the
    Keeper's fields (application/permissions.py ``require``, in its order), then each field only
    the defender's controller (or the Keeper) may supply, named. ``crews``: whom a player acts
    for, each participant -> those a token may hold one of (None: each participant alone)."""
    fields = command.fields()
    acting = participant_id if command.acting is None else getattr(given, command.acting)
    sent = {name: getattr(given, name) for name in fields}

    def acting_for(pid: str | None) -> Callable[[], Collection[str]]:
        return lambda: (crews().get(pid, ()) if crews is not None and pid is not None else alone(pid))

    require(by, command.permission, acting_for(acting) if command.scope != CHASE or command.acting else None, sent)
    if by.role in (KEEPER, SYSTEM_ROLE):
        return
    for name, a in fields.items():
        if a.supplied_by == DEFENDER and a.defender is not None and a.sent(sent[name]):
            defender = getattr(given, a.defender)
            if defender is None or refusal(by, PLAYER, acting_for(defender)) is not None:
                raise Forbidden(f"only the defender's controller may {a.ruling}", field=name)
