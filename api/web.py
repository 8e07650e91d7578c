"""The table in a browser (issue 19): the Keeper's console, the player's view, the rewind slider,
analytics and in-browser verification, served as static files from the package.

Plain ES modules with no build step (api/static/app/), beside the JavaScript verifier they import
(api/static/verifier/, VERIFYING.md). Nothing is fetched from anywhere but this API, so the pages
work offline. The pages are a client of the public API like any other: they hold a token in the
browser and send it in the Authorization header; these routes need none (they serve no chase).
"""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, redirect, send_from_directory

STATIC = Path(__file__).resolve().parent / "static"
# Browsers run an ES module only when it is served as JavaScript; mimetypes may not know .mjs.
TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".css": "text/css", ".html": "text/html", ".svg": "image/svg+xml"}

web = Blueprint("web", __name__)


def _send(folder: Path, name: str) -> Response:
    response = send_from_directory(folder, name, max_age=0)
    kind = TYPES.get(Path(name).suffix)
    if kind:
        response.mimetype = kind
    response.headers["X-Content-Type-Options"] = "nosniff"
    # The page runs only its own scripts and talks only to this API (tokens live in it).
    response.headers["Content-Security-Policy"] = (
        "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
    )
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@web.get("/")
def home() -> Response:
    return redirect("/app/", 302)


@web.get("/app/")
def page() -> Response:
    return _send(STATIC / "app", "index.html")


@web.get("/app/verifier/<path:name>")
def verifier(name: str) -> Response:
    return _send(STATIC / "verifier", name)


@web.get("/app/<path:name>")
def asset(name: str) -> Response:
    return _send(STATIC / "app", name)
