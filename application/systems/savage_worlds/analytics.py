"""What Savage Worlds chase events count in analytics (application/analytics/facts.py): raises,
aces, cards dealt, wounds taken and dealt, turns lost, movement on the chase cards, and the clock of
rounds and turns."""
from __future__ import annotations

from typing import Any

from application.analytics.facts import ROUND_BEGAN, ROUND_ENDED, TURN_BEGAN, TURN_ENDED, Count, GameCounts
from domain.rules.savage_worlds import savage_events as ev, swade_events as swade


def counts(event: Any) -> list[Count]:
    """The counts of one Savage Worlds event (savage_events.py and swade_events.py name each)."""
    roll = getattr(event, "roll", None)
    if isinstance(event, (ev.TraitRolled, ev.DamageRolled)) and isinstance(roll, dict):
        aces = sum(1 for d in roll.get("dice", ()) if d.get("aced"))
        return [*([Count("raises", event.participant_id, roll["raises"])] if roll.get("raises") else []),
                *([Count("aces", event.participant_id, aces)] if aces else [])]
    if isinstance(event, ev.ActionCardDealt):
        return [Count("action cards dealt", event.participant_id)]
    if isinstance(event, swade.ChaseCardDealt):
        return [Count("chase cards dealt", None)]
    if isinstance(event, (ev.CharacterDamaged, ev.VehicleDamaged)):
        # Dealt: by whoever rolled the damage in the same action (the event names no roll); a
        # vehicle's wounds from Out of Control (no damage against its Toughness) are no one's.
        dealt = event.wounds_taken and event.damage is not None
        return [Count("wounds taken", event.participant_id, event.wounds_taken),
                *([Count("wounds dealt", None, event.wounds_taken, by_event=ev.DamageRolled.__name__)] if dealt else [])]
    if isinstance(event, swade.Moved):
        return [Count("chase cards covered", event.participant_id, abs(event.to_position - event.from_position))]
    if isinstance(event, swade.TurnLost):
        return [Count("turns lost", event.participant_id)]
    if isinstance(event, ev.RoundBegan):
        return [Count(ROUND_BEGAN, None, event.round)]
    if isinstance(event, ev.RoundEnded):
        return [Count(ROUND_ENDED, None, event.round)]
    if isinstance(event, ev.TurnBegan):
        return [Count(TURN_BEGAN, event.participant_id)]
    if isinstance(event, ev.TurnEnded):
        return [Count(TURN_ENDED, event.participant_id)]
    return []


# savage_base.py OUTCOMES: the chaser captures the quarry, or the quarry escapes; "abandoned" and
# "both stopped" have no winner.
WINNERS = {"captured": "chaser", "escaped": "quarry"}

COUNTED = (  # every class ``counts`` looks at
    ev.TraitRolled, ev.DamageRolled, ev.ActionCardDealt, swade.ChaseCardDealt, ev.CharacterDamaged, ev.VehicleDamaged,
    swade.Moved, swade.TurnLost, ev.RoundBegan, ev.RoundEnded, ev.TurnBegan, ev.TurnEnded,
)

GAME_COUNTS = GameCounts(counts=counts, counted=COUNTED, winners=WINNERS)
