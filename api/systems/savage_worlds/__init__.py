"""Savage Worlds over HTTP: Adventure Edition chase cards (swade) and Deluxe action cards (swd)."""
from __future__ import annotations

from api.systems.savage_worlds import bennies, chases, hold, recovery  # noqa: F401  (bennies.py, hold.py, recovery.py add routes to chases.blp)
from api.systems.savage_worlds.schemas import SavageView

blueprints = [chases.blp]
VIEW_SCHEMAS = {"swade": SavageView, "swd": SavageView}
from api.systems.savage_worlds.actions import ACTION_ROUTES  # noqa: F401  (what the track view says may be done: api/affordances.py)
