"""Swagger UI (/docs) and ReDoc (/redoc) served by the API itself, from files vendored in the
package (api/static/swagger-ui, api/static/redoc: pinned npm builds with their licences), so
the interactive docs work without a network (issue 18: /docs was blank offline)."""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Flask

ASSETS = "/docs/assets"
STATIC = Path(__file__).parent / "static"
SETTINGS = {
    "OPENAPI_SWAGGER_UI_PATH": "/docs",
    "OPENAPI_SWAGGER_UI_URL": f"{ASSETS}/swagger-ui/",
    "OPENAPI_REDOC_PATH": "/redoc",
    "OPENAPI_REDOC_URL": f"{ASSETS}/redoc/redoc.standalone.js",
}


def install(app: Flask) -> None:
    """Before flask-smorest's Api reads the settings; the files are public like the document."""
    app.config.update(SETTINGS)
    for name in ("swagger-ui", "redoc"):
        app.register_blueprint(Blueprint(f"docs_{name}", __name__, static_folder=str(STATIC / name), static_url_path=f"{ASSETS}/{name}"))
