"""The composition root: builds the adapters once per process and injects them, with the game
systems of the registry (infrastructure/systems.py)."""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from secrets import token_hex
from typing import Any

from application.analytics.service import Analytics
from application.analytics.sessions import Sessions
from application.chases import ChaseLedger
from application.jobs import Jobs, JobSettings
from application import webhooks
from application.tickets import StreamTickets
from application.webhooks import Webhooks, WebhookSettings
from infrastructure.settings import (
    POSTGRES,
    WebSettings,
    WorkerSettings,
    persistence_env,
    web_settings,
    worker_settings,
)
from infrastructure.systems import SYSTEMS
from infrastructure.transcodings import RecordKeepingMapper, transcodings


def _create(recorder: Any) -> Any:
    recorder.create_table()
    return recorder


def _sqlite_views(factory: Any) -> Any:
    from infrastructure.sqlite_store import SQLiteChaseViews

    return factory.tracking_recorder(SQLiteChaseViews)


def _sqlite_seeds(factory: Any) -> Any:
    from infrastructure.sqlite_tables import SQLiteSeedVault

    return _create(SQLiteSeedVault(factory.datastore))


def _sqlite_tokens(factory: Any) -> Any:
    from infrastructure.sqlite_tables import SQLiteTokenStore

    return _create(SQLiteTokenStore(factory.datastore))


def _sqlite_keys(factory: Any) -> Any:
    from infrastructure.idempotency_store import SQLiteIdempotencyKeys

    return _create(SQLiteIdempotencyKeys(factory.datastore))


def _postgres_keys(factory: Any) -> Any:
    from infrastructure.idempotency_store import PostgresIdempotencyKeys

    return _create(PostgresIdempotencyKeys(factory.datastore))


def _postgres_views(factory: Any) -> Any:
    from infrastructure.postgres_store import PostgresChaseViews

    return factory.tracking_recorder(PostgresChaseViews)


def _postgres_seeds(factory: Any) -> Any:
    from infrastructure.postgres_tables import PostgresSeedVault

    return _create(PostgresSeedVault(factory.datastore))


def _postgres_tokens(factory: Any) -> Any:
    from infrastructure.postgres_tables import PostgresTokenStore

    return _create(PostgresTokenStore(factory.datastore))


# Key (two-int form) of the advisory lock that API processes take while they create tables.
STARTUP_LOCK = (0x43484C47, 1)  # "CHLG"


@contextmanager
def _postgres_startup_lock(env: Mapping[str, str]) -> Iterator[None]:
    """Hold a PostgreSQL advisory lock while this process creates (or checks) the tables.

    Building a ledger runs CREATE TABLE IF NOT EXISTS, CREATE OR REPLACE FUNCTION and the
    tracking-table migration check; PostgreSQL does not make these safe to run at once, so API
    processes starting together (gunicorn workers, scaled containers) failed with "duplicate key
    value violates unique constraint pg_type_typname_nsp_index", "relation ... already exists"
    or "tuple concurrently updated". Holding this lock, they create the tables one at a time.
    """
    import psycopg

    conn = psycopg.connect(
        dbname=env["POSTGRES_DBNAME"], host=env["POSTGRES_HOST"], port=env["POSTGRES_PORT"],
        user=env["POSTGRES_USER"], password=env["POSTGRES_PASSWORD"],
        connect_timeout=int(float(env.get("POSTGRES_CONNECT_TIMEOUT") or 30)), autocommit=True,
    )
    try:
        conn.execute("SELECT pg_advisory_lock(%s, %s)", STARTUP_LOCK)
        yield
    finally:
        conn.close()  # ends the session, which releases the lock


def _live_feed(settings: WorkerSettings) -> Any:
    """The live feed of new events: Redis pub/sub when REDIS_URL is set, this process's otherwise."""
    from infrastructure.live import LocalLiveFeed, RedisLiveFeed

    return RedisLiveFeed(settings.redis_url, settings.prefix) if settings.redis_url else LocalLiveFeed()


