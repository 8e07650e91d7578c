"""Bounds the API holds every request to: body size and rate limits (README "Configuration")."""
from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from limits import parse_many

from infrastructure.limits_sqlite import storage_uri
from infrastructure.settings import ConfigurationError, whole_number

RATE_LIMIT_FILE = "CHASE_LEDGER_RATE_LIMIT_FILE"

# Generous enough for play: a Keeper running a chase at the table, or a client replaying one,
# makes a few commands a second at most; a runaway script hits the limit within seconds.
DEFAULT_TOKEN_LIMIT = "1200 per minute;20000 per hour"
DEFAULT_ADDRESS_LIMIT = "2400 per minute;40000 per hour"


@dataclass(frozen=True)
class EdgeSettings:
    """What a request may weigh, and how many a token or a client address may send."""

    max_body_bytes: int = 256 * 1024  # the largest command (a Savage Worlds row of 54 cards, a full table of dice) is a few KB
    token_limit: str = DEFAULT_TOKEN_LIMIT
    address_limit: str = DEFAULT_ADDRESS_LIMIT
    rate_limits: bool = True
    storage_uri: str = "memory://"
    # Open job waits (?wait=) per token and per client address in each API process: a wait holds
    # no thread, but each is a socket and a poll entry (api/job_waits.py).
    job_waits_per_token: int = 8
    job_waits_per_address: int = 32

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> "EdgeSettings":
        environ = os.environ if environ is None else environ
        raw = environ.get("CHASE_LEDGER_MAX_BODY_BYTES", str(cls.max_body_bytes))
        if not raw.strip().isdigit() or int(raw) < 1024:
            raise ConfigurationError(f"CHASE_LEDGER_MAX_BODY_BYTES must be a whole number of bytes, at least 1024, not {raw!r}")
        enabled = environ.get("CHASE_LEDGER_RATE_LIMITS", "on").strip().lower()
        if enabled not in ("on", "off"):
            raise ConfigurationError(f"CHASE_LEDGER_RATE_LIMITS must be on or off, not {enabled!r}")
        return cls(
            max_body_bytes=int(raw),
            token_limit=_limit(environ, "CHASE_LEDGER_RATE_LIMIT_TOKEN", DEFAULT_TOKEN_LIMIT),
            address_limit=_limit(environ, "CHASE_LEDGER_RATE_LIMIT_ADDRESS", DEFAULT_ADDRESS_LIMIT),
            rate_limits=enabled == "on",
            storage_uri=_counts_uri(environ),
            job_waits_per_token=whole_number(environ, "CHASE_LEDGER_JOB_WAITS_PER_TOKEN", cls.job_waits_per_token, least=1),
            job_waits_per_address=whole_number(environ, "CHASE_LEDGER_JOB_WAITS_PER_ADDRESS", cls.job_waits_per_address, least=1),
        )


def _limit(environ: Mapping[str, str], name: str, default: str) -> str:
    """A limit in flask-limiter's words ("1200 per minute;20000 per hour"), checked at start."""
    value = environ.get(name, default)
    try:
        parse_many(value)
    except ValueError as e:
        raise ConfigurationError(f"{name} must be limits such as '{default}', not {value!r} ({e})") from e
    return value


def _counts_uri(environ: Mapping[str, str]) -> str:
    """Where the rate limits are counted: Redis (every server), else a SQLite file the worker
    processes of one server share (``chase serve`` makes one: api/gunicorn_conf.py), else this
    process's memory."""
    if environ.get("REDIS_URL"):
        return environ["REDIS_URL"]
    if environ.get(RATE_LIMIT_FILE):
        return storage_uri(environ[RATE_LIMIT_FILE])
    return "memory://"
