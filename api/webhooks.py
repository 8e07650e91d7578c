"""Webhooks over HTTP (application/webhooks.py): the Keeper registers a URL on a chase, lists
the chase's webhooks and each one's deliveries, changes (URL, kinds of event, on or off),
re-keys or deletes one. A secret is shown once, when it is made."""
from __future__ import annotations

from typing import Any
from uuid import UUID

from flask import Response, url_for
from flask.views import MethodView
from api.parsing import Blueprint
from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from api.auth import principal
from api.paging import Limit, Next, page
from api.parsing import STORE_INT_MAX, Whole
from api.problems import problem
from api.timestamps import Timestamp
from api.runtime import ledger
from application.webhooks import DELIVERIES_LISTED, TooManyWebhooks, WebhookNotFound

blp = Blueprint("webhooks", __name__, url_prefix="/chases", description="Webhooks: every event of a chase sent to a URL, signed (Standard Webhooks)")

MAX_URL = 2000


def webhook_not_found(e: WebhookNotFound) -> Response:
    return problem(404, "not-found", "Not found", str(e))


def too_many_webhooks(e: TooManyWebhooks) -> Response:
    return problem(409, "too-many-webhooks", "Too many webhooks", str(e))


blp.register_error_handler(WebhookNotFound, webhook_not_found)
blp.register_error_handler(TooManyWebhooks, too_many_webhooks)
MAX_EVENT_KINDS = 100
EVENT_TYPE = r"^chase\.[A-Z][A-Za-z0-9]{0,99}$"


def http_url(value: str) -> None:
    if not value.lower().startswith(("http://", "https://")):
        raise ValidationError("must be an http:// or https:// URL")


def url_field(required: bool) -> fields.Url:
    return fields.Url(required=required, require_tld=False, validate=[validate.Length(max=MAX_URL), http_url], metadata={
        "description": "where each event is POSTed: a public http(s) address without credentials (the server's own networks "
                       "only when the operator allows them: CHASE_LEDGER_WEBHOOK_ALLOW)"})


def event_kinds() -> fields.List:
    return fields.List(fields.String(validate=validate.Regexp(EVENT_TYPE)), allow_none=True, validate=validate.Length(1, MAX_EVENT_KINDS), metadata={
        "description": "the kinds of event sent, as the messages' `type` names them (`chase.DiceRolled`); null or absent: every kind"})


class NewWebhook(Schema):
    url = url_field(required=True)
    after = fields.Integer(validate=validate.Range(min=0, max=2**53), metadata={"description": "send the events after this version (default: the chase's version now, so only what happens next; 0: the whole log)"})
    events = event_kinds()


class WebhookChange(Schema):
    url = url_field(required=False)
    events = event_kinds()
    enabled = fields.Boolean(metadata={"description": "false: send nothing; true: send again, the events recorded meanwhile first"})

    @validates_schema
    def something(self, data: dict[str, Any], **kwargs: Any) -> None:
        if not data:
            raise ValidationError("name at least one of url, events, enabled")


class Webhook(Schema):
    webhook_id = fields.String(required=True)
    chase_id = fields.String(required=True)
    url = fields.String(required=True)
    delivered_version = fields.Integer(required=True, metadata={"description": "the last event the receiver took"})
    created_at = Timestamp(required=True)
    events = fields.List(fields.String(), required=True, allow_none=True, metadata={"description": "the kinds of event sent (null: every kind)"})
    enabled = fields.Boolean(required=True, metadata={"description": "false: nothing is sent (switched off by the Keeper, or after failing too often)"})
    disabled_reason = fields.String(required=True, allow_none=True, metadata={"description": "why it is switched off"})
    failed_attempts = fields.Integer(required=True, metadata={"description": "failed attempts in a row (it is switched off after CHASE_LEDGER_WEBHOOK_DISABLE_AFTER)"})


class RegisteredWebhook(Webhook):
    secret = fields.String(required=True, metadata={"description": "whsec_...: verify each message's webhook-signature with it (Standard Webhooks); shown this once"})


class Webhooks(Schema):
    webhooks = fields.List(fields.Nested(Webhook), required=True)


