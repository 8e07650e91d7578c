"""The gunicorn worker class of ``chase serve``: uvicorn's, serving ``api.asgi:app``.

Kept apart from api/asgi.py so that the gunicorn master, which loads the worker class, does not
build the app: each worker builds its own after the fork.
"""
from __future__ import annotations

from typing import Any, ClassVar

from uvicorn_worker import UvicornWorker

from api.guarded_http import guarded_http
from infrastructure.server_settings import ServerSettings


class Worker(UvicornWorker):
    """A uvicorn worker that lets its open streams go a few seconds into a stop (their clients
    reconnect elsewhere with Last-Event-ID) instead of holding the stop up until gunicorn kills it,
    and that serves no WebSocket (the API has none)."""

    CONFIG_KWARGS: ClassVar[dict[str, Any]] = {**UvicornWorker.CONFIG_KWARGS, "timeout_graceful_shutdown": 5, "ws": "none"}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # uvicorn's HTTP/1.1, with the header and body time limits and the cap per client address
        # it lacks (api/guarded_http.py); its keep-alive time is gunicorn's (api/gunicorn_conf.py).
        self.config.http = guarded_http(ServerSettings.from_env())
