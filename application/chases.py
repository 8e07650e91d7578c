"""The chase application: commands in (primitives and ids), views out."""
from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence
from uuid import UUID, uuid4

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError, Transcoding

from application.access import KEEPER, PLAYER, SYSTEM, Access, Forbidden, Principal, Unauthenticated
from application.coc7e_commands import Coc7eCommands
from application.history import ChaseHistory
from application.ports import ChaseViews, SeedVault, TokenStore
from application.savage_worlds import SAVAGE_CHASES, SavageWorldsCommands
from application.projector import Projector
from application.views import ChaseReadSide, project_chase
from domain.dice import DiceSource, TableDice
from domain.recorded_chase import HistoryRefused
from domain.rules.coc7e.chase import Chase, InvalidCommand

SNAPSHOT_INTERVAL = 20  # events between snapshots: a long chase loads like a short one (bench/commands.py)
RETRIES = 30  # re-runs of a command that lost an optimistic-concurrency race
BACKOFF = 0.002  # seconds; doubled per lost race, jittered, capped at BACKOFF_CAP
BACKOFF_CAP = 0.05


class ChaseNotFound(LookupError):
    """No chase with that id."""


class VersionConflict(Exception):
    """The chase changed since the version the client acted on."""

    def __init__(self, message: str, current_version: int | None = None) -> None:
        super().__init__(message)
        self.current_version = current_version


@dataclass(frozen=True)
class DiceChoice:
    """How one roll gets its dice: faces entered from the table, or the server's dice."""

    faces: Sequence[int] | None = None
    source: str | None = None  # "server" | "table" | None: the chase's default
    entered_by: str = "keeper"
    entropy: str = ""


SERVER_DICE = DiceChoice()
CHASE_CLASSES = {"coc7e": Chase, **SAVAGE_CHASES}  # by game system (POST /chases "system")


