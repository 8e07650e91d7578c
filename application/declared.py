"""Commands declared once, typed (docs/commands.md).

A game system declares each of its commands as one ``Command``: its name (the track view's
action), whether it is the chase's or a participant's, where it is sent, its typed input (a
frozen dataclass whose fields carry an ``Arg``: bounds from the domain's constants, a default,
and who may supply the field), its typed outcome, the kinds of roll it can make, who may send it,
the guard that says whether it may be sent now, and its handler: a function of (the chase, the
input, the ``Acting`` context) to the outcome. Everything else is derived from the declarations:
the permission tables (``permissions``), what may be done now (``judges``), and in the API the
routes, request and response schemas and the OpenAPI text (api/declared.py). Running one is
application/command_service.py. This module names no game system and knows no web framework.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable, Generic, Mapping, Sequence, TypeVar

from application.access import KEEPER, SYSTEM, Principal
from application.dice import DiceChoice, DiceResolver
from application.permissions import PLAYER, KeeperOnly, Permission, given
from domain.affordances import Judges, Refusal, judge
from domain.dice import DiceSource

CHASE, PARTICIPANT = "chase", "participant"  # a command's scope: the chase's, or one participant's
# Who may supply a field: the Keeper (GM) alone, the acting participant's player (and the
# Keeper), or the controller of the defender its command names (and the Keeper).
DEFENDER = "defender"
SUPPLIERS = (KEEPER, PLAYER, DEFENDER)

Input = TypeVar("Input")
Outcome = TypeVar("Outcome")


@dataclass(frozen=True)
class Arg:
    """What the input dataclass says of one of its fields, beyond its type and default.

    ``low``/``high``: a number's bounds (the domain's constants); ``choices``: the values a text
    may take; ``pattern`` (and the ``pattern_error`` a mismatch answers with); ``length``: a
    text's or a list's (low, high) length; ``item``: what each element of a list or value of a
    map is; ``key_choices``: the keys a map may have; ``key``: the field's name on the wire when
    it is not a Python name ("from"); ``null``: for an ``X | None`` field, whether null may be
    sent (False: None only stands for a field left out). ``supplied_by``: KEEPER, PLAYER or DEFENDER; ``ruling``:
    what sending it is called in a refusal ("only the Keeper may {ruling}"); ``sent``: when a
    value counts as sent (default: anything but absent, false or zero); ``defender``: for a
    DEFENDER field, the input field naming the defender."""

    description: str = ""
    low: float | None = None
    high: float | None = None
    choices: Sequence[str] = ()
    pattern: str | None = None
    pattern_error: str = ""
    length: tuple[int, int] | None = None
    item: Arg | None = None
    key_choices: Sequence[str] = ()
    key: str | None = None
    null: bool = True
    example: Any = None
    supplied_by: str = PLAYER
    ruling: str = ""
    sent: Callable[[Any], bool] = given
    defender: str | None = None

    def __post_init__(self) -> None:
        if self.supplied_by not in SUPPLIERS:
            raise ValueError(f"supplied_by must be one of {', '.join(SUPPLIERS)}, not {self.supplied_by!r}")
        if self.supplied_by != PLAYER and not self.ruling:
            raise ValueError("a field only the Keeper or the defender's controller supplies names its ruling")
        if self.supplied_by == DEFENDER and not self.defender:
            raise ValueError("a field the defender's controller supplies names the field of the defender")


def arg(default: Any = dataclasses.MISSING, *, default_factory: Any = dataclasses.MISSING, like: Arg | None = None, **about: Any) -> Any:
    """An input dataclass field with its ``Arg`` (keyword arguments, over those of ``like``: an
    Arg several fields share); no default: required."""
    described = dataclasses.replace(like, **about) if like is not None else Arg(**about)
    return field(default=default, default_factory=default_factory, metadata={"arg": described})


def arg_of(f: dataclasses.Field[Any]) -> Arg:
    """The ``Arg`` of an input field (a field declared without one: a plain player's field)."""
    found = f.metadata.get("arg")
    return found if isinstance(found, Arg) else Arg()


@dataclass(frozen=True)
class Request:
    """One request's context, built once per request: who sends it, the chase version it acts
    on (If-Match; None: the latest), the dice its rolls take (None: it rolls nothing), and
    whether it is a dry run (nothing recorded; the odds of its rolls answered)."""

    principal: Principal = SYSTEM
    expected_version: int | None = None
    dice: DiceChoice | None = None
    dry_run: bool = False


@dataclass(frozen=True)
class Acting:
    """What a handler is given besides the chase and its input: the participant a participant's
    command is for (None for the chase's), the request, and the dice of its rolls."""

    participant_id: str | None
    request: Request
    resolver: DiceResolver
    chase: Any

    def dice(self) -> DiceSource | None:
        """The dice of a step that may roll: none when a table-dice chase was given no faces (a
        free short move rolls nothing, so its faces are asked for only when it rolls)."""
        return self.resolver.optional(self.chase, self.request.dice)

    @property
    def participant(self) -> str:
        """The participant of a participant's command."""
        if self.participant_id is None:
            raise TypeError("a chase-level command has no participant of its own")
        return self.participant_id


Handler = Callable[[Any, Any, Acting], Any]  # (the chase, its typed input, the context) -> its typed outcome
Guard = Callable[[Any, "str | None"], object]  # (the chase, the participant or None): raises the command's refusal


@dataclass(frozen=True)
class Command(Generic[Input, Outcome]):
    """One command, declared once (docs/commands.md "How to add a command").

    ``path``: where it is sent, after /chases/<id> ("{participant_id}" in a participant's);
    ``input``: its typed input (None: an empty body); ``outcome``: its typed outcome (None: the
    chase after it says all); ``rolls``: the kinds of roll it can make (none: it takes no dice
    and has no dry run); ``who`` and ``what``: who may send it (application/permissions.py WHO)
    and what its refusal calls it; ``acting``: for a chase's command, the input field naming the
    participant it is for; ``creates``: the outcome field holding what it creates (its answer
    is then 201 with a Location); ``listed``: whether the track view lists it."""

    name: str
    scope: str
    systems: tuple[str, ...]
    path: str
    who: str
    what: str
    handler: Handler
    guard: Guard
    input: type[Input] | None = None
    outcome: type[Outcome] | None = None
    rolls: tuple[str, ...] = ()
    summary: str = ""  # one sentence: what it does, in the game's words (the OpenAPI summary)
    acting: str | None = None
    creates: str | None = None
    listed: bool = True

    def __post_init__(self) -> None:
        if not self.summary:
            raise ValueError(f"{self.name}: say in a sentence what it does (its summary)")
        if self.scope not in (CHASE, PARTICIPANT):
            raise ValueError(f"scope must be {CHASE} or {PARTICIPANT}, not {self.scope!r}")
        if (self.scope == PARTICIPANT) != ("{participant_id}" in self.path):
            raise ValueError(f"{self.name}: a participant's command, and only one, has {{participant_id}} in its path")
        for kind in (self.input, self.outcome):
            if kind is not None and not dataclasses.is_dataclass(kind):
                raise TypeError(f"{self.name}: its input and outcome are dataclasses")
        if self.creates is not None and (self.outcome is None or self.creates not in fields_of(self.outcome)):
            raise ValueError(f"{self.name}: what it creates is a field of its outcome")

    def fields(self) -> dict[str, Arg]:
        """Each input field's Arg, by name."""
        return fields_of(self.input) if self.input is not None else {}

    @property
    def permission(self) -> Permission:
        """Who may send it, and the fields only the Keeper may send (from the input's Args)."""
        keeper_only = {name: KeeperOnly(a.ruling, a.sent) for name, a in self.fields().items() if a.supplied_by == KEEPER}
        return Permission(self.who, self.what, keeper_only)


def fields_of(kind: type) -> dict[str, Arg]:
    return {f.name: arg_of(f) for f in dataclasses.fields(kind)}


def permissions(commands: Sequence[Command[Any, Any]], system: str, scope: str) -> dict[str, Permission]:
    """The permission table of a system's commands of one scope, by action name
    (application/permissions.py: what the API's action routes and the tests read)."""
    return {c.name: c.permission for c in commands if system in c.systems and c.scope == scope}


def judges(commands: Sequence[Command[Any, Any]], system: str, more: Callable[[Any], dict[str, Refusal]]) -> Judges:
    """What may be done now in a chase of ``system`` (domain/affordances.py): each command's own
    guard asked, the chase's with ``more`` (the record's commands: domain/affordances.py)."""
    chase_level = [c for c in commands if system in c.systems and c.scope == CHASE and c.listed]
    participant_level = [c for c in commands if system in c.systems and c.scope == PARTICIPANT]

    def of_chase(chase: Any) -> dict[str, Refusal]:
        return {**{c.name: _ask(c.guard, chase, None) for c in chase_level}, **more(chase)}

    def of_participant(chase: Any, pid: str) -> dict[str, Refusal]:
        return {c.name: _ask(c.guard, chase, pid) for c in participant_level}

    return Judges(of_chase, of_participant)


def _ask(guard: Guard, chase: Any, pid: str | None) -> Refusal:
    return judge(lambda: guard(chase, pid))


def by_name(commands: Sequence[Command[Any, Any]]) -> Mapping[tuple[str, str], Command[Any, Any]]:
    """Every command by (system, name); two of one name in a system is a mistake caught at start."""
    out: dict[tuple[str, str], Command[Any, Any]] = {}
    for c in commands:
        for system in c.systems:
            if (system, c.name) in out:
                raise ValueError(f"two commands named {c.name} in {system}")
            out[system, c.name] = c
    return out
