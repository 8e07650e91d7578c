"""Configuration from environment variables (documented in the README)."""
from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

SQLITE = "eventsourcing.sqlite"
POSTGRES = "eventsourcing.postgres"
DEFAULT_SQLITE_FILE = "chase-ledger.sqlite3"
DEFAULT_POSTGRES_LOCK_TIMEOUT = "5"  # seconds a command waits for the events table's lock
RECORDERS = {
    SQLITE: "infrastructure.sqlite_recorder:SQLiteChaseRecorder",
    POSTGRES: "infrastructure.postgres_recorder:PostgresChaseRecorder",
}
# CHASE_LEDGER_POSTGRES_STARTUP_OPTIONS=off: connections that start without settings, for a
# pooler that refuses libpq's startup options (infrastructure/postgres_startup.py).
PLAIN_START_RECORDER = "infrastructure.postgres_recorder:PostgresChaseRecorderPlainStart"

# Variables passed through to eventsourcing, which reads them itself.
PASSTHROUGH = (
    "SQLITE_DBNAME",
    "SQLITE_LOCK_TIMEOUT",
    "POSTGRES_DBNAME",
    "POSTGRES_HOST",
    "POSTGRES_PORT",
    "POSTGRES_USER",
    "POSTGRES_PASSWORD",
    "POSTGRES_SCHEMA",
    "POSTGRES_POOL_SIZE",
    "POSTGRES_MAX_OVERFLOW",
    "POSTGRES_CONNECT_TIMEOUT",
    "POSTGRES_LOCK_TIMEOUT",
    "AGGREGATE_CACHE_MAXSIZE",
)


class ConfigurationError(ValueError):
    """An environment variable with a value Chase Ledger cannot use."""


def whole_number(environ: Mapping[str, str], name: str, default: int, least: int) -> int:
    """The setting ``name``, a whole number of at least ``least`` (``default`` when unset)."""
    raw = environ.get(name, str(default)).strip()
    if not raw.isdigit() or int(raw) < least:
        raise ConfigurationError(f"{name} must be a whole number, at least {least}, not {raw!r}")
    return int(raw)


