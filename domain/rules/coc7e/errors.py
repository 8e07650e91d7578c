"""Why a Call of Cthulhu chase refuses a command: rule broken, unknown participant, bad value."""
from __future__ import annotations

CHASES = "coc7e-chases.txt"


class ChaseError(Exception):
    """Base of the chase's refusals."""


class RuleBroken(ChaseError):
    """A command the rules forbid now; ``rule`` names the rules text and heading."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message)
        self.rule = rule


class ParticipantNotFound(ChaseError, LookupError):
    """No such participant in this chase."""


class InvalidCommand(ChaseError, ValueError):
    """A command with a bad value; ``field`` names it."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(f"{field_name}: {message}")
        self.field = field_name
        self.message = message


class ObstacleNotFound(ChaseError, LookupError):
    """No such hazard or barrier on this chase's track."""
