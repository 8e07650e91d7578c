"""Rolls, damage and conditions in a Savage Worlds chase (procedures of both aggregates).

Every roll has one sequence number and is recorded whole (dice.py, damage.py): each die with its
label ("d8", "d6") and face in draw order, aces and rerolls included, so that domain/verification.py
recomputes a server roll from the revealed seed. The Joker's +2 goes to trait and damage rolls of
whoever acts on a Joker this round (core rules, "Jokers"); Distracted and Fatigue are penalties to
every trait roll (conditions.py).
"""
from __future__ import annotations

from dataclasses import asdict, replace
from typing import Any, ClassVar, Protocol

from domain.dice import DiceSource
from domain.rules.savage_worlds.cards import card
from domain.rules.savage_worlds.conditions import FATIGUE_PENALTIES, INCAPACITATED, SETTABLE, THE_DROP, Conditions
from domain.rules.savage_worlds.damage import damage_roll, table_roll
from domain.rules.savage_worlds.dice import TARGET_NUMBER, TraitRoll, trait_roll
from domain.rules.savage_worlds.errors import CORE, InvalidValue, RuleBroken, whole
from domain.rules.savage_worlds.participants import SavageParticipant, damage_to_character


class RollingChase(Protocol):
    """What the roll, damage and condition procedures use of a Savage Worlds chase
    (savage_base.SavageChase and its two systems' aggregates)."""

    SHAKEN_AGAIN_WOUNDS: ClassVar[bool]  # Savage Worlds Deluxe: Shaken twice is a Wound; SWADE: not
    INJURY_TABLE: ClassVar[bool]  # SWADE: the Injury table when Incapacitated (injuries.py)
    TraitRolled: ClassVar[type]  # the system's events, each with its own topic
    DamageRolled: ClassVar[type]
    TableRolled: ClassVar[type]
    ConditionsChanged: ClassVar[type]
    CharacterDamaged: ClassVar[type]
    StatusChanged: ClassVar[type]
    rolls_made: int
    round: int
    action_cards: dict[str, list[str]]

    @property
    def whose_turn(self) -> str | None: ...

    def participant(self, participant_id: str) -> SavageParticipant: ...

    def unit_of(self, participant_id: str) -> str: ...

    def members(self, unit_id: str) -> list[SavageParticipant]: ...

    def after_status_change(self) -> None: ...

    def require(self, kind: str, participant_id: str | None, **details: Any) -> None: ...

    def became_shaken(self, participant_id: str, reason: str) -> None:
        """What the system's rules call for when someone becomes Shaken (Deluxe: Out of Control)."""

    def damage_vehicle(self, vehicle_id: str, total: int, *, by: str | None, cause: str) -> None:
        """The system's rule for damage to a vehicle (SWADE and Deluxe differ)."""

    def _require_running(self) -> None: ...

    def _require_nothing_pending(self) -> None: ...

    def _require_in_chase(self, participant_id: str) -> SavageParticipant: ...

    def trigger_event(self, event_class: Any, **kwargs: Any) -> None: ...


# -- the Joker and modifiers -----------------------------------------------------------

def holds_joker(chase: RollingChase, participant_id: str) -> bool:
    cards = chase.action_cards.get(chase.unit_of(participant_id), [])
    return len(cards) == 1 and card(cards[0]).is_joker


def maneuver_die(roller: Any) -> str:
    if roller.maneuver_die is None:
        raise InvalidValue("maneuver_die", f"{roller.name} has no maneuvering skill die ({roller.maneuver_skill})")
    return roller.maneuver_die


def condition_modifiers(roller: Any, maneuvering: bool = False) -> dict[str, int]:
    """Distracted and Fatigue; for a rider's maneuvering roll also his mount's Fatigue
    (swade-chases-reference.txt "CRITICAL FAILURE ON MANEUVERING SKILLS", Mounted 3-4)."""
    out = {}
    if roller.conditions.trait_modifier():
        out["conditions"] = roller.conditions.trait_modifier()
    if maneuvering and roller.mounted and roller.mount_fatigue:
        out["mount fatigue"] = FATIGUE_PENALTIES[min(roller.mount_fatigue, len(FATIGUE_PENALTIES) - 1)]
    return out


def against_unit(chase: RollingChase, unit_id: str) -> dict[str, int]:
    """The modifiers to an action against a unit (a Force, a Ram): "Vulnerable: Actions against
    the character are made at +2" (swade-chases-reference.txt "COMBAT OPTIONS & SITUATIONAL
    RULES"), when the unit (a vehicle, "and everyone on board", "OUT OF CONTROL") or the one who
    maneuvers it is Vulnerable. It does not stack: +2 once."""
    unit = chase.participant(unit_id)
    rollers = [unit] + [p for p in chase.members(unit_id) if p.seat == "driver"]
    bonus = max(p.conditions.against_modifier() for p in rollers)
    if not bonus:
        return {}
    return {"The Drop (Stunned)" if bonus == THE_DROP else "Vulnerable": bonus}


# -- rolls -----------------------------------------------------------------------------

