"""Who may send each participant-level Call of Cthulhu command (application/permissions.py): the
commands refuse by it (commands.py, part5.py, pursuit_commands.py) and the track view's routes
take their ``who`` from it (api/systems/coc7e/actions.py). Keyed by the view's action names."""
from __future__ import annotations

from application.access import KEEPER, Principal
from application.permissions import HEALER, PLAYER, Permission, alone, require


def _player(what: str) -> Permission:
    return Permission(PLAYER, what)


def _keeper(what: str) -> Permission:
    return Permission(KEEPER, what)


PARTICIPANT = {
    "speed_roll": _player("make speed rolls"),
    "move": _player("move"),
    "delay": _player("delay"),
    "end_turn": _player("end turns"),
    "negotiate": _player("negotiate hazards and barriers"),
    "break_barrier": _player("break down barriers"),
    "attack": _player("attack"),
    "fire": _player("fire"),
    "aim": _player("aim"),
    "reload": _player("reload"),
    "mishap_roll": _player("roll"),
    "consequences": _keeper("rule on damage and delays"),
    # wounds and healing (coc7e-combat.txt "Wounds and Healing"): the patient's player rolls to stay alive
    "damage": _keeper("rule on damage"),
    "dying_roll": _player("make the dying-roll roll"),
    "first_aid": Permission(HEALER, "treat the wounded"),
    "medicine": Permission(HEALER, "treat the wounded"),
    "recovery": _keeper("rule on recovery"),
    "condition": _keeper("rule that a character comes to or stands up"),
    # a fight (coc7e-combat.txt): joining names the combatant in its body
    "join_fight": _keeper("bring a combatant into the fight"),
    "ready_firearm": _player("draw a firearm"),
    "flee": _player("flee"),
    # optional rules (coc7e-chases.txt part 5)
    "choose_route": _player("choose a route"),
    "join": _keeper("place those joining the chase"),
    "leave": _keeper("rule that a participant leaves the chase"),
    "switch_mode": _keeper("rule on modes of movement"),
    "board": _player("get into a vehicle"),
    "alight": _player("get out of a vehicle"),
    "substitute_skill": _keeper("judge monsters' skills"),
    "accelerate": _player("accelerate"),
    "visibility": _keeper("judge how far a driver can see"),
    "navigate": _player("navigate"),
    "keep_control": _player("roll to keep control"),
    "attack_on_the_move": _player("shoot"),
    "fire_on_the_move": _player("shoot"),
    "shoot_tire": _player("shoot"),
    "create_hazard": _player("create hazards"),
    "fly_over": _player("fly over hazards and barriers"),
    "hide": _keeper("set the difficulty of hiding"),
    "follow_trail": _keeper("call for a roll to keep the trail"),
}


def permit(by: Principal, participant_id: str | None, action: str) -> None:
    """Refuses ``by`` (403) the command ``action`` for ``participant_id`` (for a healer's: the
    healer named, None when none is): a player acts for their own participants alone."""
    require(by, PARTICIPANT[action], alone(participant_id))