class Delivery(Schema):
    delivery_id = fields.Integer(metadata={"description": "the attempt's number: later attempts have higher numbers"})
    event_id = fields.String(metadata={"description": "the webhook-id header: the same on every retry, for de-duplication"})
    version = fields.Integer()
    event_type = fields.String()
    attempt = fields.Integer(metadata={"description": "the delivery job's attempt"})
    status = fields.String(metadata={"description": "delivered or failed"})
    response_status = fields.Integer(allow_none=True, metadata={"description": "the receiver's status code (none: no answer)"})
    error = fields.String(allow_none=True)
    at = Timestamp()


class DeliveryPage(Schema):
    before = Whole(1, STORE_INT_MAX, metadata={"description": "the page of attempts before this one (follow `next`)"})
    limit = Limit(DELIVERIES_LISTED, 1000)


class Deliveries(Schema):
    deliveries = fields.List(fields.Nested(Delivery), metadata={"description": "the attempts, newest first, a page at a time"})
    next = Next()


@blp.route("/<uuid:chase_id>/webhooks")
class ChaseWebhooks(MethodView):
    @blp.arguments(NewWebhook)
    @blp.response(201, RegisteredWebhook)
    def post(self, body: dict[str, Any], chase_id: UUID) -> tuple[dict[str, Any], int, dict[str, str]]:
        """Register a URL to be sent every event of the chase (Keeper only); the answer holds its secret."""
        hook = ledger().webhooks.register(chase_id, body["url"], principal(chase_id), body.get("after"), body.get("events"))
        return hook, 201, {"Location": url_for("webhooks.ChaseWebhook", chase_id=chase_id, webhook_id=hook["webhook_id"])}

    @blp.response(200, Webhooks)
    def get(self, chase_id: UUID) -> dict[str, list[dict[str, Any]]]:
        """The chase's webhooks, without their secrets (Keeper only)."""
        return {"webhooks": ledger().webhooks.of_chase(chase_id, principal(chase_id))}


@blp.route("/<uuid:chase_id>/webhooks/<webhook_id>")
class ChaseWebhook(MethodView):
    @blp.response(200, Webhook)
    def get(self, chase_id: UUID, webhook_id: str) -> dict[str, Any]:
        """One webhook of the chase, without its secret (Keeper only)."""
        return ledger().webhooks.one(chase_id, webhook_id, principal(chase_id))

    @blp.arguments(WebhookChange)
    @blp.response(200, Webhook)
    def patch(self, body: dict[str, Any], chase_id: UUID, webhook_id: str) -> dict[str, Any]:
        """Change a webhook's URL or kinds of event, or switch it off or on (Keeper only)."""
        return ledger().webhooks.change(chase_id, webhook_id, principal(chase_id), body)  # type: ignore[arg-type] - the schema's keys

    @blp.response(204)
    def delete(self, chase_id: UUID, webhook_id: str) -> None:
        """Delete a webhook and its delivery list; nothing more is sent to it (Keeper only)."""
        ledger().webhooks.delete(chase_id, webhook_id, principal(chase_id))
        return None


@blp.route("/<uuid:chase_id>/webhooks/<webhook_id>/secret")
class WebhookSecret(MethodView):
    @blp.response(200, RegisteredWebhook)
    def post(self, chase_id: UUID, webhook_id: str) -> dict[str, Any]:
        """Give the webhook a new secret, shown this once; every message from now on is signed with it (Keeper only)."""
        return ledger().webhooks.rekey(chase_id, webhook_id, principal(chase_id))


@blp.route("/<uuid:chase_id>/webhooks/<webhook_id>/deliveries")
class WebhookDeliveries(MethodView):
    @blp.arguments(DeliveryPage, location="query")
    @blp.response(200, Deliveries)
    def get(self, query: dict[str, Any], chase_id: UUID, webhook_id: str) -> tuple[dict[str, Any], int, dict[str, str]]:
        """A webhook's delivery attempts, newest first, a page at a time (``next``), with their status (Keeper only)."""
        limit = query["limit"]
        deliveries = ledger().webhooks.deliveries(chase_id, webhook_id, principal(chase_id), limit + 1, query.get("before"))
        return page("deliveries", deliveries, limit, lambda delivery: delivery["delivery_id"], param="before")
