"""Call of Cthulhu 7e chases (coc7e-chases.txt) and fights without a chase (coc7e-combat.txt) as a plug-in: commands, views, the random hazards
job, the values kept in snapshots and the roll check of `chase verify`."""
from __future__ import annotations

from application.plugins import GameSystem
from application.systems.coc7e.analytics import GAME_COUNTS
from application.systems.coc7e import track, vehicles
from application.systems.coc7e.commands import Coc7eCommands
from application.systems.coc7e.permissions import CHASE
from application.systems.coc7e.hazards import JOB_KINDS
from domain.rules.coc7e import affordances
from domain.rules.coc7e.chase import Chase
from domain.rules.coc7e.encounter import Encounter
from domain.rules.coc7e.odds import attack_odds, roll_odds
from domain.rules.coc7e.optional_rules import NAMES
from domain.rules.coc7e.participants import Participant
from domain.rules.coc7e.verification import check_roll

PLUGIN = GameSystem(
    package="coc7e",
    title="Call of Cthulhu 7e",
    chases={Chase.SYSTEM: Chase, Encounter.SYSTEM: Encounter},  # a chase, and a fight without one
    commands=Coc7eCommands,
    views={kind: {"track": track.render, "vehicles": vehicles.render} for kind in (Chase.SYSTEM, Encounter.SYSTEM)},
    value_types={"coc7e.Participant": Participant},  # stable names: moving a class never breaks a snapshot
    roll_checks=(check_roll,),
    game_counts=GAME_COUNTS,
    job_kinds=JOB_KINDS,
    roll_odds=(roll_odds,),  # percentile, random hazards table and dice-expression rolls
    outcome_odds=(attack_odds,),  # who wins an attack
    affordances={Chase.SYSTEM: affordances.legal_actions, Encounter.SYSTEM: affordances.legal_fight_actions},
    chase_now={Chase.SYSTEM: CHASE},  # a sudden hazard: the Keeper's to place when their side won
    optional_rules=NAMES,  # part 5 of coc7e-chases.txt, switched per chase (optional_rules.py)
)
