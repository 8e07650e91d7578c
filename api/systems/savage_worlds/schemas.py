"""Request and response schemas of the Savage Worlds chases (chases.py)."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.schemas import ChaseView, CommandResult, DiceInput
from api.systems.savage_worlds import view_docs as docs
from api.view_docs import Shown
from domain.rules.savage_worlds.breaking import MAX_HARDNESS
from domain.rules.savage_worlds.gm_options import BULLETS_PER_RATE_OF_FIRE, CALLED_SHOTS, COVER, ILLUMINATION, TEST_EFFECTS
from domain.rules.savage_worlds.multi_actions import MAX_ACTIONS
from domain.rules.savage_worlds.participants import KINDS, MAX_BENNIES, ROLES, SEATS
from domain.rules.savage_worlds.swade_tables import RANGE_INCREMENTS, SCALE_MODIFIERS

TRAIT_DIE = validate.Regexp(r"^\s*d\s*(4|6|8|10|12)\s*([+-]\s*\d{1,2})?\s*$", error="a trait die: d4, d6, d8, d10, d12, d12+N or d4-2")
CARD = {"description": "a card as written: QH, 10S, Q♥, 10 of Spades, Red Joker", "example": "QH"}
MODIFIER = {"description": "the GM's situational modifier (cover, Difficult Terrain, multi-actions ...)"}


def _modifier(**kw):
    return fields.Integer(strict=True, load_default=0, validate=validate.Range(-20, 20), metadata=MODIFIER, **kw)


def _actions():
    return fields.Integer(
        strict=True, load_default=None, allow_none=True, validate=validate.Range(1, MAX_ACTIONS),
        metadata={"description": "Multi-Actions: how many actions this character takes this turn, declared with the first (-2 to all of them per action beyond the first; default one)"},
    )


class GmOptions(Schema):
    """The GM-judged options of an attack (gm_options.py), each named in the roll's log."""

    aim = fields.Boolean(load_default=False, metadata={"description": "Aim: ignore up to 4 points of ranged penalties, or +2 without any"})
    called_shot = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(tuple(CALLED_SHOTS)), metadata={"description": "limb -2, hand -4, head or vitals -4 (+4 damage)"})
    cover = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(tuple(COVER)), metadata={"description": "light -2, medium -4, heavy -6, near total -8"})
    illumination = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(tuple(ILLUMINATION)), metadata={"description": "dim -2, dark -4, pitch darkness -6"})
    rate_of_fire = fields.Integer(strict=True, load_default=None, allow_none=True, validate=validate.Range(1, max(BULLETS_PER_RATE_OF_FIRE)), metadata={"description": "the weapon's RoF used: bullets fired (1, 5, 10, 20, 40, 50), Recoil -2 from RoF 2"})


def _direction(**kw):
    return fields.Integer(strict=True, validate=validate.OneOf((1, -1)), metadata={"description": "+1 toward the front of the row, -1 toward the rear"}, **kw)


