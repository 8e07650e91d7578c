"""The kinds of roll a Savage Worlds chase records, for the OpenAPI document (api/roll_docs.py),
each with its ``kind``: a trait roll with the Wild Die (domain/rules/savage_worlds/dice.py), a
roll at a Rate of Fire (rate_of_fire.py), damage (damage.py), a table roll (damage.py) and a
deck shuffled by the server's dice (savage_decks.py), with what the command adds (against whom,
on which card, which modifiers)."""
from __future__ import annotations

from typing import Any

from api.roll_docs import BOOL, FACE, INT, STR, WHO, array, closed
from domain.rules.savage_worlds.rate_of_fire import KIND as RATE_OF_FIRE

ACING_FACE = {"type": "object", "properties": {"index": INT, "die": STR, "face": INT, "role": {**STR, "description": "trait die, Wild Die, damage, ..."}, "aced": BOOL},
              "required": ["die", "face"], "additionalProperties": False}
MODIFIERS = {"type": "object", "additionalProperties": INT, "description": "each modifier by its name in the rules (Aim, range, Cover (heavy), situational, ...)"}
BEST_BEFORE = {"type": "object", "properties": {"sequence": INT, "total": INT, "success": BOOL, "raises": INT}, "additionalProperties": False,
               "description": "a reroll (a Benny spent): the roll it replaced"}
CONTEXT: dict[str, Any] = {
    "benny": {**STR, "description": "whether a Benny may reroll it (and whose)"}, "modifiers": MODIFIERS, "target": WHO, "unit": STR, "by": STR,
    "against": STR, "attacker": STR, "victim": STR, "held_by": STR, "closest_foe": STR, "action_card": STR, "chase_card": STR, "suit": STR,
    "as_action": BOOL, "melee_possible": BOOL, "ranged": BOOL, "range": {"type": ["integer", "string"]}, "range_band": STR, "cards_between": INT,
    "bullets": INT, "rate_of_fire": INT, "damage_bonus": INT, "direction": INT, "effect": STR, "soaks": INT, "reroll_of": INT, "best_before": BEST_BEFORE,
}
READING: dict[str, Any] = {
    "trait_die": {**STR, "description": "such as d8 or d12+1"}, "wild_card": BOOL, "dice": array(ACING_FACE), "wild_die_faces": array(INT),
    "trait_bonus": INT, "modifier": INT, "joker": BOOL, "total": INT, "target_number": INT, "success": BOOL, "raises": INT, "critical_failure": BOOL,
}

ROLLS: dict[str, dict[str, Any]] = {
    "TraitRoll": closed("Savage Worlds: a trait roll with the Wild Die, each die acing", {
        **READING, "trait_die_faces": array(INT), "extra_critical_failure_check": {"type": ["integer", "null"], "description": "an Extra's d6 on a 1"},
        "kept": {"type": "string", "enum": ["trait die", "Wild Die"]},
    }, CONTEXT, kind="trait roll"),
    "RateOfFireRoll": closed("Savage Worlds: Shooting at a Rate of Fire over 1, one trait die per shot and the Wild Die", {
        **READING, "rate_of_fire": INT, "trait_dice_faces": array(array(INT)), "wild_die_replaces": {"type": ["integer", "null"]},
        "totals": array(INT), "hits": array(BOOL), "hit_count": INT, "raises_per_die": array(INT),
    }, CONTEXT, kind=RATE_OF_FIRE),
    "DamageRoll": closed("Savage Worlds: a damage roll, each die acing", {
        "expression": STR, "dice": array(ACING_FACE), "chains": array(array(INT)), "modifier": INT, "raise_bonus_die": BOOL, "joker": BOOL, "total": INT,
    }, {**CONTEXT, "aces": BOOL, "hardness": INT, "object": STR, "rule": STR, "parts": array(array(STR))}, kind="damage roll"),
    "TableRoll": closed("Savage Worlds: a roll on a table (2d6, d6): plain dice that never ace", {"dice": array(FACE), "total": INT},
                        {"table": STR, "unit": STR, "why": STR}, kind="table roll"),
    "ShuffleRoll": closed("Savage Worlds: a deck shuffled by the server's dice (its order is recomputed from the revealed seed)", {
        "deck": STR, "shuffle": {"type": "object", "properties": {"cards": array(STR)}, "required": ["cards"], "additionalProperties": False},
    }, kind="shuffle"),
}
