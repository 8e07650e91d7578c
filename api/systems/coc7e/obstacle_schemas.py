"""Request schemas for hazards, barriers, conflict and vehicle damage (Call of Cthulhu 7e, issue 3).

Every command that rolls takes ``rolls``: the faces rolled at the table for each of its rolls,
by name. A percentile roll takes its tens dice (00-90, one more per bonus or penalty die) then
its units die (0-9); a dice expression takes one face per die (1D6: one face 1-6). Rolls per
occupant are keyed by participant id: ``{"occupants": {"<id>": [2]}}``. A roll left out uses
the server dice, unless the chase (or ``dice``) is "table": then the 422 names the roll and the
dice it takes. Faces for a roll the outcome did not call for are ignored.
"""
from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from domain.recorded_chase import DICE_MODES
from domain.rules.coc7e.conflict import RESPONSES
from domain.rules.coc7e import firearm_modifiers, hit_location, ranged, shooting
from domain.rules.coc7e.maneuvers import GOALS
from domain.rules.coc7e.armed_attack import MAX_DISTANCE
from domain.rules.coc7e.fire_procedures import MAX_TARGETS
from domain.rules.coc7e.conflict_procedures import METHODS
from domain.rules.coc7e.damage import COLLISIONS, INJURIES
from domain.rules.coc7e.obstacle_procedures import APPROACHES
from domain.rules.coc7e.obstacles import BARRIER_PRESETS, DIFFICULTIES
from domain.rules.coc7e.vehicles import WRECK_FATES

MAX_FACES = 100
ROLLS_HELP = (
    "Percentile rolls: the tens dice (00-90; one more per bonus or penalty die) then the units die (0-9). "
    "Dice expressions: one face per die (1D6: one face 1-6; 5D10: five). A roll left out uses the server dice, "
    "unless the chase or `dice` is table: then a 422 names rolls.<name> and the dice it takes. "
    "Faces for a roll the outcome did not call for (damage after a miss) are not used."
)


class Rolls(fields.Field):
    """Faces by roll name: a list of faces, or (for rolls per participant) a map of id to faces."""

    def __init__(self, names: tuple[str, ...], per_participant: tuple[str, ...] = (), **kw: Any) -> None:
        self.names, self.per_participant = names, per_participant
        described = ", ".join(names + tuple(f"{n}.<participant id>" for n in per_participant))
        kw.setdefault("load_default", dict)
        kw.setdefault("metadata", {})
        kw["metadata"] = {
            "type": "object",
            "description": f"table dice for this command's rolls, by name: {described}. {ROLLS_HELP}",
            **kw["metadata"],
        }
        super().__init__(**kw)

    def _faces(self, value: Any, name: str) -> list[int]:
        if not isinstance(value, list) or len(value) > MAX_FACES or any(isinstance(f, bool) or not isinstance(f, int) for f in value):
            raise ValidationError({name: [f"a list of up to {MAX_FACES} whole-number faces"]})
        return list(value)

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> dict[str, list[int]]:
        if not isinstance(value, dict):
            raise ValidationError("map each roll's name to the faces rolled")
        flat: dict[str, list[int]] = {}
        for name, faces in value.items():
            if name in self.per_participant:
                if not isinstance(faces, dict):
                    raise ValidationError({name: ["map participant ids to the faces rolled"]})
                for pid, each in faces.items():
                    flat[f"{name}.{pid}"] = self._faces(each, f"{name}.{pid}")
            elif name in self.names:
                flat[name] = self._faces(faces, name)
            else:
                known = ", ".join(self.names + self.per_participant)
                raise ValidationError({name: [f"this command makes no roll named {name!r}; its rolls: {known}"]})
        return flat


class RollsInput(Schema):
    dice = fields.String(validate=validate.OneOf(DICE_MODES), metadata={"description": "server or table for every roll of the command; defaults to the chase's dice"})
    entropy = fields.String(load_default="", validate=validate.Length(0, 200), metadata={"description": "player-supplied entropy mixed into server dice"})


