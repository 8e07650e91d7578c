"""The projector: follows the notification log into the views, setting aside what it cannot project.

Commands write their own chase's views in the transaction of their events (application/read_side.py);
the projector (``chase project``, the rebuild job, tests) follows the log from its tracking
position for everything else: events whose views no command wrote (saved without views, a chase
released after being set aside, a database written by an earlier version), and rebuilds. Each batch writes the
chases it moved on and the tracking position in one transaction; each chase's write is a
compare-and-set on its view version, so what a command already wrote is skipped (its events are
not even decoded) and nothing is applied twice (DESIGN.md section 7).

One chase's event that cannot be projected (undecodable, a fold or a renderer raising, the
store refusing its rows: PostgreSQL's jsonb refuses ``\\u0000``) sets that chase aside: a record
(chase id, event version, notification id, error, first and last seen, attempts) is kept,
logged and counted, and every other chase goes on. Later events of a set-aside chase wait for
it, so nothing is ever applied out of order; ``retry`` projects them from the chase's own
stream after a fix: on the operator's word (``chase project --retry``, POST
/admin/projection-errors/retry) and on the projector's rounds, with backoff.
"""
from __future__ import annotations

import logging
import time
from typing import Any, Callable, Sequence
from uuid import UUID

from application.ports import ChaseViews, PositionMoved
from application.projections import Renderers
from application.views import TRANSIENT, chase_update, project_chase

log = logging.getLogger(__name__)

BATCH = 500  # notifications per batch when following the log
RETRY_FIRST = 5.0  # seconds before a set-aside chase is first retried automatically; doubled per attempt
RETRY_CAP = 600.0
ERROR_CHARS = 2000  # of an error's text kept in its record


