"""Savage Worlds chases as one plug-in playing two systems that share their code: the Adventure
Edition's chase cards ("swade", swade-chases-reference.txt) and Deluxe's action cards ("swd",
swd-chases.txt). Commands, views, the values kept in snapshots, the roll check of `chase verify` and the
exact odds of its rolls."""
from __future__ import annotations

from application.plugins import GameSystem
from application.systems.savage_worlds.acting import crews
from application.systems.savage_worlds.analytics import GAME_COUNTS
from application.systems.savage_worlds import swade_track, swd_track
from application.systems.savage_worlds.permissions import CHASE
from application.systems.savage_worlds.commands import SAVAGE_CHASES, SavageWorldsCommands
from application.systems.savage_worlds.views import render_vehicles
from domain.rules.savage_worlds import affordances
from domain.rules.savage_worlds.conditions import Conditions
from domain.rules.savage_worlds.odds import roll_odds
from domain.rules.savage_worlds.participants import SavageParticipant
from domain.rules.savage_worlds.swade_aggregate import SwadeChase
from domain.rules.savage_worlds.swade_vehicles import VehicleState
from domain.rules.savage_worlds.swd_aggregate import SwdChase
from domain.rules.savage_worlds.verification import check_roll

PLUGIN = GameSystem(
    package="savage_worlds",
    title="Savage Worlds",
    chases=SAVAGE_CHASES,
    commands=SavageWorldsCommands,
    views={
        SwadeChase.SYSTEM: {"track": swade_track.render, "vehicles": render_vehicles},
        SwdChase.SYSTEM: {"track": swd_track.render, "vehicles": render_vehicles},
    },
    value_types={  # stable names: moving a class never breaks a snapshot
        "savage_worlds.Participant": SavageParticipant,
        "savage_worlds.Conditions": Conditions,
        "savage_worlds.VehicleState": VehicleState,
    },
    roll_checks=(check_roll,),
    roll_odds=(roll_odds,),  # trait (aces, Wild Die, raises, Critical Failure), damage and table rolls
    game_counts=GAME_COUNTS,
    affordances={SwadeChase.SYSTEM: affordances.legal_swade, SwdChase.SYSTEM: affordances.legal_swd},
    acting_for={SwadeChase.SYSTEM: crews, SwdChase.SYSTEM: crews},  # a player acts for the units they are in (acting.py)
    chase_now={SwadeChase.SYSTEM: CHASE["swade"], SwdChase.SYSTEM: CHASE["swd"]},  # a follow-up: its participant's or the GM's
)