class Aftermath(Schema):
    """The Keeper's rulings should a vehicle go out of action in this command."""

    fates = fields.Dict(
        keys=fields.String(), values=fields.String(validate=validate.OneOf(WRECK_FATES)),
        metadata={"description": "wrecked: each occupant's fate by id, \"thrown free\" (default: 2D10 damage) or \"killed\""},
    )
    accident = fields.Boolean(metadata={"description": "undrivable: grinding to a halt was an accident (1D10 to each occupant); default false"})


# Rolls per participant that damage may call for: each occupant thrown free of a wreck or hurt in
# an accident, and the CON roll of anyone taking a major wound (coc7e-combat.txt "Major Wound").
AFTERMATH_ROLLS = ("thrown_free", "accident", "con")
SKILLS = fields.List(fields.String(validate=validate.Length(1, 80)), validate=validate.Length(1, 10), metadata={"description": "the skill or choice of skills that negotiate it", "example": ["Climb", "Jump"]})
LOCATION = fields.Raw(metadata={"description": "a location index (0 = the back of the chase) or a name the Keeper gave it"})


class LocationName(Schema):
    name = fields.String(required=True, validate=validate.Length(1, 200), metadata={"example": "Muddy track"})


class ObstacleCreate(Schema):
    kind = fields.String(required=True, validate=validate.OneOf(("hazard", "barrier")))
    between = fields.List(LOCATION, required=True, validate=validate.Length(2, 2), metadata={"description": "two adjacent locations, by index or name", "example": [3, 4]})
    name = fields.String(validate=validate.Length(1, 200), metadata={"description": "required unless a barrier preset names it", "example": "Mud"})
    skills = SKILLS
    difficulty = fields.String(load_default="regular", validate=validate.OneOf(DIFFICULTIES))
    hit_points = fields.Integer(strict=True, validate=validate.Range(1, 100000), metadata={"description": "barriers only: hit points to break it down; none: it cannot be broken"})
    preset = fields.String(metadata={"description": "barriers only: a sample barrier of \"Sample Barriers and Hit Points\" (gives name and hit points)", "enum": [p.name for p in BARRIER_PRESETS]})


class ObstacleChange(Schema):
    kind = fields.String(validate=validate.OneOf(("hazard", "barrier")))
    between = fields.List(LOCATION, validate=validate.Length(2, 2))
    name = fields.String(validate=validate.Length(1, 200))
    skills = SKILLS
    difficulty = fields.String(validate=validate.OneOf(DIFFICULTIES))
    hit_points = fields.Integer(strict=True, allow_none=True, validate=validate.Range(1, 100000))
    preset = fields.String()


class ObstacleRemoval(Schema):
    reason = fields.String(load_default="", validate=validate.Length(0, 500))


class Negotiate(RollsInput):
    obstacle_id = fields.String(metadata={"description": "the obstacle ahead (checked if given)"})
    approach = fields.String(load_default="reckless", validate=validate.OneOf(APPROACHES), metadata={"description": "reckless: a plain roll; cautious: movement actions spent for bonus dice"})
    bonus_dice = fields.Integer(strict=True, load_default=None, allow_none=True, validate=validate.Range(0, 10), metadata={"description": "cautious: 1 or 2 movement actions for as many bonus dice (default 1); 2 at most"})
    skill = fields.String(validate=validate.Length(1, 80), metadata={"description": "one of the obstacle's skills (required when it offers a choice)"})
    target = fields.Integer(strict=True, validate=validate.Range(0, 999), metadata={"description": "the value rolled against, if not the participant's (a vehicle: its driver's)"})
    penalty_dice = fields.Integer(strict=True, load_default=0, validate=validate.Range(0, 2), metadata={"description": "the Keeper's penalty dice (an impaired vehicle adds its own)"})
    keeper_accepts_skill = fields.Boolean(load_default=False, metadata={"description": "the Keeper accepts a skill the obstacle does not name (Keeper only)"})
    rolls = Rolls(("skill",))


