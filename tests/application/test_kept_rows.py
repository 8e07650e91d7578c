"""The track view's rows are kept from one command to the next (application/participant_steps.py),
but only for the chase object they were worked out of.

The replay job renders a chase twice at one version, folded event by event and as loaded from a
snapshot, to show any difference between the two. Both share the version and chain head: a row
kept for one must never stand in for the other, or the difference it exists to find is hidden.
"""
from __future__ import annotations

import copy

from application.systems.coc7e.track import render
from tests.unit.chase_log import FARMER, HARVEY, ChaseLog


def test_two_chase_objects_of_one_version_are_each_shown_as_they_are():
    # Given a chase folded from its log, and a copy of it at the same version and chain head
    log = ChaseLog("table")
    harvey = log.add(HARVEY)
    log.add(FARMER)
    replayed = log.at(len(log.events))
    loaded = copy.deepcopy(replayed)

    # When the copy holds Harvey differently (a snapshot that restored him wrongly)
    loaded.participants[harvey].hp = 1

    # Then each is rendered as it is: the first one's rows are not the second one's
    assert render(replayed)["participants"][harvey]["hp"] != 1
    assert render(loaded)["participants"][harvey]["hp"] == 1
