"""Shaken, Distracted, Vulnerable and Fatigue as states of a participant.

swade-chases-reference.txt "COMBAT OPTIONS & SITUATIONAL RULES":
- Distracted: -2 to all Trait rolls until the end of the character's next turn.
- Vulnerable: actions against the character are made at +2 until the end of their next turn
  (does not stack with The Drop; Hold Steady's +2 does not stack with it either, "MANEUVERS").
- Fatigue: -1 to all actions, -2 if Exhausted; a third level is Incapacitation (core rules,
  "Fatigue": Fatigued, Exhausted, Incapacitated).
- Shaken: swd-chases.txt "Get an Action card" (-2 to the maneuver roll) and "Resolve Actions"
  (recover first); vehicles cannot be Shaken (swade-chases-reference.txt "DAMAGE").
- Stunned: "Victims are Distracted until they recover, fall prone, can't move or take actions
  ... and are subject to the Drop" (The Drop: +4 to attack and damage, not stacking with
  Vulnerable).
- Bound & Entangled: "Entangled characters can't move and are Distracted until free. Bound
  characters are also Vulnerable, and cannot take physical actions other than trying to break
  free."
- Prone: "Medium Cover from ranged attacks 3\" or greater; -2 Fighting and -2 Parry".

"Until the end of their next turn" is kept as a count of the character's own turn-ends still to
come: imposed outside the character's turn it lapses at the end of their next turn (1); imposed
during their own turn, "next" is the turn after this one (2). Applying a condition again keeps
the longer duration: these conditions do not stack.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from domain.rules.savage_worlds.errors import SWADE, whole

_OPTIONS = f"{SWADE} \"COMBAT OPTIONS & SITUATIONAL RULES\""
DISTRACTED_PENALTY = -2  # "Distracted"
VULNERABLE_BONUS = +2  # "Vulnerable"
FATIGUE_PENALTIES = (0, -1, -2)  # fresh, Fatigued, Exhausted ("Fatigue")
FATIGUE_LEVELS = ("fresh", "Fatigued", "Exhausted", "Incapacitated")
INCAPACITATED = 3
SETTABLE = ("shaken", "distracted", "vulnerable", "stunned", "bound", "entangled", "prone")
THE_DROP = +4  # "The Drop: +4 to attack and damage if target is defenseless"


@dataclass(frozen=True)
class Conditions:
    """What ails one participant; the durations count their own turn-ends still to come."""

    # 2: Stunned, Bound, Entangled and Prone (issue 17); schema 1 had none of them.
    class_version = 2

    shaken: bool = False
    distracted: int = 0
    vulnerable: int = 0
    fatigue: int = 0  # index into FATIGUE_LEVELS
    stunned: bool = False
    bound: bool = False
    entangled: bool = False
    prone: bool = False

    @staticmethod
    def upcast_v1_v2(state: dict) -> None:
        """Schema 1 knew no Stunned, Bound, Entangled or Prone: none of them."""
        for name in ("stunned", "bound", "entangled", "prone"):
            state.setdefault(name, False)

    @property
    def is_distracted(self) -> bool:
        """Distracted, or as if: Stunned, Bound or Entangled ("Distracted until ... free")."""
        return self.distracted > 0 or self.stunned or self.bound or self.entangled

    @property
    def is_vulnerable(self) -> bool:
        """Vulnerable, or Bound ("Bound characters are also Vulnerable")."""
        return self.vulnerable > 0 or self.bound

    @property
    def cannot_move(self) -> bool:
        """Stunned, Bound or Entangled: "can't move"."""
        return self.stunned or self.bound or self.entangled

    @property
    def cannot_act(self) -> bool:
        """Stunned ("can't ... take actions") or Bound (no physical action but breaking free)."""
        return self.stunned or self.bound

    @property
    def fatigue_level(self) -> str:
        return FATIGUE_LEVELS[self.fatigue]

    @property
    def incapacitated(self) -> bool:
        return self.fatigue >= INCAPACITATED

    def trait_modifier(self) -> int:
        """Penalty to this participant's trait rolls: Distracted and Fatigue (Shaken is not a
        trait penalty in SWADE; the SWD maneuver roll adds its own -2, swd_chase.py)."""
        fatigue = FATIGUE_PENALTIES[min(self.fatigue, len(FATIGUE_PENALTIES) - 1)]
        return (DISTRACTED_PENALTY if self.is_distracted else 0) + fatigue

    def against_modifier(self) -> int:
        """Bonus to actions against this participant: +2 while Vulnerable (or Bound); +4, the
        Drop, while Stunned (the two do not stack)."""
        if self.stunned:
            return THE_DROP
        return VULNERABLE_BONUS if self.is_vulnerable else 0

    def made_stunned(self) -> Conditions:
        """Stunned, and so fallen Prone."""
        return replace(self, stunned=True, prone=True)

    def made_distracted(self, during_own_turn: bool = False) -> Conditions:
        return replace(self, distracted=max(self.distracted, _turn_ends(during_own_turn)))

    def made_vulnerable(self, during_own_turn: bool = False) -> Conditions:
        return replace(self, vulnerable=max(self.vulnerable, _turn_ends(during_own_turn)))

    def made_shaken(self) -> Conditions:
        return replace(self, shaken=True)

    def recovered(self) -> Conditions:
        """No longer Shaken (a successful recovery roll, or a benny)."""
        return replace(self, shaken=False)

    def fatigued(self, levels: int = 1) -> Conditions:
        """One more level of Fatigue per ``levels``, to Incapacitated at most."""
        return replace(self, fatigue=min(INCAPACITATED, self.fatigue + whole("levels", levels, 0)))

    def end_of_turn(self) -> Conditions:
        """The character's turn ends: durations count down."""
        return replace(self, distracted=max(0, self.distracted - 1), vulnerable=max(0, self.vulnerable - 1))


def _turn_ends(during_own_turn: bool) -> int:
    return 2 if during_own_turn else 1
