"""Why a D6 rule refuses: a rule broken now (409, citing the rules text and heading), a value that
cannot be used (422, naming the field), or nothing of that id (404).

The movement rules are /work/shared/rules/d6-movement.txt. The dice mechanic it assumes (a number
of six-sided dice plus pips, one of them the Wild Die) is not printed there; rules/README.md asks
for the standard mechanic, cited as DICE.
"""
from __future__ import annotations

from domain import errors as core

RULES = "d6-movement.txt"
DICE = "D6 System core rules, \"The Wild Die\""


class RuleBroken(core.RuleBroken):
    """A movement the D6 rules forbid now; ``rule`` names the rules text and heading."""


class InvalidValue(core.InvalidInput):
    """A value the D6 rules cannot use; ``field`` names it."""


class ParticipantNotFound(core.NotFound):
    """No such participant in this chase."""


def rule(heading: str, paragraph: str = "") -> str:
    """A heading of d6-movement.txt (and the paragraph under it, by its subject), as refusals cite it.
    Running, swimming, climbing and leaping sit under its first heading; fatigue under the last
    paragraphs of "Accelerating and Decelerating"."""
    return f"{RULES} \"{heading}\"" + (f" ({paragraph})" if paragraph else "")


def whole(field_name: str, value: object, minimum: int | None = None, maximum: int | None = None) -> int:
    """``value`` as a whole number (bool refused) within the bounds given."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidValue(field_name, f"must be a whole number, not {value!r}")
    if minimum is not None and value < minimum:
        raise InvalidValue(field_name, f"must be {minimum} or more, not {value}")
    if maximum is not None and value > maximum:
        raise InvalidValue(field_name, f"must be {maximum} or less, not {value}")
    return value
