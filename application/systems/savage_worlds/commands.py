"""The commands of Savage Worlds chases: the Adventure Edition ("swade") and Deluxe ("swd").

Each command runs through the core's CommandRunner (load, the check that the chase is of a
system the command is for, optimistic concurrency, save, views), checks who may do it and runs
the aggregate's procedure. Answers are (result, the rolls the command recorded, the track view).
Dice come from the core's DiceResolver; decks deal with server dice derived as their shuffle
recorded (acting.ServerDeckDice); who may send each participant-level command is the table of
permissions.py (acting.permit), the chase's as well (whom a roll is for: its body's).
"""
from __future__ import annotations

from typing import Any, Callable, Sequence
from uuid import UUID, uuid4

from application.access import SYSTEM, Principal
from application.dice import DiceChoice, DiceResolver
from application.runner import CommandRunner
from application.systems.savage_worlds import swd_commands
from application.permissions import decided_now, require
from application.systems.savage_worlds.acting import ServerDeckDice, permit
from application.systems.savage_worlds.permissions import CHASE, PARTICIPANT
from domain.rules.savage_worlds.swade_aggregate import SwadeChase
from domain.rules.savage_worlds.swd_aggregate import SwdChase

SAVAGE_CHASES = {SwadeChase.SYSTEM: SwadeChase, SwdChase.SYSTEM: SwdChase}
Answer = tuple[Any, list[dict[str, Any]], dict[str, Any]]
BENNY_USES = {"reroll": "benny_reroll", "soak": "benny_soak", "new-action-card": "new_action_card"}  # the use -> its action