def roll_trait(
    chase: RollingChase,
    dice: DiceSource,
    roller_id: str,
    purpose: str,
    die: str,
    modifiers: dict[str, int],
    *,
    target_number: int = TARGET_NUMBER,
    extra: dict[str, Any] | None = None,
    benny: str = "played",
) -> TraitRoll:
    """A trait roll recorded as TraitRolled; ``modifiers`` by reason, summed into the roll.
    ``benny`` says what a benny's reroll of it would change (bennies.py): "result" (only its
    result counts: an attack, a trait roll the GM calls for), "recover" (recovering from Shaken)
    or "played" (its outcome already moved the chase: a maneuvering roll)."""
    roller = chase.participant(roller_id)
    for reason, value in modifiers.items():
        whole(reason, value)
    sequence = chase.rolls_made + 1
    roll = trait_roll(
        dice, sequence, die, wild_card=roller.wild_card, modifier=sum(modifiers.values()),
        target_number=whole("target_number", target_number, 1), joker=holds_joker(chase, roller_id),
    )
    record = {
        "sequence": sequence, "roller": roller_id, "purpose": purpose, "round": chase.round,
        "modifiers": dict(modifiers), **roll.record(), "benny": benny, **(extra or {}),
    }
    chase.trigger_event(chase.TraitRolled, participant_id=roller_id, roll=record)
    return roll


def roll_damage(
    chase: RollingChase, dice: DiceSource, roller_id: str | None, target_id: str | None, purpose: str, expression: str, *,
    raise_bonus: bool = False, strength: str | None = None, modifier: int = 0, extra: dict[str, Any] | None = None, aces: bool = True,
) -> int:
    """A damage roll (it Aces unless ``aces`` is False), recorded as DamageRolled; returns the total."""
    sequence = chase.rolls_made + 1
    joker = roller_id is not None and holds_joker(chase, roller_id)
    roll = damage_roll(dice, sequence, expression, strength=strength, raise_bonus=raise_bonus, modifier=modifier, joker=joker, aces=aces)
    record = {"sequence": sequence, "roller": roller_id, "purpose": purpose, "round": chase.round, "target": target_id, **roll.record(), "benny": "soak", **(extra or {})}
    chase.trigger_event(chase.DamageRolled, participant_id=roller_id, target_id=target_id, roll=record)
    return roll.total


def roll_table(chase: RollingChase, dice: DiceSource, participant_id: str | None, purpose: str, count: int, sides: int, extra: dict[str, Any] | None = None) -> list[int]:
    """A table roll (never Aces), recorded as TableRolled; returns the faces."""
    sequence = chase.rolls_made + 1
    roll = table_roll(dice, sequence, count, sides)
    record = {"sequence": sequence, "roller": participant_id, "purpose": purpose, "round": chase.round, **roll.record(), **(extra or {})}
    chase.trigger_event(chase.TableRolled, participant_id=participant_id, roll=record)
    return list(roll.faces)


# -- conditions ------------------------------------------------------------------------

def change_conditions(chase: RollingChase, participant_id: str, conditions: Conditions, reason: str) -> None:
    p = chase.participant(participant_id)
    shaken_now = conditions.shaken and not p.conditions.shaken
    if conditions != p.conditions:
        chase.trigger_event(chase.ConditionsChanged, participant_id=participant_id, conditions=asdict(conditions), reason=reason)
    if conditions.incapacitated and p.in_chase:
        chase.trigger_event(chase.StatusChanged, participant_id=participant_id, status="incapacitated", reason=f"{reason}: Fatigue to Incapacitation")
        chase.after_status_change()
    if shaken_now:
        chase.became_shaken(participant_id, reason)


def during_own_turn(chase: RollingChase, participant_id: str) -> bool:
    return chase.whose_turn is not None and chase.whose_turn == chase.unit_of(participant_id)


def set_conditions(chase: RollingChase, participant_id: str, changes: dict[str, Any], reason: str = "the GM") -> None:
    """The GM sets conditions (a benny spent, a power, a grapple, an effect the engine does not
    model). ``changes``: shaken, distracted, vulnerable, stunned, bound, entangled, prone (true or
    false) and fatigue (0 to 3); conditions.py says what each does."""
    chase._require_running()
    p = chase.participant(participant_id)
    c = p.conditions
    own = during_own_turn(chase, participant_id)
    for name, value in changes.items():
        if name == "fatigue":
            c = replace(c, fatigue=whole("fatigue", value, 0))
            if c.fatigue > INCAPACITATED:
                raise InvalidValue("fatigue", "levels run 0 (fresh) to 3 (Incapacitated)")
            continue
        if not isinstance(value, bool) or name not in SETTABLE:
            raise InvalidValue(name, f"set {', '.join(SETTABLE)} to true or false, fatigue to 0..3")
        if p.is_vehicle and value and name != "vulnerable":
            raise RuleBroken(f"vehicles cannot be {name.title()}: their crews can", "swade-chases-reference.txt \"DAMAGE\" (vehicles cannot be Shaken)")
        if name == "shaken":
            c = c.made_shaken() if value else c.recovered()
        elif name == "distracted":
            c = c.made_distracted(own) if value else replace(c, distracted=0)
        elif name == "vulnerable":
            c = c.made_vulnerable(own) if value else replace(c, vulnerable=0)
        elif name == "stunned":
            c = c.made_stunned() if value else replace(c, stunned=False)
        else:
            c = replace(c, **{name: value})
    change_conditions(chase, participant_id, c, reason)


