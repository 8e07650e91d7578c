"""Background jobs over HTTP: replays, checks, and (for the operator) rebuilds; a game system
submits its own kinds (coc7e's random hazards: api/systems/coc7e/hazards.py).

Submitting a job answers ``202 Accepted`` with the job and its ``Location``; ``GET`` on it shows
its status and progress (``?wait=N`` waits up to N seconds for it to finish, holding no thread:
api/job_waits.py). Chase jobs need the
chase's token; rebuilds touch every chase, so they need the operator's token
(``CHASE_LEDGER_ADMIN_TOKEN``), and are disabled over HTTP when it is not set (``chase rebuild``).
"""
from __future__ import annotations

import hmac
import math
from typing import Any
from uuid import UUID

from flask import Response, request, url_for
from flask.views import MethodView
from api.parsing import Blueprint
from marshmallow import Schema, fields, validate

from api.auth import principal
from api.job_waits import job_after_wait
from api.parsing import Position
from api.paging import Limit, Next, page
from api.problems import problem
from api.timestamps import Timestamp
from api.view_docs import Frame, Shown
from api.runtime import ledger
from application.access import Forbidden, Unauthenticated
from application.jobs import VIEW_NAMES, FramesRemoved, JobNotFound, TooManyReplays

blp = Blueprint("jobs", __name__, url_prefix="/chases", description="Background jobs of a chase: replays, checks, and each system's own")
admin = Blueprint("admin", __name__, url_prefix="/admin", description="Operator jobs: rebuilding the views from the log; chases set aside by the projector")

MAX_WAIT = 30.0


def job_not_found(e: JobNotFound) -> Response:
    return problem(404, "not-found", "Not found", str(e))


def too_many_replays(e: TooManyReplays) -> Response:
    response = problem(429, "too-many-replays", "Too many replays", str(e))
    response.headers["Retry-After"] = str(max(1, math.ceil(e.retry_after)))
    return response


def frames_removed(e: FramesRemoved) -> Response:
    return problem(404, "frames-removed", "Frames removed", str(e))


blp.register_error_handler(JobNotFound, job_not_found)
blp.register_error_handler(TooManyReplays, too_many_replays)
blp.register_error_handler(FramesRemoved, frames_removed)
admin.register_error_handler(JobNotFound, job_not_found)


class Rebuild(Schema):
    views = fields.List(fields.String(validate=validate.OneOf(VIEW_NAMES)), load_default=list(VIEW_NAMES), validate=validate.Length(min=1), metadata={"description": "the views share one tracking position: naming any rebuilds them all"})


class SetAsideChase(Schema):
    chase_id = fields.String()
    version = fields.Integer(metadata={"description": "the first event of the chase not in its views"})
    notification_id = fields.Integer(allow_none=True, metadata={"description": "its position in the event log, when known"})
    error = fields.String(metadata={"description": "why it could not be projected (the last attempt)"})
    first_seen = Timestamp()
    last_seen = Timestamp()
    attempts = fields.Integer()
    retry_at = Timestamp(metadata={"description": "the projector retries it on its first round after this"})


class SetAside(Schema):
    count = fields.Integer()
    chases = fields.List(fields.Nested(SetAsideChase))


class Retry(Schema):
    chase_id = fields.UUID(load_default=None, metadata={"description": "retry this chase only (default: every one set aside)"})


class RetryResult(Schema):
    chase_id = fields.String()
    projected = fields.Boolean()
    version = fields.Integer(metadata={"description": "its views' version, when projected"})
    error = fields.String(metadata={"description": "why it is still set aside"})
    attempts = fields.Integer()


class Retried(Schema):
    results = fields.List(fields.Nested(RetryResult))
    count = fields.Integer(metadata={"description": "chases still set aside"})
    chases = fields.List(fields.Nested(SetAsideChase))


class Wait(Schema):
    wait = fields.Float(load_default=0.0, validate=validate.Range(0, MAX_WAIT), metadata={"description": "seconds to wait for the job to finish"})


class FramePage(Schema):
    after = Position(load_default=0, metadata={"description": "the page after this step (follow `next`)"})
    limit = Limit(100, 1000)


class JobPage(Schema):
    after = fields.String(validate=validate.Length(1, 200), metadata={"description": "the page after this job (follow `next`)"})
    limit = Limit(100, 1000)


class Progress(Schema):
    done = fields.Integer()
    total = fields.Integer()


class Job(Schema):
    job_id = fields.String()
    kind = fields.String(metadata={"description": "replay, check, rebuild, or a system's own (random_hazards)"})
    chase_id = fields.String(allow_none=True)
    status = fields.String(metadata={"description": "pending (not yet sent to a worker), queued, running, retrying, done or failed"})
    progress = fields.Nested(Progress)
    attempts = fields.Integer()
    params = fields.Dict()
    result = fields.Dict(allow_none=True)
    error = fields.String(allow_none=True)
    created_at = Timestamp()
    updated_at = Timestamp()


class JobAccepted(Schema):
    """Every answer about one job, submitted (202) or read (200): the job under ``job``."""

    job = fields.Nested(Job)


class JobList(Schema):
    jobs = fields.List(fields.Nested(Job), metadata={"description": "oldest first"})
    next = Next()


class Frames(Schema):
    frames = fields.List(Shown(Frame), metadata={"description": "step, version, the event and the views after it"})
    next = Next()


def accepted(job: dict[str, Any], location: str) -> tuple[dict[str, Any], int, dict[str, str]]:
    return {"job": job}, 202, {"Location": location}


