"""What D6 System race and chase events count in analytics (application/analytics/facts.py):
metres covered and trips, fatigue rolls overcome or not, who was caught, escaped or finished,
and the clock of rounds (d6-movement.txt). D6 dice are a plain ``dice`` list: the core reads them."""
from __future__ import annotations

from typing import Any

from application.analytics.facts import ROUND_BEGAN, ROUND_ENDED, Count, GameCounts
from domain.rules.d6 import events as ev


def counts(event: Any) -> list[Count]:
    """The counts of one D6 event (domain/rules/d6/events.py names each)."""
    if isinstance(event, ev.Moved):  # "Movement": the metres a move covered, and how it ended
        return [Count("metres covered", event.participant_id, event.distance),
                *([Count(f"moves {event.outcome}", event.participant_id)] if event.outcome != "moved" else [])]
    if isinstance(event, ev.FatigueRolled):  # "Fatigue"
        return [Count("fatigue rolls overcome" if event.overcome else "fatigue rolls failed", event.participant_id)]
    if isinstance(event, ev.RoundBegan):
        return [Count(ROUND_BEGAN, None, event.round)]
    if isinstance(event, ev.RoundEnded):
        return [Count(ROUND_ENDED, None, event.round),
                *(Count("caught", c["participant_id"]) for c in event.caught),
                *(Count("escaped", pid) for pid in event.escaped),
                *(Count("finished", pid) for pid in event.finished)]
    return []


# d6-movement.txt: a pursuer catching the quarry ends a chase "caught", a quarry past the finish
# "escaped" (rounds.py); a race's racers each count "finished" (its order is the track's), and
# "abandoned" has no winner.
WINNERS = {"caught": "pursuer", "escaped": "quarry"}

COUNTED = (ev.Moved, ev.FatigueRolled, ev.RoundBegan, ev.RoundEnded)  # every class ``counts`` looks at

GAME_COUNTS = GameCounts(counts=counts, counted=COUNTED, winners=WINNERS)
