"""The offline verifier (domain/verification.py, DESIGN.md sections 4 and 6).

It checks an exported log event by event: versions in order with none missing, the hash chain,
each revealed seed against its commitment, the roll sequence (no gaps, no repeats) and every
server roll whose seed is revealed, die by die; it names the first event that fails.
"""
from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from domain.chain import GENESIS
from domain.dice import derive_index
from domain.rules.coc7e import percentile
from domain.verification import VerificationFailed, dice_of, faces_of, verify as verify_with
from infrastructure.systems import verify
from tests.unit.chase_log import SEEDS, ChaseLog, rechain


@pytest.fixture(scope="module")
def played() -> ChaseLog:
    """Every kind of roll and record event: table and server rolls (percentile with bonus dice,
    expressions with entropy), an undone roll, a redo, a rewind, a mid-chase reveal (epoch 1)
    and the end, which reveals epoch 1."""
    log = ChaseLog()
    harvey, _ = log.running()  # rolls 1, 2: table dice
    log.roll("1D10+1D4+2")  # 3
    log.do(lambda c: c.roll_skill(log.server(), harvey, "Dodge", bonus=2))  # 4: three tens dice
    log.roll("1D6")  # 5: undone, then redone
    log.undo()
    log.redo()
    log.roll("2D6", table=[3, 4])  # 6: table dice
    log.do(lambda c: c.contribute_entropy("the players' dice", "player"))
    log.roll("1D20")  # 7: with entropy
    log.undo()  # 7 undone for good
    log.reveal()  # epoch 0 revealed, epoch 1 committed
    log.roll("1D8")  # 8: epoch 1
    log.do(lambda c: c.move(harvey, 1))
    version = log.chase.version
    log.roll("1D3")  # 9: rewound away
    log.rewind(version)
    log.end()  # epoch 1 revealed
    return log


@pytest.fixture
def export(played) -> dict[str, Any]:
    return played.export()


def event_of_roll(export: dict[str, Any], sequence: int) -> dict[str, Any]:
    return next(e for e in export["events"] if (e["data"].get("roll") or {}).get("sequence") == sequence)


def named(export: dict[str, Any], name: str, nth: int = 0) -> dict[str, Any]:
    return [e for e in export["events"] if e["name"] == name][nth]


def fails(export: dict[str, Any], version: Any, reason: str, **kw: Any) -> VerificationFailed:
    with pytest.raises(VerificationFailed) as failed:
        verify(export, **kw)
    assert failed.value.version == version, str(failed.value)
    assert reason in failed.value.reason, failed.value.reason
    assert str(failed.value).startswith(f"event {version}: ")
    return failed.value


def test_an_untouched_export_verifies_and_the_report_counts_what_it_holds(played, export):
    report = verify(export)

    assert report.chase_id == str(played.chase.id)
    assert report.events == len(export["events"]) == played.chase.version
    assert report.head == export["events"][-1]["hash"] == played.chase.chain_head
    assert report.rolls == 9
    assert report.undone_rolls == 2  # roll 7 (undone) and roll 9 (rewound away); roll 5 was redone
    assert report.table_rolls == 3
    assert report.server_rolls_verified == 6 and report.server_rolls_unverifiable == 0
    assert report.seeds_revealed == 2
    assert "9 rolls (2 undone), 3 with table dice, 6 server rolls recomputed" in report.summary()
    assert event_of_roll(export, 4)["data"]["roll"]["bonus_dice"] == 2
    assert event_of_roll(export, 8)["data"]["roll"]["source"]["epoch"] == 1
    assert event_of_roll(export, 7)["data"]["roll"]["source"]["entropy"]


def test_the_hash_field_is_optional_the_chain_is_checked_through_previous_hash(export):
    for event in export["events"]:
        del event["hash"]
    assert verify(export).events == len(export["events"])
    export["events"][3]["data"]["roll"]["purpose"] = "something else"
    fails(export, 5, "chain is broken")  # the next event no longer links to the changed one


def test_every_kept_head_verifies_and_a_foreign_one_fails(export):
    for event in export["events"]:
        assert verify(export, kept_head=event["hash"]).head == export["events"][-1]["hash"]
    fails(export, "-", "not in this log", kept_head="ab" * 32)
    fails(export, "-", "not in this log", kept_head=GENESIS)


def test_a_log_before_the_reveal_checks_its_chain_but_cannot_recompute_the_server_rolls():
    log = ChaseLog()
    log.running()
    log.roll("3D6")
    log.reveal()
    log.roll("1D6")  # epoch 1: not revealed yet
    report = verify(log.export())
    assert report.server_rolls_verified == 1 and report.server_rolls_unverifiable == 1 and report.seeds_revealed == 1


def _face(export: dict[str, Any], sequence: int) -> dict[str, Any]:
    """A careful forger: changes a die and the total with it, so only the seed can tell."""
    event = event_of_roll(export, sequence)
    roll = event["data"]["roll"]
    die = roll["dice"][0]
    new = die["face"] % 6 + 1
    roll["total"] += new - die["face"]
    die["face"] = new
    return event


