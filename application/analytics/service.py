"""Analytics reports of a chase, a session or a campaign, for the Keeper or for a player.

The facts are kept current by the view pipeline (application/analytics/facts.py); a report reads
the facts of its chases and aggregates them (application/analytics/report.py). A chase set aside
by the projector has its facts read from its own events instead, so its report is never stale.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator, Sequence
from uuid import UUID

from application.access import KEEPER, PLAYER, SYSTEM_ROLE, Principal
from application.analytics import report
from application.analytics.sessions import CAMPAIGN, SESSION, Sessions
from application.projections.rolls import roll_marks
from application.runner import ChaseNotFound

REPORT_JOB = "analytics report"


@contextmanager
def paused_gc() -> Iterator[None]:
    """No cyclic garbage collection meanwhile: nothing made here forms a cycle."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class Analytics:
    """Reports from analytics facts, and the sessions and campaigns they are grouped in."""

    def __init__(self, ledger: Any, sessions: Sessions) -> None:
        self.ledger = ledger
        self.sessions = sessions

    def chase_report(self, chase_id: UUID | str, by: Principal, series: bool = False, per_roll: bool = False) -> dict[str, Any]:
        """The analytics of one chase, as ``by`` may see them (``per_roll``: with a row per roll)."""
        track = self.ledger.track(UUID(str(chase_id)))
        scope = {"kind": "chase", "id": str(chase_id), "name": track["name"], "chases": [_chase(track)]}
        return self._report(scope, [str(chase_id)], by, series, per_roll=per_roll)

    def group_report(self, group_id: str, kind: str, by: Principal, series: bool = False,
                     progress: Callable[[int, int], None] = lambda done, total: None, per_roll: bool = False) -> dict[str, Any]:
        """The analytics of a session's (or a campaign's) chases together, as ``by`` may see them;
        a campaign's also by session."""
        group = self.sessions.group(group_id, kind)
        chase_ids = self.sessions.chases(group)
        tracks = [self.ledger.track(UUID(c)) for c in chase_ids]
        scope = {"kind": kind, "id": str(group_id), "name": group["name"], "chases": [_chase(t) for t in tracks]}
        sessions: dict[str, dict[str, Any]] | None = None
        if kind == CAMPAIGN:
            scope["sessions"] = list(group["sessions"])
            sessions = {}
            for sid in group["sessions"]:
                session = self.sessions.group(sid, SESSION)
                sessions.update({c: {"session_id": sid, "name": session["name"]} for c in session["chases"]})
        return self._report(scope, chase_ids, by, series, progress, sessions, per_roll)

    def submit_report(self, group_id: str, kind: str, by: Principal) -> dict[str, Any]:
        """A report over many chases as a background job, with progress (chases read / all)."""
        self.sessions.group(group_id, kind)
        viewer = report.KEEPER_VIEW if by.role in (KEEPER, SYSTEM_ROLE) else report.PLAYER_VIEW
        return self.ledger.jobs.submit(REPORT_JOB, {"group_id": str(group_id), "kind": kind, "viewer": viewer,
                                                    "chase_id": by.chase_id if viewer == report.PLAYER_VIEW else None})

    def _report(self, scope: dict[str, Any], chase_ids: Sequence[str], by: Principal, series: bool,
                progress: Callable[[int, int], None] = lambda done, total: None,
                sessions: dict[str, dict[str, Any]] | None = None, per_roll: bool = False) -> dict[str, Any]:
        viewer = report.KEEPER_VIEW if by.role in (KEEPER, SYSTEM_ROLE) else report.PLAYER_VIEW
        facts: list[dict[str, Any]] = []
        people: dict[str, dict[str, Any]] = {}
        with paused_gc():  # 100,000 facts are as many long-lived dicts: collections rescanned them all, often
            for done, chase_id in enumerate(chase_ids, 1):
                facts += self.facts(chase_id)
                people.update(self.people(chase_id))
                progress(done, len(chase_ids))
            return report.build(scope, facts, people, viewer, series, sessions, per_roll)

    def facts(self, chase_id: str) -> list[dict[str, Any]]:
        """The chase's facts as kept; from its events when it is set aside (its rows wait) or
        when none are kept (a chase recorded before analytics, until the views are rebuilt:
        every chase's first event, its creation, is a fact)."""
        if not self.ledger.views.set_aside_chases([chase_id]):
            kept = self.ledger.views.analytics_facts([chase_id])
            if kept:
                return kept
        return facts_of(self.ledger.events.get(UUID(chase_id)), self.ledger.renderers.facts)

    def people(self, chase_id: str) -> dict[str, dict[str, Any]]:
        """Each participant's name, role, and the label of the player token acting for them (None:
        the Keeper's). A participant in several player tokens is counted under the first."""
        players: dict[str, str] = {}
        for token in self.ledger.access.issued(chase_id):
            if token["role"] == PLAYER:
                for pid in token["participant_ids"]:
                    players.setdefault(pid, token["label"])
        participants = self.ledger.track(UUID(chase_id)).get("participants") or {}
        return {pid: {"name": p.get("name"), "chase_id": chase_id, "role": p.get("role"), "player": players.get(pid)}
                for pid, p in participants.items()}


def facts_of(events: Iterable[Any], reader: Callable[[Any], list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """A chase's analytics facts made from its events, marked by its undo marks as the view
    pipeline marks the kept ones (so the two compare equal: the check job)."""
    rows: list[dict[str, Any]] = []
    for event in events:
        rows += reader(event)
        for mark in roll_marks(event):
            for row in rows:
                if row["action"] in mark["actions"]:
                    row.update(undone=mark["undone"], undone_by=mark["by"])
    return rows


def _chase(track: dict[str, Any]) -> dict[str, Any]:
    return {"chase_id": track["chase_id"], "name": track["name"], "system": track["system"],
            "phase": track["phase"], "outcome": track["outcome"], "rounds": track["round"]}


def report_job(ledger: Any, run: Any, params: dict[str, Any]) -> dict[str, Any]:
    """The job: a session's or campaign's report, reporting progress chase by chase."""
    by = Principal(params["viewer"] if params["viewer"] == KEEPER else PLAYER, params.get("chase_id"))
    if params["kind"] not in (SESSION, CAMPAIGN):
        raise ChaseNotFound(f"no {params['kind']}")
    return ledger.analytics.group_report(params["group_id"], params["kind"], by, progress=run.progress)