class SavageParticipantCreate(Schema):
    name = fields.String(required=True, validate=validate.Length(1, 200))
    kind = fields.String(load_default="character", validate=validate.OneOf(KINDS))
    role = fields.String(validate=validate.OneOf(ROLES), metadata={"description": "chaser or quarry; required unless with_id is given"})
    with_id = fields.String(metadata={"description": "ride in this vehicle, or follow this leader: the group maneuvers together"})
    seat = fields.String(validate=validate.OneOf(SEATS), metadata={"description": "driver or passenger of a vehicle; member of a group"})
    wild_card = fields.Boolean(metadata={"description": "a Wild Card rolls a Wild Die (default: characters yes)"})
    maneuver_die = fields.String(validate=TRAIT_DIE, metadata={"description": "the maneuvering skill's die (Driving, Piloting, Riding, Athletics)", "example": "d8"})
    maneuver_skill = fields.String(validate=validate.Length(1, 80))
    spirit = fields.String(validate=TRAIT_DIE, metadata={"description": "Spirit, to recover from Shaken"})
    mounted = fields.Boolean(metadata={"description": "riding an animal: a mounted Critical Failure"})
    toughness = fields.Integer(strict=True, validate=validate.Range(1, 200))
    armor = fields.Integer(strict=True, validate=validate.Range(0, 100))
    scale = fields.String(validate=validate.OneOf(tuple(SCALE_MODIFIERS)), metadata={"description": "Size/Scale: attacks against it add the difference of Scales; Ram's base damage"})
    top_speed = fields.Float(validate=validate.Range(0, 100_000), metadata={"description": "mph for vehicles and mounts"})
    pace = fields.Integer(strict=True, validate=validate.Range(0, 100))
    running_die = fields.Integer(strict=True, validate=validate.OneOf((4, 6, 8, 10, 12)))
    climb = fields.Integer(strict=True, validate=validate.Range(-100, 100))
    handling = fields.Integer(strict=True, validate=validate.Range(-10, 10))
    max_wounds = fields.Integer(strict=True, validate=validate.Range(0, 20))
    weapons = fields.Integer(strict=True, validate=validate.Range(0, 100))
    has_systems = fields.Boolean()
    bennies = fields.Integer(strict=True, validate=validate.Range(0, MAX_BENNIES), metadata={"description": "bennies held (default: three for a Wild Card character)"})


class OpposedDice(DiceInput):
    defender_table_dice = fields.List(fields.Integer(strict=True), validate=validate.Length(0, 100), metadata={"description": "the defender's faces, for an opposed roll"})


class TraitRoll(DiceInput):
    participant_id = fields.String(required=True)
    trait_die = fields.String(required=True, validate=TRAIT_DIE)
    purpose = fields.String(load_default="trait roll", validate=validate.Length(1, 200))
    modifier = _modifier()
    target_number = fields.Integer(strict=True, load_default=4, validate=validate.Range(1, 100))


class DamageRoll(DiceInput):
    target_id = fields.String(required=True)
    expression = fields.String(required=True, validate=validate.Length(1, 100), metadata={"example": "2d6+1, Str+d6"})
    roller_id = fields.String(load_default=None, allow_none=True, metadata={"description": "who deals it (their Joker adds +2)"})
    raise_bonus = fields.Boolean(load_default=False, metadata={"description": "the attack got a raise: +d6"})
    strength = fields.String(load_default=None, allow_none=True, validate=TRAIT_DIE)
    modifier = _modifier()


class Recover(DiceInput):
    trait_die = fields.String(load_default=None, allow_none=True, validate=TRAIT_DIE, metadata={"description": "default: the participant's Spirit"})
    modifier = _modifier()


class Conditions(Schema):
    shaken = fields.Boolean()
    distracted = fields.Boolean()
    vulnerable = fields.Boolean()
    fatigue = fields.Integer(strict=True, validate=validate.Range(0, 3), metadata={"description": "0 fresh, 1 Fatigued, 2 Exhausted, 3 Incapacitated"})
    stunned = fields.Boolean(metadata={"description": "Stunned: Distracted, Prone, no moves or actions, subject to the Drop (+4)"})
    bound = fields.Boolean(metadata={"description": "Bound: can't move, Distracted and Vulnerable, no physical actions"})
    entangled = fields.Boolean(metadata={"description": "Entangled: can't move, Distracted until free"})
    prone = fields.Boolean(metadata={"description": "Prone: Medium Cover from ranged attacks, -2 Fighting and Parry"})
    reason = fields.String(load_default="", validate=validate.Length(0, 200))


class SwadeBegin(Schema):
    mode = fields.String(required=True, validate=validate.OneOf(tuple(RANGE_INCREMENTS)))
    placements = fields.Dict(keys=fields.String(), values=fields.Integer(strict=True), required=True, metadata={"description": "each unit's Chase Card, 0 (rear) to the front"})
    chase_cards = fields.Integer(strict=True, load_default=9, validate=validate.Range(1, 54), metadata={"description": "server's deck: how many Chase Cards to deal"})
    row = fields.List(fields.String(), validate=validate.Length(1, 54), metadata={"description": "physical deck: the Chase Cards dealt, rear to front"})
    linear = fields.Boolean(load_default=True, metadata={"description": "a linear chase allows Dropping Back"})
    deck = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(("server", "table")), metadata={"description": "default: the chase's dice"})