class ChaseLedger(SavageWorldsCommands, Coc7eCommands, ChaseHistory, Application):
    """Runs chases: every roll, movement spend and turn is an event on a chase."""

    name = "ChaseLedger"
    is_snapshotting_enabled = True
    snapshotting_intervals = {cls: SNAPSHOT_INTERVAL for cls in CHASE_CLASSES.values()}
    snapshotting_projectors = {cls: project_chase for cls in CHASE_CLASSES.values()}

    def __init__(
        self,
        env: dict[str, str] | None = None,
        *,
        seeds: Callable[[Any], SeedVault],
        views: Callable[[Any], ChaseViews],
        tokens: Callable[[Any], TokenStore],
        transcodings: Sequence[Transcoding] = (),
    ) -> None:
        self._transcodings = list(transcodings)
        super().__init__(env)
        self.seeds = seeds(self.factory)
        self.views = views(self.factory)
        self.access = Access(tokens(self.factory))
        self.updater = Projector(self, self.views)  # follows the log: `chase project`, rebuilds
        self.read_side = ChaseReadSide(self, self.views, self.updater.set_aside)
        self._answer = threading.local()  # the views a command just wrote, for the view it answers with

    def register_transcodings(self, transcoder: Any) -> None:
        super().register_transcodings(transcoder)
        for transcoding in self._transcodings:
            transcoder.register(transcoding)

    # -- chases and tokens -----------------------------------------------------------------

    def create_chase(self, name: str, dice: str = "server", system: str = "coc7e") -> dict[str, Any]:
        """Create a chase in set-up; its server-dice seed is committed in its first event."""
        if system not in CHASE_CLASSES:
            raise InvalidCommand("system", f"must be one of {', '.join(CHASE_CLASSES)}")
        chase_id = uuid4()
        commitment = self.seeds.new_seed(chase_id)
        chase = CHASE_CLASSES[system].start(chase_id, name, dice, commitment)
        return self.read_side.after_save(chase, self.save(chase))["track"]

    def start_chase(self, name: str, dice: str = "server", system: str = "coc7e") -> tuple[dict[str, Any], str]:
        """Create a chase and the Keeper's token for it (shown once, kept only hashed)."""
        view = self.create_chase(name, dice, system)
        return view, self.access.issue(view["chase_id"], KEEPER, label="keeper")

    def issue_player_token(self, chase_id: UUID, participant_ids: Sequence[str], *, by: Principal = SYSTEM) -> str:
        """A token for a player, bound to the participants they act for."""
        by.require_keeper("issue player tokens")
        view = self.track(chase_id)
        unknown = [pid for pid in participant_ids if pid not in view["participants"]]
        if not participant_ids or unknown:
            raise InvalidCommand("participant_ids", f"name one or more participants of this chase; unknown: {', '.join(unknown) or 'none given'}")
        names = ", ".join(view["participants"][pid]["name"] for pid in participant_ids)
        return self.access.issue(str(chase_id), PLAYER, participant_ids, label=f"player ({names})")

    def authenticate(self, chase_id: UUID, token: str | None) -> Principal:
        """Who a token stands for in this chase; an unknown chase is ChaseNotFound whatever the token."""
        try:
            return self.access.authenticate(str(chase_id), token)
        except (Unauthenticated, Forbidden):
            if not self.recorder.select_events(chase_id, limit=1):
                raise ChaseNotFound(f"no chase {chase_id}") from None
            raise

    # -- commands --------------------------------------------------------------------------

    def add_participant(self, chase_id: UUID, spec: dict[str, Any], expected_version: int | None = None, *, by: Principal = SYSTEM) -> tuple[str, dict[str, Any]]:
        by.require_keeper("add participants")
        participant_id = str(uuid4())
        self._execute(chase_id, expected_version, lambda c: c.add_participant(participant_id, spec))
        return participant_id, self.track(chase_id)

    def roll_speed(self, chase_id: UUID, participant_id: str, dice: DiceChoice = SERVER_DICE, expected_version: int | None = None, *, by: Principal = SYSTEM) -> tuple[dict[str, Any], dict[str, Any]]:
        by.require_acts_for(participant_id, "make speed rolls")
        roll = self._execute(chase_id, expected_version, lambda c: c.roll_speed(participant_id, self._dice(c, dice)))
        return roll, self.track(chase_id)

    def cut_to_the_chase(self, chase_id: UUID, opening_range: int = 2, staying: Sequence[str] = (), expected_version: int | None = None, *, by: Principal = SYSTEM) -> dict[str, Any]:
        by.require_keeper("cut to the chase")
        self._execute(chase_id, expected_version, lambda c: c.cut_to_the_chase(opening_range, list(staying)))
        return self.track(chase_id)

    def move(self, chase_id: UUID, participant_id: str, locations: int = 1, expected_version: int | None = None, *, by: Principal = SYSTEM) -> dict[str, Any]:
        by.require_acts_for(participant_id, "move")
        self._execute(chase_id, expected_version, lambda c: c.move(participant_id, locations))
        return self.track(chase_id)

    def delay(self, chase_id: UUID, participant_id: str, until_after: str | None = None, expected_version: int | None = None, *, by: Principal = SYSTEM) -> dict[str, Any]:
        by.require_acts_for(participant_id, "delay")
        self._execute(chase_id, expected_version, lambda c: c.delay(participant_id, until_after))
        return self.track(chase_id)

    def end_turn(self, chase_id: UUID, participant_id: str, expected_version: int | None = None, *, by: Principal = SYSTEM) -> dict[str, Any]:
        by.require_acts_for(participant_id, "end turns")
        self._execute(chase_id, expected_version, lambda c: c.end_turn(participant_id))
        return self.track(chase_id)

    def end_chase(self, chase_id: UUID, outcome: str, note: str = "", expected_version: int | None = None, *, by: Principal = SYSTEM) -> dict[str, Any]:
        """The Keeper ends the chase; its seed is revealed in the same action."""
        by.require_keeper("end the chase")
        self._execute(chase_id, expected_version, lambda c: c.end(outcome, note))
        return self.track(chase_id)

    def roll_skill(
        self,
        chase_id: UUID,
        skill: str,
        *,
        participant_id: str | None = None,
        target: int | None = None,
        difficulty: str = "regular",
        bonus: int = 0,
        penalty: int = 0,
        purpose: str = "skill roll",
        dice: DiceChoice = SERVER_DICE,
        expected_version: int | None = None,
        by: Principal = SYSTEM,
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        by.require_acts_for(participant_id, "roll")
        roll = self._execute(
            chase_id,
            expected_version,
            lambda c: c.roll_skill(
                self._dice(c, dice), participant_id, skill, target,
                difficulty=difficulty, bonus=bonus, penalty=penalty, purpose=purpose,
            ),
        )
        return roll, self.track(chase_id)

    def roll_dice(
        self,
        chase_id: UUID,
        expression: str,
        *,
        participant_id: str | None = None,
        purpose: str = "dice roll",
        dice: DiceChoice = SERVER_DICE,
        expected_version: int | None = None,
        by: Principal = SYSTEM,
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        by.require_acts_for(participant_id, "roll")
        roll = self._execute(
            chase_id, expected_version, lambda c: c.roll_dice(self._dice(c, dice), expression, participant_id, purpose)
        )
        return roll, self.track(chase_id)

    # -- queries ---------------------------------------------------------------------------

    def track(self, chase_id: UUID) -> dict[str, Any]:
        """The chase's track view (read model), brought up to date first."""
        return self.view(chase_id, "track")

    def vehicles(self, chase_id: UUID) -> dict[str, Any]:
        """The vehicle-build view: Build, condition, occupants and every Build lost."""
        return self.view(chase_id, "vehicles")

    def view(self, chase_id: UUID, name: str) -> dict[str, Any]:
        """A view of the chase (read model); every command wrote its chase's views before it
        answered, so a read after a command shows it (read-your-writes)."""
        # Each command answers with a view of its chase right after ``_execute``: the views
        # it has just written, taken once, spare a read of what it wrote.
        answer, self._answer.views = getattr(self._answer, "views", None), None
        if answer is not None and answer[0] == str(chase_id):
            return answer[1][name]
        view = self.read_side.views_of(str(chase_id), name)
        if view is None:
            raise ChaseNotFound(f"no chase {chase_id}")
        return view

    def rolls(self, chase_id: UUID, **filters: Any) -> list[dict[str, Any]]:
        self._answer.views = None
        rows = self.read_side.rolls_of(str(chase_id), {k: v for k, v in filters.items() if v is not None})
        if rows is None:
            raise ChaseNotFound(f"no chase {chase_id}")
        return rows

    # -- internals -------------------------------------------------------------------------

    def _execute(self, chase_id: UUID, expected_version: int | None, command: Callable[[Chase], Any]) -> Any:
        """Run a command on the latest chase and save it; a lost race is re-run on fresh state."""
        for attempt in range(RETRIES):
            if attempt:
                # Jitter spreads writers that collided, so one of them wins the next race.
                time.sleep(random.uniform(0, min(BACKOFF_CAP, BACKOFF * 2**attempt)))
            chase = self._chase(chase_id)
            if expected_version is not None and chase.version != expected_version:
                raise VersionConflict(
                    f"the chase is at version {chase.version}, not {expected_version}: reload and try again",
                    chase.version,
                )
            result = command(chase)
            self._keep_seed_in_step(chase)
            try:
                recordings = self.save(chase)
            except IntegrityError:
                if expected_version is not None:
                    raise VersionConflict(
                        f"another command was recorded on this chase after version {expected_version}: reload and try again"
                    ) from None
                continue
            # This chase's views, rendered from the aggregate just saved and written.
            self._answer.views = (str(chase.id), self.read_side.after_save(chase, recordings))
            return result
        raise VersionConflict("the chase is changing too fast to record this command: try again")

    def _keep_seed_in_step(self, chase: Chase) -> None:
        """Reveal the seed when a chase ends; commit a fresh one when play resumes after a reveal."""
        if chase.phase == "ended" and chase.seed_commitment is not None:
            chase.reveal_seed(self.seeds.seed_to_reveal(chase.id, chase.seed_commitment), by="the chase ending")
        elif chase.phase != "ended" and chase.seed_commitment is None:
            chase.trigger_event(chase.SeedCommitted, commitment=self.seeds.new_seed(chase.id), epoch=chase.seed_epoch + 1)

    def _chase(self, chase_id: UUID) -> Chase:
        try:
            return self.repository.get(chase_id, projector_func=project_chase)
        except AggregateNotFoundError:
            raise ChaseNotFound(f"no chase {chase_id}") from None

    def _dice(self, chase: Chase, choice: DiceChoice) -> DiceSource:
        if choice.faces is not None:
            if choice.source == "server":
                raise InvalidCommand("table_dice", "faces were entered for a roll asked of the server dice")
            return TableDice(list(choice.faces), choice.entered_by)
        if (choice.source or chase.dice) == "table":
            raise InvalidCommand("table_dice", "this roll uses table dice: enter the faces rolled")
        if chase.seed_commitment is None:
            raise HistoryRefused("the chase's seed has been revealed and the chase is over: roll with table dice")
        entropy = "|".join(part for part in (chase.entropy, choice.entropy) if part)
        return self.seeds.server_dice(chase.id, chase.seed_commitment, entropy, chase.seed_epoch)
