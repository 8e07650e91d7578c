"""D6 System races and chases as a plug-in (d6-movement.txt): its declared commands, views, the value kept in
snapshots, the roll check of `chase verify` and the exact odds of a roll."""
from __future__ import annotations

from application.plugins import GameSystem
from application.systems.d6 import track
from application.systems.d6.analytics import GAME_COUNTS
from application.systems.d6.commands import COMMANDS, legal_actions
from domain.rules.d6.chase import D6Chase
from domain.rules.d6.odds import roll_odds
from domain.rules.d6.participants import D6Participant
from domain.rules.d6.verification import check_roll

PLUGIN = GameSystem(
    package="d6",
    title="D6 System",
    chases={D6Chase.SYSTEM: D6Chase},
    commands=None,
    views={D6Chase.SYSTEM: {"track": track.render, "vehicles": track.render_vehicles}},
    value_types={"d6.Participant": D6Participant},  # a stable name: moving the class never breaks a snapshot
    roll_checks=(check_roll,),
    roll_odds=(roll_odds,),
    game_counts=GAME_COUNTS,
    affordances={D6Chase.SYSTEM: legal_actions},
    declared=COMMANDS,
    about="D6 System races and chases (d6-movement.txt): movement by difficulty, positions in metres, rounds",
)
