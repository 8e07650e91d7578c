"""Why a Savage Worlds rule refuses: a rule broken now, or a value that cannot be used.

Every refusal names the rules text and heading (``rule``) so that the API can show it; the
files are those of /work/shared/rules (README.md there lists them).
"""
from __future__ import annotations

from domain import errors as core

SWADE = "swade-chases-reference.txt"
SWD = "swd-chases.txt"
# Rules the extracts refer to without printing them (rules/README.md: "implement the standard
# Savage Worlds mechanics there"); cited by book and section so that a reader can check them.
CORE = "Savage Worlds core rules"
SWD_BOOK = "Savage Worlds Deluxe core book"


class SavageWorldsError(Exception):
    """Base of the Savage Worlds refusals."""


class RuleBroken(SavageWorldsError, core.RuleBroken):
    """A maneuver the rules forbid now; ``rule`` names the rules text and heading (also in the
    message: the Savage Worlds refusals have always quoted it)."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message, rule)
        self.args = (f"{message} ({rule})",)


class InvalidValue(SavageWorldsError, core.InvalidInput):
    """A value that is not one the rules know; ``field`` names it."""


def whole(field_name: str, value: object, minimum: int | None = None) -> int:
    """``value`` as a whole number (bool refused), at least ``minimum`` when given."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidValue(field_name, f"must be a whole number, not {value!r}")
    if minimum is not None and value < minimum:
        raise InvalidValue(field_name, f"must be {minimum} or more, not {value}")
    return value
