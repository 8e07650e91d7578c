"""The ledger of this process: built on first use, after any fork (never at import time)."""
from __future__ import annotations

import os
import threading
from typing import Any, Callable

from flask import current_app

from application.command_service import CommandService

_lock = threading.Lock()
# How many forks this process is from the one that imported this module: a ledger built in the
# parent (its connections, its threads) is never used by a child, which builds its own. Counted
# at each fork rather than asking os.getpid() at each use: a system call, several per request.
# It relies on the server forking with os.fork(), which runs the hooks registered here: gunicorn
# and RQ do (`chase serve`, `chase worker`); a server that forks behind Python's back would not.
_forks = 0


def _forked() -> None:
    global _forks, _lock
    _forks += 1
    _lock = threading.Lock()  # another thread of the parent may have held it at the fork


os.register_at_fork(after_in_child=_forked)


def ledger() -> Any:
    # The app itself, not its proxy: each attribute read through the proxy is a failed look-up
    # on the proxy, then the context's (a command asks for the ledger three times).
    return ledger_of(current_app._get_current_object())  # type: ignore[attr-defined]


def commands() -> CommandService:
    """The declared commands of every system, as this process's ledger sends them."""
    service: CommandService = ledger().declared
    return service


def ledger_of(app: Any) -> Any:
    """The ledger of ``app`` in this process (also outside a request: the live streams)."""
    holder = app.extensions["chase_ledger"]
    built = holder.get("built")
    if built is None or built[0] != _forks:
        with _lock:
            built = holder.get("built")
            if built is None or built[0] != _forks:
                built = holder["built"] = (_forks, holder["build"]())
    return built[1]


def install(app: Any, build: Callable[[], Any]) -> None:
    app.extensions["chase_ledger"] = {"build": build}
