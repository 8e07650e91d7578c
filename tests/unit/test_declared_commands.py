"""A command declared once (application/declared.py): who may send it and each field of it follows
from the declaration, including a field the defender's controller supplies (no D6 command has
one yet; Call of Cthulhu's response to an attack will), and a declaration that cannot work is
refused when it is made, not when a player first sends it."""
from __future__ import annotations

from dataclasses import dataclass

import pytest

from application.access import KEEPER, Forbidden, Principal
from application.command_service import permit
from application.declared import CHASE, DEFENDER, PARTICIPANT, Arg, Command, arg, permissions
from application.permissions import PLAYER


@dataclass(frozen=True)
class Attack:
    target_id: str = arg(length=(1, 100))
    response: str | None = arg(None, choices=("dodge", "fight back"), supplied_by=DEFENDER, ruling="choose the response", defender="target_id")
    bonus: int = arg(0, low=0, high=2, supplied_by=KEEPER, ruling="give bonus dice")


@dataclass(frozen=True)
class Struck:
    hit: bool


def attack(chase: object, given: Attack, acting: object) -> Struck:
    return Struck(True)


def anything(chase: object, pid: str | None) -> None:
    return None


ATTACK = Command(
    "attack", PARTICIPANT, ("test",), "/participants/{participant_id}/attack", PLAYER, "attack", attack, anything, Attack, Struck, ("d100",),
    summary="An attack on another participant.",
)
KEEPER_OF = Principal(KEEPER, "c")


def player(*own: str) -> Principal:
    return Principal(PLAYER, "c", own)


def test_the_attacker_sends_the_attack_and_the_defender_chooses_the_response():
    # Step 1: the attacker's player attacks without a response: theirs to send.
    permit(ATTACK, Attack("bob"), player("ann"), "ann")
    # Step 2: the attacker may not choose the defender's response: refused naming the field.
    with pytest.raises(Forbidden) as refused:
        permit(ATTACK, Attack("bob", response="dodge"), player("ann"), "ann")
    assert (str(refused.value), refused.value.field) == ("only the defender's controller may choose the response", "response")
    # Step 3: a player of both sides may; so may the Keeper, for anyone.
    permit(ATTACK, Attack("bob", response="dodge"), player("ann", "bob"), "ann")
    permit(ATTACK, Attack("bob", response="dodge", bonus=1), KEEPER_OF, "ann")


def test_the_keepers_fields_and_the_command_itself_are_refused_in_the_tables_words():
    # A Keeper's field sent by a player is refused naming it; another's participant is refused first.
    with pytest.raises(Forbidden) as refused:
        permit(ATTACK, Attack("bob", bonus=1), player("ann"), "ann")
    assert (str(refused.value), refused.value.field) == ("only the Keeper may give bonus dice", "bonus")
    with pytest.raises(Forbidden) as refused:
        permit(ATTACK, Attack("ann", bonus=1), player("ann"), "bob")
    assert (str(refused.value), refused.value.field) == ("a player may attack only for their own participants", None)
    # The permission table the view's routes read says the same.
    table = permissions([ATTACK], "test", PARTICIPANT)
    assert table["attack"].who == PLAYER and set(table["attack"].keeper_only) == {"bonus"}


def test_declarations_that_cannot_work_are_refused_when_made():
    # A participant's command without the participant in its path, or a chase's with it.
    with pytest.raises(ValueError, match="participant_id"):
        Command("attack", PARTICIPANT, ("test",), "/attack", PLAYER, "attack", attack, anything, Attack, Struck, summary="An attack.")
    with pytest.raises(ValueError, match="participant_id"):
        Command("roll", CHASE, ("test",), "/participants/{participant_id}/roll", PLAYER, "roll", attack, anything, summary="A roll.")
    # What it creates must be a field of its outcome; every command says what it does.
    with pytest.raises(ValueError, match="creates"):
        Command("add", CHASE, ("test",), "/add", KEEPER, "add", attack, anything, Attack, Struck, creates="participant_id", summary="Adds.")
    with pytest.raises(ValueError, match="summary"):
        Command("add", CHASE, ("test",), "/add", KEEPER, "add", attack, anything)
    # A Keeper's or defender's field names its ruling; a defender's names the defender's field.
    with pytest.raises(ValueError, match="ruling"):
        Arg(supplied_by=KEEPER)
    with pytest.raises(ValueError, match="defender"):
        Arg(supplied_by=DEFENDER, ruling="choose the response")


def test_a_player_acts_for_everyone_in_a_unit_where_the_system_says_so():
    # Savage Worlds' units (application/permissions.py ActingFor): Ann's player acts for Cid, who rides with her.
    crews = {"ann": {"ann", "cid"}, "cid": {"ann", "cid"}, "bob": {"bob"}}
    permit(ATTACK, Attack("bob"), player("ann"), "cid", lambda: crews)
    with pytest.raises(Forbidden, match="only for their own participants"):
        permit(ATTACK, Attack("ann"), player("ann"), "bob", lambda: crews)
    # ... and chooses the response of a defender in her unit.
    permit(ATTACK, Attack("cid", response="dodge"), player("ann", "bob"), "bob", lambda: crews)


class ChaseOf:
    """A chase of one system, as the runner hands it to a command."""

    def __init__(self, system: str) -> None:
        self.SYSTEM = system
        self.pending_events: list[object] = []


class RunnerOn:
    """The core's runner, faked: it loads one chase and runs the command on it."""

    def __init__(self, chase: ChaseOf) -> None:
        self.chase = chase

    def run(self, chase_id: object, act, expected_version=None, systems=()):  # type: ignore[no-untyped-def]
        class Done:
            result = act(self.chase)
            track: dict[str, object] = {}
        return Done


def test_a_command_for_systems_with_and_without_crews_is_checked_on_every_chase():
    # Given an attack declared for a system whose players act for crews and for one whose don't
    from uuid import uuid4

    from application.command_service import CommandService
    from application.declared import Request

    both = Command(
        "attack", PARTICIPANT, ("crews", "plain"), "/participants/{participant_id}/attack", PLAYER, "attack", attack, anything, Attack, Struck,
        ("d100",), summary="An attack on another participant.",
    )

    def service_on(system: str) -> CommandService:
        crews = {"crews": lambda chase: {"ann": {"ann"}}}
        return CommandService(RunnerOn(ChaseOf(system)), None, None, None, {}, crews)  # type: ignore[arg-type]

    # When ann's player sends bob's attack on a chase of the system without crews
    with pytest.raises(Forbidden):
        service_on("plain").send(both, uuid4(), Attack("cid"), Request(player("ann")), "bob")
    # Then it is refused, as it is on the system with crews; her own attack runs on both
    with pytest.raises(Forbidden):
        service_on("crews").send(both, uuid4(), Attack("cid"), Request(player("ann")), "bob")
    assert service_on("plain").send(both, uuid4(), Attack("cid"), Request(player("ann")), "ann").outcome == Struck(True)
