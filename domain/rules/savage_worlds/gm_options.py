"""The GM-judged options of an attack as named modifiers, and Tests and Tricks (both chases).

swade-chases-reference.txt "COMBAT OPTIONS & SITUATIONAL RULES" gives their numbers; the GM says
which apply (an input of the attack, none by default), and each is named in the roll's log:

* Aim: "Ignore up to four points of ranged attack penalties, or gain +2 attack roll if there are
  no penalties" (the unit's penalties to this ranged attack: Range, Cover, Illumination, the
  chase's, Called Shots, Scale, Prone's cover);
* Called Shots: "Limb is -2 / Hand -4 ... Head or vitals is -4 and +4 Damage" (the +4 is recorded
  as the attack's ``damage_bonus`` and added, named, to the damage roll that follows a hit, as
  the Drop's +4 is: damage_after_attack);
* Cover: "Light -2, Medium -4, Heavy -6, Near Total -8";
* Illumination: "Dim -2; Dark -4; Pitch Darkness -6";
* Rate of Fire: "BULLETS PER RATE OF FIRE" (1, 5, 10, 20, 40, 50 for RoF 1 to 6), recorded as the
  attack's ``bullets``, and "Recoil: -2 Shooting if RoF is 2 or higher";
* Tests: "make opposed skill test versus foe's linked attribute. If successful, foe is Distracted
  or Vulnerable (attacker's choice), and Shaken with a raise"; swd-chases.txt "A note about
  Tricks during Chases": a Trick likewise, taken by anyone with an Action card.
"""
from __future__ import annotations

from typing import Any, Protocol

from domain.dice import DiceSource
from domain.rules.savage_worlds import condition_effects, savage_rolls
from domain.rules.savage_worlds.dice import opposed
from domain.rules.savage_worlds.errors import CORE, SWADE, InvalidValue, RuleBroken, whole
from domain.rules.savage_worlds.multi_actions import ActingChase, take_action

OPTIONS = f"{SWADE} \"COMBAT OPTIONS & SITUATIONAL RULES\""
AIM_IGNORES, AIM_BONUS = 4, 2  # "Aim"
CALLED_SHOTS: dict[str, tuple[int, int]] = {"limb": (-2, 0), "hand": (-4, 0), "head": (-4, 4), "vitals": (-4, 4)}  # (attack, damage)
COVER: dict[str, int] = {"light": -2, "medium": -4, "heavy": -6, "near total": -8}
ILLUMINATION: dict[str, int] = {"dim": -2, "dark": -4, "pitch darkness": -6}
TEST_EFFECTS = ("distracted", "vulnerable")  # "foe is Distracted or Vulnerable (attacker's choice)"
# "BULLETS PER RATE OF FIRE": Rate of Fire -> bullets fired; "Recoil: -2 Shooting if RoF is 2 or higher".
BULLETS_PER_RATE_OF_FIRE: dict[int, int] = {1: 1, 2: 5, 3: 10, 4: 20, 5: 40, 6: 50}
RECOIL, RECOIL_FROM = -2, 2


def _choice(field_name: str, value: Any, table: dict[str, Any]) -> Any:
    if value not in table:
        raise InvalidValue(field_name, f"one of {', '.join(table)} ({OPTIONS}, {field_name.replace('_', ' ').title()})")
    return table[value]


def attack_options(options: dict[str, Any], others: dict[str, int], *, ranged: bool) -> tuple[dict[str, int], dict[str, Any]]:
    """The named modifiers of the GM's options (``called_shot``, ``cover``, ``illumination``,
    ``aim``) given the attack's ``others``, and what to record beside the roll."""
    mods: dict[str, int] = {}
    record: dict[str, Any] = {}
    if options.get("called_shot") is not None:
        attack, damage = _choice("called_shot", options["called_shot"], CALLED_SHOTS)
        mods[f"Called Shot ({options['called_shot']})"] = attack
        if damage:
            record["damage_bonus"] = damage
    if options.get("cover") is not None:
        mods[f"Cover ({options['cover']})"] = _choice("cover", options["cover"], COVER)
    if options.get("illumination") is not None:
        mods[f"Illumination ({options['illumination']})"] = _choice("illumination", options["illumination"], ILLUMINATION)
    rof = options.get("rate_of_fire")
    if rof is not None:
        record.update(rate_of_fire=rof, bullets=_choice("rate_of_fire", rof, BULLETS_PER_RATE_OF_FIRE))
        if not ranged:
            raise InvalidValue("rate_of_fire", f"Rate of Fire is a ranged weapon's ({SWADE} \"BULLETS PER RATE OF FIRE\")")
        if rof >= RECOIL_FROM:
            mods["Recoil"] = RECOIL
    if options.get("aim"):
        if not ranged:
            raise InvalidValue("aim", f"Aim steadies a ranged attack ({OPTIONS}, Aim)")
        penalties = -sum(v for k, v in {**others, **mods}.items() if v < 0 and k not in ("conditions", "multi-action", "situational"))
        mods["Aim"] = min(AIM_IGNORES, penalties) if penalties else AIM_BONUS
    return mods, record


