"""Chase rounds: DEX order, movement actions, moving, delaying and ending turns.

coc7e-chases.txt part 2: "Dexterity and the Order of Movement", "Movement Actions",
"Actions in a Chase Round", "Moving From One Location to the Next".
"""
from __future__ import annotations

from typing import Any

from domain.rules.coc7e.errors import CHASES, InvalidCommand, ParticipantNotFound, RuleBroken
from domain.rules.coc7e.movement import allotment, dex_order
from domain.rules.coc7e.participants import Participant


class ChaseRounds:
    """The round procedures of the Chase aggregate (mixed into it; events are the Chase's)."""

    participants: dict[str, Participant]
    turn_order: list[str]
    turn_index: int
    waiting_on: dict[str, str]
    round: int
    track: Any

    # -- rounds ----------------------------------------------------------------------------

    def move(self, participant_id: str, locations: int = 1) -> None:
        """Spend movement actions to move forward, one location for each ("Moving From One Location to the Next")."""
        p = self._require_turn(participant_id)
        rule = f"{CHASES} \"Movement Actions\""
        if isinstance(locations, bool) or not isinstance(locations, int) or locations < 1:
            raise InvalidCommand("locations", "must be a whole number, 1 or more")
        if p.aboard:
            raise RuleBroken(f"{p.name} rides in a vehicle and has no movement actions (\"Passengers\")", f"{CHASES} \"Passengers\"")
        if p.movement_actions < locations:
            raise RuleBroken(f"{p.name} has {p.movement_actions} movement actions left; moving {locations} locations takes {locations}", rule)
        start = self.track.location_of(participant_id)
        assert start is not None
        # A hazard or a standing barrier on the way stops the move in front of it; the
        # participant must negotiate it (or break the barrier down) to go on ("Hazards", "Barriers").
        blocking = next((o for o in map(self.obstacle_ahead, range(start, start + locations)) if o), None)
        if blocking is not None and blocking["from_location"] == start:
            raise RuleBroken(
                f"{blocking['name']} lies ahead of {p.name}: negotiate it (or break it down) to move on",
                f"{CHASES} \"{'Hazards' if blocking['kind'] == 'hazard' else 'Barriers'}\"",
            )
        moved = blocking["from_location"] - start if blocking else locations
        self.trigger_event(
            self.Moved,
            participant_id=participant_id,
            from_location=start,
            to_location=start + moved,
            movement_actions_spent=moved,
            movement_actions_left=p.movement_actions - moved,
        )
        for location in range(start + 1, start + moved + 1):
            self._record_caught_up(p, location)
        if blocking is not None:
            self.trigger_event(
                self.ObstacleReached, participant_id=p.id, obstacle_id=blocking["id"],
                location=start + moved, locations_not_moved=locations - moved,
            )
        if p.movement_actions == 0:
            self._end_turn(p, "no movement actions left")

    def delay(self, participant_id: str, until_after: str | None = None) -> None:
        """Delay acting until another participant has acted ("Actions in a Chase Round")."""
        p = self._require_turn(participant_id)
        rule = f"{CHASES} \"Actions in a Chase Round\""
        later = self.turn_order[self.turn_index + 1 :]
        if not later:
            raise RuleBroken(f"{p.name} is the last to act this round; there is no one to wait for", rule)
        if until_after is None:
            until_after = later[-1]
        if until_after not in self.participants:
            raise ParticipantNotFound(f"no participant {until_after} in this chase")
        if until_after not in later:
            raise RuleBroken(f"{self.participants[until_after].name} has already acted this round", rule)
        order = [pid for pid in self.turn_order if pid != participant_id]
        slot = order.index(until_after) + 1
        # Those already waiting on the same participant: the highest DEX takes priority.
        # Several waiting on the same participant: "the one with the highest DEX takes priority".
        while (
            slot < len(order)
            and self.waiting_on.get(order[slot]) == until_after
            and self.dex_of(self.participants[order[slot]]) >= self.dex_of(p)
        ):
            slot += 1
        order.insert(slot, participant_id)
        self.trigger_event(self.TurnDelayed, participant_id=participant_id, until_after=until_after, turn_order=order)

    def end_turn(self, participant_id: str) -> None:
        """End the turn; unused movement actions are lost, the next in DEX order acts."""
        p = self._require_turn(participant_id)
        self._end_turn(p, "ended by the player")

    def _begin_round(self, number: int) -> None:
        runners = [p for p in self.on_track() if p.status == "in_chase"]
        if not runners:
            return  # everyone is out of action: no one to move; the Keeper ends the chase
        slowest = min(p.chase_mov for p in runners)
        actions, owed = {}, {}
        for p in runners:
            actions[p.id], owed[p.id] = allotment(p.chase_mov, slowest, p.owed)
        aboard = [p for p in self.participants.values() if p.aboard and p.status == "in_chase" and p.seat == "passenger"]
        for p in aboard:
            actions[p.id], owed[p.id] = 0, 0
        order = dex_order(
            (p.id, self.dex_of(p), self._combat_skill(p), p.joined) for p in runners + aboard
        )
        self.trigger_event(self.RoundBegan, round=number, turn_order=order, movement_actions=actions, owed=owed, slowest_mov=slowest)

    def _combat_skill(self, p: Participant) -> int:
        if p.kind == "vehicle":
            driver = self.driver_of(p.id)
            return driver.skills.get(p.driving_skill or "Drive Auto", 0) if driver else 0
        return p.combat_skill()

    def _end_turn(self, p: Participant, reason: str) -> None:
        self.trigger_event(self.TurnEnded, participant_id=p.id, movement_actions_unused=p.movement_actions, reason=reason)
        if self.turn_index >= len(self.turn_order):
            self.trigger_event(self.RoundEnded, round=self.round)
            self._begin_round(self.round + 1)

    def _record_caught_up(self, mover: Participant, location: int) -> None:
        for other_id in self.track.occupants(location):
            other = self.participants[other_id]
            if other.status != "in_chase" or other.role == mover.role:
                continue
            pursuer, quarry = (mover, other) if mover.role == "pursuer" else (other, mover)
            self.trigger_event(self.CaughtUp, pursuer_id=pursuer.id, quarry_id=quarry.id, location=location)

    def _require_turn(self, participant_id: str) -> Participant:
        p = self.participant(participant_id)
        rule = f"{CHASES} \"Dexterity and the Order of Movement\""
        self._require_not_ended()
        if self.phase != "running":
            raise RuleBroken("the chase has not been cut to yet", f"{CHASES} \"Cut to the chase\"")
        if p.status != "in_chase":
            raise RuleBroken(f"{p.name} is not in the chase ({p.status})", rule)
        if self.whose_turn != participant_id:
            current = self.participants[self.whose_turn].name if self.whose_turn else "no one"
            raise RuleBroken(f"it is {current}'s turn, not {p.name}'s (highest DEX acts first)", rule)
        mishap = self.mishaps.get(participant_id)
        if mishap is not None:
            raise RuleBroken(f"the Keeper rules on {p.name}'s mishap ({mishap['cause']}) before {p.name} acts on", f"{CHASES} \"Hazards\"")
        return p
