"""Where each D6 command is sent, and who may send it (api/action_routes.py): the track view's
``actions`` name these, with what the domain's guards say of each now
(domain/rules/d6/affordances.py). Each command's ``who`` is the table's its command refuses by
(application/systems/d6/permissions.py)."""
from __future__ import annotations

from api.action_routes import chase_routes, participant_routes
from application.systems.d6.permissions import CHASE as CHASE_WHO, PARTICIPANT as WHO

PARTICIPANT = participant_routes({
    "move": ("POST", "/d6/participants/{participant_id}/move"),
    "fatigue_roll": ("POST", "/d6/participants/{participant_id}/fatigue-roll"),
}, WHO)
CHASE = chase_routes({
    "add_participant": ("POST", "/d6/participants"),
    "begin": ("POST", "/d6/begin"),
    "skill_roll": ("POST", "/d6/skill-rolls"),
    "end_round": ("POST", "/d6/end-round"),
}, CHASE_WHO)
ACTION_ROUTES = {"d6": (PARTICIPANT, CHASE)}
