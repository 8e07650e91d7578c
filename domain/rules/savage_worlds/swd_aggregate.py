"""The Savage Worlds Deluxe action-card chase aggregate.

swd-chases.txt. The chase lasts a number of rounds ("Chase length": five by default, or without
end). Each round every participant (a character on their own, or a vehicle whose driver rolls)
makes a maneuver roll and earns an Action card per success and raise, keeping one ("Get an Action
card"); when all have rolled, the cards act high to low ("Resolve Actions"): a Shaken participant
first tries to recover, a Club brings a Complication, a higher card has Advantage to attack
(swd_actions.py). Participants without a card act on nothing, and only try to recover from
Shaken at the end of the round. The chase ends on a capture, or an escape: time running out, the
chaser out of the chase ("Continue until the chase ends").
"""
from __future__ import annotations

from typing import Any

from domain.recorded_chase import RecordedChase
from domain.rules.savage_worlds import savage_events as ev
from domain.rules.savage_worlds import swd_actions, swd_follow_ups
from domain.rules.savage_worlds import swd_events as dev
from domain.rules.savage_worlds import swade_events as sev
from domain.rules.savage_worlds.cards import card
from domain.rules.savage_worlds.errors import SWD, RuleBroken, whole
from domain.rules.savage_worlds.savage_base import SavageChase
from domain.rules.savage_worlds.savage_decks import DeckDice, deck_mode
from domain.rules.savage_worlds.swd_chase import ENDS, LENGTH, RESOLVE, chase_length, complication, complication_due, resolution_order, time_ran_out


