"""The Savage Worlds Adventure Edition chase aggregate: the row of Chase Cards and the maneuvers.

swade-chases-reference.txt. Set-up ("SETUP"): the GM breaks the participants into units (a
vehicle with those aboard, or a character with the group following them), chooses the type of
chase (its Range Increment), deals the row of Chase Cards from an extra deck (nine by default,
more as needed) and places each unit on a card. Each round every unit is dealt an Action card and
the units act high to low (ties in suit order, cards.py); a unit whose Action card is a Club first
faces a Complication ("COMPLICATIONS"). On its turn a unit maneuvers (swade_maneuvers.py); what the
rules call for next (Bumps, critical failures, Out of Control, Critical Hits, Ram damage) are
follow-ups (swade_follow_ups.py). Row positions count from the rear (0) to the front.
"""
from __future__ import annotations

from typing import Any, ClassVar

from domain.recorded_chase import RecordedChase
from domain.rules.savage_worlds import savage_events as ev
from domain.rules.savage_worlds import swade_events as sev
from domain.rules.savage_worlds import bennies, hold, swade_follow_ups, swade_maneuvers, swade_turns, swade_units
from domain.rules.savage_worlds.errors import SWADE, InvalidValue, RuleBroken, whole
from domain.rules.savage_worlds.savage_base import SavageChase
from domain.rules.savage_worlds.savage_decks import DeckDice, deck_mode
from domain.rules.savage_worlds.swade_tables import DEFAULT_CHASE_CARDS, range_increment

SETUP = f"{SWADE} \"SETUP\""
MAX_ROW = 54  # the extra deck holds 54 cards


