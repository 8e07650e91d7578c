"""What a Keeper shows the table: no player accused on a handful of rolls, a loaded die still
caught after the report's tests are adjusted together, the Keeper's own rolls apart from the
characters the Keeper plays, damage luck, breakdowns, a per-roll CSV, and names that cannot break
or inject into the Markdown and CSV exports."""
from __future__ import annotations

import csv
import io
from uuid import UUID

import pytest

from application.access import SYSTEM
from application.dice import DiceChoice
from infrastructure import charts, report_formats


def test_three_natural_twenties_accuse_nobody(ledger):
    # A player enters three d20 results of 20 at the table.
    chase_id = UUID(ledger.create_chase("Lucky night", dice="table")["chase_id"])
    for _ in range(3):
        ledger.commands["coc7e"].roll_dice(chase_id, "1D20", dice=DiceChoice(faces=[20]))

    report = ledger.analytics.chase_report(chase_id, SYSTEM, series=True)

    # Three rolls of a twenty-sided die are too few to judge: said in words, no p-value, no flag.
    source = report["fairness"]["table dice entered by keeper"]
    d20 = source["dice"]["d20"]
    assert (d20["rolls"], d20["p_value"], d20["verdict"], d20["suspect"]) == (3, None, "too few rolls to judge", False)
    assert not source["suspect"] and report["tests"]["size"] == 0
    # The faces chart draws no panel for it and says why.
    svg = charts.render(report, "faces", "svg").decode()
    assert "Too few rolls to judge" in svg and "3 of 40 rolls" in svg


def test_a_die_that_always_shows_six_is_still_caught_after_adjustment(ledger):
    # Twelve d6 entered, all sixes (the smallest sample a d6 is judged on), beside speed rolls.
    coc7e = ledger.commands["coc7e"]
    chase_id = UUID(ledger.create_chase("Loaded dice", dice="table")["chase_id"])
    harvey, _ = coc7e.add_participant(chase_id, {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6})
    coc7e.roll_speed(chase_id, harvey, DiceChoice(faces=[70, 2]))
    for _ in range(6):
        coc7e.roll_dice(chase_id, "2D6", dice=DiceChoice(faces=[6, 6]))

    report = ledger.analytics.chase_report(chase_id, SYSTEM)

    # Exactly: 6 / 6^12 = 2.76e-9; the family holds the d6 only (the d100 dice and luck are too few).
    d6 = report["fairness"]["table dice entered by keeper"]["dice"]["d6"]
    assert d6["method"] == "exact multinomial" and d6["p_value"] == pytest.approx(6 / 6 ** 12)
    assert [t["name"] for t in report["tests"]["family"]] == ["faces: table dice entered by keeper: d6"]
    assert d6["suspect"] and d6["verdict"] == "suspect: unlikely with fair dice"
    assert report["tests"]["method"] == "Holm" and report["tests"]["error_rate"] == 0.01


def test_the_keepers_own_rolls_stand_apart_from_the_characters_the_keeper_plays(ledger):
    coc7e = ledger.commands["coc7e"]
    chase_id = UUID(ledger.create_chase("The farm track", dice="table")["chase_id"])
    farmer, _ = coc7e.add_participant(chase_id, {"name": "Farmer", "role": "pursuer", "dex": 50, "con": 55, "mov": 7})
    coc7e.roll_speed(chase_id, farmer, DiceChoice(faces=[30, 5]))  # the farmer's (a character the Keeper plays)
    coc7e.roll_skill(chase_id, "Luck", target=50, dice=DiceChoice(faces=[90, 9]))  # the Keeper's own: for no character

    report = ledger.analytics.chase_report(chase_id, SYSTEM, series=True)

    assert report["keeper"]["rolls"] == 2  # everything the Keeper rolled
    assert report["keeper_own"]["rolls"] == 1 and report["keeper_own"]["luck"]["successes"] == 0
    assert set(report["luck_over_time"]) == {"Farmer", "the Keeper's own rolls"}
    md = report_formats.to_markdown(report)
    assert "| the Keeper's own rolls | 1 | 1 |" in md
    assert "| the Keeper \\(with the characters the Keeper plays\\) | 2 | 2 |" in md  # Markdown's escapes: shown as written


