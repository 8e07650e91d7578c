"""A D6 chase's analytics: its rolls against their exact odds, metres covered, the round's clock."""
from __future__ import annotations

from tests.e2e.d6_table import D6Table


def test_a_d6_run_counts_its_metres_and_its_roll_against_the_odds(client):
    # Ann runs 30 m with table dice (4, 4, 4 on 3D: 12), the thief waits 40 m ahead.
    table = D6Table(client)
    table.add("Ann", "pursuer")
    table.add("Thief", "quarry", position=40)
    table.begin()
    table.run("Ann", 30, [4, 4, 4])

    report = table.get("/analytics")

    ann = next(pid for pid, p in report["by_participant"].items() if p["name"] == "Ann")
    assert report["game"]["by_participant"][ann]["metres covered"] == 30
    assert report["totals"]["rolls"] == 1 and report["totals"]["rolls_without_odds"] == 0
    assert report["fairness"]["table dice entered by keeper"]["dice"]["d6"]["faces"]["4"] == 3
    assert report["time"]["rounds"] == 1
