"""Catch-up reader: keeps the views up to date from the application's notification log.

Each batch writes its view rows and moves its tracking position in one transaction, refused
if another process moved the position first, so every event is processed exactly once; the
loser reads again from the new position (DESIGN.md section 7). The track view keeps the chase
state it was rendered from, so the next batch folds on from there.
"""
from __future__ import annotations

from typing import Any, Iterable
from uuid import UUID

from eventsourcing.domain import Snapshot
from eventsourcing.persistence import IntegrityError, StoredEvent

from application.ports import ChaseViews
from application.projections.rolls import apply_marks, roll_marks, roll_row
from application.projections import Renderers

BATCH = 500


def project_chase(chase: Any, events: Iterable[Any]) -> Any:
    """Fold events into a chase; eventsourcing's default checks a runtime Protocol per event,
    which took half the time of loading a chase (bench/commands.py profile)."""
    for event in events:
        chase = event.mutate(chase)
    return chase


def fold(events: Iterable[Any], state: Any = None) -> tuple[Any, list[dict[str, Any]]]:
    """A chase's state and roll history after ``events`` (time travel uses this too)."""
    rows: list[dict[str, Any]] = []
    for event in events:
        state = event.mutate(state)
        row = roll_row(event)
        if row:
            rows.append(row)
        apply_marks(rows, roll_marks(event))
    return state, rows


class ViewUpdater:
    """Projects new events from an application's notification log into its views."""

    def __init__(self, app: Any, views: ChaseViews, renderers: Renderers) -> None:
        self.app = app
        self.views = views
        self.renderers = renderers

    def catch_up(self) -> dict[str, dict[str, Any]]:
        """Process every event not yet in the views; returns the views it wrote, by chase then name."""
        written: dict[str, dict[str, Any]] = {}
        while True:
            previous = self.views.max_tracking_id(self.app.name)
            notifications = self.app.recorder.select_notifications(start=(previous or 0) + 1, limit=BATCH)
            if not notifications:
                return written
            events = [self.app.mapper.to_domain_event(n) for n in notifications]
            tracks, rolls, marks = self._project(events)
            try:
                self.views.save_views(tracks, rolls, marks, self.app.name, notifications[-1].id, previous)
            except IntegrityError:
                continue  # another process recorded this stretch first: read on from there
            written.update({cid: t["doc"] for cid, t in tracks.items()})  # every view, by name

    def _project(self, events: list[Any]) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
        chase_ids = {str(e.originator_id) for e in events}
        states = {cid: self._thaw(cid, saved) for cid, saved in self.views.track_states(chase_ids).items()}
        rolls: list[dict[str, Any]] = []
        marks: list[dict[str, Any]] = []
        for event in events:
            chase_id = str(event.originator_id)
            state = states.get(chase_id)
            if state is not None and state.version >= event.originator_version:
                continue  # already in the view: another process got here first, and save_views will say so
            states[chase_id] = event.mutate(state)
            row = roll_row(event)
            if row:
                rolls.append(row)
            marks += roll_marks(event)
        tracks = {cid: self._freeze(state) for cid, state in states.items() if cid in chase_ids}
        return tracks, rolls, marks

    def _freeze(self, state: Any) -> dict[str, Any]:
        stored = self.app.mapper.to_stored_event(Snapshot.take(state))
        return {"doc": self.renderers.all(state), "version": state.version, "topic": stored.topic, "state": stored.state}

    def _thaw(self, chase_id: str, saved: dict[str, Any]) -> Any:
        stored = StoredEvent(originator_id=UUID(chase_id), originator_version=saved["version"], topic=saved["topic"], state=saved["state"])
        return self.app.mapper.to_domain_event(stored).mutate(None)
