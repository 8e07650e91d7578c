"""Who may send each Savage Worlds command, per edition (application/permissions.py), and the
fields only the GM may send: the commands refuse by it (commands.py, swd_commands.py) and the
track view's routes take their ``who`` from it (api/systems/savage_worlds/actions.py). Keyed by
the view's action names: ``PARTICIPANT``, a participant's commands; ``CHASE``, the chase's. A
player acts for their participants and the units they are in (acting.py)."""
from __future__ import annotations

from typing import Any

from application.access import KEEPER
from application.permissions import PLAYER, KeeperOnly, Permission, absent

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
        "new_action_card": Permission(PLAYER, "spend bennies", {"card": KeeperOnly("enter the card dealt")}),  # a physical deck's: the GM deals
        # a maneuver's refusal names it as its path does ("change-position")
        **{name: _player(name.replace("_", "-")) for name in SWADE_MANEUVERS},
    },
    "swd": {
        **BOTH,
        "maneuver": Permission(PLAYER, "make maneuver rolls", {"cards": KeeperOnly("enter the cards dealt")}),
        "cooperate": _player("make cooperative rolls"),
        "attack": _player("attack"),
        "force": _player("force"),
    },
}

# The follow-ups the GM resolves whoever they are for (a Bump's direction, the card to keep, the deal).
GM_FOLLOW_UPS = {kind: Permission(KEEPER, f"resolve the {kind}") for kind in ("bump", "chase card", "deal action cards")}
FOR_NO_ONE = Permission(KEEPER, "resolve follow-ups for no one")
RESOLVE = _player("resolve follow-ups")


def _follow_up_resolver(chase: Any) -> tuple[Permission, str | None]:
    """Whose the first follow-up waiting is: the GM's kinds and one for no one the GM's, the
    others its participant's (a player acting for it: acting.py)."""
    if not chase.pending:
        return RESOLVE, None
    head = chase.pending[0]
    participant_id = head.get("participant_id")
    found = GM_FOLLOW_UPS.get(head["kind"]) or (FOR_NO_ONE if participant_id is None else None)
    return (found, None) if found is not None else (RESOLVE, participant_id)


# A roll names whom it is for (a player: one they act for); damage for no one is the GM's.
ROLL_DAMAGE = Permission(PLAYER, "roll damage", {"roller_id": KeeperOnly("roll damage for no one", absent)})
CHASE_BOTH = {
    "add_participant": Permission(KEEPER, "add participants"),
    "begin": Permission(KEEPER, "begin the chase"),
    "resolve": Permission(PLAYER, "resolve follow-ups", now=_follow_up_resolver),  # a player: their participant's (its roll)
    "trait_roll": _player("roll"),
    "damage_roll": ROLL_DAMAGE,
    "breaking_things": ROLL_DAMAGE,
}
CHASE = {
    "swade": {**CHASE_BOTH, "action_cards": Permission(KEEPER, "deal the Action cards")},
    "swd": CHASE_BOTH,
}
