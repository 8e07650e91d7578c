"""``Prefer: return=minimal`` (RFC 7240): a command answered without the whole track view.

A command's answer carries the chase's track view as it is after the command; at 1,000
participants that is some 10 MB. A client that keeps its own copy (from the stream, or a GET
when it needs one) sends ``Prefer: return=minimal`` and gets the chase's envelope only: its id,
system, phase, version, round, whose turn and chain head, beside what the command itself
answers (the roll, the participant added, the outcome). The answer says
``Preference-Applied: return=minimal``, under an ETag of its own (``etag``: ``"12-minimal"``, a
representation other than the view's). Reads (GET) always answer with the whole view.

The track view says each of its actions once (api/compact_actions.py); ``Prefer: actions=full``,
on a command or a read of the track view, lists them per participant as clients written before
that read them, under the ETag that form always had (``"12"``; the default's is ``"12-compact"``).
"""
from __future__ import annotations

from typing import Any

import secrets

import orjson
from flask import Flask, Response, has_request_context, request
from flask.json.provider import DefaultJSONProvider

from api.compact_actions import COMPACT, COMPACT_ETAG_SUFFIX, FULL
from api.joined import Joined

MINIMAL = "return=minimal"
MINIMAL_ETAG_SUFFIX = "-minimal"
MINIMAL_CHASE = ("chase_id", "system", "phase", "version", "round", "whose_turn", "chain_head")


PREFERS_MINIMAL = "chase_ledger.prefers_minimal"  # the answer, kept in the request's environ: asked 3 times a command
# Set when a track view's actions were shown: the form's Preference-Applied (FULL, COMPACT), or ""
# for the default form, not asked for.
ACTIONS_FORM = "chase_ledger.actions_form"
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


def prefers_full_actions() -> bool:
    """``Prefer: actions=full`` (api/compact_actions.py): each participant's actions listed in
    full. The form is noted (``actions=compact`` too, when asked for) for the answer's
    Preference-Applied, Vary and ETag."""
    if not has_request_context():
        return False
    # RFC 7240 section 2: of a preference sent more than once, the first is the one.
    asked = next((token for token in _preferences() if token.startswith("actions=")), "")
    form = request.environ[ACTIONS_FORM] = asked if asked in (FULL, COMPACT) else ""  # any other value: ignored
    return form == FULL


def etag(version: int) -> str:
    """The answer's entity tag for the chase at ``version``: each form of the answer its own
    (RFC 9110 section 8.8.3: a strong tag names one representation, over time too: each form
    keeps the tag it had, api/compact_actions.py). Asked once the view is presented (which notes
    its form) or left out (minimal)."""
    if has_request_context():
        form = request.environ.get(ACTIONS_FORM)
        if form == FULL:
            return f'"{version}"'
        if form is not None:
            return f'"{version}{COMPACT_ETAG_SUFFIX}"'
        if prefers_minimal():
            return f'"{version}{MINIMAL_ETAG_SUFFIX}"'
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
        form = request.environ.get(ACTIONS_FORM)  # None: no track view's actions shown
        if request.method == "GET" and form is None:  # (never minimal: reads answer with the view)
            return response
        applied = form or (MINIMAL if form is None and prefers_minimal() else None)
        if response.status_code < 300 and applied:
            response.headers["Preference-Applied"] = applied
        headers = response.headers
        if "Vary" in headers:
            response.vary.add("Prefer")
        else:  # what ``vary.add`` writes, without parsing and rewriting the header
            headers["Vary"] = "Prefer"
        return response
