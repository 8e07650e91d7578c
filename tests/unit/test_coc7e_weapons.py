"""Weapons as data and the damage of a blow (coc7e-combat.txt "Table XVII: Weapons", "Extreme Damage
and Impales", "Ranged and Thrown Weapons", "Armor"), with hypothesis for the damage bounds."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.dice import parse
from domain.rules.coc7e import weapon_rows, weapons
from domain.rules.coc7e.errors import InvalidCommand
from domain.rules.coc7e.weapon_damage import blow, extreme_hit, through_armor

BONUSES = ("-2", "-1", "0", "+1D4", "+1D6", "+2D6", "+3D6")


def test_every_row_of_every_table_is_a_weapon_citing_its_table():
    printed = sum(len(rows) for rows in weapon_rows.ROWS.values())
    assert len(weapons.WEAPONS) == printed == 104
    assert {w.table for w in weapons.WEAPONS} == set(weapon_rows.ROWS)
    for w in weapons.WEAPONS:
        assert w.source == f'coc7e-combat.txt "Table XVII: Weapons", {w.table}'
        for damage in w.bands or (w.damage,):
            parse(damage.replace("half DB", "DB"), "+1D4")  # every damage reads as dice


def test_the_tables_marks_read_as_printed():
    assert all(w.impales for w in weapons.WEAPONS if w.table in (weapon_rows.HANDGUNS, weapon_rows.RIFLES, weapon_rows.SMGS))
    assert not any(w.impales for w in weapons.WEAPONS if w.table == weapon_rows.SHOTGUNS)  # "cannot impale"
    sawn_off = weapons.weapon("12-gauge shotgun (2b sawed off)")
    assert (sawn_off.bands, sawn_off.range_yards) == (("4D6", "1D6"), (5, 10))
    assert weapons.weapon("Dynamite Stick").blast_yards == 3 and weapons.weapon("Burning Torch").effect == "burn"
    assert weapons.weapon("Mace Spray").damage == "0" and weapons.weapon("Mace Spray").effect == "stun"
    assert (weapons.weapon("M16A2").burst, weapons.weapon("Uzi SMG").full_auto) == (3, True)
    with pytest.raises(InvalidCommand):
        weapons.weapon("Phaser")


@pytest.mark.parametrize(
    ("str_plus_siz", "bonus", "build"),
    [(64, "-2", -2), (65, "-1", -1), (120, "0", 0), (125, "+1D4", 1), (200, "+1D6", 2), (284, "+2D6", 3), (364, "+3D6", 4), (525, "+6D6", 7)],
)
def test_the_damage_bonus_and_build_of_str_plus_siz(str_plus_siz, bonus, build):
    assert weapons.damage_bonus_and_build(str_plus_siz) == (bonus, build)


def test_thrown_weapons_take_half_the_damage_bonus():
    assert [weapons.half_bonus(b) for b in BONUSES] == ["-1", "0", "0", "+1D2", "+1D3", "+2D3", "+3D3"]
    assert blow("1D4+half DB", "+1D4", extreme=True, impales=False).fixed == 6  # a thrown rock's maximum


def test_the_switchblade_extreme_success_is_1d4_plus_8():
    # "The player rolls 1D4 for the weapon's damage, and adds the maximum damage the weapon can
    # inflict (4) together with their maximum damage bonus (4). This results in a total of 1D4+8".
    hit = blow("1D4+DB", "+1D4", extreme=True, impales=True)
    assert (hit.kind, hit.rolled, hit.fixed) == ("impale", "1D4", 8)
    assert blow("1D4+DB", "+1D4", extreme=True, impales=False) == type(hit)("maximum", None, 8)


def test_extreme_damage_only_on_the_attackers_turn_and_at_very_long_range_only_on_01():
    assert extreme_hit("extreme", initiated=True) and extreme_hit("critical", initiated=True)
    assert not extreme_hit("extreme", initiated=False)  # fighting back
    assert not extreme_hit("hard", initiated=True)
    assert not extreme_hit("extreme", initiated=True, difficulty="extreme") and extreme_hit("critical", initiated=True, difficulty="extreme")


@given(st.sampled_from([w for w in weapons.WEAPONS if w.damage != "0"]), st.sampled_from(BONUSES), st.integers(0, 100), st.data())
def test_damage_stays_within_its_bounds(w, bonus, seed, data):
    whole = parse(w.damage.replace("half DB", "DB"), weapons.half_bonus(bonus) if "half DB" in w.damage else bonus)
    weapon_only = parse(w.damage.replace("half DB", "DB"), "0")
    faces = lambda expression: [data.draw(st.integers(1, d.sides)) for d in parse(expression).dice()]  # noqa: E731
    regular = blow(w.damage, bonus, extreme=False, impales=w.impales)
    dealt = regular.amount(parse(regular.rolled).total(faces(regular.rolled)) if regular.rolled else 0)
    assert max(0, whole.minimum()) <= dealt <= max(0, whole.maximum())
    extreme = blow(w.damage, bonus, extreme=True, impales=w.impales)
    if not w.impales:
        assert extreme.amount() == max(0, whole.maximum()) and extreme.rolled is None
    else:
        rolled = parse(extreme.rolled).total(faces(extreme.rolled)) if extreme.rolled else 0
        assert whole.maximum() + weapon_only.minimum() <= extreme.amount(rolled) <= whole.maximum() + weapon_only.maximum()
    assert 0 <= through_armor(dealt, seed) <= dealt