def damage_after_attack(
    chase: savage_rolls.RollingChase, dice: DiceSource, target_id: str, expression: str, *, roller_id: str | None = None,
    raise_bonus: bool = False, strength: str | None = None, modifier: int = 0, purpose: str = "damage",
) -> int:
    """Damage, carrying the bonuses of the attack just made by the roller against this target:
    "The Drop: +4 to attack and damage" (conditions.py) and a Called Shot to the head or vitals,
    "+4 Damage" ("Called Shots"), each named in the damage roll's modifiers."""
    carried: dict[str, int] = {}
    last = chase.participant(roller_id).last_roll if roller_id is not None else None
    if last and last["purpose"] == "attack" and last["sequence"] == chase.rolls_made and last["extra"].get("target") == target_id and last["best"]["success"]:
        for name, value in last["modifiers"].items():
            if name.startswith("The Drop"):
                carried[name] = value  # the same +4 to damage as to the attack
            elif name.startswith("Called Shot (") and CALLED_SHOTS.get(name[len("Called Shot ("):-1], (0, 0))[1]:
                carried[name] = CALLED_SHOTS[name[len("Called Shot ("):-1]][1]
    return savage_rolls.damage(
        chase, dice, target_id, expression, roller_id=roller_id, raise_bonus=raise_bonus, strength=strength, modifier=modifier,
        purpose=purpose, carried=carried,
    )


def test_effect(effect: str) -> str:
    if effect not in TEST_EFFECTS:
        raise InvalidValue("effect", f"the foe is made distracted or vulnerable ({OPTIONS}, Tests)")
    return effect


class TestingChase(savage_rolls.RollingChase, ActingChase, Protocol):
    """What a Test or a Trick uses of a Savage Worlds chase (both aggregates)."""

    def acting_unit(self, participant_id: str, what: str, in_chase: bool = True) -> Any: ...


def test_foe(
    chase: TestingChase, dice: DiceSource, defender_dice: DiceSource, participant_id: str, target_id: str, trait_die: str, resist_die: str, *,
    kind: str = "Test", effect: str = "distracted", modifier: int = 0, defender_modifier: int = 0, actions: int | None = None,
) -> dict[str, Any]:
    """A Test or a Trick on the actor's turn: opposed rolls (his skill against the foe's linked
    attribute); success: the foe Distracted or Vulnerable, the actor's choice; a raise: Shaken too."""
    if kind not in ("Test", "Trick"):
        raise InvalidValue("kind", "Test or Trick")
    test_effect(effect)
    chase.acting_unit(participant_id, f"a {kind}")
    actor = chase.participant(participant_id)
    if actor.is_vehicle:
        raise InvalidValue("participant_id", "a vehicle makes no Test: name who aboard it does")
    if actor.conditions.shaken:
        raise RuleBroken(f"{actor.name} is Shaken and may take only free actions", f"{CORE}, \"Shaken\"")
    condition_effects.require_able(actor, f"a {kind}")
    target = chase._require_in_chase(target_id)
    if target.is_vehicle or chase.participant(chase.unit_of(target.id)).role == chase.participant(chase.unit_of(actor.id)).role:
        raise InvalidValue("target_id", f"a {kind} is made against a foe's character, not {target.name}")
    mods = {"situational": whole("modifier", modifier), **savage_rolls.condition_modifiers(actor), **take_action(chase, actor.id, kind, actions)}
    attack = savage_rolls.roll_trait(chase, dice, actor.id, kind, trait_die, mods, extra={"target": target.id, "effect": effect})
    dmods = {"situational": whole("defender_modifier", defender_modifier), **savage_rolls.condition_modifiers(target)}
    defence = savage_rolls.roll_trait(chase, defender_dice, target.id, f"resist {kind}", resist_die, dmods, extra={"by": actor.id})
    outcome = opposed(attack, defence)
    if outcome.winner != "attacker":
        return {"winner": "defender", "effect": None}
    c = target.conditions.made_distracted() if effect == "distracted" else target.conditions.made_vulnerable()
    if outcome.raises:
        c = c.made_shaken()
    savage_rolls.change_conditions(chase, target.id, c, f"{actor.name}'s {kind}" + (" with a raise" if outcome.raises else ""))
    return {"winner": "attacker", "effect": effect, "shaken": bool(outcome.raises)}
