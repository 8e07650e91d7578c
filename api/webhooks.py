"""Webhooks over HTTP (application/webhooks.py): the Keeper registers a URL on a chase, lists
the chase's webhooks and each one's deliveries. The secret is shown once, at registration."""
from __future__ import annotations

from typing import Any
from uuid import UUID

from flask import Response, url_for
from flask.views import MethodView
from api.parsing import Blueprint
from marshmallow import Schema, ValidationError, fields, validate

from api.auth import principal
from api.paging import Limit, Next, page
from api.parsing import STORE_INT_MAX, Whole
from api.problems import problem
from api.timestamps import Timestamp
from api.runtime import ledger
from application.webhooks import DELIVERIES_LISTED, WebhookNotFound

blp = Blueprint("webhooks", __name__, url_prefix="/chases", description="Webhooks: every event of a chase sent to a URL, signed (Standard Webhooks)")

MAX_URL = 2000


def webhook_not_found(e: WebhookNotFound) -> Response:
    return problem(404, "not-found", "Not found", str(e))


blp.register_error_handler(WebhookNotFound, webhook_not_found)


def http_url(value: str) -> None:
    if not value.lower().startswith(("http://", "https://")):
        raise ValidationError("must be an http:// or https:// URL")


class NewWebhook(Schema):
    url = fields.Url(required=True, require_tld=False, validate=[validate.Length(max=MAX_URL), http_url], metadata={"description": "where each event is POSTed"})
    after = fields.Integer(validate=validate.Range(min=0, max=2**53), metadata={"description": "send the events after this version (default: the chase's version now, so only what happens next; 0: the whole log)"})


class Webhook(Schema):
    webhook_id = fields.String()
    chase_id = fields.String()
    url = fields.String()
    delivered_version = fields.Integer(metadata={"description": "the last event the receiver took"})
    created_at = Timestamp()


class RegisteredWebhook(Webhook):
    secret = fields.String(metadata={"description": "whsec_...: verify each message's webhook-signature with it (Standard Webhooks); shown this once"})


class Webhooks(Schema):
    webhooks = fields.List(fields.Nested(Webhook))


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
    def post(self, body: dict[str, Any], chase_id: UUID):
        """Register a URL to be sent every event of the chase (Keeper only); the answer holds its secret."""
        hook = ledger().webhooks.register(chase_id, body["url"], principal(chase_id), body.get("after"))
        return hook, 201, {"Location": url_for("webhooks.ChaseWebhook", chase_id=chase_id, webhook_id=hook["webhook_id"])}

    @blp.response(200, Webhooks)
    def get(self, chase_id: UUID):
        """The chase's webhooks, without their secrets (Keeper only)."""
        return {"webhooks": ledger().webhooks.list(chase_id, principal(chase_id))}


@blp.route("/<uuid:chase_id>/webhooks/<webhook_id>")
class ChaseWebhook(MethodView):
    @blp.response(200, Webhook)
    def get(self, chase_id: UUID, webhook_id: str):
        """One webhook of the chase, without its secret (Keeper only)."""
        return ledger().webhooks.one(chase_id, webhook_id, principal(chase_id))


@blp.route("/<uuid:chase_id>/webhooks/<webhook_id>/deliveries")
class WebhookDeliveries(MethodView):
    @blp.arguments(DeliveryPage, location="query")
    @blp.response(200, Deliveries)
    def get(self, query, chase_id: UUID, webhook_id: str):
        """A webhook's delivery attempts, newest first, a page at a time (``next``), with their status (Keeper only)."""
        limit = query["limit"]
        deliveries = ledger().webhooks.deliveries(chase_id, webhook_id, principal(chase_id), limit + 1, query.get("before"))
        return page("deliveries", deliveries, limit, lambda delivery: delivery["delivery_id"], param="before")
