"""Characters joining a chase in progress and leaving it: coc7e-chases.txt "Characters Joining a
Chase in Progress" (optional rule joining_and_leaving).

A joiner is added and makes the speed roll as at the start ("Any characters who join an ongoing
chase should make a speed roll"); the Keeper then places them ("The Keeper should then position
them on an appropriate location"). A pursuer slower than the slowest fleeing character "can be
ignored" (left behind, unless the Keeper keeps them). A joiner slower than the slowest member so
far is the new slowest: everyone's movement actions are worked out against it, from the next
round (the joiner's first: a round's movement actions are dealt when it begins). Leaving changes
nothing ("There is no need to recalculate speeds or movement actions when a character leaves a
chase"): the slowest MOV a chase keeps falls with a slower joiner, never rises with a leaver.
"""
from __future__ import annotations

from typing import Any, Protocol

from domain.recorded_chase import RecordedChase
from domain.rules.coc7e import optional_rules, rounds, track_features
from domain.rules.coc7e.errors import CHASES, InvalidCommand, RuleBroken
from domain.rules.coc7e.participants import Participant
from domain.track import Track

JOINING = f'{CHASES} "Characters Joining a Chase in Progress"'
RULE = "joining_and_leaving"
MAX_LOCATION = track_features.MAX_LOCATION
MAX_REASON = 500

Event = RecordedChase.Event


class JoiningChase(rounds.RoundsChase, Protocol):
    participants: dict[str, Participant]
    phase: str
    slowest_mov: int | None
    track: Track

    def participant(self, participant_id: str) -> Participant: ...

    def require_not_ended(self) -> None: ...

    def require_optional_rule(self, name: str) -> Any: ...

    def trigger_event(self, event_class: Any, **kwargs: Any) -> None: ...


class ParticipantJoined(Event):
    """A joiner placed on the track by the Keeper (or ignored as too slow to pursue)."""

    TOPIC = "coc7e:Chase.ParticipantJoined"
    participant_id: str
    location: int | None  # None: ignored
    status: str  # in_chase, or left_behind for a pursuer too slow to matter
    slowest_mov: int  # the chase's slowest MOV from now on

    def apply(self, chase: Any) -> None:
        chase.slowest_mov = self.slowest_mov
        for p in chase.participants.values():
            if p.id == self.participant_id or p.vehicle == self.participant_id:  # those aboard come along
                p.status = self.status
        if self.location is not None:
            chase.track.place(self.participant_id, self.location)


class ParticipantLeft(Event):
    """A participant left the chase; nobody's speed or movement actions change."""

    TOPIC = "coc7e:Chase.ParticipantLeft"
    participant_id: str
    reason: str

    def apply(self, chase: Any) -> None:
        out = {p.id for p in chase.participants.values() if self.participant_id in (p.id, p.vehicle)}
        for pid in out:
            chase.participants[pid].status = "left"
            chase.mishaps.pop(pid, None)
        chase.track.remove(self.participant_id)
        # Whoever is still to act this round acts; the leaver's own turn is ended by the command.
        done = chase.turn_order[: chase.turn_index + 1]
        chase.turn_order = done + [pid for pid in chase.turn_order[chase.turn_index + 1 :] if pid not in out]


def require_joining(chase: JoiningChase, p: Participant | None, what: str) -> None:
    """Set-up commands (adding a participant, the speed roll) after the cut: only for joiners,
    and only when the table uses the optional rule."""
    chase.require_not_ended()
    if chase.phase == "setup":
        return
    try:
        optional_rules.require_optional_rule(chase, RULE)  # a fight without a chase shares this: it has none
    except RuleBroken as off:
        raise RuleBroken(f"{what} before the cut to the chase; joining a chase in progress is the optional rule {RULE}, not in use", off.rule) from None
    if p is not None and p.status != "ready":
        raise RuleBroken(f"{p.name} is already past the speed roll and the Keeper's placing ({p.status})", JOINING)


def join(chase: JoiningChase, participant_id: str, location: Any, keep_if_slower: bool = False) -> None:
    """The Keeper places a joiner who has made the speed roll."""
    p = check_join(chase, participant_id)
    if isinstance(location, bool) or not isinstance(location, int) or not 0 <= location <= MAX_LOCATION:
        raise InvalidCommand("location", f"must be a whole number from 0 to {MAX_LOCATION}")
    assert chase.slowest_mov is not None  # set by the first round, which the cut begins
    quarries = [q.chase_mov for q in chase.participants.values() if q.role == "quarry" and q.status == "in_chase" and not q.aboard]
    if p.role == "pursuer" and quarries and p.chase_mov < min(quarries) and not keep_if_slower:
        chase.trigger_event(ParticipantJoined, participant_id=p.id, location=None, status="left_behind", slowest_mov=chase.slowest_mov)
        return
    chase.trigger_event(ParticipantJoined, participant_id=p.id, location=location, status="in_chase", slowest_mov=min(chase.slowest_mov, p.chase_mov))


def check_join(chase: JoiningChase, participant_id: str) -> Participant:
    """The guard of ``join`` before the location named: the rule in use, a joiner waiting, speed rolled."""
    chase.require_optional_rule(RULE)
    chase.require_not_ended()
    p = chase.participant(participant_id)
    if chase.phase != "running":
        raise RuleBroken("before the cut to the chase everyone is placed by the cut itself", f'{CHASES} "Cut to the chase"')
    if p.aboard:
        raise RuleBroken(f"{p.name} rides in a vehicle: place the vehicle", JOINING)
    if p.status != "ready":
        raise RuleBroken(f"{p.name} is not waiting to join ({p.status})", JOINING)
    if p.speed_mov is None:
        raise RuleBroken(f"{p.name} makes the speed roll before joining", JOINING)
    return p


def leave(chase: JoiningChase, participant_id: str, reason: str = "") -> None:
    """A participant leaves the chase (the Keeper's ruling: gives up, turns off, is called away)."""
    p = check_leave(chase, participant_id)
    if not isinstance(reason, str) or len(reason) > MAX_REASON:
        raise InvalidCommand("reason", f"at most {MAX_REASON} characters")
    chase.trigger_event(ParticipantLeft, participant_id=p.id, reason=reason)
    rounds.turn_goes_on(chase, p)  # on their own turn, the leaver's turn ends


def check_leave(chase: JoiningChase, participant_id: str) -> Participant:
    """The guard of ``leave`` before the reason given: the rule in use, the leaver in the chase."""
    chase.require_optional_rule(RULE)
    chase.require_not_ended()
    p = chase.participant(participant_id)
    if p.aboard:
        raise RuleBroken(f"{p.name} rides in a vehicle: the vehicle leaves, with those aboard", JOINING)
    if p.status != "in_chase":
        raise RuleBroken(f"{p.name} is not in the chase ({p.status})", JOINING)
    return p
