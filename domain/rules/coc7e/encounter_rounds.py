"""Combat rounds without a chase: the order of attack, readied firearms, the optional DEX-roll
initiative, and each combatant's actions a round.

coc7e-combat.txt "Dexterity and the Order of Attack", "Actions in a Combat Round", "Firearms and
the DEX Order", "Rolling for Initiative". Attacks, maneuvers, fire and wounds are the chase's own
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

    def key(p: Participant) -> tuple[int, int, int, int]:
        dex = encounter.dex_of(p)
        if encounter.initiative == "dex roll":
            rank = INITIATIVE_RANK.get(encounter.initiative_levels.get(p.id, "failure"), 0)
        else:
            rank, dex = 0, dex + (READIED_DEX if p.id in encounter.readied else 0)
        return (-rank, -dex, -rounds.combat_skill(encounter, p), p.joined)

    first_round = encounter.round == 0  # planning round 1
    order = [p.id for p in sorted(fighters, key=key) if not (first_round and encounter.first_attack.get(p.id) == "forgo")]
    actions = {p.id: p.attacks_per_round for p in fighters}
    owed = {p.id: 0 for p in fighters}
    return order, actions, owed, min(p.mov for p in fighters)


def first_attack_dice(encounter: FightingEncounter, participant_id: str) -> int:
    """The bonus die a critical DEX roll gives the first attack ("Rolling for Initiative"), spent now."""
    if encounter.first_attack.get(participant_id) != "bonus die":
        return 0
    encounter.trigger_event(encounter_events.FirstAttackSpent, participant_id=participant_id, effect="bonus die")
    return 1

