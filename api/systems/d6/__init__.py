"""D6 System races and chases over HTTP (d6-movement.txt): the routes of its declared commands
(application/systems/d6/commands.py), made by api/declared.py, and its track view's schema."""
from __future__ import annotations

from api.declared import action_routes, blueprint
from api.systems.d6.schemas import D6Result, D6View
from application.systems.d6 import PLUGIN

blueprints = [blueprint(PLUGIN, D6Result)]
VIEW_SCHEMAS = {"d6": D6View}
ACTION_ROUTES = action_routes(PLUGIN)  # what the track view says may be done (api/affordances.py)
