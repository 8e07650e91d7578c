"""The Call of Cthulhu 7e fight without a chase: an encounter aggregate (coc7e-combat.txt).

The combatants fight at one place in combat rounds (encounter_rounds.py); everything else is the
chase's: the participants, attacks, maneuvers, fire, reloading, wounds and healing, Keeper rolls,
delaying and ending turns, and the record every chase keeps (log, dice, undo, rewind, redo, seed).
Its log holds the chase's events under their own stable topics ("coc7e:Chase.AttackMade"), which
apply alike to either kind, beside its own ("coc7e:Encounter.FightBegan", encounter_events.py).
"""
from __future__ import annotations

from dataclasses import asdict
from typing import Any

from domain.recorded_chase import RecordedChase
from domain.rules.coc7e import chase_events, conflict_procedures, encounter_events, encounter_rounds, fire_procedures, wounds
from domain.rules.coc7e.chase import Chase
from domain.rules.coc7e.errors import InvalidCommand, RuleBroken
from domain.rules.coc7e.keeper_rolls import RollSources
from domain.rules.coc7e.participants import Participant, validate
from domain.track import Track

OUTCOMES = ("won", "lost", "fled", "abandoned")  # the Keeper's word on how the fight ended
NOT_A_CHASE = encounter_rounds.ORDER_OF_ATTACK
GOALS_RULE = 'coc7e-combat.txt "Fighting Maneuvers Require a Definite Goal"'


