"""The registry of game systems: the one module that names them all. One line per plug-in.

Everything that loops over the systems takes them from here: the composition root
(bootstrap.py: commands, views, snapshots, job kinds), the transcodings of the values kept in
snapshots, `chase verify` (each system's roll checks) and the API (each plug-in's blueprints and
view schemas, api/systems/<package>/). Adding a system: README.md "Adding a game system".
"""
from __future__ import annotations

from typing import Any

from application.plugins import GameSystem, roll_odds_of
from application.systems.coc7e import PLUGIN as coc7e
from application.systems.d6 import PLUGIN as d6
from application.systems.savage_worlds import PLUGIN as savage_worlds
from domain.verification import Report, verify as verify_with

SYSTEMS: tuple[GameSystem, ...] = (
    coc7e,  # the first is the default of POST /chases
    savage_worlds,
    d6,
)


def system_names() -> list[str]:
    """Every system a chase may be played by, the default first."""
    return [name for plugin in SYSTEMS for name in plugin.chases]


def verify(export: dict[str, Any], kept_head: str | None = None) -> Report:
    """Check an exported chase log with every system's roll checks (domain/verification.py)."""
    return verify_with(export, kept_head, [check for plugin in SYSTEMS for check in plugin.roll_checks])


# The exact odds of a recorded roll, from the first system that knows it (domain/odds.py).
odds_of = roll_odds_of(SYSTEMS)
