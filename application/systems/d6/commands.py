"""The commands of D6 races and chases, each declared once (application/declared.py): where it is
sent, its typed input and outcome (inputs.py), its rolls, who may send it, the guard that says
whether it may be sent now, and its handler, which runs the aggregate's procedure
(domain/rules/d6/). Routes, schemas, permissions and what the track view says may be done are
derived from these (docs/commands.md)."""
from __future__ import annotations

from uuid import uuid4

from application.access import KEEPER
from application.declared import CHASE, PARTICIPANT, Acting, Command, judges, permissions
from application.permissions import PLAYER
from application.systems.d6.inputs import (
    ROLL, D6Begin, D6FatigueLimit, D6FatigueRoll, D6Move, D6ParticipantCreate, D6SkillRoll, FatigueOvercome, Moved, ParticipantAdded, RoundOver,
    Caught, FatigueNow, SkillTotal,
)
from domain.affordances import record_actions
from domain.rules.d6 import fatigue, rolls, rounds
from domain.rules.d6.chase import SET_UP, D6Chase

SYSTEMS = (D6Chase.SYSTEM,)


def add_participant(chase: D6Chase, given: D6ParticipantCreate, acting: Acting) -> ParticipantAdded:
    participant_id = str(uuid4())
    spec = {
        "name": given.name, "role": given.role, "move": given.move, "physique": given.physique, "flying_move": given.flying_move,
        "skills": dict(given.skills), "fatigue_limit": given.fatigue_limit, "position": given.position,
    }
    chase.add_participant(participant_id, spec)
    return ParticipantAdded(participant_id)


def begin(chase: D6Chase, given: D6Begin, acting: Acting) -> None:
    chase.begin(
        finish=given.finish, terrain=[s.as_course() for s in given.terrain], wild_die_one=given.wild_die_one,
        acceleration=given.acceleration, speed_limit=given.speed_limit,
    )


def move(chase: D6Chase, given: D6Move, acting: Acting) -> Moved:
    metres = chase.move(
        acting.dice(), acting.participant, given.movement, given.rate, modifier=given.modifier, on_failure=given.on_failure,
        wild_die_one=given.wild_die_one, running_start=given.running_start,
    )
    return Moved(metres)


def fatigue_roll(chase: D6Chase, given: D6FatigueRoll, acting: Acting) -> FatigueOvercome:
    return FatigueOvercome(chase.fatigue_roll(acting.dice(), acting.participant, given.skill, modifier=given.modifier, one=given.wild_die_one))


def set_fatigue_limit(chase: D6Chase, given: D6FatigueLimit, acting: Acting) -> FatigueNow:
    return FatigueNow(given.fatigue_limit, chase.set_fatigue_limit(acting.participant, given.fatigue_limit))


def skill_roll(chase: D6Chase, given: D6SkillRoll, acting: Acting) -> SkillTotal:
    total = chase.skill_roll(
        acting.dice(), given.participant_id, code=given.code, skill=given.skill, difficulty=given.difficulty, purpose=given.purpose,
        one=given.wild_die_one,
    )
    return SkillTotal(total)


def end_round(chase: D6Chase, given: None, acting: Acting) -> RoundOver:
    ended = chase.end_round()
    return RoundOver(tuple(Caught(**c) for c in ended["caught"]), tuple(ended["escaped"]), tuple(ended["finished"]))


def _running(chase: D6Chase, pid: str | None) -> None:
    chase.require_running()


def _in_chase(chase: D6Chase, pid: str | None) -> None:
    chase.require_running()
    chase.require_in_chase(str(pid))


COMMANDS: tuple[Command, ...] = (  # type: ignore[type-arg]
    Command(
        "add_participant", CHASE, SYSTEMS, "/d6/participants", KEEPER, "add participants", add_participant,
        lambda chase, pid: chase.check_add_participant(), D6ParticipantCreate, ParticipantAdded, creates="participant_id",
        summary="Add a pursuer, quarry or racer: Move (and flying Move), dice, position in metres, fatigue limit.",
    ),
    Command(
        "begin", CHASE, SYSTEMS, "/d6/begin", KEEPER, "begin the chase", begin, lambda chase, pid: rounds.check_begin(chase), D6Begin,
        summary="Set-up: the finish, terrain by stretch, the Wild Die's 1, the optional limits; round 1 begins.",
    ),
    Command(
        "move", PARTICIPANT, SYSTEMS, "/d6/participants/{participant_id}/move", PLAYER, "move", move, _in_chase, D6Move, Moved, (ROLL,),
        summary="A movement action: running, swimming, climbing, flying or leaping at a declared rate.",
    ),
    Command(
        "fatigue_roll", PARTICIPANT, SYSTEMS, "/d6/participants/{participant_id}/fatigue-roll", PLAYER, "roll against fatigue", fatigue_roll,
        lambda chase, pid: rolls.check_fatigue_roll(chase, str(pid)), D6FatigueRoll, FatigueOvercome, (ROLL,),
        summary="Stamina or willpower against 5 plus the fatigue modifier, to overcome fatigue.",
    ),
    Command(
        "set_fatigue_limit", PARTICIPANT, SYSTEMS, "/d6/participants/{participant_id}/fatigue-limit", KEEPER, "set fatigue limits",
        set_fatigue_limit, lambda chase, pid: fatigue.check_fatigue_limit(chase, str(pid)), D6FatigueLimit, FatigueNow,
        summary="The GM sets or changes a participant's fatigue limit: rounds of fast movement before the fatigue modifier.",
    ),
    Command(
        "skill_roll", CHASE, SYSTEMS, "/d6/skill-rolls", PLAYER, "roll", skill_roll, _running, D6SkillRoll, SkillTotal, (ROLL,),
        acting="participant_id",
        summary="Any roll the GM calls for: a participant's skill or Physique, or a die code; against a difficulty or not.",
    ),
    Command(
        "end_round", CHASE, SYSTEMS, "/d6/end-round", KEEPER, "end the round", end_round, _running, None, RoundOver,
        summary="The GM ends the round: pursuers who reached a quarry catch up, the finish; the next round begins.",
    ),
)

# Derived from the declarations: who may send each (the tests and the track view's routes read
# these), and what may be done now (the record's commands besides: domain/affordances.py).
PARTICIPANT_PERMISSIONS = permissions(COMMANDS, D6Chase.SYSTEM, PARTICIPANT)
CHASE_PERMISSIONS = permissions(COMMANDS, D6Chase.SYSTEM, CHASE)
legal_actions = judges(COMMANDS, D6Chase.SYSTEM, lambda chase: record_actions(chase, SET_UP))
