"""What the two Savage Worlds chase aggregates share: participants, units, follow-ups, the end.

SwadeChase (swade_aggregate.py) and SwdChase (swd_aggregate.py) subclass SavageChase and declare
its events (savage_events.py) with their own topics. The deck, the rolls and damage are procedures
of their own modules (savage_decks.py, savage_rolls.py), functions taking the chase, bound here as
its methods. A *follow-up* is what the rules call for next, such as an Out
of Control roll after a failed control roll or the card to keep of several dealt: it is recorded
as an event, shown in the views, and resolved before any other game command is taken, so that
the record reads in the order the table played.
"""
from __future__ import annotations

from typing import Any

from domain.errors import NotFound
from domain.recorded_chase import RecordedChase
from domain.rules.savage_worlds import bennies, breaking, gm_options, recovery, savage_decks, savage_rolls
from domain.rules.savage_worlds import savage_events as ev
from domain.rules.savage_worlds.errors import InvalidValue, RuleBroken
from domain.rules.savage_worlds.participants import SavageParticipant, new_participant, validate
from domain.track import Track

OUTCOMES = ("captured", "escaped", "abandoned", "both stopped")
OUTCOME_ALIASES = {"caught": "captured"}  # the Call of Cthulhu word, accepted by the shared /end


class ParticipantNotFound(NotFound):
    """No such participant in this chase."""


