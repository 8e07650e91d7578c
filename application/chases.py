"""The chase application: commands in (primitives and ids), views out.

The ChaseLedger is the event store (an eventsourcing Application: the chases' logs, snapshots
and notification log) and the composition of the services every chase shares, each given what
it needs as constructor arguments: the CommandRunner (application/runner.py), the DiceResolver
(application/dice.py), the history service (undo, rewind, redo, the seed, time travel, export:
application/history.py), access (tokens) and the read side. Each game system's commands are its
own service (``commands``, by plug-in package), built from the GameSystem entries it is given
(application/plugins.py; the registry is infrastructure/systems.py). This module names no
system.
"""
from __future__ import annotations

import logging
from typing import Any, Callable, Sequence
from uuid import UUID, uuid4

from eventsourcing.application import Application, ProcessingEvent, Repository
from eventsourcing.domain import BaseAggregate
from eventsourcing.persistence import Mapper, Transcoding

from application.analytics.facts import FactReader
from application.affordances import Affordances
from application.access import KEEPER, PLAYER, SYSTEM, Access, Forbidden, Principal, Unauthenticated
from application.permissions import permit_record
from application.chase_cache import DEFAULT_SIZE, ChaseCache
from application.command_service import CommandService
from application.declared import by_name
from application.dice import DiceResolver
from application.dry_run import odds_before
from application.history import ChaseHistory
from application.plugins import GameSystem, JobKind, outcome_odds_of, roll_odds_of
from application.ports import ChaseViews, IdempotencyKeys, LiveFeed, SeedVault, TokenStore
from application.projections import Renderers
from application.projections.rolls import with_odds
from application.projector import Projector
from application.read_side import ChaseReadSide
from application.retries import TTL, Retries
from application.runner import ChaseNotFound, CommandRunner
from application.views import project_chase
from domain.errors import InvalidInput
from domain.json_encoding import id_text

log = logging.getLogger(__name__)

SNAPSHOT_INTERVAL = 20  # events between snapshots: a long chase loads like a short one (bench/commands.py)
PARTICIPANTS_PER_EVENT = 5  # a big chase's snapshots come further apart (see snapshot_due)


def snapshot_due(chase: Any, version: int, interval: int) -> bool:
    """Whether to snapshot ``chase`` at ``version``: every ``interval`` events, the interval doubled
    in a big chase until it reaches participants / 5. A snapshot costs as much as the chase is big
    (about 4 ms at 1,000 participants), so a command's share of it stays the same however big the
    chase, while loading one as it was (an undo) folds about an interval of events at most. Only
    doubling: each interval is a multiple of the smaller ones, so a growing chase still meets one
    (an interval of exactly participants / 5 moved with every participant added, and a chase grown
    to 300 participants had its last snapshot at version 100)."""
    wanted = len(getattr(chase, "participants", ())) // PARTICIPANTS_PER_EVENT
    step = interval
    while step < wanted:
        step *= 2
    return version % step == 0


