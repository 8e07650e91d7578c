"""Escaping and hiding in play (coc7e-chases.txt "Escaping the Pursuer", "Hiding"; pure rules in
pursuit.py, events in pursuit_events.py).

"The pursuer can continue chasing the fleeing character so long as their location or direction of
travel can be identified": where the Keeper judges the trail may be lost, the pursuer rolls
(Track, or what the Keeper names); failed, that pursuer is left behind, and when no pursuer is left
the quarry has escaped. A quarry hides with Stealth at the Keeper's difficulty and bonus dice (a
vehicle: one roll read against Stealth and the driving skill, "Combined Rolls"); hidden, the Keeper
may still have a pursuer search with Spot Hidden ("If the pursuer fails to find the hidden
investigator with a Spot Hidden roll, the quarry has evaded capture").
"""
from __future__ import annotations

from typing import Any, Protocol

from domain.rules.coc7e import keeper_rolls, percentile, pursuit, pursuit_events, rounds
from domain.rules.coc7e.errors import InvalidCommand, RuleBroken
from domain.rules.coc7e.keeper_rolls import RollSources
from domain.rules.coc7e.participants import Participant
from domain.rules.coc7e.pedal_procedures import PursuitChase


class TrailChase(PursuitChase, Protocol):
    """What escaping and hiding use of a chase: part 5's needs, and its end."""

    ChaseEnded: Any

ESCAPING_RULE = "escaping_and_hiding"
DEFAULT_TRACKING_SKILL = "Track"


def follow_trail(
    chase: TrailChase, pursuer_id: str, quarry_id: str, dice: RollSources, *, skill: str = DEFAULT_TRACKING_SKILL, target: int | None = None,
    difficulty: str = "regular", bonus_dice: int = 0, penalty_dice: int = 0,
) -> dict[str, Any]:
    """Can the pursuer pick up the quarry's trail? (the deep one's Tracking roll)"""
    pursuer, quarry = check_follow_trail(chase, pursuer_id), _in_chase(chase, quarry_id, "quarry")
    if quarry.role != "quarry":
        raise RuleBroken(f"{quarry.name} is not a quarry: a pursuer follows a quarry's trail", pursuit.ESCAPING)
    _difficulty(difficulty)
    roller, value = keeper_rolls.roller_value(chase, pursuer, skill, target)
    record = keeper_rolls.skill_roll(
        chase, dice, "skill", pursuer.id, roller.id, f"picking up {quarry.name}'s trail", skill, value, difficulty=difficulty, bonus=bonus_dice, penalty=penalty_dice,
    )
    chase.trigger_event(pursuit_events.TrailFollowed, pursuer_id=pursuer.id, quarry_id=quarry.id, skill=skill, roll_sequence=record["sequence"], kept=record["success"])
    ended = _end_if_none_left(chase, "pursuer", f"{pursuer.name} lost {quarry.name}'s trail")
    if not ended:
        rounds.turn_goes_on(chase, pursuer)
    return {"kept": record["success"], "chase_over": ended, "rolls": [record]}


def check_follow_trail(chase: TrailChase, pursuer_id: str) -> Participant:
    """The guard of ``follow_trail`` before the quarry named: the rule in use, a pursuer in the chase."""
    chase.require_optional_rule(ESCAPING_RULE)
    pursuer = _in_chase(chase, pursuer_id, "pursuer")
    if pursuer.role != "pursuer":
        raise RuleBroken(f"{pursuer.name} is not a pursuer: only a pursuer follows a quarry's trail", pursuit.ESCAPING)
    return pursuer


