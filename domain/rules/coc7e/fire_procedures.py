"""Firing a gun of Table XVII several times in one attack: multiple shots, a burst, full auto.

coc7e-combat.txt "Handguns, Multiple Shots (Penalty die)", "Automatic Fire", "Malfunctions";
in a chase, coc7e-chases.txt "Ranged Attacks During a Chase": "The options are as for one combat
round of gunfire (i.e. one shot with a rifle, up to three shots with a handgun, etc.) This option
costs 1 movement action". Each roll is named "attack.<n>" (from 1), each bullet's damage
"damage.<n>.<k>"; a hit is dealt as any attack's (striking.strike): armor from each
bullet, impales, wounds.
"""
from __future__ import annotations

from typing import Any

from domain.rules.coc7e import (
    armed_attack, arms, combat_events, conflict, conflict_procedures, firearm_modifiers, keeper_rolls, mishaps, ranged, rounds, shooting, striking, weapon_damage,
)
from domain.rules.coc7e.errors import InvalidCommand, RuleBroken
from domain.rules.coc7e.keeper_rolls import RollSources
from domain.rules.coc7e.participants import Participant
from domain.rules.coc7e.reloading import reload  # noqa: F401  (the chase binds it from here)

FireChase = mishaps.MishapChase
MAX_TARGETS = 10


def check_fire(chase: FireChase, participant_id: str) -> Participant:
    """The guard of ``fire``: the shooter's turn, free to attack, and a gun carried."""
    p = rounds.require_turn(chase, participant_id)
    shooting.require_may_attack(chase, p)
    arms.require_gun(p)
    return p


def fire(
    chase: FireChase, attacker_id: str, dice: RollSources, *, weapon: str, mode: str = "shots", target_id: str | None = None,
    shots: int = 1, targets: list[dict[str, Any]] | None = None, difficulty: str | None = None, bonus_dice: int = 0, penalty_dice: int = 0,
    attack_skill: str | None = None, malfunction: str | None = None, aftermath: dict[str, Any] | None = None,
    modifiers: list[str] | tuple = (), distance_yards: int | None = None, diving: list[str] | tuple = (),
) -> dict[str, Any]:
    """Fire ``weapon``: ``shots`` single shots at ``target_id`` (mode "shots": a penalty die each
    when more than one), a "burst" at ``target_id``, or "full auto" at ``targets`` ([{target_id,
    bullets, modifiers, distance_yards}]) in volleys sized by the SMG or MG skill. Each target's
    first roll is set as a single attack's: the difficulty by ``distance_yards`` (a shotgun's band:
    its damage) or ``difficulty``, then the firearm ``modifiers``, prone, an aim and ``diving``
    (targets who dive for cover: their Dodge roll "dive.<id>", a success a penalty die)."""
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
    declared = [(target_id, modifiers, distance_yards)] if mode != "full auto" else [
        (t["target_id"], list(modifiers) + list(t.get("modifiers") or ()), t.get("distance_yards", distance_yards)) for t in targets or ()
    ]
    sights = {tid: _sight(chase, a, w, tid, named, distance, difficulty) for tid, named, distance in declared}
    divers = _divers(diving, sights)
    plan = _plan(mode, w, target_id, shots, aimed, value, sights, bonus_dice, penalty_dice)
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
    aim = shooting.aim_dice(chase, a, target_id, w.name, single_shot=mode == "shots" and shots == 1)
    rolls, fired, spent, jam, ally_hit = [], [], 0, None, False
    for tid in divers:
        record = shooting.dive_for_cover(chase, dice, f"dive.{tid}", targets_of[tid], a)
        rolls.append(record)
        sights[tid]["penalty"] += int(record["success"])
    if aim or divers:
        plan = _plan(mode, w, target_id, shots, aimed, value, sights, bonus_dice + aim, penalty_dice)
    for v in plan:
        t, sight = targets_of[v.target_id], sights[v.target_id]
        if v.difficulty is None:
            fired.append({"target_id": t.id, "bullets": v.bullets, "roll_sequence": None, "hits": 0, "impales": 0})
            spent += v.bullets  # raised past Critical: "impossible", the bullets fly wide
            continue
        record = keeper_rolls.skill_roll(
            chase, dice, f"attack.{v.index + 1}", a.id, roller.id, f"{mode} at {t.name}: {v.bullets} bullet(s)", skill, value,
            difficulty=v.difficulty, bonus=v.bonus_dice, penalty=v.penalty_dice, malfunction=w.malfunction,
        )
        rolls.append(record)
        ally_hit = ally_hit or firearm_modifiers.ally_hit(sight["applied"], record["level"])
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
            lands = weapon_damage.blow(sight["damage"], a.damage_bonus, extreme=k < impaling, impales=w.impales)
            rolls += striking.strike(chase, a, t, lands, f"damage.{v.index + 1}.{k + 1}", True, aftermath, dice)
    chase.trigger_event(
        combat_events.Fired, attacker_id=a.id, weapon=w.name, mode=mode, volleys=fired, movement_actions_spent=cost,
        movement_actions_left=a.movement_actions - cost,
    )
    chase.trigger_event(
        combat_events.ShotsFired, participant_id=a.id, weapon=w.name, shots=spent, loaded_after=armed.carried["loaded"] - spent, malfunction=jam,
    )
    rounds.turn_goes_on(chase, a, passenger_acted=True)
    return {
        "volleys": fired, "malfunction": jam, "rolls": rolls,
        "modifiers": {tid: sight["applied"] for tid, sight in sights.items() if sight["applied"]},
        **({"aimed": True} if aim else {}), **({"ally_hit": ally_hit} if any(s["applied"] for s in sights.values()) else {}),
    }


