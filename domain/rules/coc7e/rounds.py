"""Chase rounds: DEX order, movement actions, moving, delaying and ending turns.

coc7e-chases.txt part 2: "Dexterity and the Order of Movement", "Movement Actions",
"Actions in a Chase Round", "Moving From One Location to the Next".
"""
from __future__ import annotations

from typing import Any, Protocol

from domain.rules.coc7e import chase_events, forks, obstacle_events, track_features
from domain.rules.coc7e.errors import CHASES, InvalidCommand, ParticipantNotFound, RuleBroken
from domain.rules.coc7e.movement import allotment, dex_order, slowest_of_round
from domain.rules.coc7e.participants import Participant
from domain.track import Track


# A round's plan: (turn order, actions by participant, still owed by participant, slowest MOV).
RoundPlan = tuple[list[str], dict[str, int], dict[str, int], int]


class RoundsChase(track_features.TrackChase, Protocol):
    """What the round procedures use of a chase (domain.rules.coc7e.chase.Chase)."""

    participants: dict[str, Participant]
    phase: str
    round: int
    turn_order: list[str]
    turn_index: int
    waiting_on: dict[str, str]
    mishaps: dict[str, dict[str, Any]]
    track: Track
    slowest_mov: int | None

    @property
    def whose_turn(self) -> str | None: ...

    def participant(self, participant_id: str) -> Participant: ...

    def on_track(self) -> list[Participant]: ...

    def driver_of(self, vehicle_id: str) -> Participant | None: ...

    def dex_of(self, p: Participant) -> int: ...

    def plan_round(self, runners: list[Participant], aboard: list[Participant]) -> RoundPlan: ...


# -- rounds ----------------------------------------------------------------------------

def move(chase: RoundsChase, participant_id: str, locations: int = 1) -> None:
    """Spend movement actions to move forward, one location for each ("Moving From One Location to the Next")."""
    p, start, blocking = check_move(chase, participant_id, locations)
    # A choice of routes further on stops the move there, until the participant takes one ("Choosing a Route").
    fork = forks.fork_unchosen(chase, participant_id, start, locations)
    if fork is not None and (blocking is None or fork < blocking["from_location"]):
        blocking = None
        locations = fork - start
    moved = blocking["from_location"] - start if blocking else locations
    chase.trigger_event(
        chase_events.Moved,
        participant_id=participant_id,
        from_location=start,
        to_location=start + moved,
        movement_actions_spent=moved,
        movement_actions_left=p.movement_actions - moved,
    )
    for location in range(start + 1, start + moved + 1):
        record_caught_up(chase, p, location)
    if blocking is not None:
        chase.trigger_event(
            obstacle_events.ObstacleReached, participant_id=p.id, obstacle_id=blocking["id"],
            location=start + moved, locations_not_moved=locations - moved,
        )
    if p.movement_actions == 0:
        finish_turn(chase, p, "no movement actions left")


def check_move(chase: RoundsChase, participant_id: str, locations: int = 1) -> tuple[Participant, int, dict[str, Any] | None]:
    """The guard of ``move``: the mover, where they stand, and the first hazard or barrier on the way."""
    p = require_turn(chase, participant_id)
    rule = f"{CHASES} \"Movement Actions\""
    if isinstance(locations, bool) or not isinstance(locations, int) or locations < 1:
        raise InvalidCommand("locations", "must be a whole number, 1 or more")
    if p.aboard:
        raise RuleBroken(f"{p.name} rides in a vehicle and has no movement actions (\"Passengers\")", f"{CHASES} \"Passengers\"")
    if p.held_by is not None:
        holder = chase.participants[p.held_by].name
        raise RuleBroken(f"{p.name} is held by {holder}: a maneuver of their own breaks out (goal escape)", 'coc7e-combat.txt "Step 2: Make the Attack Roll"')
    if p.movement_actions < locations:
        raise RuleBroken(f"{p.name} has {p.movement_actions} movement actions left; moving {locations} locations takes {locations}", rule)
    start = chase.track.location_of(participant_id)
    assert start is not None
    # A hazard or a standing barrier on the way stops the move in front of it; the
    # participant must negotiate it (or break the barrier down) to go on ("Hazards", "Barriers").
    blocking = next((o for o in (track_features.obstacle_ahead(chase, at) for at in range(start, start + locations)) if o), None)
    if blocking is not None and blocking["from_location"] == start:
        raise RuleBroken(
            f"{blocking['name']} lies ahead of {p.name}: negotiate it (or break it down) to move on",
            f"{CHASES} \"{'Hazards' if blocking['kind'] == 'hazard' else 'Barriers'}\"",
        )
    # Standing at a fork without a route taken: no move until one is ("Choosing a Route").
    if forks.fork_unchosen(chase, participant_id, start, 1) == start:
        raise RuleBroken(f"{p.name} stands where the track branches: choose a route first", forks.ROUTES)
    return p, start, blocking


