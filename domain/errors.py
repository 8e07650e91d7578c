"""What every game system's refusals are, whatever the system: the core's three kinds.

Each system's errors subclass these, so the API maps three bases to problem documents (a bad
input naming its field: 422; a broken rule citing its source: 409; nothing of that name: 404)
and never names a system's error types.
"""
from __future__ import annotations


class InvalidInput(ValueError):
    """A value the rules cannot use; ``field`` names it (422)."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(f"{field_name}: {message}")
        self.field = field_name
        self.message = message


class RuleBroken(Exception):
    """Something the rules forbid now; ``rule`` names the rules text and heading (409)."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule


class HistoryRefused(Exception):
    """An undo, rewind, redo or reveal that cannot be done; ``field`` names the bad input."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class NotFound(LookupError):
    """No participant, obstacle or other thing of that id in this chase (404)."""


class WrongSystem(RuleBroken):
    """A command of one game system sent to a chase of another (409 naming the chase's system)."""

    def __init__(self, chase_system: str, command_systems: tuple[str, ...]) -> None:
        super().__init__(
            f"this is a {chase_system} chase; this command is for {' or '.join(command_systems)} chases",
            'POST /chases with "system" chooses the rules a chase is played by',
        )
        self.chase_system = chase_system
