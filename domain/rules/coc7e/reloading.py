"""The time reloading takes, clearing a jam, and a round chambered and fired at once.

coc7e-combat.txt "Reloading Firearms (possible Penalty die)": "It takes one combat round to load
two shells into any handgun, rifle or shotgun. Allow one round to exchange a clip. Allow two rounds
to change a machine gun belt. In a round, it is possible to put one round in a chamber and get
that shot off with one penalty die." "Malfunctions": a jam is cleared by a Mechanical Repair or
Firearms roll, "once per round until succeeding". A combat round's action is one of the
combatant's actions (movement actions: in a fight, its attacks a round; in a chase, as for an
attack, coc7e-chases.txt "Ranged Attacks During a Chase": "costs 1 movement action").
"""
from __future__ import annotations

from typing import Any

from domain.rules.coc7e import arms, combat_events, conflict, firearm_events, keeper_rolls, rounds, shooting, weapons
from domain.rules.coc7e.errors import InvalidCommand, RuleBroken
from domain.rules.coc7e.keeper_rolls import RollSources
from domain.rules.coc7e.participants import Participant
from domain.rules.coc7e.weapon_rows import ASSAULT_RIFLES, HANDGUNS, MACHINE_GUNS, RIFLES, SMGS

RELOADING = arms.RELOADING
SHELLS_A_ROUND = 2  # "one combat round to load two shells into any handgun, rifle or shotgun"
BELT_ROUNDS = 2  # "Allow two rounds to change a machine gun belt"
CHAMBER_PENALTY = 1  # "put one round in a chamber and get that shot off with one penalty die"
# Handguns and rifles fed by a clip or magazine rather than loose shells (Table XVII's names).
CLIP_FED = ("automatic", "auto", "beretta", "luger", "desert eagle", "garand", "sks")


def loading(w: weapons.Weapon) -> str:
    """How a gun is loaded: "belt" (a machine gun), "clip" (an assault rifle, a submachine gun, an
    automatic handgun or rifle: exchanged whole), else "shells" (two a round)."""
    if w.table == MACHINE_GUNS:
        return "belt"
    if w.table in (ASSAULT_RIFLES, SMGS) or (w.table in (HANDGUNS, RIFLES) and any(mark in w.name.lower() for mark in CLIP_FED)):
        return "clip"
    return "shells"


def reload(
    chase: Any, participant_id: str, dice: RollSources, *, weapon: str, rounds_loaded: int | None = None, clear_jam: bool = False,
    skill: str | None = None,
) -> dict[str, Any]:
    """On their turn, one action: load a carried gun (two shells; a whole clip; half a belt, the
    second action finishing it), or try to clear its jam (the roll "clear")."""
    p = rounds.require_turn(chase, participant_id)
    arms.require_gun(p)  # what the track view asks of reload (domain/rules/coc7e/affordances.py)
    w = weapons.weapon(weapon)
    carried = next((c for c in p.weapons if c["weapon"] == w.name), None)
    if carried is None or carried["loaded"] is None:
        raise RuleBroken(f"{p.name} carries no {w.name} to load", RELOADING)
    if clear_jam:
        if not carried["jammed"]:
            raise RuleBroken(f"{p.name}'s {w.name} is not jammed", arms.MALFUNCTIONS)
        if rounds_loaded is not None:
            raise InvalidCommand("rounds", "clear the jam first, then load")
        named = skill or ("Mechanical Repair" if "Mechanical Repair" in p.skills else w.skill)
        value = keeper_rolls.value_of(p, named)
        _spend_action(chase, p, w, 0)
        record = keeper_rolls.skill_roll(chase, dice, "clear", p.id, p.id, f"clearing the jam of {w.name}", named, value)
        chase.trigger_event(combat_events.WeaponReloaded, participant_id=p.id, weapon=w.name, loaded_after=carried["loaded"], jam_cleared=record["success"])
        rounds.turn_goes_on(chase, p, passenger_acted=True)
        return {"jam_cleared": record["success"], "loaded": carried["loaded"], "rolls": [record]}
    if carried["jammed"]:
        raise RuleBroken(f"{p.name}'s {w.name} is jammed: clear it first", arms.MALFUNCTIONS)
    room = w.magazine - carried["loaded"]
    kind = loading(w)
    most = SHELLS_A_ROUND if kind == "shells" else room
    wanted = min(room, most) if rounds_loaded is None else rounds_loaded
    if isinstance(wanted, bool) or not isinstance(wanted, int) or not 1 <= wanted <= max(room, 0):
        raise RuleBroken(f"{w.name} holds {w.magazine}, {carried['loaded']} loaded: room for {room}", RELOADING)
    if wanted > most:
        raise RuleBroken(f"{p.name} loads {SHELLS_A_ROUND} shells into {w.name} in a round, not {wanted}", RELOADING)
    progress = carried.get("belt_progress", 0) + 1 if kind == "belt" else 0
    done = kind != "belt" or progress >= BELT_ROUNDS
    _spend_action(chase, p, w, 0 if done else progress)
    if done:
        chase.trigger_event(combat_events.WeaponReloaded, participant_id=p.id, weapon=w.name, loaded_after=carried["loaded"] + wanted, jam_cleared=False)
    rounds.turn_goes_on(chase, p, passenger_acted=True)
    return {"jam_cleared": False, "loaded": carried["loaded"], "loading": kind, "belt_rounds_left": 0 if done else BELT_ROUNDS - progress, "rolls": []}


def chamber(chase: Any, p: Participant, weapon: str | None) -> int:
    """One round put into an empty gun's chamber to fire at once: the penalty die it costs."""
    if weapon is None:
        raise InvalidCommand("chamber", "name the gun (weapon) to chamber a round in")
    w = weapons.weapon(weapon)
    carried = next((c for c in p.weapons if c["weapon"] == w.name), None)
    if carried is None or carried["loaded"] is None or not w.firearm:
        raise RuleBroken(f"{p.name} carries no {w.name} to chamber a round in", RELOADING)
    if carried["jammed"]:
        raise RuleBroken(f"{p.name}'s {w.name} is jammed: clear it first", arms.MALFUNCTIONS)
    if carried["loaded"]:
        raise RuleBroken(f"{p.name}'s {w.name} is loaded ({carried['loaded']}): chambering a round is for an empty gun", RELOADING)
    chase.trigger_event(firearm_events.RoundChambered, participant_id=p.id, weapon=w.name)
    return CHAMBER_PENALTY


def _spend_action(chase: Any, p: Participant, w: weapons.Weapon, belt_progress: int) -> None:
    """The action reloading takes: a movement action (a passenger acts once: none to spend); an
    aim is lost to it ("Aiming (Bonus die)": "If no other actions are taken before the shot")."""
    shooting.lose_aim(chase, p, "reloading")
    if p.aboard:
        left = p.movement_actions
    elif p.movement_actions < conflict.ATTACK_COST:
        raise RuleBroken(f"{p.name} has no action left this round to reload", RELOADING)
    else:
        left = p.movement_actions - conflict.ATTACK_COST
    chase.trigger_event(firearm_events.ReloadingTimeSpent, participant_id=p.id, weapon=w.name, movement_actions_left=left, belt_progress=belt_progress)
