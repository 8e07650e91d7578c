"""The commands of the optional rules of Call of Cthulhu chases (coc7e-chases.txt part 5): the
Keeper's choice of them, joining and leaving, switching modes of movement, monsters' skills,
fleeing the scene. Each authorises, then runs the aggregate's procedure through the core's
CommandRunner, as Coc7eCommands does (it holds one of these as ``optional``)."""
from __future__ import annotations

from typing import Any, Callable, Sequence, TypeVar
from uuid import UUID, uuid4

from eventsourcing.persistence import IntegrityError

from application.access import SYSTEM, Principal
from application.dice import SERVER_DICE, DiceChoice, DiceResolver
from application.runner import ChaseNotFound, CommandRunner, Done, VersionConflict
from application.systems.coc7e.permissions import permit, permit_chase
from domain.errors import WrongSystem
from domain.rules.coc7e.chase import Chase
from domain.rules.coc7e.fleeing import locations_covered

T = TypeVar("T")
View = dict[str, Any]


class OptionalRuleCommands:
    """The optional rules' commands of Call of Cthulhu chases (not of fights without a chase)."""

    def __init__(self, runner: CommandRunner, dice: DiceResolver) -> None:
        self.runner = runner
        self.dice = dice

    def _run(self, chase_id: UUID, expected_version: int | None, command: Callable[[Chase], T]) -> Done[T]:
        return self.runner.run(chase_id, command, expected_version=expected_version, systems=(Chase.SYSTEM,))

    def change_optional_rules(self, chase_id: UUID, optional_rules: Sequence[str], expected_version: int | None = None, *, by: Principal = SYSTEM) -> View:
        """The Keeper changes which optional rules of part 5 the chase uses (optional_rules.py)."""
        permit_chase(by, "change_optional_rules")
        return self._run(chase_id, expected_version, lambda c: c.change_optional_rules(list(optional_rules))).track

    def join(self, chase_id: UUID, participant_id: str, location: int, keep_if_slower: bool = False, expected_version: int | None = None, *, by: Principal = SYSTEM) -> View:
        """The Keeper places a joiner on the track (joining.py)."""
        permit(by, participant_id, "join")
        return self._run(chase_id, expected_version, lambda c: c.join(participant_id, location, keep_if_slower)).track

    def leave(self, chase_id: UUID, participant_id: str, reason: str = "", expected_version: int | None = None, *, by: Principal = SYSTEM) -> View:
        """The Keeper rules that a participant leaves the chase (joining.py)."""
        permit(by, participant_id, "leave")
        return self._run(chase_id, expected_version, lambda c: c.leave(participant_id, reason)).track

    def switch_mode(self, chase_id: UUID, participant_id: str, mode: str, mov: int | None = None, expected_version: int | None = None, *, by: Principal = SYSTEM) -> tuple[dict[str, Any], View]:
        """The Keeper rules a switch to another self-propelled mode of movement (modes.py)."""
        permit(by, participant_id, "switch_mode")
        done = self._run(chase_id, expected_version, lambda c: c.switch_mode(participant_id, mode, mov))
        return done.result, done.track

    def fly_over(self, chase_id: UUID, participant_id: str, expected_version: int | None = None, *, by: Principal = SYSTEM) -> View:
        """A flier crosses a Jump or Climb hazard or barrier without a roll (modes.py)."""
        permit(by, participant_id, "fly_over")
        return self._run(chase_id, expected_version, lambda c: c.fly_over(participant_id)).track

    def board(self, chase_id: UUID, participant_id: str, vehicle_id: str, dice: DiceChoice = SERVER_DICE, expected_version: int | None = None, *, by: Principal = SYSTEM) -> tuple[dict[str, Any], View]:
        """A character takes the wheel and makes a fresh speed roll with it (boarding.py)."""
        permit(by, participant_id, "board")
        done = self._run(chase_id, expected_version, lambda c: c.board(participant_id, vehicle_id, self.dice.dice(c, dice)))
        return done.result, done.track

    def alight(self, chase_id: UUID, participant_id: str, dice: DiceChoice = SERVER_DICE, expected_version: int | None = None, *, by: Principal = SYSTEM) -> tuple[dict[str, Any], View]:
        """A character gets out of a vehicle and makes a fresh speed roll with CON (boarding.py)."""
        permit(by, participant_id, "alight")
        done = self._run(chase_id, expected_version, lambda c: c.alight(participant_id, self.dice.dice(c, dice)))
        return done.result, done.track

    def substitute_skill(self, chase_id: UUID, participant_id: str, expected_version: int | None = None, *, by: Principal = SYSTEM, **choice: Any) -> tuple[dict[str, Any], View]:
        """The Keeper gives a monster a skill it lacks from a characteristic (monsters.py; choice:
        skill, aptitude, characteristic, characteristic_value)."""
        permit(by, participant_id, "substitute_skill")
        done = self._run(chase_id, expected_version, lambda c: c.substitute_skill(participant_id, **choice))
        return done.result, done.track

    def fleeing_the_scene(self, chase_id: UUID, rounds: int, from_round: int = 1) -> dict[str, Any]:
        """Locations each participant covered in ``rounds`` rounds from ``from_round`` (fleeing.py):
        where everyone stood as each round began, read from the chase's log."""
        chase, starts = None, {}
        for event in self.runner.store.repository.event_store.get(chase_id):
            chase = event.mutate(chase)
            if isinstance(event, Chase.RoundBegan):
                starts[chase.round] = dict(chase.track.positions)
        if chase is None:
            raise ChaseNotFound(f"no chase {chase_id}")
        if chase.SYSTEM != Chase.SYSTEM:
            raise WrongSystem(chase.SYSTEM, (Chase.SYSTEM,))
        chase.require_optional_rule("fleeing_the_scene")
        # Rounds past the current one were undone: their starts no longer count.
        kept = {n: at for n, at in starts.items() if n <= chase.round}
        report = locations_covered(kept, chase.track.positions, chase.round, from_round, rounds)
        return {**report, "round": chase.round, "version": chase.version}

    def place_fork(self, chase_id: UUID, at: int, routes: Sequence[str], expected_version: int | None = None, *, by: Principal = SYSTEM) -> View:
        """The Keeper presents a choice of routes at a location (routes.py)."""
        permit_chase(by, "place_fork")
        return self._run(chase_id, expected_version, lambda c: c.place_fork(at, list(routes))).track

    def choose_route(self, chase_id: UUID, participant_id: str, route: str, expected_version: int | None = None, *, by: Principal = SYSTEM) -> View:
        """A participant at a fork takes one of its routes, on their turn (routes.py)."""
        permit(by, participant_id, "choose_route")
        return self._run(chase_id, expected_version, lambda c: c.choose_route(participant_id, route)).track

    def split(self, chase_id: UUID, groups: Sequence[Sequence[str]], expected_version: int | None = None, *, by: Principal = SYSTEM) -> tuple[View, list[View]]:
        """The Keeper splits groups off the chase, each into a chase of its own (splitting.py): the
        original and the new chases are recorded in one transaction; answers their track views."""
        permit_chase(by, "split")
        runner = self.runner
        original = runner.check_out(chase_id)
        saved, parts = False, []
        try:
            if original.SYSTEM != Chase.SYSTEM:
                raise WrongSystem(original.SYSTEM, (Chase.SYSTEM,))
            if expected_version is not None and original.version != expected_version:
                raise VersionConflict(f"the chase is at version {original.version}, not {expected_version}: reload and try again", original.version)
            starts = original.split_off([list(g) for g in groups], [uuid4() for _ in groups])
            for start in starts:
                part = Chase.start(start["id"], start["name"], original.dice, runner.seeds.new_seed(start["id"]))
                part.begin_split(start["origin"], start["sisters"], start["state"])
                parts.append(part)
            chases = [original, *parts]
            views = [runner.read_side.views_for(c) for c in chases]
            try:
                recordings = runner.store.save(*chases, along=tuple(v for v in views if v) + tuple(runner.also(original)))
            except IntegrityError:
                raise VersionConflict("another command was recorded on this chase meanwhile: reload and try again") from None
            saved = True
            docs = [runner.read_side.after_save(c, recordings, v) for c, v in zip(chases, views)]
        finally:
            if saved or (not original.pending_events):
                runner.cache.check_in(original)
            else:
                runner.cache.release(chase_id)
        for part in parts:
            runner.cache.check_in(part)
        return docs[0]["track"], [d["track"] for d in docs[1:]]
