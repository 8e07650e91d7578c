"""Combat rounds without a chase: the order of attack, readied firearms (and those drawn during
the fight), the optional DEX-roll initiative, each combatant's actions a round, combatants joining
the fight in progress and fleeing it.

coc7e-combat.txt "Dexterity and the Order of Attack", "Actions in a Combat Round", "Firearms and
the DEX Order", "Rolling for Initiative", "Escaping Close Combat". Attacks, maneuvers, fire and wounds are the chase's own
procedures (conflict_procedures.py, fire_procedures.py, wound_procedures.py) on the encounter.
"""
from __future__ import annotations

from typing import Any, Protocol

from domain.rules.coc7e import encounter_events, keeper_rolls, rounds, weapons
from domain.rules.coc7e.errors import InvalidCommand, RuleBroken
from domain.rules.coc7e.keeper_rolls import RollSources
from domain.rules.coc7e.participants import Participant

COMBAT = "coc7e-combat.txt"
ORDER_OF_ATTACK = f'{COMBAT} "Dexterity and the Order of Attack"'
FIREARMS_DEX = f'{COMBAT} "Firearms and the DEX Order"'
INITIATIVE_RULE = f'{COMBAT} "Rolling for Initiative"'
ESCAPING = f'{COMBAT} "Escaping Close Combat"'
INITIATIVES = ("dex", "dex roll")  # the rules' default: DEX order; "dex roll" is the optional rule
READIED_DEX = 50  # "readied firearms may shoot at DEX + 50 in the DEX order"
# "Those who rolled an Extreme success will be first to act, followed by those who rolled a Hard
# success, then those with a Regular success, and finally those who failed the roll."
INITIATIVE_RANK = {"critical": 3, "extreme": 3, "hard": 2, "regular": 1, "failure": 0, "fumble": 0}
# "Those that roll 01 (critical) on their DEX roll should gain a tactical advantage or bonus die on
# their first attack. Those that roll a fumble should forgo their first attack."
FIRST_ATTACK = {"critical": "bonus die", "fumble": "forgo"}


class FightingEncounter(rounds.RoundsChase, keeper_rolls.RollingChase, Protocol):
    """What the combat rounds use of an encounter (domain.rules.coc7e.encounter.Encounter)."""

    initiative: str
    readied: list[str]
    initiative_levels: dict[str, str]
    first_attack: dict[str, str]


def begin_fight(encounter: FightingEncounter, dice: RollSources, readied: list[str] | tuple = (), initiative: str = "dex") -> dict[str, Any]:
    """The Keeper switches to combat rounds: everyone fights at one place, round 1 begins.

    ``readied``: those holding a readied firearm (DEX + 50 in the DEX order; with the DEX-roll
    initiative, a bonus die on that roll instead). ``initiative``: "dex" (the rules' order) or
    "dex roll" (the optional rule: DEX rolls named ``initiative.<participant id>``)."""
    check_begin_fight(encounter)
    if initiative not in INITIATIVES:
        raise InvalidCommand("initiative", f"must be one of {', '.join(INITIATIVES)}")
    if isinstance(readied, str) or not all(isinstance(pid, str) for pid in readied):
        raise InvalidCommand("readied", "a list of participant ids")
    for pid in readied:
        p = encounter.participant(pid)
        if not any(weapons.weapon(w["weapon"]).firearm for w in p.weapons):
            raise RuleBroken(f"{p.name} carries no firearm to have readied", FIREARMS_DEX)
    fighters = [p for p in encounter.participants.values() if not p.incapacitated]
    levels: dict[str, str] = {}
    rolls = []
    if initiative == "dex roll":
        for p in fighters:
            if p.dex is None:
                raise InvalidCommand("dex", f"{p.name} has no DEX to roll for initiative")
            # "a character with a readied firearm may roll their DEX with a bonus die"
            record = keeper_rolls.skill_roll(
                encounter, dice, f"initiative.{p.id}", p.id, p.id, "DEX roll for initiative", "DEX", p.dex, bonus=int(p.id in readied),
            )
            rolls.append(record)
            levels[p.id] = record["level"]
    effects = {pid: FIRST_ATTACK[level] for pid, level in levels.items() if level in FIRST_ATTACK}
    encounter.trigger_event(
        encounter_events.FightBegan, initiative=initiative, readied=sorted(set(readied)), initiative_levels=levels, first_attack=effects,
    )
    rounds.begin_round(encounter, 1)
    return {"initiative": initiative, "turn_order": list(encounter.turn_order), "initiative_levels": levels, "first_attack": effects, "rolls": rolls}


