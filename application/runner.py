"""The command runner every game system's command service uses (DESIGN.md sections 1 and 7).

One command is: load the chase (this process's cache of saved chases, application/chase_cache.py,
brought up to date with the events saved since; else snapshot and events), check that it is of a system the
command is for (one check, in the core: a 409 naming the chase's system), run the aggregate's
procedure, keep the seed in step (revealed when the chase ends, a fresh one committed when play
resumes), save with optimistic concurrency, the chase's views written in the same transaction
(application/read_side.py; a lost race is re-run on fresh state, with jittered backoff; with an
expected version, it is a VersionConflict instead), then answer with those views (read-your-writes).
"""
from __future__ import annotations

import copy
import random
import time
from dataclasses import dataclass
from typing import Any, Callable, Generic, Iterable, NoReturn, Protocol, Sequence, TypeVar
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import IntegrityError

from application.chase_cache import ChaseCache
from application.dry_run import DryRunAnswered, trying_out
from application.ports import SeedVault
from domain.errors import WrongSystem
from domain.recorded_chase import RecordedChase

RETRIES = 30  # re-runs of a command that lost an optimistic-concurrency race
BACKOFF = 0.002  # seconds; doubled per lost race, jittered, capped at BACKOFF_CAP
BACKOFF_CAP = 0.05

T = TypeVar("T")


def project_unchained(chase: Any, events: Iterable[Any]) -> Any:
    """Fold events (after a snapshot, perhaps) without working out the chain head."""
    for event in events:
        chase = event.mutate_unchained(chase) if hasattr(event, "mutate_unchained") else event.mutate(chase)
    return chase


class ChaseNotFound(LookupError):
    """No chase with that id."""


class VersionConflict(Exception):
    """The chase changed since the version the client acted on."""

    def __init__(self, message: str, current_version: int | None = None) -> None:
        super().__init__(message)
        self.current_version = current_version


class ChaseStore(Protocol):
    """What the runner needs of the event store (the eventsourcing Application)."""

    def save(self, *objs: Any) -> Any: ...

    @property
    def repository(self) -> Any: ...


class ReadSide(Protocol):
    """The views, written from a chase right after it is saved (application/read_side.py)."""

    def views_for(self, chase: Any) -> Any:
        """The chase's views to write in the transaction that saves its pending events (an
        AlongWrite, application/ports.py), or None."""
        ...

    def after_save(self, chase: Any, recordings: Any, along: Any = None) -> dict[str, dict[str, Any]]:
        """The chase's views, by name, after the save: as written with it (``along``), or
        rendered from the saved chase and written now."""
        ...

    def views_of(self, chase_id: UUID) -> dict[str, dict[str, Any]]:
        """The chase's views, by name, as written."""
        ...


@dataclass(frozen=True)
class Done(Generic[T]):
    """What a command came to, and the chase's views after it."""

    result: T
    views: dict[str, dict[str, Any]]

    @property
    def track(self) -> dict[str, Any]:
        return self.views["track"]


