"""Where each D6 command is sent, and who may send it (api/action_routes.py): the track view's
``actions`` name these, with what the domain's guards say of each now
(domain/rules/d6/affordances.py). A participant's command's ``who`` is the table's its command
refuses by (application/systems/d6/permissions.py)."""
from __future__ import annotations

from api.action_routes import Route, participant_routes
from application.systems.d6.permissions import PARTICIPANT as WHO

PARTICIPANT = participant_routes({
    "move": ("POST", "/d6/participants/{participant_id}/move"),
    "fatigue_roll": ("POST", "/d6/participants/{participant_id}/fatigue-roll"),
}, WHO)
CHASE = {
    "add_participant": Route("POST", "/d6/participants", "keeper"),
    "begin": Route("POST", "/d6/begin", "keeper"),
    "skill_roll": Route("POST", "/d6/skill-rolls", "player"),
    "end_round": Route("POST", "/d6/end-round", "keeper"),
}
ACTION_ROUTES = {"d6": (PARTICIPANT, CHASE)}
