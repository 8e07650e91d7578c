"""What Call of Cthulhu chase events count in analytics (application/analytics/facts.py): movement
actions spent and lost, locations covered, hazards and barriers passed and failed, damage taken and
dealt, Build lost, and the clock of rounds and turns; the dice of a percentile roll."""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping

from application.analytics.facts import ROUND_BEGAN, ROUND_ENDED, TURN_ENDED, Count, GameCounts
from domain.rules.coc7e import chase_events as chase, damage_events as damage, obstacle_events as obstacles, percentile
from domain.rules.coc7e.odds import result_chances


def counts(event: Any) -> list[Count]:
    """The counts of one coc7e event (coc7e-chases.txt parts 2 to 4 name each)."""
    if isinstance(event, chase.Moved):  # "Movement Actions"
        return [Count("movement actions spent", event.participant_id, event.movement_actions_spent),
                Count("locations covered", event.participant_id, abs(event.to_location - event.from_location))]
    if isinstance(event, obstacles.ObstacleNegotiated):  # "Hazards", "Barriers"
        return [Count("movement actions spent", event.participant_id, event.movement_actions_spent),
                Count("locations covered", event.participant_id, abs(event.to_location - event.from_location)),
                Count(f"{event.kind}s {'passed' if event.passed else 'failed'}", event.participant_id)]
    if isinstance(event, damage.MovementActionsLost):
        return [Count("movement actions lost", event.participant_id, event.lost)]
    if isinstance(event, damage.DamageTaken):  # dealt: by whoever rolled the damage
        return [Count("damage taken", event.participant_id, event.taken),
                *([Count("damage dealt", None, event.taken, by_roll=event.roll_sequence)] if event.roll_sequence else [])]
    if isinstance(event, damage.BuildLost):
        return [Count("Build lost", event.vehicle_id, event.build_lost)]
    if isinstance(event, chase.RoundBegan):
        return [Count(ROUND_BEGAN, None, event.round)]
    if isinstance(event, chase.RoundEnded):
        return [Count(ROUND_ENDED, None, event.round)]
    if isinstance(event, chase.TurnEnded):
        return [Count(TURN_ENDED, event.participant_id)]
    return []


def faces(roll: Mapping[str, Any]) -> list[tuple[str, int]] | None:
    """A percentile roll's tens dice (each one thrown, kept or not) and units die."""
    if "tens" not in roll:
        return None
    return [("d100 tens", int(t["face"])) for t in roll["tens"]] + [("d100 units", int(roll["units"]))]


@lru_cache(maxsize=None)
def _spread(net: int) -> tuple[float, float]:
    """The mean and variance of the kept d100 result with ``net`` bonus (> 0) or penalty dice."""
    chances = result_chances(net)
    mean = sum(r * float(p) for r, p in chances.items())
    return mean, sum((r - mean) ** 2 * float(p) for r, p in chances.items())


def result(roll: Mapping[str, Any]) -> tuple[float, float, float] | None:
    """A percentile roll's kept result against its mean (50.5 without bonus or penalty dice)."""
    if "tens" not in roll or not isinstance(roll.get("result"), int):
        return None
    try:
        mean, variance = _spread(percentile.net_dice(roll.get("bonus_dice", 0), roll.get("penalty_dice", 0)))
    except percentile.InvalidPercentileRoll:
        return None
    return float(roll["result"]), mean, variance


# coc7e-chases.txt: the chase ends when the pursuers catch the quarry ("caught") or the quarry gets
# away ("escaped"); the Keeper may end it otherwise ("abandoned": nobody won).
WINNERS = {"caught": "pursuer", "escaped": "quarry"}

COUNTED = (chase.Moved, obstacles.ObstacleNegotiated, damage.MovementActionsLost, damage.DamageTaken, damage.BuildLost,
           chase.RoundBegan, chase.RoundEnded, chase.TurnEnded)  # every class ``counts`` looks at

GAME_COUNTS = GameCounts(counts=counts, counted=COUNTED, faces=faces, result=result, winners=WINNERS)
