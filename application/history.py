"""Undo, rewind and redo, undo requests, the seed, time travel and export (DESIGN.md 4 to 6)."""
from __future__ import annotations

from typing import Any
from uuid import UUID

from application.access import SYSTEM, Principal
from application.permissions import permit_record
from application.ports import SeedVault
from application.projections import Renderers
from application.runner import ChaseNotFound, CommandRunner, ReadSide
from application.views import fold
from domain.chain import hash_record, record_of
from domain.recorded_chase import HistoryRefused

EXPORT_FORMAT = "chase-ledger-export/1"


class ChaseHistory:
    """The record-keeping commands and reads of every chase, whatever its game system.

    ``events`` is the event store (the eventsourcing Application's ``events``): the chase's own
    log, read without loading the chase.
    """

    def __init__(self, runner: CommandRunner, events: Any, seeds: SeedVault, renderers: Renderers, read_side: ReadSide) -> None:
        self.runner = runner
        self.events = events
        self.seeds = seeds
        self.renderers = renderers
        self.read_side = read_side

    # -- undo, rewind, redo ----------------------------------------------------------------

    def undo(self, chase_id: UUID, count: int = 1, reason: str = "", expected_version: int | None = None, *, by: Principal = SYSTEM) -> dict[str, Any]:
        """Undo the last ``count`` actions as one new event; the undone stay in the log."""
        permit_record(by, "undo")

        def command(chase: Any) -> None:
            earlier = self._chase_at(chase_id, chase.undo_target(count))
            chase.undo(count, earlier, by.name, reason)

        return self.runner.run(chase_id, command, expected_version=expected_version).track

    def rewind(self, chase_id: UUID, to_version: int, reason: str = "", expected_version: int | None = None, *, by: Principal = SYSTEM) -> dict[str, Any]:
        """Go back to the state as at an earlier version, as one new event."""
        permit_record(by, "rewind")

        def command(chase: Any) -> None:
            if isinstance(to_version, int) and 1 <= to_version < chase.version:
                self._check_action_boundary(chase_id, to_version)
            chase.rewind(to_version, self._chase_at(chase_id, to_version) if 1 <= to_version < chase.version else chase, by.name, reason)

        return self.runner.run(chase_id, command, expected_version=expected_version).track

    def redo(self, chase_id: UUID, expected_version: int | None = None, *, by: Principal = SYSTEM) -> dict[str, Any]:
        """Restore the last undone or rewound stretch, with its original dice."""
        permit_record(by, "redo")
        return self.runner.run(chase_id, lambda c: c.redo(self._chase_at(chase_id, c.redo_target()), by.name), expected_version=expected_version).track

    def request_undo(self, chase_id: UUID, count: int = 1, note: str = "", *, by: Principal = SYSTEM) -> tuple[int, dict[str, Any]]:
        """A player asks the Keeper to undo the last ``count`` actions."""
        permit_record(by, "request_undo")
        done = self.runner.run(chase_id, lambda c: c.request_undo(count, by.name, note))
        return done.result, done.track

    def answer_undo_request(self, chase_id: UUID, request_id: int, accept: bool, expected_version: int | None = None, *, by: Principal = SYSTEM) -> dict[str, Any]:
        permit_record(by, "answer_undo_request")

        def command(chase: Any) -> None:
            chase.undo_request(request_id)
            earlier = self._chase_at(chase_id, chase.undo_request_target(request_id)) if accept else None
            chase.answer_undo_request(request_id, accept, by.name, earlier)

        return self.runner.run(chase_id, command, expected_version=expected_version).track

    # -- the seed --------------------------------------------------------------------------

    def reveal_seed(self, chase_id: UUID, *, by: Principal = SYSTEM) -> dict[str, Any]:
        """Reveal the seed now; if the chase goes on, a fresh seed is committed at once."""
        permit_record(by, "reveal_seed")

        def command(chase: Any) -> None:
            if chase.seed_commitment is None:
                raise HistoryRefused("the seed has already been revealed")
            seed = self.seeds.seed_to_reveal(chase.id, chase.seed_commitment)
            chase.reveal_seed(seed, by.name)

        return self.runner.run(chase_id, command).track

    def contribute_entropy(self, chase_id: UUID, entropy: str, *, by: Principal = SYSTEM) -> dict[str, Any]:
        """A player's entropy, mixed into every later server roll of the chase."""
        permit_record(by, "add_entropy")
        return self.runner.run(chase_id, lambda c: c.contribute_entropy(entropy, by.name)).track

    # -- reading the record ----------------------------------------------------------------

    def chase_events(self, chase_id: UUID, after: int = 0, limit: int | None = None) -> list[dict[str, Any]]:
        """The chase's own log, oldest first, each event with its hash."""
        events = list(self.events.get(chase_id, gt=after or None, limit=limit))
        if not events and not after:
            self.runner.load(chase_id)
        if not events:
            return []
        # The chase's first event names the encoding its chain is hashed in (domain/chain.py).
        first = events[0] if events[0].originator_version == 1 else next(iter(self.events.get(chase_id, lte=1)))
        return [describe(e, chain_encoding(first)) for e in events]

    def export(self, chase_id: UUID) -> dict[str, Any]:
        """The full log, for `chase verify` to check offline."""
        events = self.chase_events(chase_id)
        return {"format": EXPORT_FORMAT, "chase_id": str(chase_id), "events": events}

    def track_at(self, chase_id: UUID, version: int) -> dict[str, Any]:
        """The track view as it was at ``version`` (time travel: nothing is changed)."""
        return self.view_at(chase_id, version, "track")

    def view_at(self, chase_id: UUID, version: int, name: str) -> dict[str, Any]:
        """A view as it was at ``version``, folded afresh from the log up to it."""
        state, _ = fold(self.events.get(chase_id, lte=self._past_version(chase_id, version)))
        return self.renderers.one(state, name)

    def rolls_at(self, chase_id: UUID, version: int, **filters: Any) -> list[dict[str, Any]]:
        """The roll history as it was at ``version``, with what counted then."""
        _, rows = fold(self.events.get(chase_id, lte=self._past_version(chase_id, version)))
        return [r for r in rows if all(r.get(k) == v for k, v in filters.items() if v is not None)]

    # -- internals -------------------------------------------------------------------------

    def _past_version(self, chase_id: UUID, version: int) -> int:
        track = self.read_side.views_of(chase_id).get("track")
        if track is None:
            raise ChaseNotFound(f"no chase {chase_id}")
        current = track["version"]
        if not 1 <= version <= current:
            raise HistoryRefused(f"version must be from 1 to {current}, the chase's current version", "version")
        return version

    def _chase_at(self, chase_id: UUID, version: int) -> Any:
        return self.runner.game_at(chase_id, version)

    def _check_action_boundary(self, chase_id: UUID, version: int) -> None:
        """A rewind lands between actions: never half-way through a move and the turn it ended."""
        at, following = list(self.events.get(chase_id, gt=version - 1, limit=2))
        if following.action == at.action and not following.meta:
            last = version
            for event in self.events.get(chase_id, gt=version):
                if event.action != at.action:
                    break
                last = event.originator_version
            raise HistoryRefused(
                f"version {version} is in the middle of an action (versions {at.action} to {last}): "
                f"rewind to {at.action - 1} or {last}",
                "to_version",
            )


def chain_encoding(created: Any) -> str:
    """The encoding a chase's hash chain is taken in, as its first event (loaded) names it."""
    return created.chain_encoding  # a Created of version 1 says sorted-json (its upcaster)


def describe(event: Any, encoding: str) -> dict[str, Any]:
    """An event as a client reads it in the chase's log: its record, its name and its hash
    (in ``encoding``, the chain's, as the chase's first event names it)."""
    record = record_of(event)
    return {**record, "name": type(event).__name__, "hash": hash_record(record, encoding)}
