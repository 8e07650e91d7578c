"""Bennies: each character's count, and three of their uses (procedures of both chases).

swade-chases-reference.txt "BENNIES MAY BE USED TO..": "REROLL A TRAIT TEST", "SOAK ROLLS", "DRAW
A NEW ACTION CARD" (and "RECOVER FROM SHAKEN", which the GM's conditions command records). The
text lists the uses; how each goes is the core rules' ("Bennies", "Soak Rolls"), as rules/README.md
says for what the extracts leave to the book:

* Reroll: only the roll just made (nothing rolled since), and not a Critical Failure (core rules,
  "Critical Failures": no benny rerolls it). The reroll is a new trait roll with the same die and
  modifiers, recorded with ``reroll_of``; the original stays in the log and the roll history, and
  the better total counts (``counts``). Only rolls whose result the engine has not yet played
  may be rerolled: an attack, a trait roll the GM calls for, recovering from Shaken (a success
  now recovers); a maneuvering roll has already moved the chase (undo it and roll it again).
* Soak: right after damage that caused Wounds, a Vigor roll; each success and raise soaks one
  Wound of it; soaking them all also takes back the Shaken it caused and an Incapacitation.
* A new Action Card (Adventure Edition): a unit that has not yet acted draws one more and keeps
  the better (or the one the player names); the order of those still to act follows the cards.
"""
from __future__ import annotations

from typing import Any, ClassVar, Protocol

from domain.dice import DiceSource
from domain.rules.savage_worlds import rate_of_fire, savage_decks, savage_rolls
from domain.rules.savage_worlds.cards import card as read_card
from domain.rules.savage_worlds.cards import highest_first
from domain.rules.savage_worlds.errors import CORE, SWADE, InvalidValue, RuleBroken, whole
from domain.rules.savage_worlds.participants import MAX_BENNIES, SavageParticipant
from domain.rules.savage_worlds.savage_decks import DeckDice
from domain.rules.savage_worlds.swd_chase import resolution_order

BENNIES = f"{SWADE} \"BENNIES MAY BE USED TO..\""


class BennyChase(savage_rolls.RollingChase, savage_decks.DeckChase, Protocol):
    """What the uses of bennies need of a Savage Worlds chase (savage_base.SavageChase)."""

    BenniesChanged: ClassVar[type]
    DamageSoaked: ClassVar[type]
    phase: str
    pending: list[dict[str, Any]]

    def resolved(self, follow_up: dict[str, Any], outcome: str) -> None: ...

    def recovered_by_benny(self, participant_id: str) -> None: ...


class CardChase(BennyChase, Protocol):
    """What drawing a new Action Card needs besides (swade_aggregate.SwadeChase)."""

    ActionCardDealt: ClassVar[type]
    TurnOrderChanged: ClassVar[type]
    turn_order: list[str]
    turn_index: int


def give(chase: BennyChase, participant_id: str, change: int, reason: str = "") -> None:
    """The GM gives bennies (or takes them back: a negative change)."""
    if chase.phase == "ended":
        raise RuleBroken("the chase has ended", BENNIES)
    p = _character(chase, participant_id)
    now = p.bennies + whole("change", change)
    if whole("change", change) == 0 or not 0 <= now <= MAX_BENNIES:
        raise InvalidValue("change", f"{p.name} holds {p.bennies}: a change other than 0 that leaves 0 to {MAX_BENNIES}")
    chase.trigger_event(chase.BenniesChanged, participant_id=p.id, bennies=now, change=change, reason=reason or "the GM")


def _character(chase: BennyChase, participant_id: str) -> SavageParticipant:
    p = chase.participant(participant_id)
    if p.is_vehicle:
        raise InvalidValue("participant_id", f"{p.name} is a vehicle: bennies are its crew's")
    return p


def spend(chase: BennyChase, p: SavageParticipant, use: str) -> None:
    if p.bennies < 1:
        raise RuleBroken(f"{p.name} has no benny left", BENNIES)
    chase.trigger_event(chase.BenniesChanged, participant_id=p.id, bennies=p.bennies - 1, change=-1, reason=use)