def delay(chase: RoundsChase, participant_id: str, until_after: str | None = None) -> None:
    """Delay acting until another participant has acted ("Actions in a Chase Round")."""
    p, later = check_delay(chase, participant_id)
    rule = f"{CHASES} \"Actions in a Chase Round\""
    if until_after is None:
        until_after = later[-1]
    if until_after not in chase.participants:
        raise ParticipantNotFound(f"no participant {until_after} in this chase")
    if until_after not in later:
        raise RuleBroken(f"{chase.participants[until_after].name} has already acted this round", rule)
    order = [pid for pid in chase.turn_order if pid != participant_id]
    slot = order.index(until_after) + 1
    # Those already waiting on the same participant: the highest DEX takes priority.
    # Several waiting on the same participant: "the one with the highest DEX takes priority".
    while (
        slot < len(order)
        and chase.waiting_on.get(order[slot]) == until_after
        and chase.dex_of(chase.participants[order[slot]]) >= chase.dex_of(p)
    ):
        slot += 1
    order.insert(slot, participant_id)
    chase.trigger_event(chase_events.TurnDelayed, participant_id=participant_id, until_after=until_after, turn_order=order)


def check_delay(chase: RoundsChase, participant_id: str) -> tuple[Participant, list[str]]:
    """The guard of ``delay``: the participant whose turn it is, and those still to act after them."""
    p = require_turn(chase, participant_id)
    later = chase.turn_order[chase.turn_index + 1 :]
    if not later:
        raise RuleBroken(f"{p.name} is the last to act this round; there is no one to wait for", f"{CHASES} \"Actions in a Chase Round\"")
    return p, later


def end_turn(chase: RoundsChase, participant_id: str) -> None:
    """End the turn; unused movement actions are lost, the next in DEX order acts."""
    p = require_turn(chase, participant_id)
    finish_turn(chase, p, "ended by the player")


ZERO_HIT_POINTS = 'coc7e-combat.txt "Zero Hit Points: The Effects"'


def begin_round(chase: RoundsChase, number: int) -> None:
    """A new round: movement actions by MOV, and the DEX order of those able to act (the
    unconscious, dying and dead lie where they fell: "Zero Hit Points: The Effects")."""
    runners = [p for p in chase.on_track() if p.status == "in_chase" and not p.incapacitated]
    if not runners:
        return  # everyone is out of action: no one to move; the Keeper ends the chase
    aboard = [p for p in chase.participants.values() if p.aboard and p.status == "in_chase" and p.seat == "passenger" and not p.incapacitated]
    order, actions, owed, slowest = chase.plan_round(runners, aboard)
    chase.trigger_event(chase_events.RoundBegan, round=number, turn_order=order, movement_actions=actions, owed=owed, slowest_mov=slowest)


