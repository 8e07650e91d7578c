"""The HTTP API: Flask app factory, blueprints, schemas, problem details and OpenAPI."""
from __future__ import annotations

from typing import Any, Callable

from flask import Flask
from flask_smorest import Api

from api import auth, problems
from api.runtime import install


def create_app(build_ledger: Callable[[], Any] | None = None) -> Flask:
    """The API app; the ledger is built lazily once per process by ``build_ledger``."""
    app = Flask("chase_ledger")
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
    app.json.sort_keys = False  # keep the views' own order: chase first, then details
    install(app, build_ledger)
    api = Api(app)
    api.spec.components.security_scheme("bearerAuth", {"type": "http", "scheme": "bearer"})
    api.spec.options["security"] = [{"bearerAuth": []}]
    from api.chases import blp as chases
    from api.history import blp as record
    from api.jobs import admin, blp as jobs
    from api.stream import blp as stream

    api.register_blueprint(chases)
    api.register_blueprint(record)
    api.register_blueprint(jobs)
    api.register_blueprint(stream)
    api.register_blueprint(admin)
    from api.conflict import blp as conflict
    from api.obstacles import blp as track_features, reference as coc7e_rules

    api.register_blueprint(track_features)
    api.register_blueprint(conflict)
    api.register_blueprint(coc7e_rules)
    from api.savage_worlds import blp as savage_worlds

    api.register_blueprint(savage_worlds)
    problems.register(app)
    auth.install(app)

    @app.get("/health")
    def health() -> dict[str, str]:
        return {"status": "ok"}

    return app