def test_damage_luck_and_the_mean_of_every_roll(ledger):
    coc7e = ledger.commands["coc7e"]
    chase_id = UUID(ledger.create_chase("A bad night", dice="table")["chase_id"])
    harvey, _ = coc7e.add_participant(chase_id, {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6})
    # Harvey's speed roll 72 (a d100 without bonus dice averages 50.5); two damage rolls of 1D6+1D4
    # (mean 3.5 + 2.5 = 6) showing 2+1 and 6+4; one plain 2D6 (mean 7) showing 3+6.
    coc7e.roll_speed(chase_id, harvey, DiceChoice(faces=[70, 2]))
    for faces in ([2, 1], [6, 4]):
        coc7e.roll_dice(chase_id, "1D6+1D4", participant_id=harvey, purpose="damage", dice=DiceChoice(faces=faces))
    coc7e.roll_dice(chase_id, "2D6", participant_id=harvey, dice=DiceChoice(faces=[3, 6]))

    report = ledger.analytics.chase_report(chase_id, SYSTEM)

    harvey_figures = report["by_participant"][harvey]
    damage = harvey_figures["damage"]
    assert (damage["rolls"], damage["observed"], damage["expected"], damage["difference"]) == (2, 13.0, pytest.approx(12.0), pytest.approx(1.0))
    # The spread of the sum: 1D6 has variance 35/12, 1D4 15/12; two rolls: 2 x 50/12.
    assert damage["sd_of_sum"] == pytest.approx((100 / 12) ** 0.5)
    means = harvey_figures["means"]
    assert means["rolls"] == 4 and means["observed"] == 72 + 3 + 10 + 9
    assert means["expected"] == pytest.approx(50.5 + 6 + 6 + 7)
    # Breakdowns: by purpose, kind of roll and skill (the speed roll is a CON roll).
    assert {k: b["rolls"] for k, b in report["by_purpose"].items()} == {"damage": 2, "dice roll": 1, "speed roll": 1}
    assert report["by_skill"]["CON"]["rolls_with_odds"] == 1 and report["by_skill"]["none"]["rolls"] == 3
    assert sum(b["rolls"] for b in report["by_kind"].values()) == 4


def test_names_cannot_break_or_inject_into_the_exports(ledger):
    coc7e = ledger.commands["coc7e"]
    chase_id = UUID(ledger.create_chase("Escapes", dice="table")["chase_id"])
    name = "Bob | ![x](http://evil.example/x.png)"
    bob, _ = coc7e.add_participant(chase_id, {"name": name, "role": "quarry", "dex": 55, "con": 60, "mov": 6})
    formula, _ = coc7e.add_participant(chase_id, {"name": "=HYPERLINK(\"http://evil.example\")", "role": "pursuer", "dex": 50, "con": 55, "mov": 7})
    coc7e.roll_speed(chase_id, bob, DiceChoice(faces=[70, 2]))
    coc7e.roll_speed(chase_id, formula, DiceChoice(faces=[10, 2]))

    report = ledger.analytics.chase_report(chase_id, SYSTEM, per_roll=True)
    md = report_formats.to_markdown(report)

    # The name's pipe is escaped (the row keeps its 11 cells) and its image link is text.
    row = next(line for line in md.splitlines() if line.startswith("| participant: Bob"))
    assert row.replace("\\|", "").count("|") == 12
    assert "![x]" not in md and "\\!\\[x\\]" in md
    # In both CSVs no cell starts a formula; the per-roll CSV's "who" shows the name as written, quoted.
    for text in (report_formats.to_csv(report), report_formats.to_rolls_csv(report)):
        assert not any(c.startswith("=") for line in csv.reader(io.StringIO(text)) for c in line)
    rows = list(csv.DictReader(io.StringIO(report_formats.to_rolls_csv(report))))
    assert [r["who"] for r in rows] == [name, "'=HYPERLINK(\"http://evil.example\")"]