def chase_job_url(chase_id: UUID, job: dict[str, Any]) -> str:
    return url_for("jobs.ChaseJob", chase_id=chase_id, job_id=job["job_id"])


@blp.route("/<uuid:chase_id>/replays")
class Replays(MethodView):
    @blp.response(202, JobAccepted)
    def post(self, chase_id: UUID):
        """Replay the chase event by event into fresh views (a background job); a chase has at
        most CHASE_LEDGER_REPLAYS_PER_HOUR replays an hour (429 ``too-many-replays``, Retry-After).

        Read the frames step by step (``.../replays/<job_id>/frames``) or stream them at a
        chosen pace (``.../replays/<job_id>/stream?pace=0.5``).
        """
        principal(chase_id)
        job = ledger().jobs.replay(chase_id)
        return accepted(job, chase_job_url(chase_id, job))


@blp.route("/<uuid:chase_id>/replays/<job_id>/frames")
class ReplayFrames(MethodView):
    @blp.arguments(FramePage, location="query")
    @blp.response(200, Frames)
    def get(self, query, chase_id: UUID, job_id: str):
        """A replay's frames, a page at a time (``next``): each event and the views as they were after it.

        A page holds ``limit`` frames or fewer: those of a big chase stop at about 2 MB. A
        replay's frames are removed some time after it (404 ``frames-removed``): replay again.
        """
        principal(chase_id)
        frames, more = ledger().jobs.frame_page(job_id, chase_id, query["after"], query["limit"])
        # page() reads one item past the page as "more follow": a page cut short by its bytes has more.
        return page("frames", frames + [{}] if more else frames, len(frames) if more else query["limit"], lambda frame: frame["step"])


@blp.route("/<uuid:chase_id>/checks")
class Checks(MethodView):
    @blp.response(202, JobAccepted)
    def post(self, chase_id: UUID):
        """Re-run the chase's state at every version and check the live views against it (a job)."""
        principal(chase_id)
        job = ledger().jobs.check(chase_id)
        return accepted(job, chase_job_url(chase_id, job))


@blp.route("/<uuid:chase_id>/jobs")
class ChaseJobs(MethodView):
    @blp.arguments(JobPage, location="query")
    @blp.response(200, JobList)
    def get(self, query, chase_id: UUID):
        """The chase's jobs (replays, checks, each system's own), oldest first, a page at a time (``next``)."""
        principal(chase_id)
        jobs = ledger().jobs.of_chase(chase_id, query.get("after"), query["limit"] + 1)
        return page("jobs", jobs, query["limit"], lambda job: job["job_id"])


@blp.route("/<uuid:chase_id>/jobs/<job_id>")
class ChaseJob(MethodView):
    @blp.arguments(Wait, location="query")
    @blp.response(200, JobAccepted)
    def get(self, query, chase_id: UUID, job_id: str):
        """A job of this chase: status, progress (done / total), result or error."""
        principal(chase_id)
        jobs = ledger().jobs
        return {"job": job_after_wait(job_id, query["wait"], lambda: jobs.get(job_id, chase_id), jobs.statuses)}


def require_operator() -> None:
    """The operator's bearer token (CHASE_LEDGER_ADMIN_TOKEN); rebuilds are off when unset."""
    expected = ledger().worker.admin_token
    if not expected:
        raise Forbidden("operator endpoints are disabled: set CHASE_LEDGER_ADMIN_TOKEN, or run `chase rebuild`")
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthenticated("the operator's token is required: send Authorization: Bearer <token>")
    if not hmac.compare_digest(token.strip().encode(), expected.encode()):
        raise Forbidden("this is not the operator's token")


@admin.route("/rebuilds")
class Rebuilds(MethodView):
    @admin.arguments(Rebuild)
    @admin.response(202, JobAccepted)
    def post(self, data):
        """Clear the views and rebuild them from the log (a background job), with progress."""
        require_operator()
        job = ledger().jobs.rebuild_views(data["views"])
        return accepted(job, url_for("admin.AdminJob", job_id=job["job_id"]))


@admin.route("/jobs/<job_id>")
class AdminJob(MethodView):
    @admin.arguments(Wait, location="query")
    @admin.response(200, JobAccepted)
    def get(self, query, job_id: str):
        """Any job: status, progress (events done / total for a rebuild), result or error."""
        require_operator()
        jobs = ledger().jobs
        return {"job": job_after_wait(job_id, query["wait"], lambda: jobs.get(job_id), jobs.statuses)}


@admin.route("/projection-errors")
class ProjectionErrors(MethodView):
    @admin.response(200, SetAside)
    def get(self):
        """The chases set aside because one of their events could not be projected into the views.

        Every other chase goes on; a set-aside chase's later events wait (in order), and its
        views are rendered from its events on each read meanwhile. The projector retries each
        with backoff; POST .../retry retries now, after a fix.
        """
        require_operator()
        chases = ledger().updater.set_aside_chases()
        return {"count": len(chases), "chases": chases}


@admin.route("/projection-errors/retry")
class ProjectionRetry(MethodView):
    @admin.arguments(Retry)
    @admin.response(200, Retried)
    def post(self, data):
        """Project the set-aside chases (or one) again; lists those still set aside."""
        require_operator()
        chase_id = str(data["chase_id"]) if data["chase_id"] else None
        results = ledger().updater.retry(chase_id)
        chases = ledger().updater.set_aside_chases()
        return {"results": results, "count": len(chases), "chases": chases}
