"""The chase a process keeps between commands is exactly the chase its events make.

Each API process keeps the latest saved state of its chases (application/chase_cache.py) and
the next command starts from it. If that state ever drifted from its events, a command would
act on a chase no other process (and no replay) would see.
"""
from __future__ import annotations

from uuid import UUID

from tests.integration.test_concurrency import play_round_one


def test_the_chase_kept_between_commands_is_the_fold_of_its_events(keeper, ledger):
    # A round of a chase is played, then the Keeper undoes the last move and redoes it.
    play_round_one(keeper)
    keeper.ok(keeper.post("/undo", {"reason": "wrong location"}))
    keeper.ok(keeper.post("/redo", {}))
    chase_id = UUID(keeper.chase_id)

    # The chase the process kept is the chase its recorded events fold into, field by field.
    kept = ledger.runner.cache.get(chase_id)
    folded = None
    for event in ledger.events.get(chase_id):
        folded = event.mutate(folded)
    assert kept is not None and folded is not None
    assert kept.version == folded.version == len(keeper.events())
    assert vars(kept) == vars(folded)

    # Each load is a copy of its own: changing one leaves the kept chase as it was.
    kept.name = "scribbled over"
    assert ledger.runner.cache.get(chase_id).name == folded.name
