"""Call of Cthulhu 7e over HTTP: chases, fights without a chase, track features, conflict, random hazards, reference data."""
from __future__ import annotations

from api.systems.coc7e import chases, combat_rules, conflict, encounters, hazards, obstacles, optional_rules, pursuit, samples, wounds  # noqa: F401 (optional_rules, samples add routes)
from api.systems.coc7e.schemas import Coc7eView

blueprints = [chases.blp, obstacles.blp, conflict.blp, obstacles.reference, combat_rules.blp, wounds.blp, hazards.blp, encounters.blp, pursuit.blp]
VIEW_SCHEMAS = {"coc7e": Coc7eView, "coc7e-combat": Coc7eView}  # a fight without a chase shows the same view
from api.systems.coc7e.actions import ACTION_ROUTES  # noqa: F401  (what the track view says may be done: api/affordances.py)
