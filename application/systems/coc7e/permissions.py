"""Who may send each Call of Cthulhu command (application/permissions.py), and the fields only
the Keeper may send: the commands refuse by it (commands.py, part5.py, pursuit_commands.py,
hazards.py) and the track view's routes take their ``who`` from it (api/systems/coc7e/actions.py).
Keyed by the view's action names: ``PARTICIPANT``, a participant's commands; ``CHASE``, the
chase's (and the Keeper's commands the view does not list: locations' names, obstacles' changes)."""
from __future__ import annotations

from typing import Any, Mapping

from application.access import KEEPER, Principal
from application.permissions import ANYONE, HEALER, PLAYER, KeeperOnly, Permission, absent, alone, require
from domain.rules.coc7e import pursuit_events


def _player(what: str) -> Permission:
    return Permission(PLAYER, what)


def _keeper(what: str) -> Permission:
    return Permission(KEEPER, what)


# coc7e-chases.txt "Driver Damage" and the vehicles' conflicts: what befalls the occupants is the Keeper's ruling
AFTERMATH = {"aftermath": KeeperOnly("rule on the fate of a vehicle's occupants", bool)}


PARTICIPANT = {
    "speed_roll": _player("make speed rolls"),
    "move": _player("move"),
    "delay": _player("delay"),
    "end_turn": _player("end turns"),
    "negotiate": Permission(PLAYER, "negotiate hazards and barriers", {"keeper_accepts_skill": KeeperOnly("accept a skill the obstacle does not name", bool)}),
    "break_barrier": Permission(PLAYER, "break down barriers", {"debris": KeeperOnly("rule on the debris of a barrier"), **AFTERMATH}),
    "attack": Permission(PLAYER, "attack", AFTERMATH),
    "fire": Permission(PLAYER, "fire", AFTERMATH),
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
    "attack_on_the_move": Permission(PLAYER, "shoot", AFTERMATH),
    "fire_on_the_move": Permission(PLAYER, "shoot", AFTERMATH),
    "shoot_tire": _player("shoot"),
    "create_hazard": Permission(PLAYER, "create hazards", {"obstacle": KeeperOnly("rule what a created hazard or barrier is", bool)}),
    "fly_over": _player("fly over hazards and barriers"),
    "hide": _keeper("set the difficulty of hiding"),
    "follow_trail": _keeper("call for a roll to keep the trail"),
}

# "Sudden Hazards": the side that won the Luck roll places it (the players' choice may be entered by the Keeper)
PLAYERS_SUDDEN_HAZARD = Permission(ANYONE, "place sudden hazards")
KEEPERS_SUDDEN_HAZARD = _keeper("place the Keeper's sudden hazard")


def _sudden_hazard_placer(chase: Any) -> tuple[Permission, None]:
    """Whose the placing is now: the Keeper's when the Keeper's side won the call."""
    pending = pursuit_events.read(chase)["sudden_hazards"]["pending"]
    return (KEEPERS_SUDDEN_HAZARD if pending is not None and pending["placed_by"] != "players" else PLAYERS_SUDDEN_HAZARD), None


ROLL_FOR_NO_ONE = {"participant_id": KeeperOnly("roll for no one", absent)}
CHASE = {
    "add_participant": _keeper("add participants"),
    "cut_to_the_chase": _keeper("cut to the chase"),
    "begin_fight": _keeper("begin the fight"),
    "skill_roll": Permission(PLAYER, "roll", ROLL_FOR_NO_ONE),
    "dice_roll": Permission(PLAYER, "roll", ROLL_FOR_NO_ONE),
    "name_location": _keeper("name locations"),
    "remove_location_name": _keeper("remove location names"),
    "place_obstacle": _keeper("place hazards and barriers"),
    "change_obstacle": _keeper("change hazards and barriers"),
    "remove_obstacle": _keeper("remove hazards and barriers"),
    "random_hazards": _keeper("roll random hazards"),
    "place_fork": _keeper("present a choice of routes"),
    "split": _keeper("split the chase"),
    "change_optional_rules": _keeper("choose the optional rules"),
    # "Sudden Hazards": the players and the Keeper alternate calling; only the Keeper raises the difficulty
    "call_sudden_hazard": Permission(ANYONE, "call sudden hazards", {
        "called_by": KeeperOnly("call sudden hazards for the Keeper", lambda side: side == "keeper"),
        "difficulty": KeeperOnly("raise a sudden hazard's difficulty", lambda difficulty: difficulty not in (None, "regular")),
    }),
    "place_sudden_hazard": Permission(ANYONE, "place sudden hazards", now=_sudden_hazard_placer),
}


def permit(by: Principal, participant_id: str | None, action: str, sent: Mapping[str, Any] | None = None) -> None:
    """Refuses ``by`` (403) the command ``action`` for ``participant_id`` (for a healer's: the
    healer named, None when none is), or a field of ``sent`` only the Keeper may send: a player
    acts for their own participants alone."""
    require(by, PARTICIPANT[action], alone(participant_id), sent)


def permit_chase(by: Principal, action: str, sent: Mapping[str, Any] | None = None) -> None:
    """Refuses ``by`` (403) the chase's command ``action`` (CHASE), or a field of ``sent`` only the
    Keeper may send; a roll for a participant: theirs alone (``sent``'s participant_id)."""
    require(by, CHASE[action], alone((sent or {}).get("participant_id")) if CHASE[action].who == PLAYER else None, sent)
