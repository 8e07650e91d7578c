"""Conditional requests and caching as HTTP says (RFC 9110 section 13, RFC 6585, RFC 9111).

- ``If-Match`` on a command: the chase's ETag (its version) the client acted on, in any form
  (the default form's ``"12-compact"``, the full actions' ``"12"``, a minimal answer's
  ``"12-minimal"``: api/compact_actions.py, api/representation.py). A stale one, or
  one that is not a chase's ETag at all, is ``412 Precondition Failed`` (the command is not
  run); a command raced by another writer without ``If-Match`` stays ``409``.
- ``428 Precondition Required`` where a command is only safe against the state the client saw:
  a rewind, which already names a version to go back to (``to_version``) and would otherwise
  throw away whatever another client recorded after the Keeper last looked.
- ``If-None-Match`` on a GET that gives an ETag: a match is ``304 Not Modified``, no body (a tag
  of another form of the same version is no match: the client does not hold this one).
- ``Cache-Control``: a view at a past version (``?version=``) never changes (DESIGN.md section
  5: the log is append-only), so it is ``private, max-age=31536000, immutable``; rules data
  (``/rules/...``) is the same for everyone until the server is upgraded: ``public, max-age``
  with an ETag of its content. Everything else a token reads is ``private, no-cache``.
"""
from __future__ import annotations

import re

from flask import Flask, Response, request

from api.compact_actions import COMPACT_ETAG_SUFFIX
from api.representation import MINIMAL_ETAG_SUFFIX
from application.runner import VersionConflict

FORMS = "|".join(map(re.escape, (COMPACT_ETAG_SUFFIX, MINIMAL_ETAG_SUFFIX)))
ETAG = re.compile(rf'"([0-9]{{1,18}})(?:{FORMS})?"|([0-9]{{1,18}})')
TIME_TRAVEL = "private, max-age=31536000, immutable"  # a year: RFC 9111 section 5.2.2.1's usual "never expires"
RULES_MAX_AGE = 86_400  # a day: rules data changes only with a release
RULES = f"public, max-age={RULES_MAX_AGE}"
LIVE = "private, no-cache"  # revalidate each time: If-None-Match makes that a 304
# If-Match read from the environ, where request.headers reads it (its ``get`` raises and catches
# a KeyError when the header is not sent: most commands).
IF_MATCH = "HTTP_IF_MATCH"


class PreconditionFailed(VersionConflict):
    """If-Match did not name the chase's current version (or named no version at all): 412."""


class PreconditionRequired(Exception):
    """The command is refused unless it names the version it acted on (If-Match): 428."""


def expected_version(required: bool = False) -> int | None:
    """The chase version the client acted on, from If-Match (optimistic concurrency);
    ``required``: a command that is not run without one (428)."""
    tag = request._get_current_object().environ.get(IF_MATCH, "").strip()  # type: ignore[attr-defined]
    if tag in ("", "*"):
        if required:
            raise PreconditionRequired(
                "this command needs If-Match with the chase's ETag (its version, such as \"12-compact\", from the track view), "
                "so that it never undoes what another client recorded since you looked"
            )
        return None
    match = ETAG.fullmatch(tag)
    if not match:
        raise PreconditionFailed(f"If-Match must be the chase's ETag, such as \"12-compact\", not {tag}")
    return int(match.group(1) or match.group(2))


def precondition_sent() -> bool:
    return request._get_current_object().environ.get(IF_MATCH, "").strip() not in ("", "*")  # type: ignore[attr-defined]


def _not_modified(response: Response) -> bool:
    etag, _ = response.get_etag()
    return etag is not None and request.if_none_match.contains_weak(etag)  # RFC 9110 13.1.2: weak comparison


def install(app: Flask) -> None:
    @app.after_request
    def caching(response: Response) -> Response:
        req = request._get_current_object()  # type: ignore[attr-defined]  # (looked up once: each use of the proxy is a look-up)
        if req.method not in ("GET", "HEAD") or response.status_code != 200 or response.mimetype == "text/event-stream":
            return response
        if req.path.startswith("/rules/"):
            response.cache_control.public = True
            response.cache_control.max_age = RULES_MAX_AGE
            if response.get_etag()[0] is None:
                response.add_etag()  # of the content: the same rules data, the same tag
        elif req.path.startswith("/chases/") and "Cache-Control" not in response.headers:
            response.headers["Cache-Control"] = TIME_TRAVEL if req.args.get("version") else LIVE
            response.vary.add("Authorization")  # what a token may see is its own
        if _not_modified(response):
            # RFC 9110 15.4.5: a 304 keeps the headers a 200 would have sent that caches use.
            response.status_code = 304
            response.set_data(b"")
            response.headers.pop("Content-Type", None)
            response.headers.pop("Content-Length", None)
        return response