class ActionCards(Schema):
    cards = fields.Dict(keys=fields.String(), values=fields.String(), load_default=None, allow_none=True, metadata={"description": "physical deck: the card dealt to each unit", **CARD})
    surprised = fields.List(fields.String(), load_default=None, allow_none=True, validate=validate.Length(0, 100), metadata={"description": "Surprise, first round: the units whose Notice failed get no card"})
    ambushers = fields.List(fields.String(), load_default=None, allow_none=True, validate=validate.Length(0, 100), metadata={"description": "Surprise, first round: the ambushers, who start on Hold"})


class ChangePosition(DiceInput):
    actions = _actions()
    direction = _direction(required=True)
    as_action = fields.Boolean(load_default=False, metadata={"description": "as an action: +2"})
    cards = fields.Integer(strict=True, load_default=None, allow_none=True, validate=validate.Range(1, 2), metadata={"description": "at most (default: as far as the roll allows)"})
    modifier = _modifier()


class DropBack(Schema):
    cards = fields.Integer(strict=True, load_default=1, validate=validate.Range(1, 2))


class Evade(Schema):
    actions = _actions()
    as_action = fields.Boolean(load_default=False)


class Flee(DiceInput):
    actions = _actions()
    modifier = _modifier()


class Force(OpposedDice):
    actions = _actions()
    target_id = fields.String(required=True)
    direction = _direction(required=True)
    modifier = _modifier()
    defender_modifier = _modifier()


class Ram(OpposedDice):
    actions = _actions()
    target_id = fields.String(required=True)
    modifier = _modifier()
    defender_modifier = _modifier()


class SwadeAttack(DiceInput, GmOptions):
    actions = _actions()
    target_id = fields.String(required=True)
    trait_die = fields.String(required=True, validate=TRAIT_DIE)
    ranged = fields.Boolean(load_default=True)
    weapon_range = fields.String(load_default=None, allow_none=True, metadata={"description": "Short/Medium/Long, e.g. 12/24/48"})
    running = fields.Boolean(load_default=False)
    modifier = _modifier()
    target_number = fields.Integer(strict=True, load_default=4, validate=validate.Range(1, 100), metadata={"description": "4, or the target's Parry"})


class SwadeResolve(DiceInput):
    direction = _direction(load_default=None, allow_none=True)
    cards = fields.Integer(strict=True, load_default=None, allow_none=True, validate=validate.Range(1, 2), metadata={"description": "a Bump: how many cards (a Joker: up to two)"})
    card = fields.String(load_default=None, allow_none=True, metadata=CARD)
    modifier = _modifier()


class SwdBegin(Schema):
    length = fields.Integer(strict=True, load_default=5, allow_none=True, validate=validate.Range(1, 1000), metadata={"description": "rounds; null: without end"})
    deck = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(("server", "table")))
    constant = fields.Integer(strict=True, load_default=0, validate=validate.Range(-10, 10), metadata={"description": "constant chase modifier (Difficult Terrain -2)"})


class SwdManeuver(DiceInput):
    modifier = _modifier()
    cards = fields.List(fields.String(), load_default=None, allow_none=True, validate=validate.Length(0, 20), metadata={"description": "physical deck: the cards dealt"})
    keep = fields.String(load_default=None, allow_none=True, metadata={"description": "the card kept of several (default: asked for)"})


class Cooperate(DiceInput):
    modifier = _modifier()


