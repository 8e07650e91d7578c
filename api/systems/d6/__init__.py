"""D6 System races and chases over HTTP (d6-movement.txt)."""
from __future__ import annotations

from api.systems.d6 import chases
from api.systems.d6.schemas import D6View

blueprints = [chases.blp]
VIEW_SCHEMAS = {"d6": D6View}
from api.systems.d6.actions import ACTION_ROUTES  # noqa: F401  (what the track view says may be done: api/affordances.py)
