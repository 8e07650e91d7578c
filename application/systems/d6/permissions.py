"""Who may send each participant-level D6 command (application/permissions.py): the commands
refuse by it (commands.py) and the track view's routes take their ``who`` from it
(api/systems/d6/actions.py). Keyed by the view's action names."""
from __future__ import annotations

from application.permissions import PLAYER, Permission

PARTICIPANT = {
    "move": Permission(PLAYER, "move"),
    "fatigue_roll": Permission(PLAYER, "roll against fatigue"),
}