class Debris(Schema):
    name = fields.String(validate=validate.Length(1, 200))
    skills = fields.List(fields.String(validate=validate.Length(1, 80)), required=True, validate=validate.Length(1, 10))
    difficulty = fields.String(load_default="regular", validate=validate.OneOf(DIFFICULTIES))


class BreakBarrier(RollsInput):
    obstacle_id = fields.String(metadata={"description": "the barrier ahead (checked if given)"})
    damage = fields.String(validate=validate.Length(1, 100), metadata={"description": "a character's damage (default 1D3+DB, a punch); a vehicle always does 1D10 per Build", "example": "1D8+DB"})
    debris = fields.Nested(Debris, metadata={"description": "if destroyed, the hazard its debris leaves (Keeper only)"})
    aftermath = fields.Nested(Aftermath)
    rolls = Rolls(("damage",), AFTERMATH_ROLLS)


class Attack(RollsInput):
    target_id = fields.String(required=True)
    method = fields.String(validate=validate.OneOf(METHODS), metadata={"description": "fighting (a vehicle: ramming with Drive Auto), firearm, or maneuver (push, trip, run off the road); default: the weapon's (firearm for a gun), else fighting"})
    weapon = fields.String(validate=validate.Length(1, 100), metadata={"description": "a weapon of Table XVII the attacker carries (GET /rules/coc7e/weapons): sets skill, damage (with the damage bonus, or half of it when thrown), impales and, with distance_yards, the difficulty; a gun spends a round", "example": ".38 or 9mm Revolver"})
    distance_yards = fields.Integer(strict=True, validate=validate.Range(0, MAX_DISTANCE), metadata={"description": "the distance to the target: a firearm's difficulty by its base range (Regular, Hard to twice it, Extreme to four times), a shotgun's damage band"})
    goal = fields.String(validate=validate.OneOf(GOALS), metadata={"description": "a maneuver's goal (coc7e-combat.txt \"Step 2\"): disarm, knock down (prone), hold, penalty die (on the target's actions), bonus die (to attacks on it), escape (a hold), knock out (optional rule); default in a chase: mishap, the Keeper's ruling"})
    seize = fields.String(validate=validate.Length(1, 100), metadata={"description": "disarm: the weapon taken (default: the first the target carries)"})
    armor_luck = fields.Integer(strict=True, validate=validate.Range(0, 999), metadata={"description": "optional \"Armor Revisited\": the target's Luck when worn armor covers only part of them; the roll \"luck\" failed, the armor is not hit"})
    armor_per_die = fields.Boolean(metadata={"description": "optional \"Armor Revisited\": a shotgun's armor deducted from every die of damage"})
    malfunction = fields.String(validate=validate.OneOf(("dud", "jam")), metadata={"description": "should the gun malfunction: the Keeper's dud or jam where the rules do not say (a revolver: a dud; lever-action: a jam)"})
    response = fields.String(validate=validate.OneOf(RESPONSES + (shooting.DIVE,)), metadata={"description": "the target's choice: fight back, dodge, maneuver, or none; required unless a firearm (none, or dive for cover: a Dodge roll \"defence\", a success a penalty die on the shot; the diver forfeits their next attack)"})
    chamber = fields.Boolean(metadata={"description": "coc7e-combat.txt \"Reloading Firearms\": put one round in the chamber of the empty gun (weapon) and fire it at once, with a penalty die"})
    hit_locations = fields.List(
        fields.String(validate=validate.OneOf(hit_location.LOCATIONS)), validate=validate.Length(0, len(hit_location.LOCATIONS)),
        metadata={"description": "optional \"Optional Hit Locations\": roll 1D20 (\"location\") where the blow lands; the target's worn armor counts only on these locations (a helmet: [\"head\"])"},
    )
    attack_skill = fields.String(validate=validate.Length(1, 80), metadata={"description": "default: Fighting (Brawl) or the first Fighting/Firearms skill; a vehicle: its driving skill"})
    defence_skill = fields.String(validate=validate.Length(1, 80), metadata={"description": "default: Dodge, or Fighting when fighting back; a vehicle: its driving skill"})
    damage = fields.String(validate=validate.Length(1, 100), metadata={"description": "the attacker's damage; default 1D3+DB; required for a firearm; a vehicle: 1D10 per Build", "example": "1D10"})
    counter_damage = fields.String(validate=validate.Length(1, 100), metadata={"description": "the target's damage when fighting back and winning; default 1D3+DB"})
    impales = fields.Boolean(allow_none=True, metadata={"description": "the attacker's weapon can impale (the weapon table's (i)): an Extreme success on the attacker's turn deals maximum damage and bonus plus a damage roll; default: yes for a firearm, no in melee (a non-impaling Extreme success deals maximum damage and bonus)"})
    bonus_dice = fields.Integer(strict=True, load_default=0, validate=validate.Range(0, 2))
    penalty_dice = fields.Integer(strict=True, load_default=0, validate=validate.Range(0, 2))
    defence_bonus_dice = fields.Integer(strict=True, load_default=0, validate=validate.Range(0, 2))
    defence_penalty_dice = fields.Integer(strict=True, load_default=0, validate=validate.Range(0, 2))
    difficulty = fields.String(validate=validate.OneOf(("regular", "hard", "extreme")), metadata={"description": "a firearm's difficulty (range); default regular, or as distance_yards sets it"})
    modifiers = fields.List(
        fields.String(validate=validate.OneOf(firearm_modifiers.MODIFIERS)), validate=validate.Length(0, len(firearm_modifiers.MODIFIERS)),
        metadata={"description": "coc7e-combat.txt \"Firearm Attack Modifiers\": cover (penalty die), point blank (bonus die, within a fifth of the shooter's DEX in feet: give distance_yards), fast-moving target (penalty die, MOV 8+), target size (Build -2 or less: penalty die; 4 or more: bonus die), into melee (penalty die; a fumble hits an ally: ally_hit)"},
    )
    aftermath = fields.Nested(Aftermath)
    rolls = Rolls(("attack", "defence", "damage", "counter_damage", "luck", "location"), AFTERMATH_ROLLS)


