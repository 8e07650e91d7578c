"""A dry run through the application (application/dry_run.py): any command of any system tried on
a throw-away copy, with dice that never come from the server, recording nothing."""
from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from application.runner import VersionConflict


class NoServerDice:
    """The seed vault, except that asking it for server dice fails the test."""

    def __init__(self, seeds: Any) -> None:
        self.seeds = seeds

    def server_dice(self, *args: Any, **kw: Any) -> Any:
        raise AssertionError("a dry run asked for the server dice: it would show the next roll's faces")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.seeds, name)


def a_chase(ledger) -> tuple[UUID, str]:
    chase_id = UUID(ledger.create_chase("Harvey alone", dice="server")["chase_id"])
    harvey, _ = ledger.commands["coc7e"].add_participant(chase_id, {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6, "skills": {"Dodge": 50}})
    return chase_id, harvey


def test_a_dry_run_answers_the_odds_and_leaves_the_chase_and_its_dice_alone(ledger, monkeypatch):
    # Given a chase on server dice, loaded (and so cached) by the command that made it
    chase_id, harvey = a_chase(ledger)
    version = ledger.track(chase_id)["version"]
    monkeypatch.setattr(ledger.dice, "seeds", NoServerDice(ledger.dice.seeds))
    # When the odds of a Dodge roll with two bonus dice are asked
    answer = ledger.try_out(lambda: ledger.commands["coc7e"].roll_skill(chase_id, "Dodge", participant_id=harvey, bonus=2))
    # Then there is one roll, succeeding 7 times in 8, on the version the chase is at
    assert answer["version"] == version
    assert [(r["sequence"], r["event"], r["participant_id"]) for r in answer["rolls"]] == [(1, "SkillRolled", harvey)]
    assert answer["rolls"][0]["odds"]["outcomes"]["regular"]["exact"] == "121/400"
    assert answer["rolls"][0]["odds"]["success"] == 0.875 and "observed" not in answer["rolls"][0]["odds"]
    # ... and the chase is as it was: same version, no roll made, nothing waiting in the cached copy
    cached = ledger.runner.load(chase_id)
    assert (cached.version, cached.rolls_made, cached.pending_events) == (version, 0, [])
    assert ledger.rolls(chase_id) == []


def test_a_dry_run_is_refused_as_the_command_would_be(ledger):
    chase_id, harvey = a_chase(ledger)
    version = ledger.track(chase_id)["version"]
    # An out-of-date If-Match, and a skill the participant has no value for
    with pytest.raises(VersionConflict):
        ledger.try_out(lambda: ledger.commands["coc7e"].roll_skill(chase_id, "Dodge", participant_id=harvey, expected_version=version - 1))
    with pytest.raises(Exception, match="no value for Drive Auto"):
        ledger.try_out(lambda: ledger.commands["coc7e"].roll_skill(chase_id, "Drive Auto", participant_id=harvey))
    assert ledger.track(chase_id)["version"] == version


def test_after_a_dry_run_the_real_roll_uses_the_server_dice_as_ever(ledger):
    chase_id, harvey = a_chase(ledger)
    ledger.try_out(lambda: ledger.commands["coc7e"].roll_skill(chase_id, "Dodge", participant_id=harvey))
    roll, _ = ledger.commands["coc7e"].roll_skill(chase_id, "Dodge", participant_id=harvey)
    assert roll["source"]["kind"] == "server" and roll["sequence"] == 1
    [row] = ledger.roll_history(chase_id)
    assert row["odds"]["success"] == 0.5 and row["odds"]["observed"] == roll["level"]
