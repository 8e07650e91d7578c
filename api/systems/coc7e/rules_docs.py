"""Typed schemas of the Call of Cthulhu reference data (GET /rules/coc7e/...), each row as the
rules texts print it, citing its source. Answered as built (Shown: nothing dropped)."""
from __future__ import annotations

from marshmallow import Schema, fields

from api.view_docs import Shown
from domain.rules.coc7e import samples

SOURCE = fields.String(required=True, metadata={"description": "the rules text and heading it is printed under"})


class ChartVehicle(Schema):
    name = fields.String(required=True)
    chart = fields.String(required=True)
    skill = fields.String(required=True)
    mov = fields.Integer(required=True)
    mov_1920s = fields.Integer(required=True)
    build = fields.String(required=True, metadata={"description": "as printed (\"0.5\", \"10\")"})
    armor = fields.Integer(required=True)
    passengers = fields.String(required=True, metadata={"description": "as printed (\"1\", \"4-6\")"})
    source = SOURCE


class VehicleCharts(Schema):
    vehicles = fields.List(Shown(ChartVehicle), required=True)


class BarrierPreset(Schema):
    name = fields.String(required=True)
    hit_points = fields.Integer(required=True)
    source = SOURCE


class BarrierPresets(Schema):
    barrier_presets = fields.List(Shown(BarrierPreset), required=True)


class DamageRow(Schema):
    key = fields.String(required=True)
    name = fields.String(required=True)
    damage = fields.String(required=True, metadata={"description": "dice, such as 1D10"})
    unit = fields.String(required=True, metadata={"description": "build or hit points"})
    meaning = fields.String(required=True)
    examples = fields.List(fields.String(), required=True)
    source = SOURCE


class ByDifficulty(Schema):
    regular = fields.String(required=True)
    hard = fields.String(required=True)
    extreme = fields.String(required=True)


class DamageTables(Schema):
    collisions = fields.List(Shown(DamageRow), required=True, metadata={"description": "Table VI: Vehicular Collisions (Build)"})
    injuries = fields.List(Shown(DamageRow), required=True, metadata={"description": "Table III: Other Forms of Damage (hit points)"})
    default_by_difficulty = Shown(ByDifficulty, required=True)
    lost_movement_actions = fields.String(required=True)


class TableWeapon(Schema):
    name = fields.String(required=True)
    table = fields.String(required=True)
    skill = fields.String(required=True)
    damage = fields.String(required=True)
    bands = fields.List(fields.String(), required=True)
    base_range = fields.String(required=True)
    range_yards = fields.List(fields.Integer(), required=True)
    uses_per_round = fields.String(required=True)
    shots_per_round = fields.Integer(required=True)
    burst = fields.Integer(required=True, allow_none=True)
    full_auto = fields.Boolean(required=True)
    magazine = fields.Integer(required=True, allow_none=True)
    malfunction = fields.Integer(required=True, allow_none=True)
    impales = fields.Boolean(required=True)
    effect = fields.String(required=True, allow_none=True)
    blast_yards = fields.Integer(required=True, allow_none=True)
    cost = fields.String(required=True)
    era = fields.String(required=True)
    source = SOURCE


class Weapons(Schema):
    weapons = fields.List(Shown(TableWeapon), required=True)


class ArmorExample(Schema):
    name = fields.String(required=True)
    armor = fields.Integer(required=True)
    source = SOURCE


class ArmorExamples(Schema):
    armor = fields.List(Shown(ArmorExample), required=True)


class BonusRow(Schema):
    str_plus_siz = fields.List(fields.Integer(), required=True, metadata={"description": "[low, high]"})
    damage_bonus = fields.String(required=True)
    build = fields.Integer(required=True)


class FurtherStep(Schema):
    str_plus_siz = fields.Integer(required=True, metadata={"description": "each further step of STR+SIZ"})
    damage_bonus = fields.String(required=True, metadata={"description": "adds this much damage bonus"})
    build = fields.Integer(required=True, metadata={"description": "and this much Build"})


class DamageBonusTable(Schema):
    damage_bonus = fields.List(Shown(BonusRow), required=True)
    each_further = Shown(FurtherStep, required=True)
    source = SOURCE


class OptionalRule(Schema):
    name = fields.String(required=True, metadata={"description": "the name a chase's optional_rules lists"})
    what = fields.String(required=True)
    source = SOURCE


class OptionalRuleList(Schema):
    optional_rules = fields.List(Shown(OptionalRule), required=True, metadata={"description": "coc7e-chases.txt part 5, each rule a table may choose"})


class SampleObstacle(Schema):
    kind = fields.String(required=True, metadata={"enum": list(samples.KINDS)})
    setting = fields.String(required=True, metadata={"enum": list(samples.SETTINGS), "description": "car or foot chase"})
    name = fields.String(required=True)
    source = SOURCE


class SampleObstacles(Schema):
    samples = fields.List(Shown(SampleObstacle), required=True)


class MovRate(Schema):
    mov = fields.Integer(required=True)
    mph = fields.Integer(required=True, metadata={"description": "miles per hour"})


class MovRates(Schema):
    mov_rates = fields.List(Shown(MovRate), required=True)
    source = SOURCE


class FleeingTheScene(Schema):
    """Locations each participant covered over some rounds ("Fleeing the Scene")."""

    from_round = fields.Integer(required=True)
    to_round = fields.Integer(required=True)
    complete = fields.Boolean(required=True, metadata={"description": "false while the last round is still being played out"})
    locations_covered = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True, metadata={"description": "by participant id"})
    rule = fields.String(required=True, metadata={"description": "the rules text and heading"})
    round = fields.Integer(required=True, metadata={"description": "the chase's round now"})
    version = fields.Integer(required=True, metadata={"description": "the chase's version read"})
