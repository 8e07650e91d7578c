"""A shot's dice from the situation (domain/rules/coc7e/shooting.py): coc7e-combat.txt "Prone" and
the firearm modifiers, on participants as the domain holds them."""
from __future__ import annotations

from domain.rules.coc7e import shooting
from domain.rules.coc7e.participants import Participant


def person(name: str, **state) -> Participant:
    return Participant(id=name, name=name, kind="character", role="pursuer", mov=8, joined=0, dex=60, **state)


def test_a_prone_target_costs_a_shooter_a_penalty_die_except_at_point_blank_range():
    shooter, target = person("Harvey"), person("Thug", prone=True)
    # "those targeting a prone character with a firearm get one penalty die"
    assert shooting.dice(shooter, target, [], 10, firearm=True)[:2] == (0, 1)
    # "(ignore this if at point blank-range)": the point-blank bonus die, and no prone penalty die.
    bonus, penalty, applied = shooting.dice(shooter, target, ["point blank"], 3, firearm=True)
    assert (bonus, penalty, [m["modifier"] for m in applied]) == (1, 0, ["point blank"])
    # "fighting attacks made against a prone character gain one bonus die"
    assert shooting.dice(shooter, target, [], None, firearm=False)[:2] == (1, 0)


def test_a_prone_shooter_gains_a_bonus_die_and_cover_still_costs_one():
    shooter, target = person("Harvey", prone=True), person("Thug")
    assert shooting.dice(shooter, target, ["cover"], 10, firearm=True)[:2] == (1, 1)
