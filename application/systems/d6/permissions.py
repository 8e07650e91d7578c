"""Who may send each D6 command (application/permissions.py), and the fields only the GM may
send: the commands refuse by it (commands.py) and the track view's routes take their ``who``
from it (api/systems/d6/actions.py). Keyed by the view's action names: ``PARTICIPANT``, a
participant's commands; ``CHASE``, the chase's."""
from __future__ import annotations

from application.access import KEEPER
from application.permissions import PLAYER, KeeperOnly, Permission, absent

MODIFIER = KeeperOnly("give modifiers")  # d6-chases.txt: the GM's extra modifier to the difficulty
WILD_DIE = KeeperOnly("rule on the Wild Die")  # what a first-roll 1 of the Wild Die does is the GM's call

PARTICIPANT = {
    "move": Permission(PLAYER, "move", {"modifier": MODIFIER, "on_failure": KeeperOnly("rule on failures"), "wild_die_one": WILD_DIE}),
    "fatigue_roll": Permission(PLAYER, "roll against fatigue", {"modifier": MODIFIER, "wild_die_one": WILD_DIE}),
}
CHASE = {
    "add_participant": Permission(KEEPER, "add participants"),
    "begin": Permission(KEEPER, "begin the chase"),
    "skill_roll": Permission(PLAYER, "roll", {"participant_id": KeeperOnly("roll for no one", absent), "wild_die_one": WILD_DIE}),
    "end_round": Permission(KEEPER, "end the round"),
}
