"""Who a request counts against: its bearer token (by its SHA-256, never the token itself) and its
client address. The rate limits (api/limits.py) and the caps on open job waits (api/job_waits.py)
count by the same keys."""
from __future__ import annotations

import hashlib

from flask import request


def bearer_token() -> str | None:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def token_key() -> str:
    return "token:" + hashlib.sha256((bearer_token() or "").encode("utf-8", "surrogatepass")).hexdigest()


def address_key() -> str:
    return "address:" + (request.remote_addr or "unknown")
