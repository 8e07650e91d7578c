"""`chase serve`'s gunicorn settings (api/gunicorn_conf.py) plus, for bench/http_server_instructions.py,
a way to zero and dump a worker's callgrind counts: valgrind's own control (callgrind_control)
does not reach a process gunicorn forked. Nothing here is on a request's path."""
from __future__ import annotations

import ctypes
import os
import signal
from typing import Any

from api.gunicorn_conf import child_exit, post_fork  # noqa: F401 - the settings `chase serve` runs with

ZERO, DUMP = signal.SIGRTMIN + 1, signal.SIGRTMIN + 2


def post_worker_init(worker: Any) -> None:
    control = ctypes.CDLL(os.environ["CHASE_BENCH_CALLGRIND_CONTROL"])
    signal.signal(ZERO, lambda *_: control.zero())
    signal.signal(DUMP, lambda *_: control.dump())
