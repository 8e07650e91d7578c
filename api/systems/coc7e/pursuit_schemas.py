"""Request schemas of part 5's optional rules on the road and the trail (api/systems/coc7e/pursuit.py);
bounds from the domain (pursuit.py and the procedures). See obstacle_schemas.py for ``rolls``."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.systems.coc7e.obstacle_schemas import AFTERMATH_ROLLS, LOCATION, SKILLS, Attack, Fire, Rolls, RollsInput
from domain.rules.coc7e import pursuit
from domain.rules.coc7e.obstacles import DIFFICULTIES
from domain.rules.coc7e.percentile import DIFFICULTIES as ROLL_DIFFICULTIES, MAX_BONUS_OR_PENALTY
from domain.rules.coc7e.random_hazards import ENVIRONMENTS
from domain.rules.coc7e.road_procedures import NAVIGATION_SKILLS

VALUE = validate.Range(0, 999)
ID = validate.Length(1, 200)  # a participant's id
DICE = validate.Range(0, MAX_BONUS_OR_PENALTY)


class SuddenHazardCall(RollsInput):
    called_by = fields.String(required=True, validate=validate.OneOf(pursuit.SIDES), metadata={"description": "who calls it: the players and the Keeper alternate"})
    target = fields.Integer(strict=True, validate=VALUE, metadata={"description": "the group's Luck: the lowest Luck of the investigators"})
    roller_id = fields.String(validate=ID, metadata={"description": "the participant whose Luck (skills.Luck) is rolled, instead of target"})
    difficulty = fields.String(validate=validate.OneOf(DIFFICULTIES), metadata={"description": "the sudden hazard's: Regular, raised by the Keeper in a long chase"})
    rolls = Rolls(("luck",))


class SuddenHazardPlacement(Schema):
    between = fields.List(LOCATION, required=True, validate=validate.Length(2, 2), metadata={"description": "two adjacent locations, by index or name", "example": [1, 2]})
    name = fields.String(required=True, validate=validate.Length(1, 200), metadata={"example": "Delivery truck"})
    skills = fields.List(fields.String(validate=validate.Length(1, 80)), required=True, validate=validate.Length(1, 10), metadata={"example": ["Drive Auto"]})


class Accelerate(Schema):
    locations = fields.Integer(strict=True, required=True, validate=validate.Range(pursuit.MIN_ACCELERATION, pursuit.MAX_ACCELERATION),
                               metadata={"description": "locations covered with this one movement action, announced and not retractable"})


class Visibility(RollsInput):
    area = fields.String(validate=validate.OneOf(list(pursuit.VISIBILITY_DICE)), metadata={"description": "roll how far: city 1D3, suburbs 1D6, country 1D10"})
    locations = fields.Integer(strict=True, validate=validate.Range(1, pursuit.MAX_VISIBILITY), metadata={"description": "the Keeper's own number instead of area"})
    environment = fields.String(validate=validate.OneOf(list(ENVIRONMENTS)), metadata={"description": "random hazards of the stretches made: hazardous (a penalty die) or quiet (a bonus die)"})
    rolls = Rolls(("visibility",), ("location",), metadata={"description": 'the distance\'s die, and each stretch\'s random hazards roll by its location: {"visibility": [2], "location": {"3": [20, 9]}}'})


class FollowTrail(RollsInput):
    quarry_id = fields.String(validate=ID, required=True)
    skill = fields.String(validate=validate.Length(1, 80), metadata={"description": "default Track"})
    target = fields.Integer(strict=True, validate=VALUE, metadata={"description": "the value when the pursuer has none listed (a monster)"})
    difficulty = fields.String(validate=validate.OneOf(ROLL_DIFFICULTIES))
    bonus_dice = fields.Integer(strict=True, validate=DICE)
    penalty_dice = fields.Integer(strict=True, validate=DICE)
    rolls = Rolls(("skill",))


class Hide(RollsInput):
    difficulty = fields.String(validate=validate.OneOf(ROLL_DIFFICULTIES), metadata={"description": "the Keeper's, weighing the lead and the pursuer's Spot Hidden"})
    bonus_dice = fields.Integer(strict=True, validate=DICE, metadata={"description": "the Keeper's: a good lead, plenty of hiding places"})
    penalty_dice = fields.Integer(strict=True, validate=DICE)
    searcher_id = fields.String(validate=ID, metadata={"description": "a pursuer who then searches with Spot Hidden (roll spot_hidden)"})
    search_target = fields.Integer(strict=True, validate=VALUE, metadata={"description": "the searcher's Spot Hidden when none is listed"})
    search_difficulty = fields.String(validate=validate.OneOf(ROLL_DIFFICULTIES))
    rolls = Rolls(("stealth", "spot_hidden"))


class Navigate(RollsInput):
    skill = fields.String(validate=validate.OneOf(NAVIGATION_SKILLS), metadata={"description": "default Navigate"})
    target = fields.Integer(strict=True, validate=VALUE)
    rolls = Rolls(("skill",))


class AttackOnTheMove(Attack):
    """An attack while racing on: the attack's body; one more penalty die is added."""


