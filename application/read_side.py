"""The read side as the command runner sees it: the chase's views right after a save, and reads.

After a successful save, ``after_save`` renders the chase's views from the in-memory aggregate
(no event is read back or folded again) and writes them for that chase only, as a
compare-and-set on the chase's view version: written only if the stored views are at the
version just before the new events. So a command never reads, folds or waits on another
chase's events, and two writers (another process's command, the projector) never apply an event
twice nor move a chase's views backwards (DESIGN.md section 7). When the views were further
behind (a process died between its save and its view write, or a rebuild is under way), the
chase's own missing events are read from its stream and their roll rows written too.

A chase whose views cannot be written (the store refuses a row, a renderer raises) is set aside
(application/projector.py) and every other chase goes on. Its views are then rendered from the
aggregate on each read, so a GET after a 2xx still shows the command's effect (read-your-writes);
only when rendering itself fails does a read answer ViewsUnavailable.
"""
from __future__ import annotations

import logging
from typing import Any, Callable
from uuid import UUID

from application.ports import ChaseViews
from application.projections import Renderers
from application.views import TRANSIENT, CATCH_UP_TRIES, ViewsUnavailable, chase_update, fold, project_chase

log = logging.getLogger(__name__)
WRITE_TRIES = 3  # a view write that meets a deadlock or a busy database is tried again


class ChaseReadSide:
    """The chase's views after a command, and the views and roll history a query reads.

    ``app`` is the event-sourced application (its ``events`` and ``repository``); ``set_aside``
    records a chase that cannot be projected (the projector's ``set_aside``).
    """

    def __init__(self, app: Any, views: ChaseViews, renderers: Renderers, set_aside: Callable[[str, int, int | None, BaseException], Any]) -> None:
        self.app = app
        self.views = views
        self.renderers = renderers
        self.set_aside = set_aside

    def after_save(self, chase: Any, recordings: list[Any]) -> dict[str, dict[str, Any]]:
        """The chase's views by name, rendered from the aggregate just saved and written."""
        chase_id = str(chase.id)
        mine = [r for r in recordings if r.domain_event.originator_id == chase.id]
        first = mine[0].domain_event.originator_version if mine else chase.version
        notification_id = mine[0].notification.id if mine else None
        try:
            doc = self.renderers.all(chase)
        except Exception as e:  # noqa: BLE001 - a renderer's defect must not stop the other chases
            self._set_aside(chase_id, first, notification_id, e)
            raise ViewsUnavailable(chase_id, type(e).__name__, recorded=chase.version) from e
        # The events are saved: from here on nothing may fail the command, or a client would send
        # it again and record it twice. A view write that keeps failing sets the chase aside, so
        # reads render from its events (read-your-writes) and the projector retries it.
        for attempt in range(1, WRITE_TRIES + 1):
            try:
                update = chase_update(chase_id, first - 1, chase, [r.domain_event for r in mine], doc, self.renderers.facts)
                if self.views.write_views([update]):  # the views were not where this save left them
                    self._catch_up(chase, doc)
                return doc
            except TRANSIENT as e:
                if attempt == WRITE_TRIES:
                    self._set_aside(chase_id, first, notification_id, e)
            except Exception as e:  # noqa: BLE001 - the store refused this chase's rows: set it aside
                self._set_aside(chase_id, first, notification_id, e)
                break
        return doc

    def _set_aside(self, chase_id: str, version: int, notification_id: int | None, error: BaseException) -> None:
        try:
            self.set_aside(chase_id, version, notification_id, error)
        except Exception:  # noqa: BLE001 - the store is down: the projector finds the gap from its tracking
            log.exception("could not set chase %s aside after its views failed (%r)", chase_id, error)

    def _catch_up(self, chase: Any, doc: dict[str, Any]) -> None:
        """Write the views of a chase whose stored views are not at the version before the
        events just saved: behind (fill in from its own stream) or ahead (nothing to do)."""
        chase_id = str(chase.id)
        for _ in range(CATCH_UP_TRIES):
            stored = self.views.view_versions([chase_id]).get(chase_id, 0)
            if stored >= chase.version or self.views.set_aside_chases([chase_id]):
                return  # newer views written by another writer; or set aside: its events wait
            missing = list(self.app.events.get(chase.id, gt=stored, lte=chase.version))
            if not self.views.write_views([chase_update(chase_id, stored, chase, missing, doc, self.renderers.facts)]):
                return
        log.info("views of chase %s still moving after %d tries: left to the projector", chase_id, CATCH_UP_TRIES)

    def views_of(self, chase_id: UUID | str) -> dict[str, dict[str, Any]]:
        """Every view of the chase, by name; {} when there is no such chase."""
        return self._read(str(chase_id), None) or {}

    def view(self, chase_id: UUID | str, name: str) -> dict[str, Any] | None:
        """One view of the chase; None when there is no such chase. Every command wrote its
        chase's views before it answered, so a read after it shows it (read-your-writes)."""
        return self._read(str(chase_id), name)

    def _read(self, chase_id: str, name: str | None) -> Any:
        row = self.views.read_views(chase_id, name)
        if row is not None and not row["set_aside"] and row["doc"] is not None:
            return row["doc"]
        # Set aside, or never written (its process died between save and view write): render
        # from the aggregate, so that what a command answered stays what a GET shows.
        try:
            state = self._state(chase_id)
            if state is None:
                return None
            doc = self.renderers.all(state)
        except Exception as e:  # noqa: BLE001 - an event this code cannot read or render
            raise ViewsUnavailable(chase_id, type(e).__name__) from e
        return doc.get(name) if name else doc

    def rolls_of(self, chase_id: UUID | str, filters: dict[str, Any]) -> list[dict[str, Any]] | None:
        """The chase's roll history, filtered (participant_id, purpose, round, source, undone);
        None when there is no such chase."""
        chase_id = str(chase_id)
        row = self.views.read_views(chase_id, "track")
        if row is not None and not row["set_aside"]:
            return self.views.roll_history(chase_id, filters)
        uuid = _uuid(chase_id)
        if uuid is None:
            return None
        try:
            events = list(self.app.events.get(uuid))
            if not events:
                return None
            _, rows = fold(events)
        except Exception as e:  # noqa: BLE001 - an event this code cannot read
            raise ViewsUnavailable(chase_id, type(e).__name__) from e
        return [r for r in rows if all(r.get(k) == (bool(v) if k == "undone" else v) for k, v in filters.items())]

    def _state(self, chase_id: str) -> Any:
        uuid = _uuid(chase_id)
        if uuid is None or not self.app.recorder.select_events(uuid, limit=1):
            return None
        return self.app.repository.get(uuid, projector_func=project_chase)


def _uuid(chase_id: str) -> UUID | None:
    try:
        return UUID(chase_id)
    except ValueError:
        return None
