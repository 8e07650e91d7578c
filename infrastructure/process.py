"""This process's ledger, for the jobs RQ runs in it (``chase worker``), and the function RQ runs.

Kept apart from the composition root so that the queue adapter (queues.py) names the function RQ
runs by its path, and imports nothing that builds a ledger: no import cycle.
"""
from __future__ import annotations

import os
import threading
from typing import Any

from application.chases import ChaseLedger
from infrastructure.bootstrap import build_ledger

_process: dict[str, Any] = {}
_process_lock = threading.Lock()


def process_ledger() -> ChaseLedger:
    """This process's ledger, built from the environment on first use after any fork (RQ jobs
    run by ``chase worker`` use it)."""
    if _process.get("pid") != os.getpid():
        with _process_lock:
            if _process.get("pid") != os.getpid():
                _process["ledger"] = build_ledger()
                _process["pid"] = os.getpid()
    return _process["ledger"]


def use_as_process_ledger(ledger: ChaseLedger) -> ChaseLedger:
    """Make ``ledger`` the one this process's jobs run on (``chase worker`` builds it first)."""
    with _process_lock:
        _process["ledger"], _process["pid"] = ledger, os.getpid()
    return ledger


def perform(job_id: str) -> Any:
    """What RQ runs: the job, by this process's ledger (built once per process)."""
    return process_ledger().jobs.execute(job_id)
