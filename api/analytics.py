"""Analytics over HTTP: a chase's report, sessions and campaigns (create, add and remove members,
their reports and charts), and a report over many chases as a background job."""
from __future__ import annotations

from typing import Any
from uuid import UUID

from flask import Response, request, url_for
from flask.views import MethodView
from api.parsing import Blueprint
from marshmallow import INCLUDE, Schema, fields, validate

from api.auth import principal
from api.analytics_schemas import Report
from api.job_waits import job_after_wait
from api.jobs import JobAccepted, Wait, accepted, job_not_found
from api.runtime import ledger
from api.view_docs import Shown
from application.access import PLAYER
from application.analytics.sessions import CAMPAIGN, MAX_NAME, SESSION
from application.jobs import JobNotFound
from infrastructure import charts, report_formats

blp = Blueprint("analytics", __name__, url_prefix="", description="Analytics: luck, dice fairness, the game and the clock, per chase, session and campaign")
blp.register_error_handler(JobNotFound, job_not_found)
CHART = {"description": "a chart of the report", "content": {t: {"schema": {"type": "string", "format": "binary"}} for t in charts.FORMATS.values()}}
EXPORT = {"description": "the report: JSON, or CSV or Markdown (?format=csv|md), or one roll a row as CSV (?format=rolls)",
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Report"}},
                      **{t: {"schema": {"type": "string"}} for t in ("text/csv", "text/markdown")}}}


class ReportQuery(Schema):
    format = fields.String(load_default="json", validate=validate.OneOf(list(report_formats.FORMATS)))


class GroupCreate(Schema):
    name = fields.String(required=True, validate=validate.Length(1, MAX_NAME))


class GroupChange(Schema):
    class Meta:
        unknown = INCLUDE  # the log's own bookkeeping (seq)

    kind = fields.String(required=True, metadata={"description": "what changed: session created, chase added, chase removed, ..."})
    member = fields.String(required=True, allow_none=True, metadata={"description": "the chase or session concerned"})
    name = fields.String(required=True, allow_none=True)
    by = fields.String(required=True, metadata={"description": "who changed it"})
    at = fields.String(required=True, metadata={"description": "when, RFC 3339"})


class Group(Schema):
    session_id = fields.String()
    campaign_id = fields.String()
    kind = fields.String()
    name = fields.String()
    chases = fields.List(fields.String())
    sessions = fields.List(fields.String())
    log = fields.List(Shown(GroupChange), metadata={"description": "every change, oldest first"})


class GroupCreated(Schema):
    group = fields.Nested(Group)
    keeper_token = fields.String(metadata={"description": "the Keeper's token for this session or campaign (shown once)"})


class ChaseMember(Schema):
    chase_id = fields.UUID(required=True)
    chase_token = fields.String(required=True, validate=validate.Length(1, 200), metadata={"description": "the chase's Keeper token"})


class SessionMember(Schema):
    session_id = fields.UUID(required=True)
    session_token = fields.String(required=True, validate=validate.Length(1, 200), metadata={"description": "the session's Keeper token"})


def bearer() -> str | None:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


def exported(report: dict[str, Any], fmt: str) -> Any:
    if fmt == "csv":
        return Response(report_formats.to_csv(report), mimetype="text/csv")
    if fmt == "md":
        return Response(report_formats.to_markdown(report), mimetype="text/markdown")
    if fmt == "rolls":
        return Response(report_formats.to_rolls_csv(report), mimetype="text/csv")
    return report


def chart(report: dict[str, Any], kind: str, fmt: str) -> Response:
    return Response(charts.render(report, kind, fmt), mimetype=charts.FORMATS[fmt])


CHART_PATH = f"<any({', '.join(charts.KINDS)}):kind>.<any({', '.join(charts.FORMATS)}):fmt>"


@blp.route("/chases/<uuid:chase_id>/analytics")
class ChaseAnalytics(MethodView):
    @blp.arguments(ReportQuery, location="query")
    @blp.response(200, Report)
    @blp.doc(responses={"200": EXPORT})
    def get(self, query, chase_id: UUID):
        """The chase's analytics, as the token may see them (a player: without the Keeper's rolls)."""
        report = ledger().analytics.chase_report(chase_id, principal(chase_id), per_roll=query["format"] == "rolls")
        return exported(report, query["format"])


@blp.route(f"/chases/<uuid:chase_id>/analytics/charts/{CHART_PATH}")
class ChaseChart(MethodView):
    @blp.doc(responses={"200": CHART})
    def get(self, chase_id: UUID, kind: str, fmt: str):
        """A chart of the chase's analytics: luck over time, levels of success, face histograms."""
        return chart(ledger().analytics.chase_report(chase_id, principal(chase_id), series=True), kind, fmt)