def check_begin_fight(encounter: FightingEncounter) -> None:
    """The guard of ``begin_fight``: in set-up, with two combatants able to act."""
    if encounter.phase == "ended":
        raise RuleBroken("the fight has ended", ORDER_OF_ATTACK)
    if encounter.phase != "setup":
        raise RuleBroken("the fight has already begun", ORDER_OF_ATTACK)
    if sum(1 for p in encounter.participants.values() if not p.incapacitated) < 2:
        raise RuleBroken("a fight takes at least two combatants able to act", ORDER_OF_ATTACK)


def combat_round(encounter: FightingEncounter, runners: list[Participant], aboard: list[Participant]) -> rounds.RoundPlan:
    """A combat round's plan: the order of attack and each combatant's actions.

    "On their turn in the DEX order (highest to lowest) each character may use their action";
    "some monsters are capable of multiple attacks in one round: these all take place on the
    monster's turn": a combatant's actions are its attacks a round. The DEX order ties go to the
    higher combat skill; a readied firearm shoots at DEX + 50; with the DEX-roll initiative the
    levels of success come first, then DEX, then combat skill, and the order stands for the whole
    fight. A fumbled DEX roll forgoes the first turn (round 1)."""
    fighters = runners + aboard
    first_round = encounter.round == 0  # planning round 1
    order = [p.id for p in sorted(fighters, key=lambda p: order_key(encounter, p)) if not (first_round and encounter.first_attack.get(p.id) == "forgo")]
    actions = {p.id: p.attacks_per_round for p in fighters}
    owed = {p.id: 0 for p in fighters}
    return order, actions, owed, min(p.mov for p in fighters)


def order_key(encounter: FightingEncounter, p: Participant, readied: bool | None = None, level: str | None = None) -> tuple[int, int, int, int]:
    """Where ``p`` stands in the order of attack: first the DEX roll's level (with that initiative),
    then DEX (+50 for a readied firearm, in DEX order), then the combat skill."""
    dex = encounter.dex_of(p)
    if encounter.initiative == "dex roll":
        rank = INITIATIVE_RANK.get(level or encounter.initiative_levels.get(p.id, "failure"), 0)
    else:
        rank, dex = 0, dex + (READIED_DEX if (p.id in encounter.readied if readied is None else readied) else 0)
    return (-rank, -dex, -rounds.combat_skill(encounter, p), p.joined)


def join_fight(encounter: FightingEncounter, participant_id: str, dice: RollSources, readied: bool = False) -> dict[str, Any]:
    """A combatant added during the fight joins it, entering the order of attack where the rules
    put them ("Dexterity and the Order of Attack"; with the DEX-roll initiative "they can make a
    DEX roll and be placed in the existing initiative order", "Rolling for Initiative"): this round
    if their place is still to come, otherwise from the next round."""
    p = check_join_fight(encounter, participant_id)
    if readied and not any(weapons.weapon(w["weapon"]).firearm for w in p.weapons):
        raise RuleBroken(f"{p.name} carries no firearm to have readied", FIREARMS_DEX)
    level, rolls = None, []
    if encounter.initiative == "dex roll":
        if p.dex is None:
            raise InvalidCommand("dex", f"{p.name} has no DEX to roll for initiative")
        record = keeper_rolls.skill_roll(encounter, dice, "initiative", p.id, p.id, "DEX roll for initiative, joining the fight", "DEX", p.dex, bonus=int(readied))
        rolls.append(record)
        level = record["level"]
    mine = order_key(encounter, p, readied, level)
    # Those in this round's order who go before the newcomer; at or before the one acting now, their place has passed.
    ahead = sum(1 for pid in encounter.turn_order if order_key(encounter, encounter.participants[pid]) < mine)
    order, actions = list(encounter.turn_order), 0
    # A fumbled DEX roll forgoes the first attack: they act from the next round.
    if ahead > encounter.turn_index and not p.incapacitated and FIRST_ATTACK.get(level or "") != "forgo":
        order.insert(ahead, p.id)
        actions = p.attacks_per_round
    encounter.trigger_event(
        encounter_events.JoinedFight, participant_id=p.id, readied=bool(readied), initiative_level=level,
        first_attack="bonus die" if FIRST_ATTACK.get(level or "") == "bonus die" else None, turn_order=order, actions=actions,
    )
    return {"acts_this_round": bool(actions), "turn_order": list(encounter.turn_order), "initiative_level": level, "rolls": rolls}