class SavageWorldsCommands:
    """The commands of Savage Worlds chases, of both editions."""

    def __init__(self, runner: CommandRunner, dice: DiceResolver) -> None:
        self.runner = runner
        self.dice = dice

    # -- plumbing --------------------------------------------------------------------------

    def _run(self, chase_id: UUID, system: str | Sequence[str], expected_version: int | None, act: Callable[[Any], Any]) -> Answer:
        """Run ``act`` on a chase of ``system`` (the runner refuses a chase of another system)."""
        systems = (system,) if isinstance(system, str) else tuple(system)

        def command(chase: Any) -> tuple[Any, list[dict[str, Any]]]:
            result = act(chase)
            return result, chase.recorded_rolls()

        done = self.runner.run(chase_id, command, expected_version=expected_version, systems=systems)
        result, rolls = done.result
        return result, rolls, done.track

    def _roll_dice(self, chase: Any, choice: DiceChoice | None) -> Any:
        return self.dice.dice(chase, choice or DiceChoice())

    def _maybe_dice(self, chase: Any, choice: DiceChoice | None) -> Any:
        """Dice for a step that may not roll: none when a table-dice chase entered no faces."""
        return self.dice.optional(chase, choice)

    def _decks(self, chase: Any) -> ServerDeckDice:
        return ServerDeckDice(self.dice, chase)

    # -- both systems ----------------------------------------------------------------------

    def add_savage_participant(self, chase_id: UUID, system: str, spec: dict[str, Any], expected_version: int | None = None, *, by: Principal = SYSTEM) -> Answer:
        require(by, CHASE[system]["add_participant"], None)
        participant_id = str(uuid4())
        _, rolls, view = self._run(chase_id, system, expected_version, lambda c: c.add_participant(participant_id, spec))
        return participant_id, rolls, view

    def savage_end_turn(self, chase_id: UUID, system: str, participant_id: str, expected_version: int | None = None, *, by: Principal = SYSTEM) -> Answer:
        def act(c: Any) -> None:
            permit(by, c, participant_id, PARTICIPANT[system]["end_turn"])
            c.end_turn(participant_id, self._decks(c))

        return self._run(chase_id, system, expected_version, act)

    def savage_resolve(self, chase_id: UUID, system: str, choices: dict[str, Any], dice: Any = None, expected_version: int | None = None, *, by: Principal = SYSTEM) -> Answer:
        """Resolve the first follow-up waiting (a roll, a Bump's direction, the card to keep)."""

        require(by, CHASE[system]["resolve"], None)  # before what waits: a player acts for someone

        def act(c: Any) -> Any:
            c.next_follow_up()  # refused (409) when nothing waits, before whose it is
            permission, participant_id = decided_now(CHASE[system]["resolve"], c)
            permit(by, c, participant_id, permission)
            return c.resolve(self._maybe_dice(c, dice), deck_dice=self._decks(c), **choices)

        return self._run(chase_id, system, expected_version, act)

    def savage_trait_roll(
        self, chase_id: UUID, system: str, participant_id: str, die: str, *, purpose: str = "trait roll", modifier: int = 0,
        target_number: int = 4, dice: Any = None, expected_version: int | None = None, by: Principal = SYSTEM,
    ) -> Answer:
        """Any trait roll the GM calls for (Notice, Spirit, Shooting outside the maneuvers)."""

        def act(c: Any) -> Any:
            permit(by, c, participant_id, CHASE[system]["trait_roll"])
            return c.roll_any_trait(self._roll_dice(c, dice), participant_id, die, purpose=purpose, modifier=modifier, target_number=target_number).total

        return self._run(chase_id, system, expected_version, act)

    def savage_damage(
        self, chase_id: UUID, system: str, target_id: str, expression: str, *, roller_id: str | None = None, raise_bonus: bool = False,
        strength: str | None = None, modifier: int = 0, dice: Any = None, expected_version: int | None = None, by: Principal = SYSTEM,
    ) -> Answer:
        def act(c: Any) -> Any:
            permit(by, c, roller_id, CHASE[system]["damage_roll"], {"roller_id": roller_id})
            return c.damage(self._roll_dice(c, dice), target_id, expression, roller_id=roller_id, raise_bonus=raise_bonus, strength=strength, modifier=modifier)

        return self._run(chase_id, system, expected_version, act)

    def savage_recover(self, chase_id: UUID, system: str, participant_id: str, *, die: str | None = None, modifier: int = 0, dice: Any = None, expected_version: int | None = None, by: Principal = SYSTEM) -> Answer:
        def act(c: Any) -> Any:
            permit(by, c, participant_id, PARTICIPANT[system]["recover"])
            return c.recover(self._roll_dice(c, dice), participant_id, die, modifier).success

        return self._run(chase_id, system, expected_version, act)

    def savage_conditions(self, chase_id: UUID, system: str, participant_id: str, changes: dict[str, Any], reason: str = "", expected_version: int | None = None, *, by: Principal = SYSTEM) -> Answer:
        def act(c: Any) -> Any:
            permit(by, c, participant_id, PARTICIPANT[system]["conditions"])
            return c.set_conditions(participant_id, changes, reason or "the GM")

        return self._run(chase_id, system, expected_version, act)

    def savage_break(
        self, chase_id: UUID, system: str, options: dict[str, Any], *, dice: Any = None, expected_version: int | None = None, by: Principal = SYSTEM,
    ) -> Answer:
        """Breaking Things: damage against an object (breaking.py)."""

        def act(c: Any) -> Any:
            o = options
            permit(by, c, o["roller_id"], CHASE[system]["breaking_things"], o)
            return c.break_object(self._roll_dice(c, dice), o["roller_id"], o["object"], o["hardness"], o["expression"], strength=o["strength"], modifier=o["modifier"])

        return self._run(chase_id, system, expected_version, act)

    def savage_test(
        self, chase_id: UUID, system: str, participant_id: str, options: dict[str, Any], *, dice: Any = None, defender_dice: Any = None,
        expected_version: int | None = None, by: Principal = SYSTEM,
    ) -> Answer:
        """A Test or a Trick against a foe (gm_options.py)."""

        def act(c: Any) -> Any:
            permit(by, c, participant_id, PARTICIPANT[system]["test"])
            o = options
            return c.test_foe(
                self._roll_dice(c, dice), self._roll_dice(c, defender_dice), participant_id, o["target_id"], o["trait_die"], o["resist_die"],
                kind=o["kind"], effect=o["effect"], modifier=o["modifier"], defender_modifier=o["defender_modifier"], actions=o.get("actions"),
            )

        return self._run(chase_id, system, expected_version, act)

    def savage_free_self(
        self, chase_id: UUID, system: str, participant_id: str, what: str, o: dict[str, Any], *, dice: Any = None, defender_dice: Any = None,
        expected_version: int | None = None, by: Principal = SYSTEM,
    ) -> Answer:
        """Recover from Stunned (``what`` "stunned") or break free (recovery.py)."""

        def act(c: Any) -> Any:
            permit(by, c, participant_id, PARTICIPANT[system]["recover_from_stunned" if what == "stunned" else "break_free"])
            if what == "stunned":
                return c.recover_from_stunned(self._roll_dice(c, dice), participant_id, o["trait_die"], o["modifier"])
            return c.break_free(
                self._roll_dice(c, dice), self._maybe_dice(c, defender_dice), participant_id, o["trait_die"], strength=o["strength"], held_by=o["held_by"],
                defender_die=o["defender_die"], modifier=o["modifier"], defender_modifier=o["defender_modifier"], actions=o.get("actions"),
            )

        return self._run(chase_id, system, expected_version, act)

    # -- bennies (domain/rules/savage_worlds/bennies.py) ------------------------------------

    def savage_give_bennies(self, chase_id: UUID, system: str, participant_id: str, change: int, reason: str = "", expected_version: int | None = None, *, by: Principal = SYSTEM) -> Answer:
        def act(c: Any) -> Any:
            permit(by, c, participant_id, PARTICIPANT[system]["bennies"])
            return c.give_bennies(participant_id, change, reason)

        return self._run(chase_id, system, expected_version, act)

    def savage_benny(
        self, chase_id: UUID, system: str, participant_id: str, use: str, options: dict[str, Any], *, dice: Any = None,
        expected_version: int | None = None, by: Principal = SYSTEM,
    ) -> Answer:
        """Spend a benny: "reroll" the trait roll just made, "soak" the damage just rolled, or
        (Adventure Edition) draw a "new-action-card"."""

        def act(c: Any) -> Any:
            permit(by, c, participant_id, PARTICIPANT[c.SYSTEM][BENNY_USES[use]], options)
            if use == "reroll":
                return c.reroll_with_benny(self._roll_dice(c, dice), participant_id)
            if use == "soak":
                return c.soak_with_benny(self._roll_dice(c, dice), participant_id, options["trait_die"], options["modifier"])
            return c.new_action_card(participant_id, card=options.get("card"), keep=options.get("keep"), deck_dice=self._decks(c))

        return self._run(chase_id, system if use != "new-action-card" else "swade", expected_version, act)

    # -- the Adventure Edition -------------------------------------------------------------

    def begin_swade(
        self, chase_id: UUID, mode: str, placements: dict[str, int], *, chase_cards: Any = 9, linear: bool = True,
        deck: str | None = None, expected_version: int | None = None, by: Principal = SYSTEM,
    ) -> Answer:
        require(by, CHASE["swade"]["begin"], None)
        return self._run(
            chase_id, "swade", expected_version,
            lambda c: c.begin(mode, placements, chase_cards=chase_cards, linear=linear, deck=deck, deck_dice=self._decks(c)),
        )

    def deal_action_cards(
        self, chase_id: UUID, cards: dict[str, str] | None = None, expected_version: int | None = None, *, surprised: list[str] | None = None,
        ambushers: list[str] | None = None, by: Principal = SYSTEM,
    ) -> Answer:
        require(by, CHASE["swade"]["action_cards"], None)
        return self._run(chase_id, "swade", expected_version, lambda c: c.deal_action_cards(cards, self._decks(c), surprised, ambushers))

    def swade_hold(
        self, chase_id: UUID, participant_id: str, options: dict[str, Any] | None = None, *, dice: Any = None, defender_dice: Any = None,
        expected_version: int | None = None, by: Principal = SYSTEM,
    ) -> Answer:
        """Go on Hold (``options`` None), or come off it now (hold.py, "Hold")."""

        def act(c: Any) -> Any:
            permit(by, c, participant_id, PARTICIPANT["swade"]["hold" if options is None else "act_from_hold"])
            if options is None:
                return c.go_on_hold(participant_id, self._decks(c))
            o = options
            return c.act_from_hold(
                self._maybe_dice(c, dice), self._maybe_dice(c, defender_dice), participant_id, trait_die=o.get("trait_die"),
                defender_die=o.get("defender_die"), modifier=o["modifier"], defender_modifier=o["defender_modifier"],
            )

        return self._run(chase_id, "swade", expected_version, act)

    def swade_maneuver(
        self, chase_id: UUID, participant_id: str, maneuver: str, options: dict[str, Any], *, dice: Any = None,
        defender_dice: Any = None, expected_version: int | None = None, by: Principal = SYSTEM,
    ) -> Answer:
        """One maneuver ("MANEUVERS"): change-position, drop-back, evade, hold-steady, flee, force, ram, attack."""

        def act(c: Any) -> Any:
            permit(by, c, participant_id, PARTICIPANT["swade"][maneuver.replace("-", "_")])
            roll = lambda: self._roll_dice(c, dice)  # noqa: E731
            defend = lambda: self._roll_dice(c, defender_dice)  # noqa: E731
            decks = self._decks(c)
            o = options
            if maneuver == "change-position":
                return c.change_position(
                    roll(), participant_id, o["direction"], as_action=o["as_action"], cards=o.get("cards"), modifier=o["modifier"], deck_dice=decks,
                    actions=o.get("actions"),
                ).total
            if maneuver == "drop-back":
                return c.drop_back(participant_id, o["cards"], decks)
            if maneuver == "evade":
                return c.evade(participant_id, o["as_action"], o.get("actions"))
            if maneuver == "hold-steady":
                return c.hold_steady(participant_id)
            if maneuver == "flee":
                return c.flee(roll(), participant_id, o["modifier"], decks, o.get("actions")).success
            if maneuver == "force":
                return c.force(
                    roll(), defend(), participant_id, o["target_id"], o["direction"], modifier=o["modifier"], defender_modifier=o["defender_modifier"],
                    deck_dice=decks, actions=o.get("actions"),
                )
            if maneuver == "ram":
                return c.ram(roll(), defend(), participant_id, o["target_id"], modifier=o["modifier"], defender_modifier=o["defender_modifier"], actions=o.get("actions"))
            if maneuver == "attack":
                return c.attack_foe(
                    roll(), participant_id, o["target_id"], o["trait_die"], ranged=o["ranged"], weapon_range=o.get("weapon_range"),
                    running=o["running"], modifier=o["modifier"], target_number=o["target_number"], actions=o.get("actions"), options=o,
                ).total
            raise ValueError(f"no maneuver {maneuver}")

        return self._run(chase_id, "swade", expected_version, act)

    # -- the Deluxe chase (swd_commands.py, bound as methods) --------------------------------
    begin_swd = swd_commands.begin_swd
    swd_maneuver = swd_commands.swd_maneuver
    swd_cooperate = swd_commands.swd_cooperate
    swd_action = swd_commands.swd_action
