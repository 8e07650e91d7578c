"""The HTTP API: Flask app factory, blueprints, schemas, problem details and OpenAPI."""
from __future__ import annotations

from importlib import import_module
from typing import Any, Callable

from flask import Flask
from flask_smorest import Api

from api import auth, conditional, contract, cors, docs_ui, guards, job_waits, limits, observability, problems, query_params, representation
from api.runtime import install
from infrastructure.edge_settings import EdgeSettings
from infrastructure.settings import WebSettings, web_settings
from infrastructure.systems import SYSTEMS


class ChaseLedgerFlask(Flask):
    """Flask, asking once per function whether it is a coroutine function: Flask asks for every
    request hook of every request (``ensure_sync``), some seventeen ``inspect`` calls a command
    (bench/http_profile.py --cprofile). The answer is kept by the function itself (a method
    view's bound methods are new each request, their function is not), for a bounded number; a
    plain function found sync (every hook) is answered by one look-up of itself."""

    KEPT = 10_000  # functions whose answer is kept: the app's hooks and views are a few hundred

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._is_async: dict[Any, bool] = {}
        self._sync: dict[Any, Any] = {}  # plain functions (the hooks) known to be sync: themselves

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        try:
            known = self._sync.get(func)  # (a hook: one look-up; a view's bound method misses)
        except TypeError:  # (an unhashable callable: asked each time, as Flask does)
            return super().ensure_sync(func)
        if known is not None:
            return known
        key = getattr(func, "__func__", func)
        try:
            is_async = self._is_async.get(key)
        except TypeError:  # (an unhashable callable: asked each time, as Flask does)
            return super().ensure_sync(func)
        if is_async is None:
            synced = super().ensure_sync(func)
            if len(self._is_async) < self.KEPT:
                self._is_async[key] = synced is not func
                if key is func and synced is func:
                    self._sync[func] = func
            return synced
        return self.async_to_sync(func) if is_async else func


def create_app(build_ledger: Callable[[], Any] | None = None, *, edge: EdgeSettings | None = None, web: WebSettings | None = None) -> Flask:
    """The API app; the ledger is built lazily once per process by ``build_ledger``; ``edge``:
    the body size and rate limits; ``web``: CORS and operations settings (both from the
    environment unless given)."""
    edge = EdgeSettings.from_env() if edge is None else edge
    web = web or web_settings()
    app = ChaseLedgerFlask("chase_ledger")
    observability.install(app, web.metrics_token)  # first: every request gets its id and is counted
    cors.install(app, web.cors_origins)  # then a preflight is answered, before authentication
    app.config.update(
        API_TITLE="Chase Ledger",
        API_VERSION="0.1.0",
        OPENAPI_VERSION=contract.OPENAPI_VERSION,
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
    )
    docs_ui.install(app)  # Swagger UI and ReDoc from the package's own files
    if build_ledger is None:
        from infrastructure.bootstrap import build_ledger as default_build

        build_ledger = default_build
    limits.install(app, edge)  # first: a refused request counts too
    job_waits.install(app, edge)
    guards.install(app, edge)  # before authentication: an oversized or untyped body is refused unread
    from api import idempotency

    idempotency.keep_answers(app)  # before representation: an answer is kept with its Preference-Applied and Vary
    representation.install(app)
    conditional.install(app)
    install(app, build_ledger)
    from api.idempotency import IdempotencyKeyDoc

    api = Api(app, spec_kwargs={"extra_plugins": [IdempotencyKeyDoc()]})
    app.extensions["chase_view_schemas"] = {}
    app.extensions["chase_roll_schemas"] = {}
    contract.install(api, app.extensions["chase_view_schemas"], app.extensions["chase_roll_schemas"])  # operationIds, security, problems, headers
    from api.chases import blp as chases
    from api.history import blp as record
    from api.jobs import admin, blp as jobs
    from api.analytics import blp as analytics
    from api.stream import blp as stream
    from api.webhooks import blp as webhooks

    for blueprint in (chases, record, jobs, stream, webhooks, admin, analytics):
        api.register_blueprint(blueprint)
    # Each registered game system's blueprints (api/systems/<package>/) and track-view schemas.
    app.extensions["chase_action_routes"] = {}  # each system's commands, by action name (api/affordances.py)
    for plugin in SYSTEMS:
        module = import_module(f"api.systems.{plugin.package}")
        for blueprint in module.blueprints:
            api.register_blueprint(blueprint)
        app.extensions["chase_action_routes"].update(module.ACTION_ROUTES)
        app.extensions["chase_roll_schemas"].update(import_module(f"api.systems.{plugin.package}.roll_docs").ROLLS)
        for system, schema in module.VIEW_SCHEMAS.items():
            app.extensions["chase_view_schemas"][system] = schema
            if schema.__name__ not in api.spec.components.schemas:  # documented beside the envelope (ChaseView)
                api.spec.components.schema(schema.__name__, schema=schema)
    problems.register(app)
    auth.install(app)
    query_params.install(app)  # after authentication: who may not ask is told so first
    from api import dry_run

    dry_run.install(app)  # before a key is claimed: a refused dry run claims nothing
    idempotency.install(app)  # after auth: a request shows its token before its key is looked at

    from api.web import web

    app.register_blueprint(web)  # the browser pages (issue 19): static files, outside the OpenAPI document

    @app.get("/health")
    def health() -> dict[str, str]:
        """Liveness: the process answers (readiness, with the store and Redis: GET /ready)."""
        return {"status": "ok"}

    return app