def reroll(chase: BennyChase, dice: DiceSource, participant_id: str) -> dict[str, Any]:
    """"REROLL A TRAIT TEST": the roll just made, again; the better total counts."""
    chase._require_running()
    p = _character(chase, participant_id)
    last = p.last_roll
    if not last or last["sequence"] != chase.rolls_made:
        raise RuleBroken(f"{p.name} has no trait roll just made to reroll (only the last roll of the chase may be)", BENNIES)
    if last["benny"] == "played":
        raise RuleBroken(f"the {last['purpose']} has already moved the chase: undo it and roll it again", BENNIES)
    if last["critical_failure"]:
        raise RuleBroken("a Critical Failure cannot be rerolled with a benny", f"{CORE}, \"Critical Failures\"")
    spend(chase, p, f"reroll the {last['purpose']} (roll {last['sequence']})")
    extra = {**last["extra"], "reroll_of": last["sequence"], "best_before": last["best"]}
    if last.get("rate_of_fire"):  # every Shooting die again (rate_of_fire.py)
        rate_of_fire.roll_rate_of_fire(
            chase, dice, p.id, last["purpose"], last["trait_die"], last["rate_of_fire"], dict(last["modifiers"]),
            target_number=last["target_number"], benny=last["benny"], extra=extra,
        )
    else:
        savage_rolls.roll_trait(
            chase, dice, p.id, last["purpose"], last["trait_die"], dict(last["modifiers"]), target_number=last["target_number"],
            benny=last["benny"], extra=extra,
        )
    counts = chase.participant(p.id).last_roll["best"]  # the better of the two (savage_events.last_roll_of)
    if last["benny"] == "recover" and counts["success"] and p.conditions.shaken:
        savage_rolls.change_conditions(chase, p.id, p.conditions.recovered(), "recovered from Shaken (a benny's reroll)")
        chase.recovered_by_benny(p.id)
    return {"counts": counts, "rerolled": last["sequence"]}


def soak(chase: BennyChase, dice: DiceSource, participant_id: str, vigor: str, modifier: int = 0) -> dict[str, Any]:
    """"SOAK ROLLS": a Vigor roll right after damage; each success and raise soaks a Wound."""
    chase._require_running()
    p = _character(chase, participant_id)
    last = p.last_damage
    if not last or last["sequence"] != chase.rolls_made:
        raise RuleBroken(f"{p.name} has no damage just rolled to soak (only the last roll of the chase may be)", BENNIES)
    taken = p.wounds - last["wounds"]
    if taken < 1:
        raise RuleBroken(f"the damage caused {p.name} no Wound to soak", f"{CORE}, \"Soak Rolls\"")
    spend(chase, p, f"soak the damage of roll {last['sequence']}")
    mods = {"situational": whole("modifier", modifier), **savage_rolls.condition_modifiers(p)}
    roll = savage_rolls.roll_trait(chase, dice, p.id, "soak", vigor, mods, extra={"soaks": last["sequence"]})
    soaked = min(taken, 1 + roll.raises) if roll.success else 0
    wounds = p.wounds - soaked
    limit = p.max_wounds if p.wild_card else 0
    status = last["status"] if p.status == "incapacitated" and wounds <= limit and soaked else p.status
    shaken = last["shaken"] if soaked == taken else p.conditions.shaken
    chase.trigger_event(chase.DamageSoaked, participant_id=p.id, soaked=soaked, wounds=wounds, shaken=shaken, status=status)
    # What the soaked damage called for is called off: the Injury roll of one no longer
    # Incapacitated, the Out-of-Control roll of one no longer Shaken (Deluxe).
    for follow_up in list(chase.pending):
        mine = follow_up["participant_id"] in (p.id, chase.unit_of(p.id))
        if mine and follow_up["kind"] == "injury" and status != "incapacitated":
            chase.resolved(follow_up, "soaked: no longer Incapacitated")
        elif mine and follow_up["kind"] == "out of control" and not shaken and not last["shaken"]:
            chase.resolved(follow_up, "soaked: no longer Shaken")
    return {"soaked": soaked, "wounds": wounds}


def new_action_card(
    chase: CardChase, participant_id: str, *, card: str | None = None, keep: str | None = None, deck_dice: DeckDice | None = None,
) -> str:
    """"DRAW A NEW ACTION CARD": for a unit yet to act this round; the better card is kept."""
    chase._require_running()
    chase._require_nothing_pending()
    p = _character(chase, participant_id)
    unit_id = chase.unit_of(p.id)
    waiting = chase.turn_order[chase.turn_index + 1:]
    if unit_id not in waiting:
        raise RuleBroken(f"{chase.participant(unit_id).name} is not waiting to act this round: no new Action Card", BENNIES)
    spend(chase, p, "draw a new Action Card")
    chase.trigger_event(chase.ActionCardDealt, participant_id=unit_id, **savage_decks.draw_card(chase, "action", deck_dice, card))
    held = [read_card(c) for c in chase.action_cards[unit_id]]
    kept = highest_first(held)[0] if keep is None else read_card(keep)
    if kept not in held:
        raise InvalidValue("keep", f"keep one of {', '.join(c.code for c in held)}")
    chase.trigger_event(chase.CardsDiscarded, deck="action", cards=[c.code for c in held if c != kept], reason="a benny: a new Action Card")
    rest = resolution_order({u: read_card(chase.action_cards[u][0]) for u in waiting if chase.action_cards.get(u)})
    chase.trigger_event(chase.TurnOrderChanged, turn_order=chase.turn_order[: chase.turn_index + 1] + rest)
    return kept.code