def group_routes(kind: str, member: str, member_schema: type[Schema]) -> None:
    """The endpoints of sessions (members: chases) or campaigns (members: sessions)."""
    plural = f"/{kind}s"
    key = f"{kind}_id"

    def keeper(group_id: UUID) -> Any:
        return ledger().analytics.sessions.keeper(str(group_id), bearer(), kind)

    def reader(group_id: UUID) -> Any:
        return ledger().analytics.sessions.reader(str(group_id), bearer(), kind)

    class Groups(MethodView):
        @blp.arguments(GroupCreate)
        @blp.response(201, GroupCreated)
        def post(self, data):
            group, token = ledger().analytics.sessions.create(kind, data["name"])
            return {"group": group, "keeper_token": token}, 201, {"Location": url_for(f"analytics.{kind}", **{key: group[key]})}

    class One(MethodView):
        @blp.response(200, Group)
        def get(self, **ids):
            reader(ids[key])
            return ledger().analytics.sessions.group(str(ids[key]), kind)

    class Members(MethodView):
        @blp.arguments(member_schema)
        @blp.response(200, Group)
        def post(self, data, **ids):
            by = keeper(ids[key])
            sessions = ledger().analytics.sessions
            if kind == SESSION:
                return sessions.add_chase(str(ids[key]), str(data["chase_id"]), data["chase_token"], by)
            return sessions.add_session(str(ids[key]), str(data["session_id"]), data["session_token"], by)

    class Member(MethodView):
        @blp.response(200, Group)
        def delete(self, member_id: UUID, **ids):
            return ledger().analytics.sessions.remove(str(ids[key]), kind, str(member_id), keeper(ids[key]))

    class GroupReport(MethodView):
        @blp.arguments(ReportQuery, location="query")
        @blp.response(200, Report)
        @blp.doc(responses={"200": EXPORT})
        def get(self, query, **ids):
            report = ledger().analytics.group_report(str(ids[key]), kind, reader(ids[key]), per_roll=query["format"] == "rolls")
            return exported(report, query["format"])

    class GroupChart(MethodView):
        @blp.doc(responses={"200": CHART})
        def get(self, **ids):
            by = reader(ids[key])
            return chart(ledger().analytics.group_report(str(ids[key]), kind, by, series=True), ids["kind"], ids["fmt"])

    class GroupReportJob(MethodView):
        @blp.response(202, JobAccepted)
        def post(self, **ids):
            job = ledger().analytics.submit_report(str(ids[key]), kind, reader(ids[key]))
            return accepted(job, url_for(f"analytics.{kind}-job", **{key: ids[key]}, job_id=job["job_id"]))

    class GroupJob(MethodView):
        @blp.arguments(Wait, location="query")
        @blp.response(200, JobAccepted)
        def get(self, query, job_id: str, **ids):
            by = reader(ids[key])
            jobs = ledger().jobs

            def read() -> dict[str, Any]:
                job = jobs.get(job_id)
                params = job.get("params") or {}
                # A player reads only players' reports: the Keeper's holds the Keeper's rolls.
                if params.get("group_id") != str(ids[key]) or (by.role == PLAYER and params.get("viewer") != PLAYER):
                    raise JobNotFound(f"no job {job_id} of this {kind}")
                return job

            # Read (and refused when not the group's) before any wait.
            return {"job": job_after_wait(job_id, query["wait"], read, jobs.statuses)}

    docs = {  # set here: one text per kind of group
        (Groups, "post"): f"Create a {kind}; answers with its Keeper's token (shown once).",
        (One, "get"): f"The {kind}: its {member}s and the log of every change (its Keeper, or a player of one of its chases).",
        (Members, "post"): f"Add a {member} ({kind}'s Keeper; the {member}'s Keeper token proves it is theirs).",
        (Member, "delete"): f"Remove a {member} from the {kind} ({kind}'s Keeper); the log keeps that it was there.",
        (GroupReport, "get"): f"The {kind}'s analytics over its chases (?format=json|csv|md); a player's leaves out the Keeper's rolls.",
        (GroupChart, "get"): f"A chart of the {kind}'s analytics (luck, levels, faces; svg or png).",
        (GroupReportJob, "post"): f"The {kind}'s report as a background job with progress (chases read / all).",
        (GroupJob, "get"): f"A report job of this {kind}: status, progress, the report as its result.",
    }
    for (cls, method), text in docs.items():
        getattr(cls, method).__doc__ = text
    # Routed once their texts are set: flask-smorest reads the docstrings as a route is declared.
    blp.route(plural, endpoint=f"{kind}s")(Groups)
    blp.route(f"{plural}/<uuid:{key}>", endpoint=kind)(One)
    blp.route(f"{plural}/<uuid:{key}>/{member}s", endpoint=f"{kind}-{member}s")(Members)
    blp.route(f"{plural}/<uuid:{key}>/{member}s/<uuid:member_id>", endpoint=f"{kind}-{member}")(Member)
    blp.route(f"{plural}/<uuid:{key}>/report", endpoint=f"{kind}-report")(GroupReport)
    blp.route(f"{plural}/<uuid:{key}>/charts/{CHART_PATH}", endpoint=f"{kind}-chart")(GroupChart)
    blp.route(f"{plural}/<uuid:{key}>/reports", endpoint=f"{kind}-reports")(GroupReportJob)
    blp.route(f"{plural}/<uuid:{key}>/jobs/<job_id>", endpoint=f"{kind}-job")(GroupJob)


group_routes(SESSION, "chase", ChaseMember)
group_routes(CAMPAIGN, "session", SessionMember)