MODIFIERS = fields.List(
    fields.String(validate=validate.OneOf(firearm_modifiers.MODIFIERS)), validate=validate.Length(0, len(firearm_modifiers.MODIFIERS)),
    metadata={"description": "coc7e-combat.txt \"Firearm Attack Modifiers\", as for attack: cover, point blank, fast-moving target, target size, into melee"},
)


class FireTarget(Schema):
    target_id = fields.String(required=True)
    bullets = fields.Integer(strict=True, required=True, validate=validate.Range(1, 10000))
    modifiers = MODIFIERS
    distance_yards = fields.Integer(strict=True, validate=validate.Range(0, MAX_DISTANCE), metadata={"description": "this target's distance: its difficulty (and a shotgun's band)"})


class Fire(RollsInput):
    weapon = fields.String(required=True, validate=validate.Length(1, 100), metadata={"description": "a gun of Table XVII the shooter carries, loaded", "example": ".38 or 9mm Revolver"})
    mode = fields.String(validate=validate.OneOf(ranged.MODES[1:]), metadata={"description": "shots (1 to the bracketed number, a penalty die each when more than one; default), burst, or full auto"})
    target_id = fields.String(metadata={"description": "shots and burst: the target"})
    shots = fields.Integer(strict=True, validate=validate.Range(1, 10), metadata={"description": "shots: how many"})
    targets = fields.List(fields.Nested(FireTarget), validate=validate.Length(1, MAX_TARGETS), metadata={"description": "full auto: the bullets declared at each target, in order"})
    difficulty = fields.String(validate=validate.OneOf(("regular", "hard", "extreme")), metadata={"description": "the range's difficulty (Regular within the base range, Hard to twice it, Extreme to four times)"})
    attack_skill = fields.String(validate=validate.Length(1, 80), metadata={"description": "default: the weapon's skill; full auto: Firearms (SMG), or (MG) for a machine gun"})
    bonus_dice = fields.Integer(strict=True, validate=validate.Range(0, 2), metadata={"description": "the Keeper's bonus dice: point-blank, aiming, a large target, a prone shooter"})
    penalty_dice = fields.Integer(strict=True, validate=validate.Range(0, 2), metadata={"description": "the Keeper's penalty dice: cover, diving for cover, firing into melee, a fast or small target, racing on"})
    malfunction = fields.String(validate=validate.OneOf(("dud", "jam")))
    modifiers = MODIFIERS
    distance_yards = fields.Integer(strict=True, validate=validate.Range(0, MAX_DISTANCE), metadata={"description": "the distance to the target(s): the difficulty by the base range (a shotgun: its band's damage)"})
    diving = fields.List(
        fields.String(), validate=validate.Length(0, MAX_TARGETS),
        metadata={"description": "targets who dive for cover (coc7e-combat.txt \"Diving for Cover\"): each a Dodge roll \"dive.<id>\", a success a penalty die on the shots at them; each forfeits their next attack"},
    )
    aftermath = fields.Nested(Aftermath)
    rolls = Rolls((), ("attack", "damage", "dive") + AFTERMATH_ROLLS, metadata={"description": 'by number from 1: {"attack": {"1": [...]}, "damage": {"1.1": [...]}} (roll, then bullet); {"dive": {"<target id>": [...]}}'})


