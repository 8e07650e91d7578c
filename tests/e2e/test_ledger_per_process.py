"""Each process serves with a ledger of its own (api/runtime.py): gunicorn forks its workers from
a process that may have built one already, and a connection or thread of the parent's is no use
in a child (a SQLite or PostgreSQL connection shared across a fork corrupts both sides)."""
from __future__ import annotations

import os

from flask import Flask

from api.runtime import install, ledger_of


def test_a_forked_worker_builds_its_own_ledger_and_the_parent_keeps_its_one():
    # Given an app whose ledger the parent process has built
    built: list[int] = []
    app = Flask("forked")
    install(app, lambda: built.append(os.getpid()) or object())
    parents = ledger_of(app)
    assert ledger_of(app) is parents and built == [os.getpid()]

    # When a worker is forked from it and asks for the ledger
    reading, writing = os.pipe()
    child = os.fork()
    if child == 0:  # the worker
        try:
            own = ledger_of(app)
            answer = f"{own is not parents} {own is ledger_of(app)} {built[-1] == os.getpid()}"
            os.write(writing, answer.encode())
        finally:
            os._exit(0)
    os.close(writing)
    answer = os.read(reading, 100).decode()
    os.close(reading)
    os.waitpid(child, 0)

    # Then the worker built one of its own, once, and the parent still has its own
    assert answer == "True True True"
    assert ledger_of(app) is parents and built == [os.getpid()]