class SavageChase(RecordedChase):
    """Base of the Savage Worlds chase aggregates (no topic of its own: never stored as such)."""

    SYSTEM = "savage_worlds"
    RULES = ""  # the rules text, for refusals
    SHAKEN_AGAIN_WOUNDS = False  # each system says (savage_rolls.RollingChase)
    INJURY_TABLE = False

    # The events both systems record: each system re-declares every one with its own topic.
    ParticipantAdded = ev.ParticipantAdded
    ChaseBegan = ev.ChaseBegan
    DeckShuffled = ev.DeckShuffled
    ActionCardDealt = ev.ActionCardDealt
    CardsDiscarded = ev.CardsDiscarded
    TraitRolled = ev.TraitRolled
    DamageRolled = ev.DamageRolled
    TableRolled = ev.TableRolled
    ConditionsChanged = ev.ConditionsChanged
    CharacterDamaged = ev.CharacterDamaged
    VehicleDamaged = ev.VehicleDamaged
    StatusChanged = ev.StatusChanged
    FollowUpRequired = ev.FollowUpRequired
    FollowUpResolved = ev.FollowUpResolved
    RoundBegan = ev.RoundBegan
    TurnOrderSet = ev.TurnOrderSet
    TurnBegan = ev.TurnBegan
    ActionTaken = ev.ActionTaken
    BenniesChanged = ev.BenniesChanged
    DamageSoaked = ev.DamageSoaked
    TurnEnded = ev.TurnEnded
    RoundEnded = ev.RoundEnded

    # Rolls, damage and conditions (savage_rolls.py), bound as methods: chase.roll_trait(...) is
    # savage_rolls.roll_trait(chase, ...).
    holds_joker = savage_rolls.holds_joker
    maneuver_die = staticmethod(savage_rolls.maneuver_die)
    condition_modifiers = staticmethod(savage_rolls.condition_modifiers)
    roll_trait = savage_rolls.roll_trait
    roll_damage = savage_rolls.roll_damage
    roll_table = savage_rolls.roll_table
    change_conditions = savage_rolls.change_conditions
    during_own_turn = savage_rolls.during_own_turn
    set_conditions = savage_rolls.set_conditions
    roll_any_trait = savage_rolls.roll_any_trait
    recover = savage_rolls.recover
    recover_from_shaken = savage_rolls.recover_from_shaken
    damage = gm_options.damage_after_attack  # savage_rolls.damage with the attack's bonuses carried
    apply_damage = savage_rolls.apply_damage
    # The decks (savage_decks.py).
    deck = savage_decks.deck_of
    server_deck = property(savage_decks.server_deck)
    shuffle = savage_decks.shuffle
    draw_card = savage_decks.draw_card
    discard_action_cards = savage_decks.discard_action_cards
    reshuffle_if_due = savage_decks.reshuffle_if_due
    # Bennies (bennies.py); drawing a new Action Card is the Adventure Edition's (swade_aggregate.py).
    test_foe = gm_options.test_foe  # Tests and Tricks (gm_options.py)
    recover_from_stunned = recovery.recover_from_stunned  # Stunned and Breaking Free (recovery.py)
    break_free = recovery.break_free
    break_object = breaking.break_object  # Breaking Things (breaking.py)
    give_bennies = bennies.give
    reroll_with_benny = bennies.reroll
    soak_with_benny = bennies.soak

    def __init__(self, name: str, dice: str, seed_commitment: str) -> None:
        super().__init__(name, dice, seed_commitment)
        self.settings: dict[str, Any] = {}
        self.participants: dict[str, SavageParticipant] = {}
        self.decks: dict[str, dict[str, Any]] = {}
        self.action_cards: dict[str, list[str]] = {}
        self.round = 0
        self.round_over = False
        self.stage = ""  # this round: "maneuvering" (Deluxe), "resolving" (turns), "over"
        self.turn_order: list[str] = []
        self.turn_index = 0
        self.turn: dict[str, Any] = {}
        self.pending: list[dict[str, Any]] = []
        self.follow_ups_made = 0
        self.vehicle_log: dict[str, list[dict[str, Any]]] = {}  # vehicle -> damage, Out of Control, Critical Hits
        self.track = Track()

    # -- state changes the events make (deterministic) ---------------------------------------

    def set_status(self, participant_id: str, status: str) -> None:
        """The unit's status and that of everyone with it; off the row unless in the chase."""
        p = self.participants[participant_id]
        for member in [p] if p.aboard else self.members(participant_id):
            member.status = status
        if status != "in_chase":
            self.track.remove(participant_id)

    def begin_round_state(self, round_number: int) -> None:
        self.round = round_number
        self.round_over = False
        self.stage = "maneuvering"
        self.turn_order = []
        self.turn_index = 0
        self.turn = {}
        # A unit on Hold keeps its card into the new round ("Hold", hold.py).
        self.action_cards = {pid: cards for pid, cards in self.action_cards.items() if self.participants[pid].on_hold}

    def begin_turn_state(self, unit_id: str) -> None:
        self.turn = {"unit": unit_id, "changed_position": False, "dropped_back": False, "bumped": []}

    # -- queries ---------------------------------------------------------------------------

    def participant(self, participant_id: str) -> SavageParticipant:
        try:
            return self.participants[participant_id]
        except (KeyError, TypeError):
            raise ParticipantNotFound(f"no participant {participant_id} in this chase") from None

    def unit_of(self, participant_id: str) -> str:
        p = self.participant(participant_id)
        return p.with_id or p.id

    def members(self, unit_id: str) -> list[SavageParticipant]:
        """The unit and everyone riding in it or following it."""
        return [p for p in self.participants.values() if p.id == unit_id or p.with_id == unit_id]

    def occupants(self, unit_id: str) -> list[SavageParticipant]:
        return [p for p in self.participants.values() if p.with_id == unit_id]

    def operator(self, unit_id: str) -> SavageParticipant:
        """Who rolls the unit's maneuvering rolls: a vehicle's driver, or the group's leader."""
        unit = self.participant(unit_id)
        if not unit.is_vehicle:
            return unit
        driver = next((p for p in self.occupants(unit_id) if p.seat == "driver"), None)
        if driver is None:
            raise RuleBroken(f"{unit.name} has no driver to make its maneuvering rolls", f"{self.RULES} (the driver makes the rolls)")
        return driver

    def units(self, *, in_chase: bool = True) -> list[SavageParticipant]:
        return sorted(
            (p for p in self.participants.values() if not p.aboard and (p.in_chase or not in_chase)), key=lambda p: p.joined
        )

    def foes(self, unit_id: str) -> list[SavageParticipant]:
        role = self.participant(unit_id).role
        return [u for u in self.units() if u.role != role]

    @property
    def whose_turn(self) -> str | None:
        if self.phase != "running" or self.turn_index >= len(self.turn_order):
            return None
        return self.turn_order[self.turn_index]

    # -- set-up ----------------------------------------------------------------------------

    def add_participant(self, participant_id: str, spec: dict[str, Any]) -> None:
        """Add a character or vehicle, or someone riding in a vehicle or following a leader."""
        self._require_phase("setup", "participants join before the chase begins")
        if not isinstance(spec, dict):
            raise InvalidValue("participant", "must be an object of participant fields")
        checked = validate(spec, self.participants)
        p = new_participant(participant_id, checked, len(self.participants))
        self.trigger_event(self.ParticipantAdded, participant=p.as_dict())

    def end(self, outcome: str, note: str = "") -> None:
        """The GM ends the chase: the quarry captured, escaped, or the chase abandoned."""
        outcome = OUTCOME_ALIASES.get(outcome, outcome)
        if outcome not in OUTCOMES:
            raise InvalidValue("outcome", f"must be one of {', '.join(OUTCOMES)}")
        self._require_running()
        self.trigger_event(self.ChaseEnded, outcome=outcome, note=note or "")

    def recovered_by_benny(self, participant_id: str) -> None:
        """What a system's rules call for when a benny's reroll turns a failed recovery from
        Shaken into a success: nothing more in the Adventure Edition; the Deluxe chase lifts the
        attack bar of "stayed Shaken" (swd_follow_ups.py)."""

    def became_shaken(self, participant_id: str, reason: str) -> None:
        """What a system's rules call for when someone becomes Shaken: nothing in the Adventure
        Edition; the Deluxe chase overrides it (an Out-of-Control roll, swd_follow_ups.py)."""

    def after_status_change(self) -> None:
        """The chase ends when one side has no unit left in it (the GM may end it sooner):
        swd-chases.txt "Continue until the chase ends"; swade-chases-reference.txt "FLEE"."""
        if self.phase != "running":
            return
        units = self.units()
        quarries = [u for u in units if u.role == "quarry"]
        chasers = [u for u in units if u.role == "chaser"]
        if quarries and chasers:
            return
        if not quarries and not chasers:
            outcome, note = "both stopped", "no one is left in the chase"
        elif not quarries:
            fled = any(u.status == "escaped" for u in self.units(in_chase=False) if u.role == "quarry")
            outcome, note = ("escaped", "every quarry escaped or is out") if fled else ("captured", "no quarry is left in the chase")
        else:
            outcome, note = "escaped", "no chaser is left in the chase"
        self.trigger_event(self.ChaseEnded, outcome=outcome, note=note)

    def recorded_rolls(self) -> list[dict[str, Any]]:
        """The rolls of the events not yet saved: what the command being run rolled."""
        return [e.roll for e in self._pending_events if isinstance(getattr(e, "roll", None), dict)]

    # -- follow-ups ------------------------------------------------------------------------

    def require(self, kind: str, participant_id: str | None, **details: Any) -> None:
        follow_up = {"id": self.follow_ups_made + 1, "kind": kind, "participant_id": participant_id, **details}
        self.trigger_event(self.FollowUpRequired, follow_up=follow_up)

    def next_follow_up(self) -> dict[str, Any]:
        self._require_running()
        if not self.pending:
            raise RuleBroken("nothing is waiting to be resolved", f"{self.RULES}")
        return self.pending[0]

    def resolved(self, follow_up: dict[str, Any], outcome: str) -> None:
        self.trigger_event(self.FollowUpResolved, follow_up_id=follow_up["id"], outcome=outcome)

    def _require_nothing_pending(self) -> None:
        if self.pending:
            head = self.pending[0]
            who = self.participants[head["participant_id"]].name if head.get("participant_id") in self.participants else "the GM"
            raise RuleBroken(f"first resolve what is waiting: {head['kind']} for {who}", f"{self.RULES} ({head.get('rule', 'the chase waits for it')})")

    # -- guards ----------------------------------------------------------------------------

    def _require_phase(self, phase: str, message: str) -> None:
        if self.phase == "ended":
            raise RuleBroken("the chase has ended", self.RULES)
        if self.phase != phase:
            raise RuleBroken(message, self.RULES)

    def _require_running(self) -> None:
        self._require_phase("running", "the chase has not begun: add the participants, then begin it")

    def _require_in_chase(self, participant_id: str) -> SavageParticipant:
        p = self.participant(participant_id)
        if not p.in_chase:
            raise RuleBroken(f"{p.name} is not in the chase ({p.status})", self.RULES)
        return p