class Encounter(RecordedChase):
    """A fight without a chase: combatants, combat rounds in DEX order, attacks and wounds.

    It binds the chase's procedures and queries as its own (a function is a method when a class
    holds it): one copy of every rule, on either kind."""

    TOPIC = "coc7e:Encounter"
    SYSTEM = "coc7e-combat"

    class Created(RecordedChase.Created):
        TOPIC = "coc7e:Encounter.Created"

    # The record's own events (DESIGN.md 5 and 6), with this kind's stable topics.
    class Undone(RecordedChase.Undone):
        TOPIC = "coc7e:Encounter.Undone"

    class Rewound(RecordedChase.Rewound):
        TOPIC = "coc7e:Encounter.Rewound"

    class Redone(RecordedChase.Redone):
        TOPIC = "coc7e:Encounter.Redone"

    class UndoRequested(RecordedChase.UndoRequested):
        TOPIC = "coc7e:Encounter.UndoRequested"

    class UndoRequestAnswered(RecordedChase.UndoRequestAnswered):
        TOPIC = "coc7e:Encounter.UndoRequestAnswered"

    class SeedRevealed(RecordedChase.SeedRevealed):
        TOPIC = "coc7e:Encounter.SeedRevealed"

    class SeedCommitted(RecordedChase.SeedCommitted):
        TOPIC = "coc7e:Encounter.SeedCommitted"

    class EntropyContributed(RecordedChase.EntropyContributed):
        TOPIC = "coc7e:Encounter.EntropyContributed"

    class ChaseEnded(RecordedChase.ChaseEnded):
        TOPIC = "coc7e:Encounter.ChaseEnded"

    Event = RecordedChase.Event
    FightBegan = encounter_events.FightBegan
    FirstAttackSpent = encounter_events.FirstAttackSpent
    JoinedFight = encounter_events.JoinedFight
    FirearmReadied = encounter_events.FirearmReadied
    FledFight = encounter_events.FledFight

    begin_fight = encounter_rounds.begin_fight
    join_fight = encounter_rounds.join_fight
    ready_firearm = encounter_rounds.ready_firearm
    flee = encounter_rounds.flee
    plan_round = encounter_rounds.combat_round
    # The chase's queries, procedures and commands (chase.py binds them from their modules).
    participant, whose_turn, on_track, driver_of, dex_of = Chase.participant, Chase.whose_turn, Chase.on_track, Chase.driver_of, Chase.dex_of
    _require_phase, require_not_ended, check_add_participant = Chase._require_phase, Chase.require_not_ended, Chase.check_add_participant
    obstacle, obstacle_ahead = Chase.obstacle, Chase.obstacle_ahead  # none in a fight; the views ask
    delay, end_turn, roll_skill, roll_dice, reload, take_aim = Chase.delay, Chase.end_turn, Chase.roll_skill, Chase.roll_dice, Chase.reload, Chase.take_aim
    inflict, dying_roll, first_aid, medicine, recover = Chase.inflict, Chase.dying_roll, Chase.first_aid, Chase.medicine, Chase.recover
    rule_condition, mishap_roll, rule_consequences = Chase.rule_condition, Chase.mishap_roll, Chase.rule_consequences

    def __init__(self, name: str, dice: str, seed_commitment: str) -> None:
        super().__init__(name, dice, seed_commitment)
        # The state the chase's procedures use (as Chase.__init__); everyone stands at one place.
        self.participants: dict[str, Participant] = {}
        self.track = Track()
        self.round = 0
        self.turn_order: list[str] = []
        self.turn_index = 0
        self.waiting_on: dict[str, str] = {}
        self.caught_up: list[dict[str, Any]] = []
        self.slowest_mov: int | None = None
        self.location_names: dict[str, str] = {}
        self.obstacles: dict[str, dict[str, Any]] = {}
        self.mishaps: dict[str, dict[str, Any]] = {}
        self.build_losses: dict[str, list[dict[str, Any]]] = {}
        self.initiative = "dex"
        self.readied: list[str] = []
        self.initiative_levels: dict[str, str] = {}
        self.first_attack: dict[str, str] = {}

    def add_participant(self, participant_id: str, spec: dict[str, Any]) -> None:
        """Add a combatant; ``role`` (pursuer or quarry) may name its side, default pursuer. Added
        during the fight, they stand by until the Keeper brings them in (join_fight)."""
        if isinstance(spec, dict):
            if spec.get("kind") == "vehicle" or spec.get("vehicle_id") is not None:
                raise InvalidCommand("kind", "a fight without a chase has no vehicles: start a chase for them")
            if spec.get("hp") is not None and spec.get("con") is None:
                # A major wound calls at once for a CON roll: a combatant who can be wounded needs CON.
                raise InvalidCommand("con", f"a combatant with hit points needs CON: a major wound calls for a CON roll ({wounds.MAJOR_WOUND})")
            spec = {"role": "pursuer", **spec}
        if self.phase == "running":
            # Joining a fight in progress: added standing by, then brought in (join_fight).
            checked = validate(spec, {}, 0)
            checked.update(id=participant_id, joined=len(self.participants))
            self.trigger_event(chase_events.ParticipantAdded, participant=asdict(Participant(**checked)))
            return
        Chase.add_participant(self, participant_id, spec)

    def attack(self, attacker_id: str, target_id: str, dice: RollSources, **options: Any) -> dict[str, Any]:
        """conflict_procedures.attack, with a critical DEX roll's bonus die on the first attack."""
        if options.get("method") == "maneuver" and options.get("goal") is None:
            raise InvalidCommand("goal", f"a fight without a chase has no mishaps: name the maneuver's goal ({GOALS_RULE})")
        if self.whose_turn == attacker_id:
            options["bonus_dice"] = options.get("bonus_dice", 0) + encounter_rounds.first_attack_dice(self, attacker_id)
        return conflict_procedures.attack(self, attacker_id, target_id, dice, **options)

    def fire(self, attacker_id: str, dice: RollSources, **options: Any) -> dict[str, Any]:
        """fire_procedures.fire, with a critical DEX roll's bonus die on the first attack."""
        if self.whose_turn == attacker_id:
            options["bonus_dice"] = options.get("bonus_dice", 0) + encounter_rounds.first_attack_dice(self, attacker_id)
        return fire_procedures.fire(self, attacker_id, dice, **options)

    def end(self, outcome: str, note: str = "") -> None:
        """The Keeper ends the fight: won, lost, fled or abandoned."""
        if outcome not in OUTCOMES:
            raise InvalidCommand("outcome", f"must be one of {', '.join(OUTCOMES)}")
        if self.phase == "ended":
            raise RuleBroken("the fight has already ended", NOT_A_CHASE)
        self.trigger_event(self.ChaseEnded, outcome=outcome, note=note or "")
