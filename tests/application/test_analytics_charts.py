"""The charts a Keeper shows the table: each kind drawn as a valid SVG and PNG of the right size."""
from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from uuid import UUID

import pytest
from matplotlib import image

from application.access import SYSTEM
from application.dice import DiceChoice
from infrastructure import charts


@pytest.fixture
def report(ledger):
    """A chase with a few table-dice speed rolls and a dice roll, reported with luck over time."""
    coc7e = ledger.commands["coc7e"]
    chase_id = UUID(ledger.create_chase("Chart night", dice="table")["chase_id"])
    harvey, _ = coc7e.add_participant(chase_id, {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6})
    farmer, _ = coc7e.add_participant(chase_id, {"name": "Farmer", "role": "pursuer", "dex": 50, "con": 55, "mov": 7})
    coc7e.roll_speed(chase_id, harvey, DiceChoice(faces=[70, 2]))
    coc7e.roll_speed(chase_id, farmer, DiceChoice(faces=[30, 5]))
    coc7e.roll_dice(chase_id, "2D6", dice=DiceChoice(faces=[3, 6]))
    return ledger.analytics.chase_report(chase_id, SYSTEM, series=True)


@pytest.mark.parametrize("kind", charts.KINDS)
def test_each_chart_is_a_png_of_800_by_450_pixels(report, kind):
    png = charts.render(report, kind, "png")

    pixels = image.imread(io.BytesIO(png), format="png")
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert pixels.shape[:2] == (charts.HEIGHT * charts.DPI, charts.WIDTH * charts.DPI)


@pytest.mark.parametrize("kind", charts.KINDS)
def test_each_chart_is_an_svg_of_8_by_4_5_inches(report, kind):
    svg = ET.fromstring(charts.render(report, kind, "svg"))

    assert svg.tag == "{http://www.w3.org/2000/svg}svg"
    assert (svg.get("width"), svg.get("height")) == ("576pt", "324pt")  # 72 points an inch
    assert svg.find(".//{http://www.w3.org/2000/svg}path") is not None  # something is drawn


def test_the_luck_chart_draws_one_line_per_participant(report):
    # Harvey failed (-0.6) and the farmer succeeded (+0.45): one step line each, with the spread
    # fair luck has after one roll, sqrt(p (1 - p)): sqrt(0.6 * 0.4) and sqrt(0.45 * 0.55).
    assert report["luck_over_time"]["Harvey"] == [[1, pytest.approx(-0.6), pytest.approx(0.24 ** 0.5)]]
    assert report["luck_over_time"]["Farmer"] == [[1, pytest.approx(0.45), pytest.approx(0.2475 ** 0.5)]]
    svg = charts.render(report, "luck", "svg").decode()
    assert "Harvey" in svg and "Farmer" in svg
