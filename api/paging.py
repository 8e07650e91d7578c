"""Cursor pagination for every list (issue 18): events, rolls, replay frames, jobs, deliveries.

A list is read a page at a time: ``limit`` (bounded) items after a cursor (``after``: the last
item's version, sequence, step or job id; ``before`` for the newest-first deliveries). Each page
says where the next one is, twice: ``next`` in the body (null on the last page) and an RFC 8288
``Link: <...>; rel="next"`` header, the same URL, with the request's other parameters (filters,
``version``) kept. A client follows ``next`` until it is null; it never builds a cursor itself.
An item recorded after a page was read shows on a later page, never twice.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence
from urllib.parse import urlencode

from flask import request
from marshmallow import fields, validate

MAX_LIMIT = 10_000  # items a page may ask for, on any list (each list has its own, often lower, bound)


def Limit(default: int = 100, high: int = MAX_LIMIT) -> fields.Integer:
    return fields.Integer(load_default=default, validate=validate.Range(1, high), metadata={"description": f"items on this page (1 to {high})"})


def Next() -> fields.String:
    return fields.String(allow_none=True, metadata={"description": "the URL of the next page (also the Link header, rel=\"next\"); null on the last page"})


def next_url(cursor: Any, param: str = "after") -> str:
    """This request's URL with ``param`` moved on to ``cursor``, its other parameters kept."""
    args = [(k, v) for k, v in request.args.items(multi=True) if k != param] + [(param, str(cursor))]
    return f"{request.path}?{urlencode(args)}"


def page(
    key: str, items: Sequence[dict[str, Any]], limit: int, cursor_of: Callable[[dict[str, Any]], Any],
    param: str = "after", headers: dict[str, str] | None = None, **body: Any,
) -> tuple[dict[str, Any], int, dict[str, str]]:
    """The answer for one page, read as ``limit + 1`` items (one more tells that there is a next)."""
    shown = list(items[:limit])
    headers = dict(headers or {})
    following = next_url(cursor_of(shown[-1]), param) if len(items) > limit and shown else None
    if following:
        headers["Link"] = f'<{following}>; rel="next"'
    return {key: shown, **body, "next": following}, 200, headers