def ready_firearm(encounter: FightingEncounter, participant_id: str, dice: RollSources) -> dict[str, Any]:
    """A combatant draws a firearm during the fight: from the next round it shoots at DEX + 50; with
    the DEX-roll initiative, "If a character draws a firearm during the combat and has it readied at
    the start of a round, they may re-roll their DEX roll with a bonus die. If this results in a
    worse result than previously rolled, they may retain their previous place in the order"."""
    p = check_ready_firearm(encounter, participant_id)
    level, rolls = None, []
    if encounter.initiative == "dex roll":
        record = keeper_rolls.skill_roll(encounter, dice, "initiative", p.id, p.id, "DEX roll for initiative, a firearm drawn", "DEX", p.dex or 0, bonus=1)
        rolls.append(record)
        before = encounter.initiative_levels.get(p.id, "failure")
        level = record["level"] if INITIATIVE_RANK[record["level"]] > INITIATIVE_RANK[before] else before
    encounter.trigger_event(encounter_events.FirearmReadied, participant_id=p.id, initiative_level=level)
    return {"initiative_level": level, "rolls": rolls}


def flee(encounter: FightingEncounter, participant_id: str, escape_route: bool = True) -> dict[str, Any]:
    """"A character can use their action to flee melee combat on their turn in the order of combat,
    providing they have an escape route and are not physically restrained": ``escape_route`` is
    the Keeper's word (default: there is one)."""
    p = check_flee(encounter, participant_id)
    if not escape_route:
        raise RuleBroken(f"{p.name} has no escape route", ESCAPING)
    encounter.trigger_event(encounter_events.FledFight, participant_id=p.id)
    rounds.turn_goes_on(encounter, p)
    return {"fled": True, "rolls": []}


def check_join_fight(encounter: FightingEncounter, participant_id: str) -> Participant:
    """The guard of ``join_fight`` before the dice: a fight under way, a combatant standing by."""
    if encounter.phase != "running":
        raise RuleBroken("the fight is not in progress: combatants added before it begins are in it", ORDER_OF_ATTACK)
    p = encounter.participant(participant_id)
    if p.status != "ready":
        raise RuleBroken(f"{p.name} is already in the fight", ORDER_OF_ATTACK)
    return p


def check_ready_firearm(encounter: FightingEncounter, participant_id: str) -> Participant:
    """The guard of ``ready_firearm`` before the dice: in the fight, a firearm carried and not yet readied."""
    if encounter.phase != "running":
        raise RuleBroken("the fight is not in progress: name readied firearms when it begins", FIREARMS_DEX)
    p = encounter.participant(participant_id)
    if p.status != "in_chase":
        raise RuleBroken(f"{p.name} is not in the fight", ORDER_OF_ATTACK)
    if p.id in encounter.readied:
        raise RuleBroken(f"{p.name} already has a firearm readied", FIREARMS_DEX)
    if not any(weapons.weapon(w["weapon"]).firearm for w in p.weapons):
        raise RuleBroken(f"{p.name} carries no firearm to draw", FIREARMS_DEX)
    return p


def check_flee(encounter: FightingEncounter, participant_id: str) -> Participant:
    """The guard of ``flee`` before the Keeper's word on an escape route: on their turn, not held, not yet acted."""
    p = rounds.require_turn(encounter, participant_id)
    if p.held_by is not None:
        raise RuleBroken(f"{p.name} is held by {encounter.participants[p.held_by].name}: a maneuver of their own breaks out first (goal escape)", ESCAPING)
    if p.attacks_made:
        raise RuleBroken(f"{p.name} has already acted this turn: fleeing takes the action", ESCAPING)
    return p


def first_attack_dice(encounter: FightingEncounter, participant_id: str) -> int:
    """The bonus die a critical DEX roll gives the first attack ("Rolling for Initiative"), spent now."""
    if encounter.first_attack.get(participant_id) != "bonus die":
        return 0
    encounter.trigger_event(encounter_events.FirstAttackSpent, participant_id=participant_id, effect="bonus die")
    return 1

