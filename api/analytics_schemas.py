"""The analytics report's schema, typed to the leaf (application/analytics/report.py builds it).
Each part is answered as the report holds it (``Shown``), documented here."""
from __future__ import annotations

from marshmallow import Schema, fields

from api.view_docs import Shown

def _p(description: str, required: bool = True) -> fields.Float:
    return fields.Float(required=required, allow_none=True, metadata={"description": description})


class Luck(Schema):
    rolls = fields.Integer(required=True, metadata={"description": "rolls with known odds"})
    successes = fields.Integer(required=True)
    expected = fields.Float(required=True, metadata={"description": "the sum of the rolls' chances of success"})
    difference = fields.Float(required=True, metadata={"description": "successes - expected"})
    z_score = _p("the normal approximation (difference / standard deviation), for scale only: read the exact p-values")
    p_this_well_or_worse = _p("exact P(X <= successes), Poisson-binomial over the rolls' own odds")
    p_this_well_or_better = _p("exact P(X >= successes): how lucky this was")
    p_two_sided = _p("twice the smaller tail, at most 1: the p-value luck is judged by")
    expected_range = fields.List(fields.Integer(), required=True, metadata={"description": "successes fair dice give 95% of the time: [low, high]"})
    minimum_rolls = fields.Integer(required=True, metadata={"description": "rolls with known odds below which there is no verdict"})
    p_adjusted = _p("Holm-adjusted over the report's family of tests (None: not judged)", required=False)
    suspect = fields.Boolean(metadata={"description": "the adjusted p-value is at most the report's error rate"})
    verdict = fields.String(metadata={"description": "in words: within what fair dice give, luckier or unluckier than fair dice allow, too few rolls to judge"})


class LevelCount(Schema):
    observed = fields.Integer(required=True)
    expected = fields.Float(required=True)
    expected_range = fields.List(fields.Integer(), required=True, metadata={"description": "counts fair dice give 95% of the time"})


class LevelTail(Schema):
    p_at_most = _p("exact P(count <= observed)")
    p_at_least = _p("exact P(count >= observed)")
    p_two_sided = _p("twice the smaller tail")
    expected_range = fields.List(fields.Integer(), required=True)


class LevelsTest(Schema):
    """Changed: each level exactly against the rolls' own odds (the pooled chi-square, its
    chi_square and degrees_of_freedom, are gone: its reference distribution did not hold)."""

    method = fields.String(required=True)
    rolls = fields.Integer(required=True)
    minimum_rolls = fields.Integer(required=True)
    p_value = _p("Bonferroni over the levels of the per-level two-sided p-values (None: too few rolls)")
    p_adjusted = _p("Holm-adjusted over the report's family (fairness blocks only)", required=False)
    suspect = fields.Boolean()
    verdict = fields.String()
    levels = fields.Dict(keys=fields.String(), values=Shown(LevelTail), required=True)


class ChaseStreak(Schema):
    chase_id = fields.String(required=True)
    rolls = fields.Integer(required=True)
    successes = fields.Integer(required=True, metadata={"description": "the longest run of successes"})
    failures = fields.Integer(required=True, metadata={"description": "the longest run of failures"})
    expected_successes = _p("the expected longest run of successes at these rolls' odds (None beyond 200 rolls)")
    expected_failures = _p("the expected longest run of failures")


class Streaks(Schema):
    """Changed meaning: runs are each character's in one chase (they ran across chases and characters before)."""

    successes = fields.Integer(required=True, metadata={"description": "the longest run of one character in one chase"})
    failures = fields.Integer(required=True)
    by_chase = fields.List(Shown(ChaseStreak), required=True, metadata={"description": "a participant's: each chase's runs"})


class Means(Schema):
    rolls = fields.Integer(required=True, metadata={"description": "rolls whose total (or percentile result) has known odds"})
    observed = fields.Float(required=True, metadata={"description": "the sum of the totals rolled"})
    expected = fields.Float(required=True, metadata={"description": "the sum of their expected values"})
    difference = fields.Float(required=True)
    observed_mean = _p("observed / rolls")
    expected_mean = _p("expected / rolls")
    sd_of_sum = _p("the standard deviation of the sum under fair dice")


class Summary(Schema):
    rolls = fields.Integer(required=True)
    rolls_with_odds = fields.Integer(required=True)
    luck = Shown(Luck, required=True)
    means = Shown(Means, required=True)
    damage = Shown(Means, required=True, metadata={"description": "damage rolls only: damage luck"})


class SessionSummary(Summary):
    name = fields.String(required=True)


