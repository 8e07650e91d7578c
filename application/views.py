"""Catch-up reader: keeps the views up to date from the application's notification log.

Each batch writes its view rows and its tracking position in one transaction, so every event
is processed exactly once; two processes catching up at once collide on the tracking row, and
the loser reads again from the new position (DESIGN.md section 7).
"""
from __future__ import annotations

from typing import Any

from eventsourcing.persistence import IntegrityError

from application.ports import ChaseViews
from application.projections import rolls as roll_projection
from application.projections import track as track_projection

BATCH = 500


class ViewUpdater:
    """Projects new events from an application's notification log into its views."""

    def __init__(self, app: Any, views: ChaseViews) -> None:
        self.app = app
        self.views = views

    def catch_up(self) -> int:
        """Process every event not yet in the views; returns how many were processed."""
        processed = 0
        while True:
            previous = self.views.max_tracking_id(self.app.name)
            start = (previous or 0) + 1
            notifications = self.app.recorder.select_notifications(start=start, limit=BATCH)
            if not notifications:
                return processed
            events = [self.app.mapper.to_domain_event(n) for n in notifications]
            tracks, rolls = self._project(events)
            try:
                self.views.save_views(tracks, rolls, self.app.name, notifications[-1].id, previous)
            except IntegrityError:
                continue  # another process recorded this stretch first: read on from there
            processed += len(events)

    def _project(self, events: list[Any]) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
        chase_ids = {str(e.originator_id) for e in events if hasattr(e, "originator_version")}
        tracks = self.views.track_views(chase_ids)
        rolls = []
        for event in events:
            if not hasattr(event, "originator_version") or type(event).__name__ == "Snapshot":
                continue
            chase_id = str(event.originator_id)
            tracks[chase_id] = track_projection.apply(tracks.get(chase_id) or {}, event)
            row = roll_projection.roll_row(event)
            if row:
                rolls.append(row)
        return tracks, rolls