def _tens(export: dict[str, Any], sequence: int) -> dict[str, Any]:
    """A careful forger: changes a bonus die and the result and level it leads to."""
    event = event_of_roll(export, sequence)
    roll = event["data"]["roll"]
    tens = roll["tens"][1]
    tens["face"] = (tens["face"] + 10) % 100
    read = percentile.resolve(roll["target"], [t["face"] for t in roll["tens"]] + [roll["units"]], roll["bonus_dice"], roll["penalty_dice"])
    for t, kept in zip(roll["tens"], read["tens"]):
        t["kept"] = kept["kept"]
    roll.update(result=read["result"], level=read["level"], success=percentile.meets(read["level"], roll["difficulty"]))
    return event


def _entropy(export: dict[str, Any], sequence: int) -> dict[str, Any]:
    """Claim other entropy for a server roll: one whose dice differ from those recorded
    (a single d6 would show the same face under one entropy in six)."""
    event = event_of_roll(export, sequence)
    roll = event["data"]["roll"]
    seed = bytes.fromhex(next(e["data"]["seed"] for e in export["events"] if e["name"] == "SeedRevealed" and e["data"]["epoch"] == roll["source"]["epoch"]))
    for n in range(100):
        entropy = f"other {n}"
        faces = [die.face(derive_index(seed, export["chase_id"], sequence, i, die.sides, entropy)) for i, die in enumerate(dice_of(roll))]
        if faces != faces_of(roll):
            roll["source"]["entropy"] = entropy
            return event
    raise AssertionError("no entropy found that changes the dice")


TAMPERING: dict[str, tuple[Callable[[dict[str, Any]], Any], bool, str]] = {
    # what is done to the log: (do it, returning the version named; rehash the chain; reason)
    "a server die face changed": (lambda x: _face(x, 3)["version"], False, "does not match its hash"),
    "a server die face changed, chain rehashed": (lambda x: _face(x, 3)["version"], True, "revealed seed gives"),
    "a bonus die changed, chain rehashed": (lambda x: _tens(x, 4)["version"], True, "revealed seed gives"),
    "an undone server roll changed, chain rehashed": (lambda x: _face(x, 7)["version"], True, "revealed seed gives"),
    "an epoch-1 roll changed, chain rehashed": (lambda x: _face(x, 8)["version"], True, "revealed seed gives"),
    "a roll's entropy changed, chain rehashed": (lambda x: _entropy(x, 7)["version"], True, "revealed seed gives"),
    "an event deleted": (lambda x: x["events"].pop(7)["version"] + 1, False, "missing, added or out of order"),
    "two events swapped": (lambda x: x["events"].insert(9, x["events"].pop(8)) or 10, False, "missing, added or out of order"),
    "two rolls swapped, chain rehashed": (
        lambda x: x["events"].insert(3, x["events"].pop(4)) or 4,
        True,
        "roll number 2 where 1 was due",
    ),
    "an undone roll removed, chain rehashed": (
        lambda x: x["events"].remove(event_of_roll(x, 7)) or event_of_roll(x, 8)["version"] - 1,
        True,
        "roll number 8 where 7 was due",
    ),
    "a roll repeated, chain rehashed": (
        lambda x: x["events"].insert(x["events"].index(event_of_roll(x, 3)) + 1, copy.deepcopy(event_of_roll(x, 3)))
        or event_of_roll(x, 3)["version"] + 1,
        True,
        "roll number 3 where 4 was due",
    ),
    "the revealed seed changed": (lambda x: named(x, "SeedRevealed")["data"].update(seed="00" * 32) or named(x, "SeedRevealed")["version"], False, "does not match its hash"),
    "the revealed seed changed, chain rehashed": (
        lambda x: named(x, "SeedRevealed")["data"].update(seed=SEEDS[3].hex()) or named(x, "SeedRevealed")["version"],
        True,
        "does not match the commitment of epoch 0",
    ),
    "the second revealed seed changed, chain rehashed": (
        lambda x: named(x, "SeedRevealed", 1)["data"].update(seed=SEEDS[0].hex()) or named(x, "SeedRevealed", 1)["version"],
        True,
        "does not match the commitment of epoch 1",
    ),
    "the revealed seed not hexadecimal, chain rehashed": (
        lambda x: named(x, "SeedRevealed")["data"].update(seed="not a seed") or named(x, "SeedRevealed")["version"],
        True,
        "not hexadecimal",
    ),
    "the first commitment changed, chain rehashed": (
        lambda x: x["events"][0]["data"].update(seed_commitment="ab" * 32) or named(x, "SeedRevealed")["version"],
        True,
        "does not match the commitment of epoch 0",
    ),
    "a previous hash changed": (
        lambda x: x["events"][5]["data"].update(previous_hash="cd" * 32) or 6,
        False,
        "chain is broken",
    ),
    "an event of another chase": (
        lambda x: x["events"][4].update(chase_id="00000000-0000-0000-0000-000000000000") or 5,
        False,
        "another chase",
    ),
    "the first event removed": (lambda x: x["events"].pop(0) and 2, False, "missing, added or out of order"),
}


