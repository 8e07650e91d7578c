"""The ledger of this process: built on first use, after any fork (never at import time)."""
from __future__ import annotations

import os
import threading
from typing import Any, Callable

from flask import current_app

_lock = threading.Lock()


def ledger() -> Any:
    return ledger_of(current_app)


def ledger_of(app: Any) -> Any:
    """The ledger of ``app`` in this process (also outside a request: the live streams)."""
    holder = app.extensions["chase_ledger"]
    if holder.get("pid") != os.getpid():
        with _lock:
            if holder.get("pid") != os.getpid():
                holder["ledger"] = holder["build"]()
                holder["pid"] = os.getpid()
    return holder["ledger"]


def install(app: Any, build: Callable[[], Any]) -> None:
    app.extensions["chase_ledger"] = {"build": build}