class FireOnTheMove(Fire):
    """Shots, a burst or full auto while racing on: the fire command's body; one more penalty die is added."""


class ShootTire(RollsInput):
    vehicle_id = fields.String(validate=ID, required=True)
    weapon = fields.String(required=True, validate=validate.Length(1, 100), metadata={"description": "an impaling gun the shooter carries, loaded"})
    difficulty = fields.String(validate=validate.OneOf(("regular", "hard", "extreme")), metadata={"description": "the range's difficulty"})
    bonus_dice = fields.Integer(strict=True, validate=DICE)
    penalty_dice = fields.Integer(strict=True, validate=DICE, metadata={"description": "the Keeper's, beyond the tire's own and racing on"})
    moving = fields.Boolean(metadata={"description": "shot while racing on: a penalty die, no movement action"})
    malfunction = fields.String(validate=validate.OneOf(("dud", "jam")))
    rolls = Rolls(("attack", "damage"), AFTERMATH_ROLLS)


class KeepControl(RollsInput):
    target = fields.Integer(strict=True, validate=VALUE, metadata={"description": "the driver's Drive Auto (or chart skill) when not listed"})
    rolls = Rolls(("skill",))


class CreatedObstacle(Schema):
    between = fields.List(LOCATION, validate=validate.Length(2, 2), metadata={"description": "default: the stretch behind the creator"})
    name = fields.String(validate=validate.Length(1, 200))
    skills = SKILLS
    difficulty = fields.String(validate=validate.OneOf(DIFFICULTIES))
    hit_points = fields.Integer(strict=True, validate=validate.Range(1, 100000))
    kind = fields.String(validate=validate.OneOf(("hazard", "barrier")))


class CreateHazard(RollsInput):
    action = fields.String(required=True, validate=validate.OneOf([c.action for c in pursuit.CREATIONS]),
                           metadata={"description": "; ".join(f"{c.action}: {c.example}" for c in pursuit.CREATIONS)})
    obstacle = fields.Nested(CreatedObstacle, metadata={"description": "what a success makes, as the Keeper rules (Keeper only); default: the action's kind behind the creator, DEX to negotiate"})
    skill = fields.String(validate=validate.Length(1, 80), metadata={"description": "the action's roll, where it offers a choice (Fast Talk or Intimidate)"})
    target = fields.Integer(strict=True, validate=VALUE, metadata={"description": "the value rolled against (STR, Luck) when not listed in skills"})
    difficulty = fields.String(validate=validate.OneOf(ROLL_DIFFICULTIES))
    weapon = fields.String(validate=validate.Length(1, 100), metadata={"description": "panic crowd: the gun fired (one round spent)"})
    rolls = Rolls(("skill",))

