"""The HTTP API: Flask app factory, blueprints, schemas, problem details and OpenAPI."""
from __future__ import annotations

from importlib import import_module
from typing import Any, Callable

from flask import Flask
from flask_smorest import Api

from api import parsing

parsing.install()  # before any blueprint is decorated with its arguments

from api import auth, cors, edge_docs, guards, limits, observability, problems, representation  # noqa: E402
from api.runtime import install  # noqa: E402
from infrastructure.edge_settings import EdgeSettings  # noqa: E402
from infrastructure.settings import WebSettings, web_settings  # noqa: E402
from infrastructure.systems import SYSTEMS  # noqa: E402


def create_app(build_ledger: Callable[[], Any] | None = None, *, edge: EdgeSettings | None = None, web: WebSettings | None = None) -> Flask:
    """The API app; the ledger is built lazily once per process by ``build_ledger``; ``edge``:
    the body size and rate limits; ``web``: CORS and operations settings (both from the
    environment unless given)."""
    edge = EdgeSettings.from_env() if edge is None else edge
    web = web or web_settings()
    app = Flask("chase_ledger")
    observability.install(app, web.metrics_token)  # first: every request gets its id and is counted
    cors.install(app, web.cors_origins)  # then a preflight is answered, before authentication
    app.config.update(
        API_TITLE="Chase Ledger",
        API_VERSION="0.1.0",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="/docs",
        OPENAPI_SWAGGER_UI_URL="https://cdn.jsdelivr.net/npm/swagger-ui-dist/",
    )
    if build_ledger is None:
        from infrastructure.bootstrap import build_ledger as default_build

        build_ledger = default_build
    limits.install(app, edge)  # first: a refused request counts too
    guards.install(app, edge)  # before authentication: an oversized or untyped body is refused unread
    representation.install(app)
    install(app, build_ledger)
    from api.idempotency import IdempotencyKeyDoc

    api = Api(app, spec_kwargs={"extra_plugins": [IdempotencyKeyDoc()]})
    api.spec.components.security_scheme("bearerAuth", {"type": "http", "scheme": "bearer"})
    api.spec.options["security"] = [{"bearerAuth": []}]
    edge_docs.install(api.spec)
    from api.chases import blp as chases
    from api.history import blp as record
    from api.jobs import admin, blp as jobs
    from api.analytics import blp as analytics
    from api.stream import blp as stream
    from api.webhooks import blp as webhooks

    for blueprint in (chases, record, jobs, stream, webhooks, admin, analytics):
        api.register_blueprint(blueprint)
    # Each registered game system's blueprints (api/systems/<package>/) and track-view schemas.
    app.extensions["chase_view_schemas"] = {}
    app.extensions["chase_action_routes"] = {}  # each system's commands, by action name (api/affordances.py)
    for plugin in SYSTEMS:
        module = import_module(f"api.systems.{plugin.package}")
        for blueprint in module.blueprints:
            api.register_blueprint(blueprint)
        app.extensions["chase_action_routes"].update(module.ACTION_ROUTES)
        for system, schema in module.VIEW_SCHEMAS.items():
            app.extensions["chase_view_schemas"][system] = schema
            if schema.__name__ not in api.spec.components.schemas:  # documented beside the envelope (ChaseView)
                api.spec.components.schema(schema.__name__, schema=schema)
    problems.register(app)
    auth.install(app)
    from api import dry_run, idempotency

    dry_run.install(app)  # before a key is claimed: a refused dry run claims nothing
    idempotency.install(app)  # after auth: a request shows its token before its key is looked at

    from api.web import web

    app.register_blueprint(web)  # the browser pages (issue 19): static files, outside the OpenAPI document

    @app.get("/health")
    def health() -> dict[str, str]:
        """Liveness: the process answers (readiness, with the store and Redis: GET /ready)."""
        return {"status": "ok"}

    return app