class SwdAttack(DiceInput, GmOptions):
    actions = _actions()
    target_id = fields.String(required=True)
    trait_die = fields.String(required=True, validate=TRAIT_DIE)
    modifier = _modifier()
    target_number = fields.Integer(strict=True, load_default=4, validate=validate.Range(1, 100))
    unstable_platform = fields.Boolean(load_default=False)
    running = fields.Boolean(load_default=False)


class SwdForce(OpposedDice):
    actions = _actions()
    target_id = fields.String(required=True)
    modifier = _modifier()
    defender_modifier = _modifier()


class SwdResolve(DiceInput):
    cards = fields.List(fields.String(), load_default=None, allow_none=True, validate=validate.Length(1, 20), metadata={"description": "the Action cards dealt"})
    card = fields.String(load_default=None, allow_none=True, metadata={"description": "the card to keep", **CARD})
    modifier = _modifier()
    expression = fields.String(load_default=None, allow_none=True, validate=validate.Length(1, 100), metadata={"description": "obstacle damage dice instead of the default"})
    trait_die = fields.String(load_default=None, allow_none=True, validate=TRAIT_DIE)
    heavy = fields.Boolean(load_default=False, metadata={"description": "Out of Control: the GM rules the vehicle too slow and heavy to flip (a Flip is a Slip)"})


class FoeTest(OpposedDice):
    kind = fields.String(load_default="Test", validate=validate.OneOf(("Test", "Trick")))
    target_id = fields.String(required=True)
    trait_die = fields.String(required=True, validate=TRAIT_DIE, metadata={"description": "the skill of the Test or Trick"})
    resist_die = fields.String(required=True, validate=TRAIT_DIE, metadata={"description": "the foe's linked attribute"})
    effect = fields.String(load_default="distracted", validate=validate.OneOf(TEST_EFFECTS), metadata={"description": "what a success does to the foe (a raise also Shakes)"})
    modifier = _modifier()
    defender_modifier = _modifier()
    actions = _actions()


class BreakObject(DiceInput):
    object = fields.String(required=True, validate=validate.Length(1, 200), metadata={"description": "the object: a door, a tire, a barricade"})
    hardness = fields.Integer(strict=True, required=True, validate=validate.Range(1, MAX_HARDNESS), metadata={"description": "its Hardness: the damage that breaks it"})
    expression = fields.String(required=True, validate=validate.Length(1, 100), metadata={"example": "Str+d6"})
    roller_id = fields.String(load_default=None, allow_none=True)
    strength = fields.String(load_default=None, allow_none=True, validate=TRAIT_DIE)
    modifier = _modifier()


# The command envelope every system answers with (api.chases.result): one schema in the document.
SavageResult = CommandResult


class SavageView(ChaseView):
    """The track view of a Savage Worlds chase: "locations" is the row of Chase Cards (swade)."""

    stage = fields.String(metadata={"description": "this round's stage, maneuvering (swd), resolving or over"})
    mode = fields.String(allow_none=True, metadata={"description": "swade: the type of chase (foot, vehicular, airplane, ...)"})
    range_increment = fields.Integer(allow_none=True, metadata={"description": "swade: Range per Chase Card between"})
    linear = fields.Boolean(allow_none=True)
    locations = fields.List(Shown(docs.ChaseCard), metadata={"description": "swade: the row of Chase Cards, rear to front (swd: none)"})
    participants = fields.Dict(keys=fields.String(), values=Shown(docs.SavageParticipant), metadata={"description": "by participant id"})
    ranges = fields.List(Shown(docs.RangeBetween), metadata={"description": "swade: the Range between units"})
    length = fields.Integer(allow_none=True, metadata={"description": "swd: the chase length in rounds (null: without end)"})
    rounds_left = fields.Integer(allow_none=True)
    action_cards = fields.List(Shown(docs.DealtCard), metadata={"description": "the round's Action cards high to low (swd: with Advantage and Attack Range)"})
    deck = Shown(docs.Decks, metadata={"description": "the decks (cards left, discards, shuffle sequence)"})
    pending = fields.List(Shown(docs.Pending), metadata={"description": "what waits to be resolved, first first (POST .../resolve)"})