class SwadeChase(SavageChase):
    """A Savage Worlds Adventure Edition chase."""

    TOPIC = "swade:Chase"
    SYSTEM = "swade"
    RULES = SWADE
    SHAKEN_AGAIN_WOUNDS = False  # SWADE: Shaken twice is no Wound (Savage Worlds Deluxe: it is)
    INJURY_TABLE = True  # "INJURY TABLE" when Incapacitated (injuries.py)

    class Created(RecordedChase.Created):
        TOPIC = "swade:Chase.Created"

    # The record's own events (DESIGN.md 5 and 6), with this system's stable topics.
    class Undone(RecordedChase.Undone):
        TOPIC = "swade:Chase.Undone"

    class Rewound(RecordedChase.Rewound):
        TOPIC = "swade:Chase.Rewound"

    class Redone(RecordedChase.Redone):
        TOPIC = "swade:Chase.Redone"

    class UndoRequested(RecordedChase.UndoRequested):
        TOPIC = "swade:Chase.UndoRequested"

    class UndoRequestAnswered(RecordedChase.UndoRequestAnswered):
        TOPIC = "swade:Chase.UndoRequestAnswered"

    class SeedRevealed(RecordedChase.SeedRevealed):
        TOPIC = "swade:Chase.SeedRevealed"

    class SeedCommitted(RecordedChase.SeedCommitted):
        TOPIC = "swade:Chase.SeedCommitted"

    class EntropyContributed(RecordedChase.EntropyContributed):
        TOPIC = "swade:Chase.EntropyContributed"

    Event = RecordedChase.Event

    # The Savage Worlds events (savage_events.py), with this system's topics.
    class ParticipantAdded(ev.ParticipantAdded):
        TOPIC = "swade:Chase.ParticipantAdded"

    class ChaseBegan(ev.ChaseBegan):
        TOPIC = "swade:Chase.ChaseBegan"

    class DeckShuffled(ev.DeckShuffled):
        TOPIC = "swade:Chase.DeckShuffled"

    class ActionCardDealt(ev.ActionCardDealt):
        TOPIC = "swade:Chase.ActionCardDealt"

    class CardsDiscarded(ev.CardsDiscarded):
        TOPIC = "swade:Chase.CardsDiscarded"

    class TraitRolled(ev.TraitRolled):
        TOPIC = "swade:Chase.TraitRolled"

    class DamageRolled(ev.DamageRolled):
        TOPIC = "swade:Chase.DamageRolled"

    class TableRolled(ev.TableRolled):
        TOPIC = "swade:Chase.TableRolled"

    class ConditionsChanged(ev.ConditionsChanged):
        TOPIC = "swade:Chase.ConditionsChanged"

    class CharacterDamaged(ev.CharacterDamaged):
        TOPIC = "swade:Chase.CharacterDamaged"

    class VehicleDamaged(ev.VehicleDamaged):
        TOPIC = "swade:Chase.VehicleDamaged"

    class StatusChanged(ev.StatusChanged):
        TOPIC = "swade:Chase.StatusChanged"

    class FollowUpRequired(ev.FollowUpRequired):
        TOPIC = "swade:Chase.FollowUpRequired"

    class FollowUpResolved(ev.FollowUpResolved):
        TOPIC = "swade:Chase.FollowUpResolved"

    class RoundBegan(ev.RoundBegan):
        TOPIC = "swade:Chase.RoundBegan"

    class TurnOrderSet(ev.TurnOrderSet):
        TOPIC = "swade:Chase.TurnOrderSet"

    class TurnBegan(ev.TurnBegan):
        TOPIC = "swade:Chase.TurnBegan"

    class BenniesChanged(ev.BenniesChanged):
        TOPIC = "swade:Chase.BenniesChanged"

    class DamageSoaked(ev.DamageSoaked):
        TOPIC = "swade:Chase.DamageSoaked"

    class InjuryTaken(ev.InjuryTaken):
        TOPIC = "swade:Chase.InjuryTaken"

    class TurnOrderChanged(ev.TurnOrderChanged):
        TOPIC = "swade:Chase.TurnOrderChanged"

    class ActionTaken(ev.ActionTaken):
        TOPIC = "swade:Chase.ActionTaken"

    class TurnEnded(ev.TurnEnded):
        TOPIC = "swade:Chase.TurnEnded"

    class RoundEnded(ev.RoundEnded):
        TOPIC = "swade:Chase.RoundEnded"

    class ChaseEnded(RecordedChase.ChaseEnded):
        TOPIC = "swade:Chase.ChaseEnded"

    # The Adventure Edition's own events (swade_events.py).
    class ChaseCardDealt(sev.ChaseCardDealt):
        TOPIC = "swade:Chase.ChaseCardDealt"

    class ParticipantPlaced(sev.ParticipantPlaced):
        TOPIC = "swade:Chase.ParticipantPlaced"

    class ManeuverTaken(sev.ManeuverTaken):
        TOPIC = "swade:Chase.ManeuverTaken"

    class Moved(sev.Moved):
        TOPIC = "swade:Chase.Moved"

    class TurnLost(sev.TurnLost):
        TOPIC = "swade:Chase.TurnLost"

    class MountFatigued(sev.MountFatigued):
        TOPIC = "swade:Chase.MountFatigued"

    class WentOutOfControl(sev.WentOutOfControl):
        TOPIC = "swade:Chase.WentOutOfControl"

    class CriticalHitTaken(sev.CriticalHitTaken):
        TOPIC = "swade:Chase.CriticalHitTaken"

    class Rammed(sev.Rammed):
        TOPIC = "swade:Chase.Rammed"

    class WentOnHold(sev.WentOnHold):
        TOPIC = "swade:Chase.WentOnHold"

    class CameOffHold(sev.CameOffHold):
        TOPIC = "swade:Chase.CameOffHold"

    class TurnResumed(sev.TurnResumed):
        TOPIC = "swade:Chase.TurnResumed"

    # The procedures (functions taking the chase, each module's Protocol naming what it uses),
    # bound as methods. Maneuvers and attacks (swade_maneuvers.py):
    change_position = swade_maneuvers.change_position
    drop_back = swade_maneuvers.drop_back
    evade = swade_maneuvers.evade
    hold_steady = swade_maneuvers.hold_steady
    flee = swade_maneuvers.flee
    force = swade_maneuvers.force
    ram = swade_maneuvers.ram
    attack_foe = swade_maneuvers.attack_foe
    # Follow-ups, and what raises them (swade_follow_ups.py); damage_vehicle is this system's rule.
    resolve = swade_follow_ups.resolve
    critical_failure = swade_follow_ups.critical_failure
    damage_vehicle = swade_follow_ups.damage_vehicle
    forfeit_turn = swade_follow_ups.forfeit_turn
    # A unit on the row (swade_units.py).
    position = swade_units.position
    maneuver_modifiers = swade_units.maneuver_modifiers
    maneuvering_roll = swade_units.maneuvering_roll
    require_free_to_act = swade_units.require_free_to_act
    move_unit = swade_units.move_unit
    closest_foe = swade_units.closest_foe
    fastest_rival = swade_units.fastest_rival
    rival_on_same_card = swade_units.rival_on_same_card
    new_action_card = bennies.new_action_card  # "DRAW A NEW ACTION CARD" (bennies.py)
    # Rounds and turns (swade_turns.py), Hold and interrupts (hold.py).
    deal_action_cards = swade_turns.deal_action_cards
    end_turn = swade_turns.end_turn
    advance = swade_turns.advance
    acting_unit = swade_turns.acting_unit
    go_on_hold = hold.go_on_hold
    act_from_hold = hold.act_from_hold

    # A turn cut into by a unit coming off Hold, until it resumes (hold.py). Replaced, never
    # changed in place; the class value serves a chase saved before Hold existed.
    suspended_turns: ClassVar[dict[str, dict[str, Any]]] = {}

    def __init__(self, name: str, dice: str, seed_commitment: str) -> None:
        super().__init__(name, dice, seed_commitment)
        self.row: list[str] = []  # the Chase Cards, rear (0) to front
        self.evading: dict[str, int] = {}  # unit -> Evade penalty until the start of its next turn
        self.evaded_round: dict[str, int] = {}
        self.holding_steady: list[str] = []
        self.lose_turn: list[str] = []

    def begin_turn_state(self, unit_id: str) -> None:
        """Evade and Hold Steady last "until the start of" the unit's next turn ("MANEUVERS")."""
        super().begin_turn_state(unit_id)
        self.evading.pop(unit_id, None)
        self.holding_steady = [u for u in self.holding_steady if u != unit_id]
        if unit_id in self.lose_turn:
            self.lose_turn = [u for u in self.lose_turn if u != unit_id]
            self.turn["lost"] = True

    # -- set-up ----------------------------------------------------------------------------

    def begin(
        self,
        mode: str,
        placements: dict[str, int],
        *,
        chase_cards: int | list[str] = DEFAULT_CHASE_CARDS,
        linear: bool = True,
        deck: str | None = None,
        deck_dice: DeckDice | None = None,
    ) -> None:
        """"SETUP": the type of chase, the row of Chase Cards, where each unit starts."""
        self._require_phase("setup", "the chase has already begun")
        increment = range_increment(mode)
        deck = deck_mode(deck, self.dice)
        if not isinstance(linear, bool):
            raise InvalidValue("linear", "must be true or false")
        if deck == "server" and not isinstance(chase_cards, int):
            raise InvalidValue("chase_cards", "the server's deck deals the row: give how many Chase Cards (nine by default)")
        if deck == "table" and not isinstance(chase_cards, list):
            raise InvalidValue("chase_cards", "a physical deck: enter the Chase Cards dealt, in a row from the rear")
        count = len(chase_cards) if isinstance(chase_cards, list) else whole("chase_cards", chase_cards, 1)
        if not 1 <= count <= MAX_ROW:
            raise InvalidValue("chase_cards", f"a row of 1 to {MAX_ROW} Chase Cards")
        units = self.units(in_chase=False)
        if not {"chaser", "quarry"} <= {u.role for u in units}:
            raise RuleBroken("a chase needs at least one chaser and one quarry", SETUP)
        if not isinstance(placements, dict) or set(placements) != {u.id for u in units}:
            raise InvalidValue("placements", "place every unit (each vehicle, and each character not riding or following) on a Chase Card")
        for pid, position in placements.items():
            if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position < count:
                raise InvalidValue("placements", f"{self.participants[pid].name}: a Chase Card from 0 (rear) to {count - 1} (front)")
        for unit in units:
            if unit.is_vehicle:
                self.operator(unit.id)  # every vehicle has its driver
        self.trigger_event(self.ChaseBegan, settings={"mode": mode, "range_increment": increment, "linear": linear, "deck": deck})
        self.shuffle("chase", f"set-up: the extra deck of Chase Cards ({SETUP})", deck_dice)
        self.shuffle("action", "set-up: the Action deck", deck_dice)
        for i in range(count):
            entered = chase_cards[i] if isinstance(chase_cards, list) else None
            self.trigger_event(self.ChaseCardDealt, end="front", **self.draw_card("chase", deck_dice, entered))
        for unit in units:
            self.trigger_event(self.ParticipantPlaced, participant_id=unit.id, position=placements[unit.id])
