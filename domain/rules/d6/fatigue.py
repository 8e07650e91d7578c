"""The GM's fatigue limit of a participant, set or changed during the chase (d6-movement.txt
"Accelerating and Decelerating", on fatigue: "Determine a suitable length of time depending on
existing conditions, the Physique of the character, and any relevant special abilities she has").
Conditions change in a chase (a second wind, heat, a wound), so the GM may rule again at any
time before the chase ends; the rounds of fast movement already run still count against it."""
from __future__ import annotations

from typing import Any, ClassVar, Protocol

from domain.rules.d6.errors import RuleBroken, rule, whole
from domain.rules.d6.movement import fatigue_modifier
from domain.rules.d6.participants import MAX_FATIGUE_LIMIT, D6Participant

FATIGUE = rule("Accelerating and Decelerating", "fatigue")


class FatigueChase(Protocol):
    """What setting a fatigue limit uses of a D6 chase (chase.D6Chase)."""

    FatigueLimitSet: ClassVar[type]
    phase: str

    def participant(self, participant_id: str) -> D6Participant: ...

    def trigger_event(self, event_class: Any, **kwargs: Any) -> None: ...


def check_fatigue_limit(chase: FatigueChase, participant_id: str) -> D6Participant:
    """The guard of ``set_fatigue_limit``: a participant of a chase not yet over."""
    p = chase.participant(participant_id)
    if chase.phase == "ended":
        raise RuleBroken("the chase has ended", FATIGUE)
    return p


def set_fatigue_limit(chase: FatigueChase, participant_id: str, limit: int | None) -> int:
    """The GM's limit: rounds of fast movement before the fatigue modifier (None: not tracked);
    returns the fatigue modifier the participant has now."""
    p = check_fatigue_limit(chase, participant_id)
    if limit is not None:
        whole("fatigue_limit", limit, 0, MAX_FATIGUE_LIMIT)
    chase.trigger_event(chase.FatigueLimitSet, participant_id=participant_id, fatigue_limit=limit)
    return fatigue_modifier(p.fast_rounds, limit)
