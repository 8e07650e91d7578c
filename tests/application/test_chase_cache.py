"""The chase a process keeps between commands is exactly the chase its events make.

Each API process keeps the latest saved state of its chases (application/chase_cache.py) and
the next command starts from it. If that state ever drifted from its events, a command would
act on a chase no other process (and no replay) would see.
"""
from __future__ import annotations

import threading
from uuid import UUID

import pytest
from eventsourcing.persistence import IntegrityError

from tests.integration.test_concurrency import play_round_one


def test_the_chase_kept_between_commands_is_the_fold_of_its_events(keeper, ledger):
    # A round of a chase is played, then the Keeper undoes the last move and redoes it.
    play_round_one(keeper)
    keeper.ok(keeper.post("/undo", {"reason": "wrong location"}))
    keeper.ok(keeper.post("/redo", {}))
    chase_id = UUID(keeper.chase_id)

    # The chase the process kept is the chase its recorded events fold into, field by field.
    kept = ledger.runner.cache.check_out(chase_id)
    folded = None
    for event in ledger.events.get(chase_id):
        folded = event.mutate(folded)
    assert kept is not None and folded is not None
    assert kept.version == folded.version == len(keeper.events())
    assert vars(kept) == vars(folded)

    # A chase checked out is lent to one command alone: another waits for it, and gets it once
    # it is back (or, past the wait, nothing: it loads its own from the store).
    got = []
    waiter = threading.Thread(target=lambda: got.append(ledger.runner.cache.check_out(chase_id)))
    waiter.start()
    ledger.runner.cache.check_in(kept)
    waiter.join()
    assert got == [kept]
    ledger.runner.cache.check_in(kept)
    ledger.runner.cache.wait = 0.01
    assert ledger.runner.cache.check_out(chase_id) is kept
    assert ledger.runner.cache.check_out(chase_id) is None


def test_a_command_refused_or_failed_half_way_leaves_no_changed_chase_in_the_cache(keeper, ledger):
    # A round of a chase is played; the process keeps the chase as saved.
    play_round_one(keeper)
    chase_id = UUID(keeper.chase_id)
    saved = len(keeper.events())

    # A command the rules refuse records nothing and changes nothing: the chase is kept as saved.
    assert keeper.post("/end", {"outcome": "teleported"}).status_code >= 400
    kept = ledger.runner.cache.check_out(chase_id)
    assert kept is not None and kept.version == saved
    ledger.runner.cache.check_in(kept)

    # A command that changes the chase and then fails (here: loses its race) is not kept
    # changed: the next command loads the chase as saved and records on top of it.
    def changed_then_failed(chase):
        chase.contribute_entropy("lost", "keeper")
        raise IntegrityError("recorded by another process first")

    with pytest.raises(IntegrityError):
        ledger.runner.run(chase_id, changed_then_failed)
    assert ledger.runner.cache.check_out(chase_id) is None
    ledger.runner.cache.release(chase_id)
    keeper.ok(keeper.post("/entropy", {"entropy": "kept"}))
    assert len(keeper.events()) == saved + 1
    assert ledger.runner.cache.check_out(chase_id).entropy == ledger.runner.load_at(chase_id, saved + 1).entropy
