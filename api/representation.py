"""``Prefer: return=minimal`` (RFC 7240): a command answered without the whole track view.

A command's answer carries the chase's track view as it is after the command; at 1,000
participants that is some 10 MB. A client that keeps its own copy (from the stream, or a GET
when it needs one) sends ``Prefer: return=minimal`` and gets the chase's envelope only: its id,
system, phase, version, round, whose turn and chain head, beside what the command itself
answers (the roll, the participant added, the outcome). The answer says
``Preference-Applied: return=minimal``. Reads (GET) always answer in full. ``Prefer:
actions=compact``, on a command or a read of the track view, says each of its actions once
(api/compact_actions.py), under an ETag of its own (``etag``).
"""
from __future__ import annotations

from typing import Any

import secrets

import orjson
from flask import Flask, Response, has_request_context, request
from flask.json.provider import DefaultJSONProvider

from api.compact_actions import ETAG_SUFFIX, PREFERENCE as COMPACT
from api.joined import Joined

MINIMAL = "return=minimal"
MINIMAL_CHASE = ("chase_id", "system", "phase", "version", "round", "whose_turn", "chain_head")


PREFERS_MINIMAL = "chase_ledger.prefers_minimal"  # the answer, kept in the request's environ: asked 3 times a command
COMPACT_ACTIONS = "chase_ledger.compact_actions"  # set when a track view's actions were shown: whether compact
# Set by a replayed answer (api/idempotency.py): it says its own Preference-Applied and Vary, the
# first answer's, whatever this request prefers.
DESCRIBED = "chase_ledger.described"


def _preferences() -> list[str]:
    # The environ's one HTTP_PREFER (a server joins repeated headers with commas): what
    # ``request.headers.getlist("Prefer")`` finds, without going through every header for it.
    return [token.strip().lower().replace(" ", "") for token in request.environ.get("HTTP_PREFER", "").split(",")]


def prefers_minimal() -> bool:
    if not has_request_context():
        return False
    environ = request.environ
    found = environ.get(PREFERS_MINIMAL)
    if found is None:
        found = environ[PREFERS_MINIMAL] = request.method != "GET" and MINIMAL in _preferences()
    return found


def prefers_compact_actions() -> bool:
    """``Prefer: actions=compact`` (api/compact_actions.py); noted as applied (or not) for the
    answer's Preference-Applied and Vary."""
    if not has_request_context():
        return False
    found = request.environ[COMPACT_ACTIONS] = COMPACT in _preferences()
    return found


def etag(version: int) -> str:
    """The answer's entity tag for the chase at ``version``: the compact form has its own
    (api/compact_actions.py ETAG_SUFFIX). Asked once the view is presented, which notes its form."""
    if has_request_context() and request.environ.get(COMPACT_ACTIONS):
        return f'"{version}{ETAG_SUFFIX}"'
    return f'"{version}"'


def minimal(chase: dict[str, Any]) -> dict[str, Any]:
    return {key: chase[key] for key in MINIMAL_CHASE if key in chase}


class Encoded:
    """A part of an answer encoded already (orjson's bytes, kept from an earlier answer: a big
    chase's participants, api/affordances.py), with the value it encodes for any other encoder."""

    __slots__ = ("plain", "encoded")

    def __init__(self, plain: Any, encoded: bytes) -> None:
        self.plain, self.encoded = plain, encoded


def _spliced(obj: Any, default: Any, options: int) -> bytes | list[bytes]:
    """``obj`` as JSON, each Encoded part's bytes put in as they are, and each Joined part's
    chunks (api/joined.py): then a list of chunks, which the WSGI server writes one after
    another, never joined into one 10 MB body. The answer is encoded with a marker in place of
    each part (a short string no client can guess: 64 random bits), then cut at the markers."""
    parts: list[Any] = []
    marker = secrets.token_hex(8)

    def encode(o: Any) -> Any:
        if type(o) is Encoded:
            parts.append(o.encoded)
            return marker
        if type(o) is Joined:
            parts.append(o.chunks)
            return marker
        return default(o)
    body = orjson.dumps(obj, default=encode, option=options)
    if not parts:
        return body
    pieces = body.split(b'"' + marker.encode() + b'"')
    if len(pieces) != len(parts) + 1:  # never so unless a string held the marker: encoded plainly
        return orjson.dumps(obj, default=lambda o: o.plain if type(o) in (Encoded, Joined) else default(o), option=options)
    chunks = [pieces[0]]
    for part, piece in zip(parts, pieces[1:]):
        if type(part) is list:
            chunks += part
        else:
            chunks.append(part)
        chunks.append(piece)
    return chunks if any(type(part) is list for part in parts) else b"".join(chunks)


class FastJSON(DefaultJSONProvider):
    """Flask's JSON answers, encoded by orjson: the same JSON (keys in the same order, non-ASCII
    sent as UTF-8 rather than escaped), several times faster at a big chase's track view. Dates
    and dataclasses still go to Flask's ``default``; what orjson refuses (an integer beyond 64
    bits, a lone surrogate) and readable (indented) output are Flask's own. Requests are parsed
    by Flask's own ``loads``: a body orjson would refuse (a huge integer) stays a field's 422."""

    def response(self, *args: Any, **kwargs: Any) -> Response:
        if (self.compact is None and self._app.debug) or self.compact is False:
            return super().response(*args, **kwargs)
        obj = self._prepare_response_obj(args, kwargs)
        options = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_APPEND_NEWLINE
        if self.sort_keys:
            options |= orjson.OPT_SORT_KEYS
        try:
            body = _spliced(obj, self.default, options)
        except TypeError:  # orjson.JSONEncodeError
            return super().response(obj)
        return self._app.response_class(body, mimetype=self.mimetype)

    @staticmethod
    def default(o: Any) -> Any:
        return o.plain if type(o) in (Encoded, Joined) else DefaultJSONProvider.default(o)


def install(app: Flask) -> None:
    app.json = FastJSON(app)
    app.json.sort_keys = False  # keep the views' own order: chase first, then details
    @app.after_request
    def preference_applied(response: Response) -> Response:
        if DESCRIBED in request.environ:
            return response
        compact = request.environ.get(COMPACT_ACTIONS)  # None: no track view's actions shown
        if request.method == "GET" and compact is None:  # (never minimal: reads answer in full)
            return response
        if response.status_code < 300 and (compact or prefers_minimal()):
            response.headers["Preference-Applied"] = COMPACT if compact else MINIMAL
        headers = response.headers
        if "Vary" in headers:
            response.vary.add("Prefer")
        else:  # what ``vary.add`` writes, without parsing and rewriting the header
            headers["Vary"] = "Prefer"
        return response
