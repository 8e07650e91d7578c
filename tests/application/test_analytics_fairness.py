"""Is the dice rigged? A table die that always shows 6 is flagged; the server's dice are not."""
from __future__ import annotations

from uuid import UUID

from application.access import SYSTEM
from application.analytics import rolls as roll_figures
from application.analytics.facts import FactReader
from application.dice import DiceChoice
from domain.dice.dice import D, TENS, UNITS
from infrastructure.dice import ServerDice
from infrastructure.systems import odds_of


def test_a_table_die_that_always_shows_six_is_flagged(ledger):
    # A player's "lucky" d6 is entered at the table six times: every face a 6.
    chase_id = UUID(ledger.create_chase("Loaded dice", dice="table")["chase_id"])
    for _ in range(6):
        ledger.commands["coc7e"].roll_dice(chase_id, "2D6", dice=DiceChoice(faces=[6, 6]))

    report = ledger.analytics.chase_report(chase_id, SYSTEM)

    test = report["fairness"]["table dice entered by keeper"]["dice"]["d6"]
    assert test["faces"] == {"1": 0, "2": 0, "3": 0, "4": 0, "5": 0, "6": 12}
    assert test["p_value"] < 0.001 and test["suspect"]
    assert report["fairness"]["table dice entered by keeper"]["suspect"]


def test_fair_server_dice_over_ten_thousand_rolls_are_not_flagged():
    # The server's dice (HMAC of a seed, rejection sampled) roll 10,000 times: a d6 and a d100.
    dice = ServerDice(bytes(range(32)), UUID(int=13))
    reader = FactReader(odds_of)
    facts = []
    for sequence in range(1, 10_001):
        d6, tens, units = dice.draw(sequence, [D(6), TENS, UNITS]).faces
        roll = {"sequence": sequence, "source": {"kind": "server", "sequence": sequence},
                "dice": [{"die": "d6", "face": d6}, {"die": "d100 tens", "face": tens}, {"die": "d100 units", "face": units}]}
        facts.append({"undone": False, "data": reader.roll(roll)})

    fairness = roll_figures.fairness(facts)["server dice"]

    for label in ("d6", "d100 tens", "d100 units"):
        assert fairness["dice"][label]["rolls"] == 10_000
        assert fairness["dice"][label]["method"] == "chi-square"  # hundreds of rolls a face: the asymptotics hold
        assert fairness["dice"][label]["p_value"] >= 0.01, label