def _plan(
    mode: str, w: Any, target_id: str | None, shots: int, aimed: list[tuple[str, int]], value: int, sights: dict[str, Any], bonus: int, penalty: int,
) -> list[ranged.Volley]:
    """The attack rolls, each with its bullets, dice and difficulty: each target's situation (the
    Keeper's dice and the sight's), and the penalty dice of several shots or of later volleys."""
    situation = {tid: (bonus + sight["bonus"], penalty + sight["penalty"], sight["difficulty"]) for tid, sight in sights.items()}
    if mode == "shots":
        extra = ranged.multiple_shots(shots, w.shots_per_round)
        b, p, difficulty = situation[target_id]  # type: ignore[index]
        return [ranged.Volley(i, target_id, 1, b, p + extra, difficulty) for i in range(shots)]  # type: ignore[arg-type]
    if mode == "burst":
        if w.burst is None:
            raise RuleBroken(f"{w.name} fires no burst", ranged.AUTOMATIC_FIRE)
        return ranged.volleys([(target_id, w.burst)], w.burst, situation=situation)  # type: ignore[list-item]
    if not w.full_auto:
        raise RuleBroken(f"{w.name} does not fire full auto", ranged.AUTOMATIC_FIRE)
    return ranged.volleys(aimed, ranged.volley_size(value), situation=situation)


def _sight(chase: FireChase, a: Any, w: Any, target_id: str | None, named: Any, distance: int | None, difficulty: str | None) -> dict[str, Any]:
    """A target's difficulty and damage by range, and its dice from the situation (shooting.dice)."""
    t = chase.participant(target_id)  # type: ignore[arg-type]
    damage, difficulty = armed_attack.at_range(w, distance, difficulty)
    bonus, penalty, applied = shooting.dice(a, t, list(named or ()), distance, firearm=True)
    return {"difficulty": difficulty, "damage": damage, "bonus": bonus, "penalty": penalty, "applied": applied}


def _divers(diving: Any, sights: dict[str, Any]) -> list[str]:
    if isinstance(diving, str) or not isinstance(diving, (list, tuple)) or len(set(diving)) != len(diving):
        raise InvalidCommand("diving", "a list of the targets who dive for cover, each once")
    strangers = [d for d in diving if d not in sights]
    if strangers:
        raise InvalidCommand("diving", f"only those fired upon dive for cover, not {', '.join(map(str, strangers))}")
    return list(diving)


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
