"""Rate of Fire: one Shooting die per point of RoF, plus one Wild Die for a Wild Card.

Core rules "Rate of Fire" (the extract's "BULLETS PER RATE OF FIRE" and "Recoil" give the
bullets and the -2, gm_options.py): a weapon fired at RoF 2 or more rolls that many Shooting
dice, and a Wild Card adds one Wild Die, which may take the place of any one of them (here the
lowest it beats). Every die is a separate hit against the Target Number, with the modifiers
(Recoil among them), the trait's bonus and the Joker's +2 applied to each. Core rules "Critical
Failures": with several trait dice, the roll is a Critical Failure when more than half of them
show 1 (and, for a Wild Card, the Wild Die too); it hits nothing.

Faces are entered (and drawn) as for a trait roll: the trait dice left to right, the Wild Die,
then each die's ace rerolls in that order (acing.py). The record keeps the trait roll's shape
(``kind`` "rate of fire roll"): every face, the modifiers, and per die its total and hit.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from domain.dice import D, DiceSource
from domain.rules.savage_worlds import savage_rolls
from domain.rules.savage_worlds.acing import chains_plan, draw_acing
from domain.rules.savage_worlds.dice import JOKER_BONUS, TARGET_NUMBER, WILD_DIE, TraitDie, dice_record, raises, trait_die
from domain.rules.savage_worlds.errors import whole

KIND = "rate of fire roll"


@dataclass(frozen=True)
class RateOfFireRoll:
    """Several Shooting dice read in full: each die's total and hit, the best total, hits."""

    trait_die: TraitDie
    rate_of_fire: int
    wild_card: bool
    trait_faces: tuple[tuple[int, ...], ...]  # each Shooting die's faces (with its ace rerolls)
    wild_faces: tuple[int, ...]
    replaced: int | None  # the Shooting die whose place the Wild Die took
    modifier: int
    joker: bool
    totals: tuple[int, ...]  # per Shooting die, after the Wild Die's substitution
    target_number: int
    critical_failure: bool
    sequence: int
    dice: tuple[dict[str, Any], ...] = ()
    source: dict[str, Any] = field(default_factory=dict)

    @property
    def hits(self) -> tuple[bool, ...]:
        return tuple(not self.critical_failure and t >= self.target_number for t in self.totals)

    @property
    def total(self) -> int:
        return max(self.totals)

    @property
    def success(self) -> bool:
        return any(self.hits)

    @property
    def raises(self) -> int:
        return raises(self.total, self.target_number) if self.success else 0

    def record(self) -> dict[str, Any]:
        return {
            "kind": KIND,
            "trait_die": self.trait_die.label,
            "rate_of_fire": self.rate_of_fire,
            "wild_card": self.wild_card,
            "dice": [dict(d) for d in self.dice],
            "trait_dice_faces": [list(f) for f in self.trait_faces],
            "wild_die_faces": list(self.wild_faces),
            "wild_die_replaces": self.replaced,
            "trait_bonus": self.trait_die.bonus,
            "modifier": self.modifier,
            "joker": self.joker,
            "totals": list(self.totals),
            "hits": [bool(h) for h in self.hits],
            "hit_count": sum(self.hits),
            "raises_per_die": [raises(t, self.target_number) if h else 0 for t, h in zip(self.totals, self.hits)],
            "total": self.total,
            "target_number": self.target_number,
            "success": self.success,
            "raises": self.raises,
            "critical_failure": self.critical_failure,
            "source": dict(self.source, sequence=self.sequence),
        }


def rate_of_fire_roll(
    source: DiceSource, sequence: int, die: str | TraitDie, rate_of_fire: int, *, wild_card: bool = True, modifier: int = 0,
    target_number: int = TARGET_NUMBER, joker: bool = False,
) -> RateOfFireRoll:
    """Roll ``rate_of_fire`` Shooting dice (and the Wild Die), all acing; one sequence number."""
    die = trait_die(die)
    rof = whole("rate_of_fire", rate_of_fire, 1)
    whole("modifier", modifier)
    whole("target_number", target_number)
    base = [D(die.sides)] * rof + ([WILD_DIE] if wild_card else [])
    read = chains_plan(base)
    acing = draw_acing(source, sequence, lambda faces: read(faces)[0])
    _, chains, _ = read(acing.faces)
    sums = [sum(c) for c in chains[:rof]]
    wild = sum(chains[rof]) if wild_card else 0
    replaced = None
    if wild_card and wild > min(sums):
        replaced = sums.index(min(sums))
        sums[replaced] = wild
    bonus = die.bonus + modifier + (JOKER_BONUS if joker else 0)
    ones = sum(1 for c in chains[:rof] if c[0] == 1)
    critical = ones * 2 > rof and (not wild_card or chains[rof][0] == 1)
    roles = [f"Shooting die {n + 1}" for n in range(rof)] + (["Wild Die"] if wild_card else [])
    return RateOfFireRoll(
        trait_die=die, rate_of_fire=rof, wild_card=wild_card, trait_faces=tuple(tuple(c) for c in chains[:rof]),
        wild_faces=tuple(chains[rof]) if wild_card else (), replaced=replaced, modifier=modifier, joker=joker,
        totals=tuple(s + bonus for s in sums), target_number=target_number, critical_failure=critical, sequence=sequence,
        dice=tuple(dice_record(acing, roles, chains, True)), source=dict(acing.provenance, draws=acing.draws),
    )


def roll_rate_of_fire(
    chase: savage_rolls.RollingChase, dice: DiceSource, roller_id: str, purpose: str, die: str, rate_of_fire: int, modifiers: dict[str, int], *,
    target_number: int = TARGET_NUMBER, extra: dict[str, Any] | None = None, benny: str = "result",
) -> RateOfFireRoll:
    """A Rate of Fire roll recorded as TraitRolled, as savage_rolls.roll_trait records one die."""
    roller = chase.participant(roller_id)
    for reason, value in modifiers.items():
        whole(reason, value)
    sequence = chase.rolls_made + 1
    roll = rate_of_fire_roll(
        dice, sequence, die, rate_of_fire, wild_card=roller.wild_card, modifier=sum(modifiers.values()),
        target_number=whole("target_number", target_number, 1), joker=savage_rolls.holds_joker(chase, roller_id),
    )
    record = {
        "sequence": sequence, "roller": roller_id, "purpose": purpose, "round": chase.round,
        "modifiers": dict(modifiers), **roll.record(), "benny": benny, **(extra or {}),
    }
    chase.trigger_event(chase.TraitRolled, participant_id=roller_id, roll=record)
    return roll


def roll_attack(
    chase: savage_rolls.RollingChase, dice: DiceSource, attacker_id: str, die: str, modifiers: dict[str, int], *,
    target_number: int, extra: dict[str, Any], rate_of_fire: int | None,
) -> Any:
    """An attack's roll: one Shooting die, or at RoF 2 or more one per point of RoF."""
    if rate_of_fire is not None and rate_of_fire > 1:
        return roll_rate_of_fire(chase, dice, attacker_id, "attack", die, rate_of_fire, modifiers, target_number=target_number, extra=extra)
    return savage_rolls.roll_trait(chase, dice, attacker_id, "attack", die, modifiers, target_number=target_number, extra=extra, benny="result")