class RollFigures(Schema):
    rolls = fields.Integer(required=True, metadata={"description": "every roll, damage and other totals included"})
    undone = fields.Integer(required=True)
    server_dice = fields.Integer(required=True)
    table_dice = fields.Integer(required=True)
    rolls_with_odds = fields.Integer(required=True, metadata={"description": "rolls counted in luck and levels"})
    rolls_without_odds = fields.Integer(required=True)
    luck = Shown(Luck, required=True)
    levels = fields.Dict(keys=fields.String(), values=Shown(LevelCount), required=True)
    levels_test = Shown(LevelsTest, required=True, metadata={
        "description": "changed: each level exactly against the rolls' own odds, the levels together by Bonferroni "
                       "(the pooled chi-square, with chi_square and degrees_of_freedom, is gone: its reference distribution did not hold)"})
    streaks = Shown(Streaks, required=True, metadata={
        "description": "changed: runs are each character's in one chase (they ran across chases and characters before)"})
    means = Shown(Means, required=True)
    damage = Shown(Means, required=True)


class ParticipantFigures(RollFigures):
    name = fields.String(required=True)
    player = fields.String(required=True, allow_none=True, metadata={"description": "the player token's label (None: the Keeper's)"})
    chase_id = fields.String(required=True, allow_none=True, metadata={"description": "the chase the participant is in"})


class DieTest(Schema):
    rolls = fields.Integer(required=True)
    faces = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    expected_per_face = _p("rolls / faces")
    minimum_rolls = fields.Integer(required=True, metadata={"description": "no verdict below this"})
    method = fields.String(required=True, allow_none=True, metadata={"description": "exact multinomial, Monte Carlo (N draws), chi-square, impossible face; None: not tested"})
    chi_square = _p("Pearson's statistic")
    degrees_of_freedom = fields.Integer(required=True, metadata={"description": "faces - 1"})
    p_value = _p("None: too few rolls to judge")
    simulation_error = _p("Monte Carlo only: the standard error of p_value")
    p_adjusted = _p("Holm-adjusted over the report's family")
    suspect = fields.Boolean(required=True)
    verdict = fields.String(required=True)


class SourceFairness(Schema):
    rolls = fields.Integer(required=True)
    dice = fields.Dict(keys=fields.String(), values=Shown(DieTest), required=True)
    outcomes_against_their_odds = Shown(LevelsTest, required=True)
    suspect = fields.Boolean(required=True, metadata={"description": "changed meaning: any of its tests suspect after Holm's adjustment over the report's family at its error rate (was: any p-value below 0.001)"})


class FamilyTest(Schema):
    name = fields.String(required=True)
    p_value = fields.Float(required=True)
    p_adjusted = fields.Float(required=True)
    suspect = fields.Boolean(required=True)


class Tests(Schema):
    method = fields.String(required=True, metadata={"description": "Holm"})
    error_rate = fields.Float(required=True, metadata={"description": "the family-wise error rate of one report"})
    size = fields.Integer(required=True)
    family = fields.List(Shown(FamilyTest), required=True)
    note = fields.String(required=True)


class Report(Schema):
    scope = fields.Dict(metadata={"description": "chase, session or campaign: id, name, its chases"})
    viewer = fields.String(metadata={"description": "keeper, or player (the Keeper's rolls left out)"})
    notes = fields.List(fields.String())
    totals = Shown(RollFigures, metadata={"description": "every roll shown"})
    keeper = Shown(RollFigures, metadata={"description": "the Keeper's rolls: their own and the characters no player token acts for (the Keeper's report only)"})
    keeper_own = Shown(RollFigures, metadata={"description": "the Keeper's own rolls, for no character (the Keeper's report only)"})
    by_player = fields.Dict(keys=fields.String(), values=Shown(RollFigures), metadata={"description": "by player token label"})
    by_participant = fields.Dict(keys=fields.String(), values=Shown(ParticipantFigures))
    by_skill = fields.Dict(keys=fields.String(), values=Shown(Summary), metadata={"description": "descriptive, not judged"})
    by_purpose = fields.Dict(keys=fields.String(), values=Shown(Summary), metadata={"description": "descriptive, not judged"})
    by_kind = fields.Dict(keys=fields.String(), values=Shown(Summary), metadata={"description": "by the event that recorded the roll"})
    by_session = fields.Dict(keys=fields.String(), values=Shown(SessionSummary), metadata={"description": "a campaign's: by session id"})
    fairness = fields.Dict(keys=fields.String(), values=Shown(SourceFairness), metadata={"description": "per dice source"})
    tests = Shown(Tests, metadata={"description": "the family of tests judged together, and how"})
    game = fields.Dict()
    time = fields.Dict()
