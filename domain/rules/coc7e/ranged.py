"""Firing several shots in a round: multiple handgun shots and automatic fire, the pure rules.

coc7e-combat.txt "Handguns, Multiple Shots (Penalty die)", "Automatic Fire" (volleys, bursts,
semi-automatic fire) and the weapon table's Key ("Uses per Round").
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from domain.rules.coc7e.errors import InvalidCommand, RuleBroken
from domain.rules.coc7e.percentile import DIFFICULTIES, MAX_BONUS_OR_PENALTY, meets

COMBAT = "coc7e-combat.txt"
MULTIPLE_SHOTS = f'{COMBAT} "Handguns, Multiple Shots (Penalty die)"'
AUTOMATIC_FIRE = f'{COMBAT} "Automatic Fire"'
MIN_VOLLEY = 3  # "Regardless of skill, a full auto volley is never fewer than 3 bullets."
MODES = ("single", "shots", "burst", "full auto")


def volley_size(skill_value: int) -> int:
    """"A volley is a number of bullets up to or equal to the firer's Submachine Gun (SMG) or
    Machine Gun (MG) skill divided by 10 and rounded down ... never fewer than 3 bullets"."""
    if isinstance(skill_value, bool) or not isinstance(skill_value, int) or skill_value < 0:
        raise InvalidCommand("skill", "a skill value is a whole number, 0 or more")
    return max(MIN_VOLLEY, skill_value // 10)


@dataclass(frozen=True)
class Volley:
    """One attack roll of several: its bullets, its dice and its difficulty."""

    index: int  # 0 for the first attack roll of the round
    target_id: str
    bullets: int
    bonus_dice: int
    penalty_dice: int
    difficulty: str | None  # None: raised past Critical, "impossible"


def volleys(
    targets: list[tuple[str, int]], size: int, *, bonus: int = 0, penalty: int = 0, difficulty: str = "regular",
    situation: Mapping[str, tuple[int, int, str]] | None = None,
) -> list[Volley]:
    """Split the bullets fired at each target into volleys of at most ``size`` (a fresh attack roll
    for each volley "or whenever they select a new target"), each after the first with one more
    penalty die (or one bonus die fewer); past two penalty dice, two and the difficulty one step
    higher ("from Normal to Hard, Hard to Extreme, Extreme to Critical, or Critical to impossible").
    ``situation``: a target's own (bonus, penalty, difficulty), "the usual rules for a firearms
    attack roll (set difficulty by range and then apply any modifiers)", instead of the common ones."""
    out: list[Volley] = []
    for target_id, bullets in targets:
        if isinstance(bullets, bool) or not isinstance(bullets, int) or bullets < 1:
            raise InvalidCommand("targets", "each target takes 1 or more bullets")
        t_bonus, t_penalty, t_difficulty = (situation or {}).get(target_id, (bonus, penalty, difficulty))
        if t_difficulty not in DIFFICULTIES:
            raise InvalidCommand("difficulty", f"must be one of {', '.join(DIFFICULTIES)}")
        while bullets:
            fired = min(size, bullets)
            bullets -= fired
            i = len(out)
            net = t_bonus - t_penalty - i
            steps = max(0, -MAX_BONUS_OR_PENALTY - net)
            net = max(net, -MAX_BONUS_OR_PENALTY)
            at = DIFFICULTIES.index(t_difficulty) + steps
            out.append(Volley(i, target_id, fired, max(net, 0), max(-net, 0), DIFFICULTIES[at] if at < len(DIFFICULTIES) else None))
    return out


def hits(bullets: int, level: str, difficulty: str | None) -> tuple[int, int]:
    """Bullets that hit and bullets that impale, of a volley's attack roll ("Resolving each attack
    roll"): a success, half (round down, at least one); an Extreme success all, the first half of
    them impaling -- but at Extreme difficulty "the best possible result is a successful hit"."""
    if difficulty is None or not meets(level, difficulty):
        return 0, 0
    half = max(1, bullets // 2)
    if level in ("extreme", "critical") and difficulty not in ("extreme", "critical"):
        return bullets, half
    return half, 0


def multiple_shots(shots: int, most: int) -> int:
    """Penalty dice on each of ``shots`` single shots in a round: none for one, one each for two or
    three ("When firing two or three shots in one round, roll for each shot individually, with all
    shots receiving one penalty die"); no more than the weapon's bracket allows."""
    if isinstance(shots, bool) or not isinstance(shots, int) or shots < 1:
        raise InvalidCommand("shots", "a whole number of shots, 1 or more")
    if shots > most:
        raise RuleBroken(f"this weapon fires at most {most} shot(s) a round", MULTIPLE_SHOTS)
    return 1 if shots > 1 else 0
