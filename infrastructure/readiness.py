"""Readiness: can this process serve now? The store answers, and Redis when it is configured.

Liveness (``GET /health``) says only that the process answers; readiness (``GET /ready``) is
what a load balancer or an orchestrator asks before sending traffic: a process whose database
or Redis is unreachable is taken out of rotation until they are back.
"""
from __future__ import annotations

from typing import Any

REDIS_TIMEOUT = 2.0  # seconds a PING may take before Redis counts as down


def check(ledger: Any) -> dict[str, str]:
    """Each dependency, "ok" or why not."""
    checks = {"store": _store(ledger)}
    if ledger.worker is not None and ledger.worker.redis_url:
        checks["redis"] = _redis(ledger.worker.redis_url)
    return checks


def _store(ledger: Any) -> str:
    try:
        with ledger.recorder.datastore.transaction(commit=False) as c:
            c.execute("SELECT 1")
            c.fetchall()
    except Exception as e:  # noqa: BLE001 - any failure means not ready; say which
        return f"{type(e).__name__}: {e}"[:300]
    return "ok"


def _redis(url: str) -> str:
    import redis

    try:
        client = redis.Redis.from_url(url, socket_timeout=REDIS_TIMEOUT, socket_connect_timeout=REDIS_TIMEOUT)
        try:
            client.ping()
        finally:
            client.close()
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {e}"[:300]
    return "ok"
