"""The chase application: commands in (primitives and ids), views out."""
from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence
from uuid import UUID, uuid4

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError, Transcoding

from application.ports import ChaseViews, SeedVault
from application.views import ViewUpdater
from domain.dice import DiceSource, TableDice
from domain.rules.coc7e.chase import Chase, InvalidCommand

SNAPSHOT_INTERVAL = 50  # events between snapshots: a long chase loads like a short one
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


class ChaseLedger(Application):
    """Runs chases: every roll, movement spend and turn is an event on a chase."""

    name = "ChaseLedger"
    is_snapshotting_enabled = True
    snapshotting_intervals = {Chase: SNAPSHOT_INTERVAL}

    def __init__(
        self,
        env: dict[str, str] | None = None,
        *,
        seeds: Callable[[Any], SeedVault],
        views: Callable[[Any], ChaseViews],
        transcodings: Sequence[Transcoding] = (),
    ) -> None:
        self._transcodings = list(transcodings)
        super().__init__(env)
        self.seeds = seeds(self.factory)
        self.views = views(self.factory)
        self.updater = ViewUpdater(self, self.views)

    def register_transcodings(self, transcoder: Any) -> None:
        super().register_transcodings(transcoder)
        for transcoding in self._transcodings:
            transcoder.register(transcoding)

    # -- commands --------------------------------------------------------------------------

    def create_chase(self, name: str, dice: str = "server") -> dict[str, Any]:
        """Create a chase in set-up; its server-dice seed is committed in its first event."""
        chase_id = uuid4()
        commitment = self.seeds.new_seed(chase_id)
        chase = Chase.start(chase_id, name, dice, commitment)
        self.save(chase)
        self.updater.catch_up()
        return self.track(chase_id)

    def add_participant(self, chase_id: UUID, spec: dict[str, Any], expected_version: int | None = None) -> tuple[str, dict[str, Any]]:
        participant_id = str(uuid4())
        self._execute(chase_id, expected_version, lambda c: c.add_participant(participant_id, spec))
        return participant_id, self.track(chase_id)

    def roll_speed(self, chase_id: UUID, participant_id: str, dice: DiceChoice = SERVER_DICE, expected_version: int | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        roll = self._execute(chase_id, expected_version, lambda c: c.roll_speed(participant_id, self._dice(c, dice)))
        return roll, self.track(chase_id)

    def cut_to_the_chase(self, chase_id: UUID, opening_range: int = 2, staying: Sequence[str] = (), expected_version: int | None = None) -> dict[str, Any]:
        self._execute(chase_id, expected_version, lambda c: c.cut_to_the_chase(opening_range, list(staying)))
        return self.track(chase_id)

    def move(self, chase_id: UUID, participant_id: str, locations: int = 1, expected_version: int | None = None) -> dict[str, Any]:
        self._execute(chase_id, expected_version, lambda c: c.move(participant_id, locations))
        return self.track(chase_id)

    def delay(self, chase_id: UUID, participant_id: str, until_after: str | None = None, expected_version: int | None = None) -> dict[str, Any]:
        self._execute(chase_id, expected_version, lambda c: c.delay(participant_id, until_after))
        return self.track(chase_id)

    def end_turn(self, chase_id: UUID, participant_id: str, expected_version: int | None = None) -> dict[str, Any]:
        self._execute(chase_id, expected_version, lambda c: c.end_turn(participant_id))
        return self.track(chase_id)

    def end_chase(self, chase_id: UUID, outcome: str, note: str = "", expected_version: int | None = None) -> dict[str, Any]:
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
    ) -> tuple[dict[str, Any], dict[str, Any]]:
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
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        roll = self._execute(
            chase_id, expected_version, lambda c: c.roll_dice(self._dice(c, dice), expression, participant_id, purpose)
        )
        return roll, self.track(chase_id)

    # -- queries ---------------------------------------------------------------------------

    def track(self, chase_id: UUID) -> dict[str, Any]:
        """The chase's track view (read model), brought up to date first."""
        self.updater.catch_up()
        view = self.views.track_view(str(chase_id))
        if view is None:
            raise ChaseNotFound(f"no chase {chase_id}")
        return view

    def rolls(self, chase_id: UUID, **filters: Any) -> list[dict[str, Any]]:
        self.track(chase_id)
        return self.views.roll_history(str(chase_id), {k: v for k, v in filters.items() if v is not None})

    def chase_events(self, chase_id: UUID, after: int = 0, limit: int | None = None) -> list[dict[str, Any]]:
        """The chase's own log, oldest first: what happened, when, with every detail."""
        events = list(self.events.get(chase_id, gt=after or None, limit=limit))
        if not events and not after:
            raise ChaseNotFound(f"no chase {chase_id}")
        return [describe(e) for e in events]

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
            try:
                self.save(chase)
            except IntegrityError:
                if expected_version is not None:
                    raise VersionConflict(
                        f"another command was recorded on this chase after version {expected_version}: reload and try again"
                    ) from None
                continue
            return result
        raise VersionConflict("the chase is changing too fast to record this command: try again")

    def _chase(self, chase_id: UUID) -> Chase:
        try:
            return self.repository.get(chase_id)
        except AggregateNotFoundError:
            raise ChaseNotFound(f"no chase {chase_id}") from None

    def _dice(self, chase: Chase, choice: DiceChoice) -> DiceSource:
        if choice.faces is not None:
            if choice.source == "server":
                raise InvalidCommand("table_dice", "faces were entered for a roll asked of the server dice")
            return TableDice(list(choice.faces), choice.entered_by)
        if (choice.source or chase.dice) == "table":
            raise InvalidCommand("table_dice", "this roll uses table dice: enter the faces rolled")
        return self.seeds.server_dice(chase.id, choice.entropy)


def describe(event: Any) -> dict[str, Any]:
    """An event as a client reads it in the chase's log."""
    data = {k: v for k, v in vars(event).items() if k not in ("originator_id", "originator_version", "timestamp", "originator_topic")}
    return {
        "version": event.originator_version,
        "type": type(event).TOPIC,
        "name": type(event).__name__,
        "recorded_at": event.timestamp.isoformat(),
        "data": data,
    }
