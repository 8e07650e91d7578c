"""The read side as the command runner sees it: one call right after a save, one read.

For now both catch the views up from the notification log (application/views.py ViewUpdater)
and answer with what was written; the views helper's write path replaces this class behind the
same two methods (application/runner.py ReadSide).
"""
from __future__ import annotations

from typing import Any
from uuid import UUID

from application.ports import ChaseViews
from application.projections import Renderers
from application.views import ViewUpdater


class CaughtUpViews:
    """ReadSide by catching up: the saved chase's views are those the catch-up wrote."""

    def __init__(self, updater: ViewUpdater, views: ChaseViews, renderers: Renderers) -> None:
        self.updater = updater
        self.views = views
        self.renderers = renderers

    def after_save(self, chase: Any, recordings: Any) -> dict[str, dict[str, Any]]:
        return self.views_of(chase.id)

    def views_of(self, chase_id: UUID) -> dict[str, dict[str, Any]]:
        """Every view of the chase, by name; {} when there is no such chase."""
        written = self.updater.catch_up().get(str(chase_id))
        if written:
            return written
        # Another process caught this chase up first: read what it wrote.
        track = self.views.chase_view(str(chase_id), "track")
        if track is None:
            return {}
        names = [name for name in self.renderers.names(track["system"]) if name != "track"]
        return {"track": track, **{name: self.views.chase_view(str(chase_id), name) for name in names}}

    def view(self, chase_id: UUID, name: str) -> dict[str, Any] | None:
        """One view of the chase, caught up first (read-your-writes); None when there is none."""
        written = self.updater.catch_up().get(str(chase_id))
        return written[name] if written else self.views.chase_view(str(chase_id), name)
