"""Firing a gun of Table XVII several times in one attack: multiple shots, a burst, full auto.

coc7e-combat.txt "Handguns, Multiple Shots (Penalty die)", "Automatic Fire", "Malfunctions";
in a chase, coc7e-chases.txt "Ranged Attacks During a Chase": "The options are as for one combat
round of gunfire (i.e. one shot with a rifle, up to three shots with a handgun, etc.) This option
costs 1 movement action". Each roll is named "attack.<n>" (from 1), each bullet's damage
"damage.<n>.<k>"; a hit is dealt as any attack's (conflict_procedures.strike): armor from each
bullet, impales, wounds.
"""
from __future__ import annotations

from typing import Any

from domain.rules.coc7e import arms, combat_events, conflict, conflict_procedures, keeper_rolls, mishaps, ranged, rounds, weapon_damage
from domain.rules.coc7e.errors import InvalidCommand, RuleBroken
from domain.rules.coc7e.keeper_rolls import RollSources
from domain.rules.coc7e.participants import Participant

FireChase = mishaps.MishapChase
MAX_TARGETS = 10


def check_fire(chase: FireChase, participant_id: str) -> Participant:
    """The guard of ``fire`` and ``reload``: the shooter's turn, and a gun carried."""
    p = rounds.require_turn(chase, participant_id)
    arms.require_gun(p)
    return p