class CommandRunner:
    """Loads, checks, runs, saves and renders one command on one chase."""

    def __init__(
        self, store: ChaseStore, seeds: SeedVault, read_side: ReadSide, projector: Callable[[Any, Iterable[Any]], Any],
        cache: ChaseCache | None = None, also: Callable[[Any], Sequence[Any]] = lambda chase: (),
    ) -> None:
        self.store = store
        self.seeds = seeds
        self.read_side = read_side
        self.projector = projector
        self.cache = cache or ChaseCache(0)
        self.also = also  # more writes along with the events (the request's idempotency key: application/retries.py)

    def run(
        self,
        chase_id: UUID,
        command: Callable[[Any], T],
        *,
        expected_version: int | None = None,
        systems: tuple[str, ...] | None = None,
    ) -> Done[T]:
        """Run ``command`` on the latest chase and save it; ``systems``: the game systems the
        command is for (None: any, such as undo or ending the chase)."""
        if trying_out():
            self.try_out(chase_id, command, expected_version=expected_version, systems=systems)
        for attempt in range(RETRIES):
            if attempt:
                # Jitter spreads writers that collided, so one of them wins the next race.
                time.sleep(random.uniform(0, min(BACKOFF_CAP, BACKOFF * 2**attempt)))
            chase = self.check_out(chase_id)
            loaded, saved = chase.version, False
            try:
                if systems is not None and chase.SYSTEM not in systems:
                    raise WrongSystem(chase.SYSTEM, systems)
                if expected_version is not None and chase.version != expected_version:
                    raise VersionConflict(
                        f"the chase is at version {chase.version}, not {expected_version}: reload and try again",
                        chase.version,
                    )
                result = command(chase)
                self._keep_seed_in_step(chase)
                views = self.read_side.views_for(chase)  # written in the events' own transaction
                try:
                    recordings = self.store.save(chase, along=((views,) if views else ()) + tuple(self.also(chase)))
                except IntegrityError:
                    if expected_version is not None:
                        raise VersionConflict(
                            f"another command was recorded on this chase after version {expected_version}: reload and try again"
                        ) from None
                    continue
                saved = True
                return Done(result, self.read_side.after_save(chase, recordings, views))
            finally:
                # Back once this command is done with it: saved, or unchanged (a refusal). A chase
                # changed and not saved (a lost race, a command that failed half-way) is dropped.
                if saved or (chase.version == loaded and not chase.pending_events):
                    self.cache.check_in(chase)
                else:
                    self.cache.release(chase_id)
        raise VersionConflict("the chase is changing too fast to record this command: try again")

    def try_out(
        self, chase_id: UUID, command: Callable[[Any], Any], *, expected_version: int | None = None, systems: tuple[str, ...] | None = None,
    ) -> NoReturn:
        """A dry run (application/dry_run.py): ``command`` on a throw-away copy of the chase, checked
        as ``run`` checks it; nothing is saved, the cached chase is untouched. Raises
        DryRunAnswered with the rolls the command made, or whatever the command refused with."""
        chase = copy.deepcopy(self.load(chase_id))
        if systems is not None and chase.SYSTEM not in systems:
            raise WrongSystem(chase.SYSTEM, systems)
        if expected_version is not None and chase.version != expected_version:
            raise VersionConflict(f"the chase is at version {chase.version}, not {expected_version}: reload and try again", chase.version)
        version = chase.version
        command(chase)
        events = chase.collect_events()
        made = [e for e in events if isinstance(getattr(e, "roll", None), dict) and "sequence" in e.roll]
        rolls = [{"event": type(e).__name__, "participant_id": getattr(e, "participant_id", None), "roll": e.roll} for e in made]
        rolled = {id(e) for e in made}
        decided = [(getattr(type(e), "TOPIC", type(e).__name__), dict(vars(e))) for e in events if id(e) not in rolled]
        raise DryRunAnswered(rolls, decided, version)

    def load(self, chase_id: UUID) -> Any:
        """The chase as it is now, the caller's own (to read); ChaseNotFound if there is none."""
        try:
            return self.check_out(chase_id)
        finally:
            self.cache.release(chase_id)  # not checked in again: the caller may hold it

    def check_out(self, chase_id: UUID) -> Any:
        """The chase as it is now, lent to this command alone (application/chase_cache.py);
        ChaseNotFound if there is none. A cached chase is brought up to date with the events
        saved after it (here or by another process) before it is used."""
        chase = self.cache.check_out(chase_id)
        try:
            if chase is not None:
                newer = list(self.store.repository.event_store.get(chase_id, gt=chase.version))
                return self.projector(chase, newer) if newer else chase
            return self.store.repository.get(chase_id, projector_func=self.projector)
        except AggregateNotFoundError:
            self.cache.release(chase_id)
            raise ChaseNotFound(f"no chase {chase_id}") from None
        except BaseException:
            self.cache.release(chase_id)
            raise

    def load_at(self, chase_id: UUID, version: int) -> Any:
        """The chase as it was at ``version`` (time travel: nothing is changed)."""
        return self.store.repository.get(chase_id, version=version, projector_func=self.projector)

    def game_at(self, chase_id: UUID, version: int) -> Any:
        """The chase as it was at ``version``, for its game state only: its chain head is not
        worked out (hashing every event folded took most of an undo's time), so it is never
        to be recorded on. What undo, rewind and redo restore."""
        return self.store.repository.get(chase_id, version=version, projector_func=project_unchained)

    def _keep_seed_in_step(self, chase: RecordedChase) -> None:
        """Reveal the seed when a chase ends; commit a fresh one when play resumes after a reveal."""
        if chase.phase == "ended" and chase.seed_commitment is not None:
            chase.reveal_seed(self.seeds.seed_to_reveal(chase.id, chase.seed_commitment), by="the chase ending")
        elif chase.phase != "ended" and chase.seed_commitment is None:
            chase.commit_seed(self.seeds.new_seed(chase.id))