def hide(
    chase: TrailChase, participant_id: str, dice: RollSources, *, difficulty: str = "regular", bonus_dice: int = 0, penalty_dice: int = 0,
    searcher_id: str | None = None, search_target: int | None = None, search_difficulty: str = "regular",
) -> dict[str, Any]:
    """A quarry hides (Stealth; a vehicle: Stealth and Drive Auto on one roll, its driver's values);
    ``searcher_id``: a pursuer then searches with Spot Hidden (``search_target`` when it has none listed)."""
    p, roller, values = check_hide(chase, participant_id)
    _difficulty(difficulty)
    searcher = _in_chase(chase, searcher_id, "searcher_id") if searcher_id is not None else None
    if searcher is not None and searcher.role != "pursuer":
        raise InvalidCommand("searcher_id", f"{searcher.name} is not a pursuer")
    skills = tuple(values)
    first, *others = skills
    record = keeper_rolls.skill_roll(
        chase, dice, "stealth", p.id, roller.id, f"hiding{' (combined: ' + ' and '.join(skills) + ')' if others else ''}", first, values[first],
        difficulty=difficulty, bonus=bonus_dice, penalty=penalty_dice,
    )
    levels = {first: record["level"], **{s: percentile.level_of(record["result"], values[s]) for s in others}}
    hiding = pursuit.hiding_outcome(levels, difficulty)
    rolls, search = [record], None
    if hiding.hidden and searcher is not None:
        s_roller, s_value = keeper_rolls.roller_value(chase, searcher, "Spot Hidden", search_target)
        search = keeper_rolls.skill_roll(chase, dice, "spot_hidden", searcher.id, s_roller.id, f"searching for {p.name}", "Spot Hidden", s_value, difficulty=search_difficulty)
        rolls.append(search)
    escaped = hiding.hidden and not (search and search["success"])
    chase.trigger_event(
        pursuit_events.HidingAttempted, participant_id=p.id, skills=list(skills), roll_sequence=record["sequence"], difficulty=difficulty,
        hidden=hiding.hidden, searcher_id=searcher_id, search_roll_sequence=search["sequence"] if search else None, escaped=escaped,
    )
    if escaped and not _end_if_none_left(chase, "quarry", f"{p.name} hid"):
        rounds.turn_goes_on(chase, p)
    return {"hidden": hiding.hidden, "levels": levels, "failed_skills": list(hiding.failed_skills), "found": not escaped, "escaped": escaped, "rolls": rolls}


def check_hide(chase: TrailChase, participant_id: str) -> tuple[Participant, Participant, dict[str, int]]:
    """The guard of ``hide`` before the Keeper's difficulty and searcher: a fleeing character in
    the chase (a vehicle with a driver) with the skills to roll; answers the one who hides, the
    one who rolls and the skills' values."""
    chase.require_optional_rule(ESCAPING_RULE)
    p = _in_chase(chase, participant_id, "participant_id")
    if p.role != "quarry" or p.aboard:
        raise RuleBroken(f"{p.name} is not a fleeing character (those aboard hide with their vehicle)", pursuit.HIDING)
    roller = chase.driver_of(p.id) if p.kind == "vehicle" else p
    if roller is None:
        raise RuleBroken(f"{p.name} has no driver", pursuit.HIDING)
    skills = pursuit.vehicle_hiding_skills(p.driving_skill) if p.kind == "vehicle" else ("Stealth",)
    return p, roller, {s: keeper_rolls.value_of(roller, s) for s in skills}


def _in_chase(chase: TrailChase, participant_id: str | None, field: str) -> Participant:
    chase.require_not_ended()
    if chase.phase != "running":
        raise RuleBroken("the chase has not been cut to yet", f"{pursuit.CHASES} \"Cut to the chase\"")
    p = chase.participant(participant_id)
    if p.status != "in_chase":
        raise RuleBroken(f"{p.name} is not in the chase ({p.status})", pursuit.ESCAPING)
    return p


def _difficulty(difficulty: str) -> None:
    if difficulty not in percentile.DIFFICULTIES:
        raise InvalidCommand("difficulty", f"must be one of {', '.join(percentile.DIFFICULTIES)}")


def _end_if_none_left(chase: TrailChase, role: str, why: str) -> bool:
    """"If not, the chase is over": no pursuer left on the trail (or no quarry left to find), the
    quarry has escaped."""
    if any(p.role == role and p.status == "in_chase" for p in chase.on_track()):
        return False
    chase.trigger_event(chase.ChaseEnded, outcome="escaped", note=f"{why} ({pursuit.ESCAPING})")
    return True