class Projector:
    """Projects the application's notification log into its views, chase by chase."""

    def __init__(self, app: Any, views: ChaseViews, renderers: Renderers, clock: Callable[[], float] = time.time) -> None:
        self.app = app
        self.views = views
        self.renderers = renderers
        self.clock = clock
        self.set_aside_total = 0  # chases set aside by this process (each attempt that failed)

    # -- following the log -------------------------------------------------------------------

    def catch_up(self) -> dict[str, dict[str, Any]]:
        """Project every event not yet in the views, then retry the set-aside chases that are
        due; returns the views written, by chase then name."""
        written: dict[str, dict[str, Any]] = {}
        while True:
            previous = self.views.max_tracking_id(self.app.name)
            notifications = self.app.recorder.select_notifications(start=(previous or 0) + 1, limit=BATCH)
            if not notifications:
                break
            try:
                written.update(self.project(notifications, previous))
            except PositionMoved:
                continue  # another projector recorded this stretch first: read on from there
        for result in self.retry(due_only=True):
            row = self.views.read_views(result["chase_id"]) if result["projected"] else None
            if row is not None and row["doc"] is not None:  # None: a rebuild cleared it meanwhile
                written[result["chase_id"]] = row["doc"]
        return written

    def project(self, notifications: Sequence[Any], previous: int | None, cache: dict[str, Any] | None = None, unchained: bool = False) -> dict[str, dict[str, Any]]:
        """Project one batch and move the tracking from ``previous`` past it (PositionMoved if
        another projector moved it first). ``cache``: chase states kept between batches (a
        rebuild), by chase id; ``unchained``: skip the chain hashes of events a later one in
        the batch overwrites."""
        cache = {} if cache is None else cache
        updates, failures, firsts = self._updates(notifications, cache, unchained)
        tracking = (self.app.name, previous, notifications[-1].id)
        try:
            refused = self.views.write_views(updates, tracking)
        except TRANSIENT:
            raise
        except Exception:  # noqa: BLE001 - some chase's rows were refused: find which, write the others
            refused = set()
            for update in updates:
                try:
                    refused |= self.views.write_views([update])
                except TRANSIENT:
                    raise
                except Exception as e:  # noqa: BLE001
                    failures[update["chase_id"]] = (update["expected"] + 1, firsts[update["chase_id"]], e)
            self.views.write_views([], tracking)
        for chase_id in refused | failures.keys():
            cache.pop(chase_id, None)  # another writer got there first, or set aside: read it again
        for chase_id, (version, notification_id, error) in failures.items():
            self.set_aside(chase_id, version, notification_id, error)
        return {u["chase_id"]: u["doc"] for u in updates if u["chase_id"] not in refused and u["chase_id"] not in failures}

    def _updates(self, notifications: Sequence[Any], cache: dict[str, Any], unchained: bool) -> tuple[list[dict[str, Any]], dict[str, tuple[int, int | None, BaseException]], dict[str, int]]:
        by_chase: dict[str, list[Any]] = {}
        for n in notifications:
            by_chase.setdefault(str(n.originator_id), []).append(n)
        versions = self.views.view_versions(by_chase)
        waiting = {r["chase_id"] for r in self.views.set_aside_chases(by_chase)}
        updates: list[dict[str, Any]] = []
        failures: dict[str, tuple[int, int | None, BaseException]] = {}
        firsts: dict[str, int] = {}
        for chase_id, chase_notifications in by_chase.items():
            if chase_id in waiting:
                cache.pop(chase_id, None)
                continue  # set aside: its events wait for a retry, in order
            stored = versions.get(chase_id, 0)
            new = [n for n in chase_notifications if n.originator_version > stored]
            if not new:
                continue  # already written (by the command that saved them): not even decoded
            firsts[chase_id] = new[0].id
            try:
                state = cache.get(chase_id)
                if state is None or state.version != stored:
                    state = self._load(chase_id, stored)
                if new[0].originator_version == stored + 1:
                    events = [self.app.mapper.to_domain_event(n) for n in new]
                else:  # events before this batch are missing from the views: read them from the chase's stream
                    events = list(self.app.events.get(UUID(chase_id), gt=stored, lte=new[-1].originator_version))
                state = self._fold(state, events, unchained)
                updates.append(chase_update(chase_id, stored, state, events, self.renderers.all(state), self.renderers.facts))
                cache[chase_id] = state
            except TRANSIENT:
                raise
            except Exception as e:  # noqa: BLE001 - this chase cannot be projected: set it aside, go on
                cache.pop(chase_id, None)
                failures[chase_id] = (new[0].originator_version, new[0].id, e)
        return updates, failures, firsts

    @staticmethod
    def _fold(state: Any, events: Sequence[Any], unchained: bool) -> Any:
        last = len(events) - 1
        for i, event in enumerate(events):
            # Only the last event's chain hash is kept for the chain head: a rebuild skips the others.
            if unchained and i < last and hasattr(event, "mutate_unchained"):
                state = event.mutate_unchained(state)
            else:
                state = event.mutate(state)
        return state

    def _load(self, chase_id: str, version: int) -> Any:
        """The chase at ``version`` (its latest snapshot at or before it, then the events after)."""
        if not version:
            return None
        return self.app.repository.get(UUID(chase_id), version=version, projector_func=project_chase)

    # -- set-aside chases ----------------------------------------------------------------------

    def set_aside(self, chase_id: str, version: int, notification_id: int | None, error: BaseException) -> dict[str, Any]:
        """Record that the chase's event at ``version`` cannot be projected, log and count it."""
        text = f"{type(error).__name__}: {error}"[:ERROR_CHARS]
        before = self.views.set_aside_chases([chase_id])
        attempts = before[0]["attempts"] if before else 0
        now = self.clock()
        record = self.views.set_aside(chase_id, version, notification_id, text, now, now + min(RETRY_CAP, RETRY_FIRST * 2**attempts))
        self.set_aside_total += 1
        log.error(
            "chase %s set aside: its event at version %s (notification %s) cannot be projected (attempt %s): %s",
            chase_id, version, notification_id, record["attempts"], text,
        )
        return record

    def set_aside_chases(self) -> list[dict[str, Any]]:
        """The set-aside chases, oldest first, for the operator."""
        return self.views.set_aside_chases()

    def retry(self, chase_id: str | None = None, due_only: bool = False) -> list[dict[str, Any]]:
        """Project the set-aside chases (that one; those due for a retry) from their own
        streams; each projected is no longer set aside, each still failing is recorded again."""
        chosen = [chase_id] if chase_id else None
        results = []
        for record in self.views.set_aside_chases(chosen, due_by=self.clock() if due_only else None):
            cid = record["chase_id"]
            try:
                self._bring_up(cid)
            except TRANSIENT:
                raise
            except Exception as e:  # noqa: BLE001
                stored = self.views.view_versions([cid]).get(cid, 0)
                again = self.set_aside(cid, stored + 1, None, e)
                results.append({"chase_id": cid, "projected": False, "error": again["error"], "attempts": again["attempts"]})
                continue
            self.views.release(cid)
            try:
                version = self._bring_up(cid)  # events saved while it was set aside (their commands left them to us)
            except Exception as e:  # noqa: BLE001 - even a transient error: released, its events must not be stranded
                again = self.set_aside(cid, self.views.view_versions([cid]).get(cid, 0) + 1, None, e)
                if isinstance(e, TRANSIENT):
                    raise
                results.append({"chase_id": cid, "projected": False, "error": again["error"], "attempts": again["attempts"]})
                continue
            log.warning("chase %s projected after being set aside: its views are at version %s", cid, version)
            results.append({"chase_id": cid, "projected": True, "version": version})
        return results

    def _bring_up(self, chase_id: str) -> int:
        """Write the chase's views up to its last event (compare-and-set, again if another
        writer moved them meanwhile); the version they are at."""
        while True:
            stored = self.views.view_versions([chase_id]).get(chase_id, 0)
            events = list(self.app.events.get(UUID(chase_id), gt=stored))
            if not events:
                return stored
            state = self._fold(self._load(chase_id, stored), events, unchained=False)
            if not self.views.write_views([chase_update(chase_id, stored, state, events, self.renderers.all(state), self.renderers.facts)]):
                return state.version
