"""Why a Call of Cthulhu chase refuses a command: rule broken, unknown participant, bad value."""
from __future__ import annotations

from domain import errors as core

CHASES = "coc7e-chases.txt"


class ChaseError(Exception):
    """Base of the chase's refusals."""


class RuleBroken(ChaseError, core.RuleBroken):
    """A command the rules forbid now; ``rule`` names the rules text and heading."""


class ParticipantNotFound(ChaseError, core.NotFound):
    """No such participant in this chase."""


class InvalidCommand(ChaseError, core.InvalidInput):
    """A command with a bad value; ``field`` names it."""


class ObstacleNotFound(ChaseError, core.NotFound):
    """No such hazard or barrier on this chase's track."""