def chase_round(chase: RoundsChase, runners: list[Participant], aboard: list[Participant]) -> RoundPlan:
    """A chase round's plan: the DEX order, movement actions by MOV ("Movement Actions"), none
    for passengers ("Passengers"), and what is still owed."""
    slowest = slowest_of_round(chase.slowest_mov, (p.chase_mov for p in runners))
    actions, owed = {}, {}
    for p in runners:
        actions[p.id], owed[p.id] = allotment(p.chase_mov, slowest, p.owed)
    for p in aboard:
        actions[p.id], owed[p.id] = 0, 0
    order = dex_order((p.id, chase.dex_of(p), combat_skill(chase, p), p.joined) for p in runners + aboard)
    return order, actions, owed, slowest


def combat_skill(chase: RoundsChase, p: Participant) -> int:
    if p.kind == "vehicle":
        driver = chase.driver_of(p.id)
        return driver.skills.get(p.driving_skill or "Drive Auto", 0) if driver else 0
    return p.combat_skill()


def finish_turn(chase: RoundsChase, p: Participant, reason: str) -> None:
    chase.trigger_event(chase_events.TurnEnded, participant_id=p.id, movement_actions_unused=p.movement_actions, reason=reason)
    if chase.turn_index >= len(chase.turn_order):
        chase.trigger_event(chase_events.RoundEnded, round=chase.round)
        begin_round(chase, chase.round + 1)
    # One who fell before their turn came lets it pass ("Zero Hit Points: The Effects").
    current = chase.whose_turn
    if current is not None and chase.participants[current].incapacitated:
        finish_turn(chase, chase.participants[current], "unconscious at zero hit points")


def record_caught_up(chase: RoundsChase, mover: Participant, location: int) -> None:
    for other_id in chase.track.occupants(location):
        other = chase.participants[other_id]
        if other.status != "in_chase" or other.role == mover.role or not forks.same_place(chase, mover.id, other_id, location):
            continue
        pursuer, quarry = (mover, other) if mover.role == "pursuer" else (other, mover)
        chase.trigger_event(chase_events.CaughtUp, pursuer_id=pursuer.id, quarry_id=quarry.id, location=location)


def require_turn(chase: RoundsChase, participant_id: str) -> Participant:
    p = chase.participant(participant_id)
    rule = f"{CHASES} \"Dexterity and the Order of Movement\""
    chase.require_not_ended()
    if chase.phase != "running":
        raise RuleBroken("the chase has not been cut to yet", f"{CHASES} \"Cut to the chase\"")
    if p.status != "in_chase":
        raise RuleBroken(f"{p.name} is not in the chase ({p.status})", rule)
    if p.incapacitated:
        raise RuleBroken(f"{p.name} is at zero hit points: unconscious, and acts no more", ZERO_HIT_POINTS)
    if chase.whose_turn != participant_id:
        current = chase.participants[chase.whose_turn].name if chase.whose_turn else "no one"
        raise RuleBroken(f"it is {current}'s turn, not {p.name}'s (highest DEX acts first)", rule)
    mishap = chase.mishaps.get(participant_id)
    if mishap is not None:
        raise RuleBroken(f"the Keeper rules on {p.name}'s mishap ({mishap['cause']}) before {p.name} acts on", f"{CHASES} \"Hazards\"")
    return p


def turn_goes_on(chase: RoundsChase, p: Participant, passenger_acted: bool = False) -> None:
    """After something happened on a turn: whoever's turn it is and is now out of the chase is
    done; so is ``p`` on their own turn once out of movement actions with no mishap awaiting
    the Keeper, or once a passenger has acted ("Passengers": they act once)."""
    current = chase.whose_turn
    if current is None:
        return
    c = chase.participants[current]
    if c.status != "in_chase":
        finish_turn(chase, c, "out of the chase")
    elif c.incapacitated:
        finish_turn(chase, c, "unconscious at zero hit points")
    elif c.id != p.id:
        return
    elif p.aboard:
        if passenger_acted:
            finish_turn(chase, p, "passengers act once on their turn")
    elif p.movement_actions == 0 and p.id not in chase.mishaps:
        finish_turn(chase, p, "no movement actions left")