@pytest.mark.parametrize("how", list(TAMPERING))
def test_tampering_is_caught_at_the_first_event_that_does_not_check_out(export, how):
    tamper, rehash, reason = TAMPERING[how]
    forged = copy.deepcopy(export)

    version = tamper(forged)
    if rehash:
        rechain(forged)

    fails(forged, version, reason)


def test_a_rehashed_forgery_is_caught_by_a_head_kept_before_it(export):
    kept = export["events"][-1]["hash"]
    forged = copy.deepcopy(export)
    table_roll = event_of_roll(forged, 6)
    roll = table_roll["data"]["roll"]
    roll["total"] += 6 - roll["dice"][0]["face"]  # a careful forger keeps the total in step
    roll["dice"][0]["face"] = 6  # table dice: nothing to recompute them from
    rechain(forged)

    assert verify(forged).rolls == 9
    fails(forged, "-", "rewritten", kept_head=kept)


@pytest.mark.parametrize("export", [{}, {"events": []}, {"events": "none"}, {"chase_id": "x"}])
def test_an_export_without_events_fails(export):
    fails(export, "-", "no events")


def test_rewind_restoring_undone_actions_counts_their_rolls_again():
    log = ChaseLog()
    log.running()
    log.roll()  # 1 .. 2 are the speed rolls; this is 3
    version = log.chase.version
    log.undo()
    assert verify(log.export()).undone_rolls == 1
    log.rewind(version)  # back to when roll 3 counted
    assert verify(log.export()).undone_rolls == 0
    log.undo()
    log.redo()
    assert verify(log.export()).undone_rolls == 0


def test_redo_of_a_rewind_that_restored_an_undone_roll_counts_it_undone_again():
    log = ChaseLog()
    log.running()
    log.roll()  # roll 3
    version = log.chase.version
    log.undo()  # roll 3 undone
    log.roll()  # roll 4
    log.rewind(version)  # roll 3 counts again, roll 4 undone
    assert verify(log.export()).undone_rolls == 1

    log.redo()  # as before the rewind: roll 4 counts, roll 3 does not

    assert log.chase.effective_actions[-1] == log.events[-3].action  # roll 4's action (then Rewound, Redone)
    assert verify(log.export()).undone_rolls == 1


def test_a_server_roll_relabelled_to_an_epoch_never_committed_is_caught(export):
    forged = copy.deepcopy(export)
    event = _face(forged, 3)
    event["data"]["roll"]["source"]["epoch"] = 7
    rechain(forged)

    fails(forged, event["version"], "")


@pytest.mark.parametrize("field, value", [("total", 99), ("modifier", 40)])
def test_a_server_rolls_total_changed_with_its_faces_kept_is_caught(export, field, value):
    forged = copy.deepcopy(export)
    event = event_of_roll(forged, 3)
    event["data"]["roll"][field] = value
    rechain(forged)

    fails(forged, event["version"], "")


def test_a_percentile_server_rolls_result_changed_with_its_faces_kept_is_caught(export):
    forged = copy.deepcopy(export)
    event = event_of_roll(forged, 4)
    roll = event["data"]["roll"]
    # A critical 01 claimed, or a fumble 100 where the server's dice did roll the 01.
    forged_result = (1, "critical", True) if roll["result"] != 1 else (100, "fumble", False)
    roll.update(result=forged_result[0], level=forged_result[1], success=forged_result[2])
    rechain(forged)

    fails(forged, event["version"], "")


def test_an_ended_chase_whose_reveal_was_removed_is_caught(export):
    forged = copy.deepcopy(export)
    reveal = named(forged, "SeedRevealed", 1)  # the reveal at the end (epoch 1)
    assert forged["events"][-1] is reveal and forged["events"][-2]["name"] == "ChaseEnded"
    forged["events"].remove(reveal)
    rechain(forged)

    with pytest.raises(VerificationFailed):
        verify(forged)


def test_a_roll_no_given_systems_check_reads_is_refused_not_passed_unchecked(played, export):
    # The export holds Call of Cthulhu percentile rolls (roll 1 is Harvey's speed roll).
    first = event_of_roll(export, 1)
    assert "tens" in first["data"]["roll"]

    # With every registered system's checks it verifies; with none, the first percentile roll
    # is not waved through: nothing in the core can read it.
    assert verify(export).rolls == 9
    with pytest.raises(VerificationFailed) as failed:
        verify_with(export)
    assert failed.value.version == first["version"] and "no kind the given game systems' checks read" in failed.value.reason