class Aim(Schema):
    target_id = fields.String(required=True, metadata={"description": "the target aimed at"})
    weapon = fields.String(required=True, validate=validate.Length(1, 100), metadata={"description": "the carried gun aimed", "example": ".30-06 Bolt-Action Rifle"})


class Reload(RollsInput):
    weapon = fields.String(required=True, validate=validate.Length(1, 100))
    rounds_loaded = fields.Integer(strict=True, data_key="rounds", validate=validate.Range(1, 10000), metadata={"description": "rounds to load; default: to a full magazine"})
    clear_jam = fields.Boolean(metadata={"description": "try to clear a jam instead (Mechanical Repair, else the weapon's skill)"})
    skill = fields.String(validate=validate.Length(1, 80), metadata={"description": "the skill to clear the jam with"})
    rolls = Rolls(("clear",))


class MishapRoll(RollsInput):
    skill = fields.String(required=True, validate=validate.Length(1, 80), metadata={"example": "DEX"})
    target = fields.Integer(strict=True, validate=validate.Range(0, 999))
    difficulty = fields.String(load_default="regular", validate=validate.OneOf(DIFFICULTIES))
    bonus_dice = fields.Integer(strict=True, load_default=0, validate=validate.Range(0, 2))
    penalty_dice = fields.Integer(strict=True, load_default=0, validate=validate.Range(0, 2))
    rolls = Rolls(("skill",))


INCIDENTS = sorted({row.key for row in COLLISIONS + INJURIES} | {"default"})


class Consequences(RollsInput):
    incident = fields.String(
        load_default="default", allow_none=True, validate=validate.OneOf(INCIDENTS),
        metadata={"description": "a row of Table VI: Vehicular Collisions (vehicles, in Build) or Table III: Other Forms of Damage "
                  "(characters, in hit points); default: the mishap's default (minor/moderate/severe for Regular/Hard/Extreme); null: no damage"},
    )
    damage = fields.String(validate=validate.Length(1, 100), metadata={"description": "the Keeper's own dice instead of the row's"})
    delay = fields.Boolean(allow_none=True, metadata={"description": "1D3 movement actions lost, owed into the next round when none are left; default yes (no for those aboard)"})
    difficulty = fields.String(validate=validate.OneOf(DIFFICULTIES), metadata={"description": "picks the default row when no mishap awaits"})
    to_location = LOCATION
    cause = fields.String(validate=validate.Length(1, 200))
    aftermath = fields.Nested(Aftermath)
    rolls = Rolls(("damage", "movement_actions"), ("occupants",) + AFTERMATH_ROLLS)
