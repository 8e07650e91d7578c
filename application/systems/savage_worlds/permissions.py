"""Who may send each participant-level Savage Worlds command, per edition
(application/permissions.py): the commands refuse by it (commands.py, swd_commands.py) and the
track view's routes take their ``who`` from it (api/systems/savage_worlds/actions.py). Keyed by
the view's action names; a player acts for their participants and the units they are in
(acting.py)."""
from __future__ import annotations

from application.access import KEEPER
from application.permissions import PLAYER, Permission

SWADE_MANEUVERS = ("change_position", "drop_back", "evade", "hold_steady", "flee", "force", "ram", "attack")


def _player(what: str) -> Permission:
    return Permission(PLAYER, what)


BOTH = {
    "end_turn": _player("end turns"),
    "recover": _player("recover from Shaken"),
    "conditions": Permission(KEEPER, "set conditions"),
    "bennies": Permission(KEEPER, "give bennies"),
    "benny_reroll": _player("spend bennies"),
    "benny_soak": _player("spend bennies"),
    "test": _player("make Tests"),
    "recover_from_stunned": _player("recover"),
    "break_free": _player("recover"),
}
PARTICIPANT = {
    "swade": {
        **BOTH,
        "hold": _player("Hold"),
        "act_from_hold": _player("Hold"),
        "new_action_card": _player("spend bennies"),
        # a maneuver's refusal names it as its path does ("change-position")
        **{name: _player(name.replace("_", "-")) for name in SWADE_MANEUVERS},
    },
    "swd": {
        **BOTH,
        "maneuver": _player("make maneuver rolls"),
        "cooperate": _player("make cooperative rolls"),
        "attack": _player("attack"),
        "force": _player("force"),
    },
}
