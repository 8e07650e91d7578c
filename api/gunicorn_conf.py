"""gunicorn's settings hooks for ``chase serve`` (``--config python:api.gunicorn_conf``).

The idle time of a kept-alive connection is set here. Each worker writes JSON log lines
(infrastructure/logs.py) from its start; a worker that exits is marked dead for
prometheus-client's multiprocess mode (infrastructure/metrics.py), which then drops its live
gauges and keeps its counts.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from typing import Any

from infrastructure.edge_settings import RATE_LIMIT_FILE
from infrastructure.logs import configure
from infrastructure.server_settings import ServerSettings
from infrastructure.settings import web_settings

# Seconds a kept-alive connection may wait for its next request (uvicorn's timeout_keep_alive);
# the header and body time limits are the workers' own (api/worker.py).
keepalive = ServerSettings.from_env().idle_timeout


def on_starting(server: Any) -> None:
    """Before the workers are forked: without Redis, they count the rate limits in one file of
    this server run (infrastructure/limits_sqlite.py), not each in its own memory."""
    if not os.environ.get("REDIS_URL") and not os.environ.get(RATE_LIMIT_FILE):
        os.environ[RATE_LIMIT_FILE] = os.path.join(tempfile.mkdtemp(prefix="chase-ledger-limits-"), "counts.sqlite3")


def on_exit(server: Any) -> None:
    made = os.environ.get(RATE_LIMIT_FILE, "")
    if os.path.basename(os.path.dirname(made)).startswith("chase-ledger-limits-"):  # the one made above
        shutil.rmtree(os.path.dirname(made), ignore_errors=True)


def post_fork(server: Any, worker: Any) -> None:
    configure(web_settings().log_format)


def child_exit(server: Any, worker: Any) -> None:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):  # (without it, each worker counts alone)
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