def persistence_env(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The eventsourcing environment: SQLite file by default, PostgreSQL when asked."""
    environ = os.environ if environ is None else environ
    module = environ.get("PERSISTENCE_MODULE", SQLITE)
    if module not in (SQLITE, POSTGRES):
        raise ConfigurationError(f"PERSISTENCE_MODULE must be {SQLITE} or {POSTGRES}, not {module!r}")
    env = {"PERSISTENCE_MODULE": module, "AGGREGATE_CACHE_MAXSIZE": "500"}
    for key in PASSTHROUGH:
        if key in environ:
            env[key] = environ[key]
    # The events' recorder also makes a command's view writes in their transaction (one commit per command).
    env["APPLICATION_RECORDER_TOPIC"] = RECORDERS[module]
    startup_options = environ.get("CHASE_LEDGER_POSTGRES_STARTUP_OPTIONS", "on")
    if startup_options not in ("on", "off"):
        raise ConfigurationError(f"CHASE_LEDGER_POSTGRES_STARTUP_OPTIONS must be on or off, not {startup_options!r}")
    if module == POSTGRES and startup_options == "off":
        env["APPLICATION_RECORDER_TOPIC"] = PLAIN_START_RECORDER
    # eventsourcing's JSON transcoder, its encoder made once (the same bytes: infrastructure/transcodings.py).
    env["TRANSCODER_TOPIC"] = "infrastructure.transcodings:ChaseTranscoder"
    if module == SQLITE:
        env.setdefault("SQLITE_DBNAME", DEFAULT_SQLITE_FILE)
        env.setdefault("SQLITE_LOCK_TIMEOUT", "10")
    else:
        # POSTGRES_LOCK_TIMEOUT: eventsourcing waits for the events table's lock forever by
        # default; past this a command is answered 503 store-busy, nothing recorded.
        for key, default in (("POSTGRES_HOST", "127.0.0.1"), ("POSTGRES_PORT", "5432"), ("POSTGRES_USER", "postgres"), ("POSTGRES_PASSWORD", ""),
                             ("POSTGRES_LOCK_TIMEOUT", DEFAULT_POSTGRES_LOCK_TIMEOUT)):
            env.setdefault(key, default)
        if "POSTGRES_DBNAME" not in env:
            raise ConfigurationError("POSTGRES_DBNAME is required with PERSISTENCE_MODULE=eventsourcing.postgres")
    return env


@dataclass(frozen=True)
class WorkerSettings:
    """Background jobs, workers and live updates (README "Workers and live updates")."""

    redis_url: str | None = None  # unset: inline jobs and in-process live updates
    prefix: str = "chase-ledger"  # RQ queue names and pub/sub channels start with it
    lanes: tuple[str, ...] = ("interactive", "batch", "webhooks")  # the queues `chase worker` takes jobs from
    job_lease: float = 30.0
    job_attempts: int = 5
    job_backoff: tuple[int, ...] = (2, 10, 30, 60)
    job_grace: float = 10.0
    sweep_interval: float = 5.0
    rebuild_batch: int = 20_000
    rebuild_throttle: float = 0.0
    project_poll: float = 1.0
    stream_poll: float = 0.5  # one cheap query per API process with open streams (api/live_streams.py)
    stream_heartbeat: float = 15.0
    stream_max_seconds: float = 300.0
    admin_token: str | None = None
    idempotency_ttl: float = 24 * 3600.0  # seconds an Idempotency-Key and its answer are kept
    replays_per_hour: int = 10  # replays one chase may have in an hour (application/replay_frames.py)
    replay_retention: float = 7 * 24 * 3600.0  # seconds a finished replay's frames are kept
    replays_kept: int = 3  # finished replays of a chase whose frames are kept, the newest


def _number(environ: Mapping[str, str], key: str, default: float, kind: type = float, low: float = 0.0) -> Any:
    raw = environ.get(key)
    if raw is None or raw == "":
        return default
    try:
        value = kind(raw)
    except ValueError:
        raise ConfigurationError(f"{key} must be a number, not {raw!r}") from None
    if value < low:
        raise ConfigurationError(f"{key} must be at least {low}, not {raw!r}")
    return value


def worker_settings(environ: Mapping[str, str] | None = None) -> WorkerSettings:
    """Job queue, worker and live-update settings from the environment."""
    environ = os.environ if environ is None else environ
    lanes = tuple(lane.strip() for lane in environ.get("CHASE_LEDGER_QUEUES", "interactive,batch,webhooks").split(",") if lane.strip())
    if not lanes or any(lane not in ("interactive", "batch", "webhooks") for lane in lanes):
        raise ConfigurationError(f"CHASE_LEDGER_QUEUES must name some of interactive, batch, webhooks, not {environ.get('CHASE_LEDGER_QUEUES')!r}")
    try:
        backoff = tuple(int(s) for s in environ.get("CHASE_LEDGER_JOB_BACKOFF", "2,10,30,60").split(",") if s.strip())
    except ValueError:
        raise ConfigurationError("CHASE_LEDGER_JOB_BACKOFF must be seconds separated by commas, such as 2,10,30,60") from None
    return WorkerSettings(
        redis_url=environ.get("REDIS_URL") or None,
        prefix=environ.get("CHASE_LEDGER_QUEUE_PREFIX") or "chase-ledger",
        lanes=lanes,
        job_lease=_number(environ, "CHASE_LEDGER_JOB_LEASE", 30.0, low=0.5),
        job_attempts=_number(environ, "CHASE_LEDGER_JOB_ATTEMPTS", 5, int, 1),
        job_backoff=backoff,
        job_grace=_number(environ, "CHASE_LEDGER_JOB_GRACE", 10.0),
        sweep_interval=_number(environ, "CHASE_LEDGER_SWEEP_INTERVAL", 5.0, low=0.1),
        rebuild_batch=_number(environ, "CHASE_LEDGER_REBUILD_BATCH", 20_000, int, 1),
        rebuild_throttle=_number(environ, "CHASE_LEDGER_REBUILD_THROTTLE", 0.0),
        project_poll=_number(environ, "CHASE_LEDGER_PROJECT_POLL", 1.0, low=0.05),
        stream_poll=_number(environ, "CHASE_LEDGER_STREAM_POLL", 0.5, low=0.05),
        stream_heartbeat=_number(environ, "CHASE_LEDGER_STREAM_HEARTBEAT", 15.0, low=0.1),
        stream_max_seconds=_number(environ, "CHASE_LEDGER_STREAM_MAX_SECONDS", 300.0, low=1.0),
        admin_token=environ.get("CHASE_LEDGER_ADMIN_TOKEN") or None,
        idempotency_ttl=_number(environ, "CHASE_LEDGER_IDEMPOTENCY_TTL", 24 * 3600.0, low=1.0),
        replays_per_hour=_number(environ, "CHASE_LEDGER_REPLAYS_PER_HOUR", 10, int, 1),
        replay_retention=_number(environ, "CHASE_LEDGER_REPLAY_RETENTION", 7 * 24 * 3600.0, low=1.0),
        replays_kept=_number(environ, "CHASE_LEDGER_REPLAYS_KEPT", 3, int, 1),
    )


@dataclass(frozen=True)
class WebSettings:
    """Browsers, stream tickets, webhooks and operations (README "Browsers", "Webhooks", "Operations")."""

    cors_origins: tuple[str, ...] = ()  # none: no cross-origin answers at all
    ticket_secret: str | None = None  # unset: generated once and kept in the database
    ticket_seconds: float = 60.0
    metrics_token: str | None = None  # set: GET /metrics asks for it as a bearer token
    log_format: str = "json"
    webhook_timeout: float = 10.0  # seconds a whole delivery may take
    webhook_allow: str = ""  # hosts and networks webhooks may reach beside public addresses
    webhooks_per_chase: int = 5
    webhook_disable_after: int = 10  # failed attempts in a row that switch a webhook off


def web_settings(environ: Mapping[str, str] | None = None) -> WebSettings:
    """Browser, ticket, webhook and operations settings from the environment."""
    environ = os.environ if environ is None else environ
    origins = tuple(o.strip().rstrip("/") for o in environ.get("CHASE_LEDGER_CORS_ORIGINS", "").split(",") if o.strip())
    log_format = environ.get("CHASE_LEDGER_LOG_FORMAT", "json")
    if log_format not in ("json", "text"):
        raise ConfigurationError(f"CHASE_LEDGER_LOG_FORMAT must be json or text, not {log_format!r}")
    return WebSettings(
        cors_origins=origins,
        ticket_secret=environ.get("CHASE_LEDGER_TICKET_SECRET") or None,
        ticket_seconds=_number(environ, "CHASE_LEDGER_STREAM_TICKET_SECONDS", 60.0, low=1.0),
        metrics_token=environ.get("CHASE_LEDGER_METRICS_TOKEN") or None,
        log_format=log_format,
        webhook_timeout=_number(environ, "CHASE_LEDGER_WEBHOOK_TIMEOUT", 10.0, low=0.1),
        webhook_allow=environ.get("CHASE_LEDGER_WEBHOOK_ALLOW", ""),
        webhooks_per_chase=_number(environ, "CHASE_LEDGER_WEBHOOKS_PER_CHASE", 5, int, 1),
        webhook_disable_after=_number(environ, "CHASE_LEDGER_WEBHOOK_DISABLE_AFTER", 10, int, 1),
    )