def roll_any_trait(
    chase: RollingChase, dice: DiceSource, participant_id: str, die: str, *, purpose: str = "trait roll", modifier: int = 0, target_number: int = TARGET_NUMBER
) -> TraitRoll:
    """Any trait roll the GM calls for, with the roller's conditions and Joker."""
    chase._require_running()
    p = chase.participant(participant_id)
    mods = {"situational": whole("modifier", modifier), **condition_modifiers(p)}
    return roll_trait(chase, dice, participant_id, purpose, die, mods, target_number=target_number, benny="result")


def recover(chase: RollingChase, dice: DiceSource, participant_id: str, die: str | None = None, modifier: int = 0) -> TraitRoll:
    """The command: a Spirit roll to recover from Shaken, when nothing else waits."""
    check_recover(chase, participant_id)
    return recover_from_shaken(chase, dice, participant_id, die, modifier)


def check_recover(chase: RollingChase, participant_id: str) -> SavageParticipant:
    """The guard of ``recover``: nothing waiting, and someone Shaken in the chase."""
    chase._require_running()
    chase._require_nothing_pending()
    return shaken(chase, participant_id)


def shaken(chase: RollingChase, participant_id: str) -> SavageParticipant:
    chase._require_running()
    p = chase._require_in_chase(participant_id)
    if not p.conditions.shaken:
        raise RuleBroken(f"{p.name} is not Shaken", f"{CORE}, \"Shaken\"")
    return p


def recover_from_shaken(chase: RollingChase, dice: DiceSource, participant_id: str, die: str | None = None, modifier: int = 0) -> TraitRoll:
    """A Spirit roll to recover from Shaken (core rules, "Shaken"): success recovers."""
    p = shaken(chase, participant_id)
    spirit = die or p.spirit
    if spirit is None:
        raise InvalidValue("trait_die", f"{p.name} has no Spirit die: give the die to roll")
    modifiers = {"situational": modifier, **condition_modifiers(p)}
    roll = roll_trait(chase, dice, participant_id, "recover from Shaken", spirit, modifiers, benny="recover")
    if roll.success:
        change_conditions(chase, participant_id, p.conditions.recovered(), "recovered from Shaken")
    return roll


# -- damage ----------------------------------------------------------------------------

def damage(
    chase: RollingChase, dice: DiceSource, target_id: str, expression: str, *, roller_id: str | None = None,
    raise_bonus: bool = False, strength: str | None = None, modifier: int = 0, purpose: str = "damage",
    carried: dict[str, int] | None = None,
) -> int:
    """Roll damage (it Aces) against a target and apply it: a vehicle's Toughness and Wounds,
    a character's Shaken and Wounds. ``carried``: named bonuses the attack carries into its
    damage (gm_options.damage_after_attack), each named in the roll's ``modifiers``."""
    chase._require_running()
    chase._require_nothing_pending()
    target = chase._require_in_chase(target_id)
    if roller_id is not None:
        chase.participant(roller_id)
    if target.toughness is None:
        raise InvalidValue("toughness", f"{target.name} has no Toughness to compare the damage with")
    named = {"situational": whole("modifier", modifier), **(carried or {})}
    extra = {"modifiers": named} if carried else None
    total = roll_damage(
        chase, dice, roller_id, target_id, purpose, expression, raise_bonus=raise_bonus, strength=strength, modifier=sum(named.values()), extra=extra,
    )
    apply_damage(chase, target_id, total, by=roller_id, cause=purpose)
    return total


def apply_damage(chase: RollingChase, target_id: str, total: int, *, by: str | None, cause: str) -> None:
    target = chase.participant(target_id)
    if target.is_vehicle:
        chase.damage_vehicle(target_id, total, by=by, cause=cause)
        return
    if target.toughness is None:
        raise InvalidValue("toughness", f"{target.name} has no Toughness to compare the damage with")
    hit = damage_to_character(
        total, target.toughness, shaken=target.conditions.shaken, wounds=target.wounds,
        wild_card=target.wild_card, shaken_again_wounds=chase.SHAKEN_AGAIN_WOUNDS, max_wounds=target.max_wounds,
    )
    shaken_now = hit.shaken and not target.conditions.shaken
    if hit.shaken or hit.wounds:
        chase.trigger_event(
            chase.CharacterDamaged, participant_id=target_id, damage=total, toughness=target.toughness, shaken=hit.shaken,
            wounds_taken=hit.wounds, wounds=target.wounds + hit.wounds, incapacitated=hit.incapacitated,
        )
    if hit.incapacitated and chase.INJURY_TABLE:
        chase.require("injury", target_id, rule="INJURY TABLE: Incapacitated, a roll on the Injury table")
    elif hit.incapacitated:
        chase.after_status_change()
    if shaken_now:
        chase.became_shaken(target_id, cause)