def fire(
    chase: FireChase, attacker_id: str, dice: RollSources, *, weapon: str, mode: str = "shots", target_id: str | None = None,
    shots: int = 1, targets: list[dict[str, Any]] | None = None, difficulty: str = "regular", bonus_dice: int = 0, penalty_dice: int = 0,
    attack_skill: str | None = None, malfunction: str | None = None, aftermath: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Fire ``weapon``: ``shots`` single shots at ``target_id`` (mode "shots": a penalty die each
    when more than one), a "burst" at ``target_id``, or "full auto" at ``targets`` ([{target_id,
    bullets}]) in volleys sized by the SMG or MG skill. ``difficulty``: the range's, for every roll."""
    a = check_fire(chase, attacker_id)
    if mode not in ranged.MODES[1:]:
        raise InvalidCommand("mode", f"must be one of {', '.join(ranged.MODES[1:])}")
    armed = arms.armed(a, weapon)
    w = armed.weapon
    if not w.firearm or armed.carried is None or armed.carried["loaded"] is None:
        raise InvalidCommand("weapon", f"{w.name} is not a gun that fires rounds")
    aimed = _aimed(mode, target_id, targets, shots)
    skill = attack_skill or (("Firearms (MG)" if w.skill == "Firearms (MG)" else "Firearms (SMG)") if mode == "full auto" else w.skill)
    roller, value = a, keeper_rolls.value_of(a, skill)
    if mode == "shots":
        extra = ranged.multiple_shots(shots, w.shots_per_round)
        plan = [ranged.Volley(i, target_id, 1, bonus_dice, penalty_dice + extra, difficulty) for i in range(shots)]  # type: ignore[arg-type]
    elif mode == "burst":
        if w.burst is None:
            raise RuleBroken(f"{w.name} fires no burst", ranged.AUTOMATIC_FIRE)
        plan = ranged.volleys([(target_id, w.burst)], w.burst, bonus=bonus_dice, penalty=penalty_dice, difficulty=difficulty)  # type: ignore[list-item]
    else:
        if not w.full_auto:
            raise RuleBroken(f"{w.name} does not fire full auto", ranged.AUTOMATIC_FIRE)
        plan = ranged.volleys(aimed, ranged.volley_size(value), bonus=bonus_dice, penalty=penalty_dice, difficulty=difficulty)
    bullets = sum(v.bullets for v in plan)
    arms.armed(a, weapon, shots=bullets)  # enough rounds loaded for every bullet declared
    targets_of = {v.target_id: chase.participant(v.target_id) for v in plan}
    for t in targets_of.values():
        if t.id == a.id:
            raise InvalidCommand("target_id", "a shooter cannot shoot itself")
        mishaps.require_damageable(t)
    mishaps.check_aftermath(chase, aftermath)
    cost = 0 if a.aboard else conflict.attack_cost(
        same_location=True, firearm=True, movement_actions_left=a.movement_actions, attacks_made=a.attacks_made, attacks_per_round=a.attacks_per_round,
    )
    if a.aboard and a.attacks_made:
        raise RuleBroken(f"{a.name} has already acted this round", conflict_procedures.PASSENGERS)
    rolls, fired, spent, jam = [], [], 0, None
    for v in plan:
        t = targets_of[v.target_id]
        if v.difficulty is None:
            fired.append({"target_id": t.id, "bullets": v.bullets, "roll_sequence": None, "hits": 0, "impales": 0})
            spent += v.bullets  # raised past Critical: "impossible", the bullets fly wide
            continue
        record = keeper_rolls.skill_roll(
            chase, dice, f"attack.{v.index + 1}", a.id, roller.id, f"{mode} at {t.name}: {v.bullets} bullet(s)", skill, value,
            difficulty=v.difficulty, bonus=v.bonus_dice, penalty=v.penalty_dice,
        )
        rolls.append(record)
        if arms.malfunctioned(w, record["result"]):
            jam = arms.malfunction_kind(w, malfunction)
            spent += 1 if jam == "dud" else 0
            fired.append({"target_id": t.id, "bullets": v.bullets, "roll_sequence": record["sequence"], "hits": 0, "impales": 0})
            break
        spent += v.bullets
        hit, impaling = ranged.hits(v.bullets, record["level"], v.difficulty)
        fired.append({"target_id": t.id, "bullets": v.bullets, "roll_sequence": record["sequence"], "hits": hit, "impales": impaling})
        for k in range(hit):
            if t.status != "in_chase" or t.dead:
                break
            lands = weapon_damage.blow(w.damage, a.damage_bonus, extreme=k < impaling, impales=w.impales)
            rolls += conflict_procedures.strike(chase, a, t, lands, f"damage.{v.index + 1}.{k + 1}", True, aftermath, dice)
    chase.trigger_event(
        combat_events.Fired, attacker_id=a.id, weapon=w.name, mode=mode, volleys=fired, movement_actions_spent=cost,
        movement_actions_left=a.movement_actions - cost,
    )
    chase.trigger_event(
        combat_events.ShotsFired, participant_id=a.id, weapon=w.name, shots=spent, loaded_after=armed.carried["loaded"] - spent, malfunction=jam,
    )
    rounds.turn_goes_on(chase, a, passenger_acted=True)
    return {"volleys": fired, "malfunction": jam, "rolls": rolls}


def _aimed(mode: str, target_id: str | None, targets: list[dict[str, Any]] | None, shots: int) -> list[tuple[str, int]]:
    if mode != "full auto":
        if target_id is None or targets is not None:
            raise InvalidCommand("target_id", f"{mode}: give one target_id (targets are for full auto)")
        return []
    if target_id is not None or not isinstance(targets, list) or not 1 <= len(targets) <= MAX_TARGETS:
        raise InvalidCommand("targets", f"full auto: give targets, 1 to {MAX_TARGETS} of {{target_id, bullets}}")
    aimed = []
    for i, t in enumerate(targets):
        if not isinstance(t, dict) or not isinstance(t.get("target_id"), str) or isinstance(t.get("bullets"), bool) or not isinstance(t.get("bullets"), int) or t["bullets"] < 1:
            raise InvalidCommand(f"targets.{i}", "give target_id and bullets (1 or more)")
        aimed.append((t["target_id"], t["bullets"]))
    return aimed


def reload(
    chase: FireChase, participant_id: str, dice: RollSources, *, weapon: str, rounds_loaded: int | None = None, clear_jam: bool = False,
    skill: str | None = None,
) -> dict[str, Any]:
    """On their turn: load rounds into a carried gun (default: to a full magazine; "It takes one
    combat round to load two shells ...", "one round to exchange a clip": the Keeper counts the
    rounds), or try to clear a jam ("a successful Mechanical Repair or Firearms skill roll ... once
    per round until succeeding"; the roll "clear")."""
    p = check_fire(chase, participant_id)
    w = arms.weapons.weapon(weapon)
    carried = next((c for c in p.weapons if c["weapon"] == w.name), None)
    if carried is None or carried["loaded"] is None:
        raise RuleBroken(f"{p.name} carries no {w.name} to load", arms.RELOADING)
    if clear_jam:
        if not carried["jammed"]:
            raise RuleBroken(f"{p.name}'s {w.name} is not jammed", arms.MALFUNCTIONS)
        if rounds_loaded is not None:
            raise InvalidCommand("rounds", "clear the jam first, then load")
        named = skill or ("Mechanical Repair" if "Mechanical Repair" in p.skills else w.skill)
        record = keeper_rolls.skill_roll(chase, dice, "clear", p.id, p.id, f"clearing the jam of {w.name}", named, keeper_rolls.value_of(p, named))
        chase.trigger_event(combat_events.WeaponReloaded, participant_id=p.id, weapon=w.name, loaded_after=carried["loaded"], jam_cleared=record["success"])
        return {"jam_cleared": record["success"], "loaded": carried["loaded"], "rolls": [record]}
    if carried["jammed"]:
        raise RuleBroken(f"{p.name}'s {w.name} is jammed: clear it first", arms.MALFUNCTIONS)
    room = w.magazine - carried["loaded"]
    wanted = room if rounds_loaded is None else rounds_loaded
    if isinstance(wanted, bool) or not isinstance(wanted, int) or not 1 <= wanted <= max(room, 0):
        raise RuleBroken(f"{w.name} holds {w.magazine}, {carried['loaded']} loaded: room for {room}", arms.RELOADING)
    chase.trigger_event(combat_events.WeaponReloaded, participant_id=p.id, weapon=w.name, loaded_after=carried["loaded"] + wanted, jam_cleared=False)
    return {"jam_cleared": False, "loaded": carried["loaded"], "rolls": []}