def _wire(ledger: ChaseLedger, env: dict[str, str], settings: WorkerSettings, environ: Mapping[str, str] | None) -> ChaseLedger:
    """Give the ledger its job store and job queue (RQ on Redis when REDIS_URL is set)."""
    from infrastructure import job_store
    from infrastructure.queues import InlineJobQueue, RQJobQueue

    if env["PERSISTENCE_MODULE"] == POSTGRES:
        store = _create(job_store.PostgresJobStore(ledger.factory.datastore))
        counter = job_store.PostgresEventCounter(ledger.recorder)
    else:
        store = _create(job_store.SQLiteJobStore(ledger.factory.datastore))
        counter = job_store.SQLiteEventCounter(ledger.recorder)
    queue: Any
    if settings.redis_url:
        queue = RQJobQueue(settings.redis_url, settings.prefix, settings.job_attempts, settings.job_backoff)
    else:
        queue = InlineJobQueue(settings.job_backoff, max(settings.sweep_interval, 1.0), synchronous=_in_memory(env), max_attempts=settings.job_attempts)
    job_settings = JobSettings(
        lease=settings.job_lease, max_attempts=settings.job_attempts, grace=settings.job_grace,
        rebuild_batch=settings.rebuild_batch, rebuild_throttle=settings.rebuild_throttle,
        heartbeat=not _in_memory(env),
        replays_per_window=settings.replays_per_hour, replay_retention=settings.replay_retention, replays_kept=settings.replays_kept,
    )
    ledger.job_kinds[webhooks.KIND] = webhooks.JOB_KIND
    ledger.jobs = Jobs(ledger, store, queue, counter, job_settings, kinds=ledger.job_kinds)
    if isinstance(queue, InlineJobQueue):
        queue.jobs = ledger.jobs
    ledger.worker = settings
    ledger.persistence = env
    if env["PERSISTENCE_MODULE"] == POSTGRES:
        from infrastructure.postgres_tables import PostgresSessionLog as SessionLog
    else:
        from infrastructure.sqlite_tables import SQLiteSessionLog as SessionLog  # type: ignore[assignment]
    ledger.analytics = Analytics(ledger, Sessions(_create(SessionLog(ledger.factory.datastore)), ledger.access, ledger.exists))
    _wire_web(ledger, env, web_settings(environ), settings)
    return ledger


def _wire_web(ledger: ChaseLedger, env: dict[str, str], web: WebSettings, worker: WorkerSettings) -> None:
    """Give the ledger its stream tickets, signed with the shared server secret, and its webhooks."""
    from infrastructure import secret_store, webhook_store
    from infrastructure.webhook_sender import StandardWebhookSender
    from infrastructure.webhook_targets import TargetPolicy

    secrets = _create(
        secret_store.PostgresServerSecrets(ledger.factory.datastore) if env["PERSISTENCE_MODULE"] == POSTGRES
        else secret_store.SQLiteServerSecrets(ledger.factory.datastore)
    )

    def ticket_key() -> bytes:
        # From the environment, or one generated by the first process and kept for all of them.
        return (web.ticket_secret or secrets.get_or_create("stream-tickets", token_hex(32))).encode()

    ledger.tickets = StreamTickets(ticket_key, web.ticket_seconds)
    hooks = _create(
        webhook_store.PostgresWebhookStore(ledger.factory.datastore) if env["PERSISTENCE_MODULE"] == POSTGRES
        else webhook_store.SQLiteWebhookStore(ledger.factory.datastore)
    )
    # (An in-memory database is private to its thread: no timer may look at it later.)
    sender = StandardWebhookSender(web.webhook_timeout, TargetPolicy.parse(web.webhook_allow))
    hook_settings = WebhookSettings(web.webhooks_per_chase, web.webhook_disable_after, worker.job_backoff, web.webhook_timeout)
    ledger.webhooks = Webhooks(ledger, hooks, sender, cache_seconds=0.0 if _in_memory(env) else 1.0, settings=hook_settings)


def _in_memory(env: Mapping[str, str]) -> bool:
    """A plain in-memory SQLite database: each pooled connection would see its own, empty one."""
    name = env.get("SQLITE_DBNAME", "")
    return env["PERSISTENCE_MODULE"] != POSTGRES and (":memory:" in name or "mode=memory" in name)


def build_ledger(environ: Mapping[str, str] | None = None) -> ChaseLedger:
    """A ChaseLedger on the configured store: SQLite file by default, PostgreSQL when asked;
    jobs on RQ when REDIS_URL is set, inline otherwise."""
    env = persistence_env(environ)
    settings = worker_settings(environ)
    if env["PERSISTENCE_MODULE"] == POSTGRES:
        with _postgres_startup_lock(env):
            ledger = ChaseLedger(
                env, systems=SYSTEMS, seeds=_postgres_seeds, views=_postgres_views, tokens=_postgres_tokens,
                transcodings=transcodings(SYSTEMS), live=_live_feed(settings), mapper_class=RecordKeepingMapper,
                keys=_postgres_keys, retries_ttl=settings.idempotency_ttl,
            )
            return _wire(ledger, env, settings, environ)
    ledger = ChaseLedger(
        env, systems=SYSTEMS, seeds=_sqlite_seeds, views=_sqlite_views, tokens=_sqlite_tokens,
        transcodings=transcodings(SYSTEMS), live=_live_feed(settings), mapper_class=RecordKeepingMapper,
        keys=_sqlite_keys, retries_ttl=settings.idempotency_ttl,
    )
    return _wire(ledger, env, settings, environ)
