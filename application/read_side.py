"""The read side as the command runner sees it: the chase's views with a command, and reads.

Before a command's events are saved, ``views_for`` renders the chase's views from the in-memory
aggregate (no event is read back or folded again) and hands the event store a ``ViewWrite``,
which the event recorder makes in the transaction that records the events: one commit per
command, so a command's events and its views are never seen apart. The write is a
compare-and-set on the chase's view version: made only if the stored views are at the version
just before the new events. So a command never reads, folds or waits on another chase's
events, and two writers (another process's command, the projector) never apply an event twice
nor move a chase's views backwards (DESIGN.md section 7). When the views were further behind (a
rebuild is under way, or the chase was set aside and released), ``after_save`` reads the
chase's own missing events from its stream and writes them too.

A chase whose views cannot be written (the store refuses a row: PostgreSQL's jsonb refuses
``\\u0000``; a renderer raises) still has its events recorded: the recorder rolls the views
back alone and commits the events, and the chase is set aside (application/projector.py) while
every other chase goes on. Its views are then rendered from the aggregate on each read, so a
GET after a 2xx still shows the command's effect (read-your-writes); only when rendering itself
fails does a read answer ViewsUnavailable.
"""
from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from typing import Any, Callable
from uuid import UUID

from application.ports import ChaseViews
from application.projections import Renderers
from application.views import TRANSIENT, CATCH_UP_TRIES, ViewsUnavailable, chase_update, fold, project_chase
from domain.json_encoding import id_text

log = logging.getLogger(__name__)
WRITE_TRIES = 3  # a view write that meets a deadlock or a busy database is tried again
SAVED_KEPT = 256  # chases whose last command's events are kept (``last_saved``)


class ViewWrite:
    """A chase's views, written in the transaction that records its events (an AlongWrite)."""

    optional = True  # refused rows must not cost the command its events: the chase is set aside instead

    def __init__(self, views: ChaseViews, update: dict[str, Any]) -> None:
        self.views = views
        self.update = update
        self.encoded = views.encode(update)  # now: the transaction holds the store's lock while it runs
        self.written: bool | None = None  # None: not written along (yet); False: views not at the expected version
        self.error: BaseException | None = None  # why the store refused the rows
        self._result: Callable[[], bool] | None = None

    @property
    def doc(self) -> dict[str, dict[str, Any]]:
        return self.update["doc"]

    def send(self, cursor: Any) -> None:
        self._result = self.views.write_in(cursor, self.encoded)

    def receive(self) -> None:
        assert self._result is not None
        self.written = self._result()

    def drop(self, error: BaseException) -> None:
        self.written, self.error = None, error


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
        self._saved: OrderedDict[UUID, list[Any]] = OrderedDict()  # each chase's last command's events, as saved here
        self._saved_lock = threading.Lock()

    def last_saved(self, chase_id: UUID, version: int) -> list[Any] | None:
        """The events of the command this process saved last on the chase, when they brought it
        to ``version``; else None (ask the store). Its answer reads them without a select."""
        with self._saved_lock:
            events = self._saved.get(chase_id)
        return events if events and events[-1].originator_version == version else None

    def _remember(self, chase_id: UUID, events: list[Any]) -> None:
        with self._saved_lock:
            self._saved[chase_id] = events
            self._saved.move_to_end(chase_id)
            while len(self._saved) > SAVED_KEPT:
                self._saved.popitem(last=False)

    def views_for(self, chase: Any) -> ViewWrite | None:
        """The chase's views, rendered from it with its pending events, for the transaction
        that records them; None when a renderer fails (``after_save`` then sets it aside)."""
        events = list(chase.pending_events)
        if not events:
            return None
        try:
            doc = self.renderers.all(chase)
        except Exception:  # noqa: BLE001 - the events are recorded all the same; after_save sets the chase aside
            return None
        return ViewWrite(self.views, chase_update(id_text(chase.id), events[0].originator_version - 1, chase, events, doc, self.renderers.facts))

    def after_save(self, chase: Any, recordings: list[Any], along: ViewWrite | None = None) -> dict[str, dict[str, Any]]:
        """The chase's views by name after its events were saved: as written with them
        (``along``), or rendered from the aggregate just saved and written now."""
        mine = [r for r in recordings if r.domain_event.originator_id == chase.id]
        self._remember(chase.id, [r.domain_event for r in mine])
        first = mine[0].domain_event.originator_version if mine else chase.version
        notification_id = mine[0].notification.id if mine else None
        # The events are saved: from here on nothing may fail the command, or a client would send
        # it again and record it twice. Views that cannot be written set the chase aside, so
        # reads render from its events (read-your-writes) and the projector retries it.
        if along is not None and along.error is not None:  # the store refused the rows: events recorded alone
            self._set_aside(str(chase.id), first, notification_id, along.error)
            return along.doc
        if along is not None and along.written is not None:
            if not along.written:  # the views were not where the last command left them
                self._catch_up(chase, along.doc)
            return along.doc
        chase_id = str(chase.id)
        try:
            doc = self.renderers.all(chase)
        except Exception as e:  # noqa: BLE001 - a renderer's defect must not stop the other chases
            self._set_aside(chase_id, first, notification_id, e)
            raise ViewsUnavailable(chase_id, type(e).__name__, recorded=chase.version) from e
        # Not written with the events (a store whose recorder makes no writes along): write now.
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

    def view(self, chase_id: UUID | str, name: str, *, stored: bool = False) -> dict[str, Any] | None:
        """One view of the chase; None when there is no such chase. Every command wrote its
        chase's views before it answered, so a read after it shows it (read-your-writes).
        ``stored``: read wholly from the store, never from the rows this process remembers
        writing (the check job, which must see what other processes would serve)."""
        return self._read(str(chase_id), name, stored)

    def _read(self, chase_id: str, name: str | None, stored: bool = False) -> Any:
        row = self.views.read_views(chase_id, name, take_kept=not stored)
        if row is not None and not row["set_aside"] and row["doc"] is not None:
            return row["doc"]
        # Set aside, or never written (saved without views, or a rebuild is under way): render
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
