"""Property tests (hypothesis) of combat's rules: opposed rolls against the tie rules
(coc7e-combat.txt "Resolving a Fighting Attack ..."), volley sizes and volleys ("Automatic Fire"),
and a blow's wound ("Tracking Damage")."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from domain.rules.coc7e import percentile, ranged, wounds
from domain.rules.coc7e.conflict import resolve

LEVELS = st.sampled_from(percentile.LEVELS)


@given(LEVELS, LEVELS)
def test_fighting_back_the_better_level_wins_and_the_attacker_wins_ties(attacker, defender):
    exchange = resolve(attacker, defender, "fight back")
    if not percentile.meets(attacker) and not percentile.meets(defender):
        assert exchange.winner is None and not exchange.target_hit and not exchange.attacker_hit
    elif percentile.RANK[defender] > percentile.RANK[attacker]:
        assert exchange.winner == "defender" and exchange.attacker_hit and not exchange.target_hit
    else:
        assert exchange.winner == "attacker" and exchange.target_hit


@given(LEVELS, LEVELS)
def test_dodging_the_attacker_must_do_better_and_the_dodger_wins_ties(attacker, defender):
    exchange = resolve(attacker, defender, "dodge")
    assert not exchange.attacker_hit  # a dodge never deals damage
    if not percentile.meets(attacker) and not percentile.meets(defender):
        assert exchange.winner is None
    else:
        assert exchange.target_hit == (percentile.RANK[attacker] > percentile.RANK[defender])


@given(st.integers(0, 200))
def test_a_volley_is_the_tens_digit_of_the_skill_never_fewer_than_3(skill):
    assert ranged.volley_size(skill) == max(3, skill // 10)


@given(st.lists(st.integers(1, 60), min_size=1, max_size=5), st.integers(3, 20), st.integers(0, 2), st.integers(0, 2))
def test_volleys_fire_every_bullet_one_penalty_die_more_each_then_harder(bullets, size, bonus, penalty):
    targets = [(f"t{i}", n) for i, n in enumerate(bullets)]
    plan = ranged.volleys(targets, size, bonus=bonus, penalty=penalty)
    assert sum(v.bullets for v in plan) == sum(bullets) and all(1 <= v.bullets <= size for v in plan)
    for v in plan:
        net = bonus - penalty - v.index
        assert v.bonus_dice - v.penalty_dice == max(net, -2) and min(v.bonus_dice, v.penalty_dice) == 0
        steps = max(0, -2 - net)
        assert v.difficulty == (percentile.DIFFICULTIES[steps] if steps < 4 else None)


@given(st.integers(1, 100), st.sampled_from(percentile.LEVELS), st.sampled_from(percentile.DIFFICULTIES))
def test_a_volley_hits_with_half_or_all_and_never_impales_more_than_half(bullets, level, difficulty):
    hit, impaling = ranged.hits(bullets, level, difficulty)
    if not percentile.meets(level, difficulty):
        assert (hit, impaling) == (0, 0)
    else:
        assert hit in (max(1, bullets // 2), bullets) and impaling in (0, max(1, bullets // 2))
        assert impaling == 0 or (hit == bullets and difficulty not in ("extreme", "critical"))


@given(st.integers(1, 100), st.data())
def test_a_blow_is_regular_major_or_deadly_by_its_size(hp, data):
    left = data.draw(st.integers(0, hp))
    taken = data.draw(st.integers(1, 3 * hp))
    read = wounds.blow(hp, left, taken, major_wound_before=False)
    assert read.major_wound == (2 * taken >= hp) and read.killed == (taken > hp)
    assert read.hp_left == max(0, left - taken)
    assert read.dying == (read.hp_left == 0 and read.major_wound and not read.killed)


SITUATION = st.tuples(st.integers(0, 2), st.integers(0, 3), st.sampled_from(percentile.DIFFICULTIES))


@given(st.lists(st.tuples(st.integers(1, 30), SITUATION), min_size=1, max_size=4), st.integers(3, 10))
def test_each_targets_situation_sets_its_first_roll_and_later_rolls_add_a_penalty_die_each(aimed, size):
    # "First attack roll: apply the usual rules ... (set difficulty by range and then apply any
    # modifiers). Second and further attack rolls: add one penalty die (or remove a bonus die)
    # for each additional attack roll" -- past two penalty dice, the difficulty a step higher.
    targets = [(f"t{i}", bullets) for i, (bullets, _) in enumerate(aimed)]
    situation = {f"t{i}": dice for i, (_, dice) in enumerate(aimed)}
    plan = ranged.volleys(targets, size, situation=situation)
    assert [v.index for v in plan] == list(range(len(plan)))
    for v in plan:
        bonus, penalty, difficulty = situation[v.target_id]
        net = bonus - penalty - v.index
        assert v.bonus_dice - v.penalty_dice == max(net, -2)
        at = percentile.DIFFICULTIES.index(difficulty) + max(0, -2 - net)
        assert v.difficulty == (percentile.DIFFICULTIES[at] if at < len(percentile.DIFFICULTIES) else None)


@given(st.integers(1, 20))
def test_every_1d20_roll_names_one_location_as_the_table_prints_it(roll):
    from domain.rules.coc7e import hit_location

    printed = {range(1, 4): "right leg", range(4, 7): "left leg", range(7, 11): "abdomen", range(11, 16): "chest",
               range(16, 18): "right arm", range(18, 20): "left arm", range(20, 21): "head"}
    assert hit_location.location_of(roll) == next(name for rolls, name in printed.items() if roll in rolls)