class SwdChase(SavageChase):
    """A Savage Worlds Deluxe chase."""

    TOPIC = "swd:Chase"
    SYSTEM = "swd"
    RULES = SWD
    SHAKEN_AGAIN_WOUNDS = True  # Savage Worlds Deluxe core book, "Damage": Shaken twice is a Wound

    class Created(RecordedChase.Created):
        TOPIC = "swd:Chase.Created"

    # The record's own events (DESIGN.md 5 and 6), with this system's stable topics.
    class Undone(RecordedChase.Undone):
        TOPIC = "swd:Chase.Undone"

    class Rewound(RecordedChase.Rewound):
        TOPIC = "swd:Chase.Rewound"

    class Redone(RecordedChase.Redone):
        TOPIC = "swd:Chase.Redone"

    class UndoRequested(RecordedChase.UndoRequested):
        TOPIC = "swd:Chase.UndoRequested"

    class UndoRequestAnswered(RecordedChase.UndoRequestAnswered):
        TOPIC = "swd:Chase.UndoRequestAnswered"

    class SeedRevealed(RecordedChase.SeedRevealed):
        TOPIC = "swd:Chase.SeedRevealed"

    class SeedCommitted(RecordedChase.SeedCommitted):
        TOPIC = "swd:Chase.SeedCommitted"

    class EntropyContributed(RecordedChase.EntropyContributed):
        TOPIC = "swd:Chase.EntropyContributed"

    Event = RecordedChase.Event

    # The Savage Worlds events (savage_events.py), with this system's topics.
    class ParticipantAdded(ev.ParticipantAdded):
        TOPIC = "swd:Chase.ParticipantAdded"

    class ChaseBegan(ev.ChaseBegan):
        TOPIC = "swd:Chase.ChaseBegan"

    class DeckShuffled(ev.DeckShuffled):
        TOPIC = "swd:Chase.DeckShuffled"

    class ActionCardDealt(ev.ActionCardDealt):
        TOPIC = "swd:Chase.ActionCardDealt"

    class CardsDiscarded(ev.CardsDiscarded):
        TOPIC = "swd:Chase.CardsDiscarded"

    class TraitRolled(ev.TraitRolled):
        TOPIC = "swd:Chase.TraitRolled"

    class DamageRolled(ev.DamageRolled):
        TOPIC = "swd:Chase.DamageRolled"

    class TableRolled(ev.TableRolled):
        TOPIC = "swd:Chase.TableRolled"

    class ConditionsChanged(ev.ConditionsChanged):
        TOPIC = "swd:Chase.ConditionsChanged"

    class CharacterDamaged(ev.CharacterDamaged):
        TOPIC = "swd:Chase.CharacterDamaged"

    class VehicleDamaged(ev.VehicleDamaged):
        TOPIC = "swd:Chase.VehicleDamaged"

    class StatusChanged(ev.StatusChanged):
        TOPIC = "swd:Chase.StatusChanged"

    class FollowUpRequired(ev.FollowUpRequired):
        TOPIC = "swd:Chase.FollowUpRequired"

    class FollowUpResolved(ev.FollowUpResolved):
        TOPIC = "swd:Chase.FollowUpResolved"

    class RoundBegan(ev.RoundBegan):
        TOPIC = "swd:Chase.RoundBegan"

    class TurnOrderSet(ev.TurnOrderSet):
        TOPIC = "swd:Chase.TurnOrderSet"

    class TurnBegan(ev.TurnBegan):
        TOPIC = "swd:Chase.TurnBegan"

    class BenniesChanged(ev.BenniesChanged):
        TOPIC = "swd:Chase.BenniesChanged"

    class DamageSoaked(ev.DamageSoaked):
        TOPIC = "swd:Chase.DamageSoaked"

    class ActionTaken(ev.ActionTaken):
        TOPIC = "swd:Chase.ActionTaken"

    class TurnEnded(ev.TurnEnded):
        TOPIC = "swd:Chase.TurnEnded"

    class RoundEnded(ev.RoundEnded):
        TOPIC = "swd:Chase.RoundEnded"

    class ChaseEnded(RecordedChase.ChaseEnded):
        TOPIC = "swd:Chase.ChaseEnded"

    # The Deluxe chase's own events (swd_events.py).
    class CardsEarned(dev.CardsEarned):
        TOPIC = "swd:Chase.CardsEarned"

    class ActionCardKept(dev.ActionCardKept):
        TOPIC = "swd:Chase.ActionCardKept"

    class CooperationCounted(dev.CooperationCounted):
        TOPIC = "swd:Chase.CooperationCounted"

    class AttackBarred(dev.AttackBarred):
        TOPIC = "swd:Chase.AttackBarred"

    class AttackBarLifted(dev.AttackBarLifted):
        TOPIC = "swd:Chase.AttackBarLifted"

    class ComplicationFaced(dev.ComplicationFaced):
        TOPIC = "swd:Chase.ComplicationFaced"

    class RecoveriesCalled(dev.RecoveriesCalled):
        TOPIC = "swd:Chase.RecoveriesCalled"

    class WentOutOfControl(sev.WentOutOfControl):
        TOPIC = "swd:Chase.WentOutOfControl"

    # The procedures (functions taking the chase, each module's Protocol naming what it uses),
    # bound as methods. The round's rolls and actions (swd_actions.py):
    maneuver = swd_actions.maneuver
    cooperate = swd_actions.cooperate
    attack_foe = swd_actions.attack_foe
    force = swd_actions.force
    obstacle_hit = swd_actions.obstacle_hit
    damage_vehicle = swd_actions.damage_vehicle  # this system's rule (savage_rolls.apply_damage)
    resolve = swd_follow_ups.resolve  # what the rules call for next (swd_follow_ups.py)
    became_shaken = swd_follow_ups.became_shaken  # an Out-of-Control roll (swd_out_of_control.py)
    recovered_by_benny = swd_follow_ups.recovered_by_benny  # the bar of "stayed Shaken" lifted

    def __init__(self, name: str, dice: str, seed_commitment: str) -> None:
        super().__init__(name, dice, seed_commitment)
        self.maneuvered: dict[str, int] = {}  # unit -> Action cards its maneuver roll earned, this round
        self.cooperative: dict[str, dict[str, Any]] = {}  # unit -> {"bonus", "helpers"}, this round
        self.barred: dict[str, str] = {}  # participant -> why they may not attack this round

    def begin_round_state(self, round_number: int) -> None:
        super().begin_round_state(round_number)
        self.maneuvered = {}
        self.cooperative = {}
        self.barred = {}

    # -- set-up ----------------------------------------------------------------------------

    def begin(self, length: int | None = 5, *, deck: str | None = None, constant: int = 0, deck_dice: DeckDice | None = None) -> None:
        """The chase length (rounds; None: without end), the deck, the GM's constant modifier
        ("Constant chase modifiers": Difficult Terrain -2, say); round 1 begins."""
        self._require_phase("setup", "the chase has already begun")
        length = chase_length(length)
        deck = deck_mode(deck, self.dice)
        whole("constant", constant)
        units = self.units(in_chase=False)
        if not {"chaser", "quarry"} <= {u.role for u in units}:
            raise RuleBroken("a chase needs a chaser and a quarry", f"{SWD} \"Resolving a Chase\"")
        for unit in units:
            if unit.is_vehicle:
                self.operator(unit.id)
        self.trigger_event(self.ChaseBegan, settings={"length": length, "deck": deck, "constant": constant})
        self.shuffle("action", "set-up: the Action deck", deck_dice)
        self.trigger_event(self.RoundBegan, round=1)

    # -- the round -------------------------------------------------------------------------

    def continue_round(self, deck_dice: DeckDice | None) -> None:
        """Move the round on as far as it goes without a command: the resolution once everyone
        has maneuvered, the next turn, the end of the round."""
        if self.phase != "running" or self.pending:
            return
        if self.stage == "maneuvering":
            if any(u.id not in self.maneuvered for u in self.units()):
                return
            held = {u.id: card(self.action_cards[u.id][0]) for u in self.units() if len(self.action_cards.get(u.id, [])) == 1}
            self.trigger_event(self.TurnOrderSet, turn_order=resolution_order(held))
        if self.stage == "resolving":
            self.advance(deck_dice)
        elif self.stage == "recovering":
            self.end_of_round(deck_dice)

    def advance(self, deck_dice: DeckDice | None) -> None:
        while self.phase == "running" and self.whose_turn is not None:
            unit_id = self.whose_turn
            if self.turn.get("unit") == unit_id:
                return  # its turn is under way
            if not self.participants[unit_id].in_chase:
                self.trigger_event(self.TurnEnded, participant_id=unit_id, reason="out of the chase")
                continue
            self.trigger_event(self.TurnBegan, participant_id=unit_id)
            self.start_of_turn(unit_id)
            return
        if self.phase == "running" and self.stage == "resolving":
            self.end_of_round(deck_dice)

    def start_of_turn(self, unit_id: str) -> None:
        """"Resolve Actions": a Shaken participant first tries to recover; a Club's Complication."""
        for p in self.members(unit_id):
            if p.conditions.shaken and p.in_chase:
                self.require("recover from shaken", p.id, when="turn", rule="Resolve Actions: recover from Shaken first")
        action_card = card(self.action_cards[unit_id][0])
        if not complication_due(action_card):
            return
        row = complication(action_card)
        operator = self.operator(unit_id)
        if row.modifier is None:  # Distraction: no roll, no attack this round
            self.trigger_event(
                self.ComplicationFaced, participant_id=unit_id, card=action_card.code,
                complication={"name": row.name, "failure": row.failure, "source": row.source}, result="Distracted: cannot attack this round",
            )
            self.trigger_event(self.AttackBarred, participant_id=operator.id, reason=f"Complication: {row.name}")
            return
        self.require("complication", unit_id, card=action_card.code, name=row.name, modifier=row.modifier, rule=f"Resolve Actions: a Club ({row.name})")

    def end_of_round(self, deck_dice: DeckDice | None) -> None:
        """Those without a card try to recover from Shaken at the end of the round; then it ends,
        and the quarry escapes if time has run out."""
        if self.stage == "resolving":
            waiting = [
                p.id for u in self.units() if not self.action_cards.get(u.id) for p in self.members(u.id)
                if p.conditions.shaken and p.in_chase
            ]
            if waiting:
                self.trigger_event(self.RecoveriesCalled, participant_ids=waiting)
                for pid in waiting:
                    self.require("recover from shaken", pid, when="end of round", rule="Resolve Actions: no Action card, recover at the end of the round")
                return
        if self.pending or self.phase != "running":
            return
        self.trigger_event(self.RoundEnded, round=self.round)
        self.discard_action_cards("end of the round")
        if time_ran_out(self.round, self.settings["length"]):
            self.trigger_event(self.ChaseEnded, outcome="escaped", note=f"time ran out after {self.round} rounds ({LENGTH}; {ENDS})")
            return
        self.reshuffle_if_due(deck_dice)
        self.trigger_event(self.RoundBegan, round=self.round + 1)

    def end_turn(self, participant_id: str, deck_dice: DeckDice | None = None) -> None:
        unit = self.acting_unit(participant_id, "end the turn", in_chase=False)  # also once it left the chase
        self.trigger_event(self.TurnEnded, participant_id=unit.id, reason="done" if unit.in_chase else f"{unit.status}")
        self.advance(deck_dice)

    # -- guards ----------------------------------------------------------------------------

    def acting_unit(self, participant_id: str, what: str, in_chase: bool = True) -> Any:
        self._require_running()
        self._require_nothing_pending()
        unit_id = self.unit_of(participant_id)
        if self.stage != "resolving" or self.whose_turn != unit_id:
            whose = self.participants[self.whose_turn].name + "'s" if self.whose_turn else "no one's: the round is in its maneuver rolls"
            raise RuleBroken(f"{self.participants[unit_id].name} cannot {what}: it is {whose} turn (participants without an Action card take no actions)", RESOLVE)
        return self._require_in_chase(unit_id) if in_chase else self.participants[unit_id]
