"""What may be done now, and why not: the commands' own guards asked without running the command.

DESIGN.md section 10: the view tells a client what each participant may do now, so that no
front-end re-implements the rules. Each system's ``legal_actions(chase)`` (domain/rules/<system>/
affordances.py) calls, for every command, the guard that the command itself calls first (one
rule in one place): a guard that raises a refusal is the refusal the command would answer with.
What a guard cannot know before the command's own input (a target, an amount, a skill) is
checked by the command as ever: "allowed" says the command may be sent now, not that every input
will do.
"""
from __future__ import annotations

from typing import Any, Callable

from domain.errors import HistoryRefused, InvalidInput, RuleBroken

# Why not: (the sentence the command would refuse with, the rule it cites). None: allowed now.
Refusal = tuple[str, str] | None
# {"chase": {action: Refusal}, "participants": {participant id: {action: Refusal}}}
Legal = dict[str, Any]

INPUT = "input: "  # the rule of a refusal that is about the request (422 naming the field), not the game
RECORD_RULE = "DESIGN.md section 5 (undo, rewind, redo) and 4 (the seed)"


def judge(check: Callable[[], Any]) -> Refusal:
    """None when ``check`` (a command's guard) passes; else what it refused with."""
    try:
        check()
    except RuleBroken as refused:
        return str(refused), refused.rule  # the problem's detail, word for word
    except HistoryRefused as refused:
        return str(refused), RECORD_RULE
    except InvalidInput as refused:  # not a rule: the command's input cannot name this one (a vehicle, a driver without the skill)
        return str(refused), f"{INPUT}{refused.field}"
    return None


def ended_refusal(chase: Any, rule: str) -> Refusal:
    return ("the chase has ended", rule) if chase.phase == "ended" else None


def record_actions(chase: Any, end_rule: str) -> dict[str, Refusal]:
    """The record's own commands (domain/recorded_chase.py), whatever the system: undo, rewind,
    redo, the seed, ending the chase, and reading the log out. ``end_rule``: the system's rule on
    ending a chase, cited when it has ended already."""
    return {
        **bookkeeping_actions(chase),
        "reveal_seed": None if chase.seed_commitment is not None else ("the seed has already been revealed", RECORD_RULE),
        "add_entropy": None,
        "issue_token": None,
        "end_chase": ended_refusal(chase, end_rule),
        "export": None,
    }


def bookkeeping_actions(chase: Any) -> dict[str, Refusal]:
    """The record's commands whose guards read what every command moves (the version, the
    actions that count): application/affordances.py asks them afresh for every answer and keeps
    the chase's other commands while nothing else of the chase changed."""
    undo = judge(lambda: chase.undo_target(1))
    return {
        "undo": undo,
        "rewind": None if chase.version > 1 else ("there is no earlier version to rewind to", RECORD_RULE),
        "redo": judge(chase.redo_target),
        "request_undo": undo,
    }


def same_for_all(refusal: Refusal, actions: tuple[str, ...]) -> dict[str, Refusal]:
    """One refusal (the guard every one of ``actions`` calls first) for each of them."""
    return dict.fromkeys(actions, refusal)


class Judges:
    """A system's ``legal_actions``, in two halves: the chase's own commands (``chase``) and one
    participant's (``participant``), so that a participant whose inputs did not change keeps
    what was worked out for them (application/participant_steps.py). Called with a chase, it works out
    everything from scratch."""

    def __init__(self, chase: Callable[[Any], dict[str, Refusal]], participant: Callable[[Any, str], dict[str, Refusal]]) -> None:
        self.chase = chase
        self.participant = participant

    def __call__(self, chase: Any) -> Legal:
        return {"chase": self.chase(chase), "participants": {pid: self.participant(chase, pid) for pid in chase.participants}}