class ChaseLedger(Application):
    """Runs chases: every roll, movement spend and turn is an event on a chase."""

    name = "ChaseLedger"
    is_snapshotting_enabled = True
    # Set by the composition root (infrastructure/bootstrap.py) once this ledger exists: the job
    # service runs on it, and the worker's settings and the persistence environment it was built with.
    jobs: Any = None
    analytics: Any = None  # reports, sessions and campaigns (application/analytics/service.py)
    worker: Any = None
    persistence: dict[str, str] = {}
    tickets: Any = None  # StreamTickets (application/tickets.py)
    webhooks: Any = None  # Webhooks (application/webhooks.py)

    def __init__(
        self,
        env: dict[str, str] | None = None,
        *,
        systems: Sequence[GameSystem],
        seeds: Callable[[Any], SeedVault],
        views: Callable[[Any], ChaseViews],
        tokens: Callable[[Any], TokenStore],
        transcodings: Sequence[Transcoding] = (),
        live: LiveFeed | None = None,
        mapper_class: type[Mapper] = Mapper,
        keys: Callable[[Any], IdempotencyKeys] | None = None,
        retries_ttl: float = TTL,
    ) -> None:
        self._mapper_class = mapper_class
        self.chase_classes: dict[str, type] = {name: cls for system in systems for name, cls in system.chases.items()}
        self.default_system = next(iter(self.chase_classes))  # POST /chases without "system": the first registered
        self.snapshotting_intervals = {cls: SNAPSHOT_INTERVAL for cls in self.chase_classes.values()}
        self.snapshotting_projectors = {cls: project_chase for cls in self.chase_classes.values()}
        self._transcodings = list(transcodings)
        super().__init__(env)
        self.live = live
        self.seeds = seeds(self.factory)
        self.views = views(self.factory)
        self.access = Access(tokens(self.factory))
        self.odds_of = roll_odds_of(systems)  # each system's exact odds of its recorded rolls
        facts = FactReader(self.odds_of, [system.game_counts for system in systems])  # kept in each roll's analytics fact
        self.renderers = Renderers({name: views for system in systems for name, views in system.views.items()}, facts)
        self.updater = Projector(self, self.views, self.renderers)  # follows the log: `chase project`, rebuilds
        self.read_side = ChaseReadSide(self, self.views, self.renderers, self.updater.set_aside)
        cache = ChaseCache(int(self.env.get(self.AGGREGATE_CACHE_MAXSIZE) or DEFAULT_SIZE))
        self.retries = Retries(keys(self.factory), retries_ttl) if keys else None  # Idempotency-Key (application/retries.py)
        also = self.retries.along if self.retries else (lambda chase: ())
        self.runner = CommandRunner(self, self.seeds, self.read_side, project_chase, cache, also)
        self.dice = DiceResolver(self.seeds)
        self.history = ChaseHistory(self.runner, self.events, self.seeds, self.renderers, self.read_side)
        self.commands: dict[str, Any] = {system.package: system.commands(self.runner, self.dice) for system in systems if system.commands}
        # Every system's declared commands, sent one way (application/command_service.py).
        self.declared = CommandService(
            self.runner, self.dice, self.odds_of, outcome_odds_of(systems), by_name([c for system in systems for c in system.declared]),
            {name: acting for system in systems if system.declared for name, acting in system.acting_for.items()},
        )
        self.job_kinds: dict[str, JobKind] = {kind: job for system in systems for kind, job in system.job_kinds.items()}
        self.outcome_odds_of = outcome_odds_of(systems)  # ... and of what a command decides from several
        # What may be done now, for the live track view (application/affordances.py).
        self.affordances = Affordances(
            self.runner, self.events, {name: legal for system in systems for name, legal in system.affordances.items()},
            {name: acting for system in systems for name, acting in system.acting_for.items()},
            {name: table for system in systems for name, table in system.chase_now.items()},
        )

    def construct_mapper(self) -> Mapper:
        # The composition root chooses the mapper: one that keeps an upcast event's record as
        # first written, so its hash still checks out (infrastructure/transcodings.py, DESIGN.md 3).
        return self.factory.mapper(transcoder=self.construct_transcoder(), mapper_class=self._mapper_class)

    def construct_repository(self) -> Repository:
        # Without eventsourcing's aggregate cache: it deep-copied the cached chase on every load,
        # racing with threads fast-forwarding it. The runner keeps its own (application/chase_cache.py),
        # sized by AGGREGATE_CACHE_MAXSIZE.
        return Repository(event_store=self.events, snapshot_store=self.snapshots)

    def register_transcodings(self, transcoder: Any) -> None:
        super().register_transcodings(transcoder)
        for transcoding in self._transcodings:
            transcoder.register(transcoding)

    def save(self, *objs: Any, **kwargs: Any) -> list[Any]:
        """eventsourcing's save, an aggregate's events collected by its class: eventsourcing asks
        typing's runtime protocols, which inspect their members on every check (some 30 us a
        command, bench/http_profile.py). Anything else is collected as eventsourcing collects it."""
        processing_event: ProcessingEvent[Any] = ProcessingEvent()
        for obj in objs:
            if isinstance(obj, BaseAggregate):
                processing_event.events.extend(obj.collect_events())
                processing_event.aggregates[obj.id] = obj
            else:
                processing_event.collect_events(obj)
        processing_event.saved_kwargs.update(kwargs)
        recordings = self._record(processing_event)
        self._take_snapshots(processing_event)
        self._notify(recordings)
        self.notify(processing_event.events)  # (eventsourcing's deprecated hook, as its save calls it)
        return recordings

    def _notify(self, recordings: list[Any]) -> None:
        """eventsourcing's hook after new events are saved: each save announces the chases it
        changed to the live feed (SSE streams) and has their webhooks sent the new events.
        Neither ever fails a command."""
        super()._notify(recordings)
        if self.live is None and self.webhooks is None:
            return
        versions: dict[str, int] = {}
        for recording in recordings:
            event = recording.domain_event
            chase_id = id_text(event.originator_id)
            versions[chase_id] = max(versions.get(chase_id, 0), event.originator_version)
        for chase_id, version in versions.items():
            if self.live is not None:
                self.live.publish(chase_id, version)
        if self.webhooks is not None:
            try:
                self.webhooks.recorded(versions)
            except Exception:  # noqa: BLE001 - the events are saved; the next command (or a retry) sends them
                log.warning("webhook deliveries not submitted for %s", ", ".join(versions), exc_info=True)

    def _take_snapshots(self, processing_event: Any) -> None:
        """eventsourcing's hook after a save, taking each SNAPSHOT_INTERVAL-th snapshot from the
        chase just saved, which is that version already: eventsourcing re-read the chase from the
        store and folded its events again (a read and a hash check per event, bench/http_profile.py)
        to get the same state. A snapshot of an earlier event of a batch is still taken its way."""
        for event in processing_event.events:
            chase = processing_event.aggregates.get(event.originator_id)
            interval = self.snapshotting_intervals.get(type(chase))
            if chase is None or interval is None or not snapshot_due(chase, event.originator_version, interval):
                continue
            if chase.version == event.originator_version:
                self.snapshots.put([getattr(type(chase), "Snapshot", type(self).snapshot_class).take(chase)])
            else:
                self.take_snapshot(event.originator_id, event.originator_version, self.snapshotting_projectors[type(chase)])

    def close(self) -> None:
        for part in (self.webhooks, self.jobs and self.jobs.queue, self.live, self.recorder):
            close = getattr(part, "close", None)
            if close is not None:
                close()
        super().close()

    # -- chases and tokens -----------------------------------------------------------------

    def create_chase(self, name: str, dice: str = "server", system: str | None = None, optional_rules: Sequence[str] | None = None) -> dict[str, Any]:
        """Create a chase in set-up; its server-dice seed is committed in its first event.
        ``optional_rules``: the optional rules of its system the table uses (None: the system's default)."""
        return self._create(name, dice, system, optional_rules=optional_rules)[1]

    def _create(
        self, name: str, dice: str, system: str | None, keeper_token: bool = False, optional_rules: Sequence[str] | None = None,
    ) -> tuple[str | None, dict[str, Any]]:
        system = system or self.default_system
        if system not in self.chase_classes:
            raise InvalidInput("system", f"must be one of {', '.join(self.chase_classes)}")
        chase_id = uuid4()
        # Checked in memory first (a refused name, dice or optional rule keeps no seed behind).
        self.chase_classes[system].start(chase_id, name, dice, "0" * 64, optional_rules)
        commitment = self.seeds.new_seed(chase_id)
        chase = self.chase_classes[system].start(chase_id, name, dice, commitment, optional_rules)
        views = self.read_side.views_for(chase)  # written in the events' own transaction
        recordings = self.save(chase, along=((views,) if views else ()) + tuple(self.runner.also(chase)))
        # The token before the views: a chase whose views cannot be rendered is still the Keeper's.
        token = self.access.issue(str(chase_id), KEEPER, label="keeper") if keeper_token else None
        view = self.read_side.after_save(chase, recordings, views)["track"]
        self.runner.cache.check_in(chase)  # saved: the chase's first command starts from it
        return token, view

    def start_chase(self, name: str, dice: str = "server", system: str | None = None, optional_rules: Sequence[str] | None = None) -> tuple[dict[str, Any], str]:
        """Create a chase and the Keeper's token for it (shown once, kept only hashed)."""
        token, view = self._create(name, dice, system, keeper_token=True, optional_rules=optional_rules)
        assert token is not None
        return view, token

    def issue_player_token(self, chase_id: UUID, participant_ids: Sequence[str], *, by: Principal = SYSTEM) -> str:
        """A token for a player, bound to the participants they act for."""
        permit_record(by, "issue_token")
        view = self.track(chase_id)
        unknown = [pid for pid in participant_ids if pid not in view["participants"]]
        if not participant_ids or unknown:
            raise InvalidInput("participant_ids", f"name one or more participants of this chase; unknown: {', '.join(unknown) or 'none given'}")
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

    def exists(self, chase_id: UUID | str) -> bool:
        """Whether there is a chase of that id (any text: not a UUID, no chase)."""
        try:
            return bool(self.recorder.select_events(UUID(str(chase_id)), limit=1))
        except ValueError:
            return False

    def end_chase(self, chase_id: UUID, outcome: str, note: str = "", expected_version: int | None = None, *, by: Principal = SYSTEM) -> dict[str, Any]:
        """The Keeper ends the chase, whatever its system; its seed is revealed in the same action."""
        permit_record(by, "end_chase")
        return self.runner.run(chase_id, lambda c: c.end(outcome, note), expected_version=expected_version).track

    # -- queries ---------------------------------------------------------------------------

    def track(self, chase_id: UUID) -> dict[str, Any]:
        """The chase's track view (read model)."""
        return self.view(chase_id, "track")

    def vehicles(self, chase_id: UUID) -> dict[str, Any]:
        """The vehicle view: each vehicle's state, its occupants and what it lost."""
        return self.view(chase_id, "vehicles")

    def view(self, chase_id: UUID, name: str) -> dict[str, Any]:
        """A view of the chase (read model); every command wrote its chase's views before it
        answered, so a read after a command shows it (read-your-writes)."""
        view = self.read_side.view(chase_id, name)
        if view is None:
            raise ChaseNotFound(f"no chase {chase_id}")
        return view

    def rolls(self, chase_id: UUID, **filters: Any) -> list[dict[str, Any]]:
        rows = self.read_side.rolls_of(chase_id, {k: v for k, v in filters.items() if v is not None})
        if rows is None:
            raise ChaseNotFound(f"no chase {chase_id}")
        return rows

    def try_out(self, command: Callable[[], Any]) -> dict[str, Any]:
        """Odds before a roll: ``command`` (a call of any system's command) as a dry run, which
        records nothing (application/dry_run.py ``odds_before``)."""
        return odds_before(command, self.odds_of, self.outcome_odds_of)

    def roll_history(
        self, chase_id: UUID, version: int | None = None, after: int = 0, limit: int | None = None, **filters: Any,
    ) -> list[dict[str, Any]]:
        """The roll history as a player reads it: every roll (as it was at ``version``, time
        travel) with the odds it had, worked out from the recorded roll (application/projections/rolls.py);
        ``after``, ``limit``: a page of it, by sequence number (the odds worked out for that page only)."""
        rows = self.history.rolls_at(chase_id, version, **filters) if version is not None else self.rolls(chase_id, **filters)
        rows = [r for r in rows if r["sequence"] > after][:limit]
        return with_odds(rows, self.odds_of)