def test_the_per_roll_csv_has_a_row_for_every_roll(ledger):
    coc7e = ledger.commands["coc7e"]
    chase_id = UUID(ledger.create_chase("Rows", dice="table")["chase_id"])
    harvey, _ = coc7e.add_participant(chase_id, {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6})
    coc7e.roll_speed(chase_id, harvey, DiceChoice(faces=[70, 2]))
    coc7e.roll_dice(chase_id, "2D6", dice=DiceChoice(faces=[3, 6]))

    rows = list(csv.DictReader(io.StringIO(report_formats.to_rolls_csv(ledger.analytics.chase_report(chase_id, SYSTEM, per_roll=True)))))

    assert [(r["sequence"], r["who"], r["purpose"], r["skill"], r["outcome"], r["chance"], r["total"]) for r in rows] == [
        ("1", "Harvey", "speed roll", "CON", "failure", "0.6", "72.0"),
        ("2", "the Keeper's own rolls", "dice roll", "", "", "", "9.0")]
    assert rows[0]["faces"] == "d100 tens:70 d100 units:2" and rows[1]["expected_total"] == "7.0"


def test_two_criticals_in_ten_skill_50_rolls_are_no_accusation(ledger):
    # The Keeper enters ten Spot Hidden rolls at 50: two criticals (01), three regular, five failures.
    coc7e = ledger.commands["coc7e"]
    chase_id = UUID(ledger.create_chase("Two criticals", dice="table")["chase_id"])
    for tens, units in [(0, 1), (0, 1), (30, 0), (40, 5), (40, 9), (60, 0), (70, 2), (80, 8), (90, 3), (60, 6)]:
        coc7e.roll_skill(chase_id, "Spot Hidden", target=50, dice=DiceChoice(faces=[tens, units]))

    report = ledger.analytics.chase_report(chase_id, SYSTEM)

    # Two or more criticals in ten rolls at 1 in 100: 1 - 0.99^10 - 10 x 0.01 x 0.99^9 = 0.0043
    # (the old pooled chi-square said 5e-7, suspect). Two-sided 0.0085; over six levels 0.051.
    levels = report["fairness"]["table dice entered by keeper"]["outcomes_against_their_odds"]
    at_least_two = 1 - 0.99 ** 10 - 10 * 0.01 * 0.99 ** 9
    assert levels["levels"]["critical"]["p_at_least"] == pytest.approx(at_least_two, abs=1e-12)
    assert levels["p_value"] == pytest.approx(6 * 2 * at_least_two, abs=1e-12)
    assert not levels["suspect"] and levels["verdict"] == "no sign of unfair dice"
    assert report["totals"]["levels"]["critical"] == {"observed": 2, "expected": pytest.approx(0.1), "expected_range": [0, 1]}


def test_the_same_rolls_under_two_names_are_one_test_in_the_family(ledger):
    # Harvey alone rolls, twelve times with server dice: his luck is also all rolls' and the Keeper's.
    coc7e = ledger.commands["coc7e"]
    chase_id = UUID(ledger.create_chase("One investigator")["chase_id"])
    harvey, _ = coc7e.add_participant(chase_id, {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6})
    for _ in range(12):
        coc7e.roll_skill(chase_id, "CON", participant_id=harvey)

    report = ledger.analytics.chase_report(chase_id, SYSTEM)

    # One luck test, named once, its verdict written on all three blocks alike.
    luck_tests = [t["name"] for t in report["tests"]["family"] if t["name"].startswith("luck")]
    assert luck_tests == ["luck: all rolls"]
    blocks = (report["totals"]["luck"], report["keeper"]["luck"], report["by_participant"][harvey]["luck"])
    assert len({(b["p_adjusted"], b["verdict"]) for b in blocks}) == 1
