"""The gunicorn worker class of ``chase serve``: uvicorn's, serving ``api.asgi:app``.

Kept apart from api/asgi.py so that the gunicorn master, which loads the worker class, does not
build the app: each worker builds its own after the fork.
"""
from __future__ import annotations

from uvicorn_worker import UvicornWorker


class Worker(UvicornWorker):
    """A uvicorn worker that lets its open streams go a few seconds into a stop (their clients
    reconnect elsewhere with Last-Event-ID) instead of holding the stop up until gunicorn kills it."""

    CONFIG_KWARGS = {**UvicornWorker.CONFIG_KWARGS, "timeout_graceful_shutdown": 5}
