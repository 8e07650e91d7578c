"""The fields only the Keeper (GM) may send are declared once, in the tables of permissions
(application/permissions.py ``KeeperOnly``), and refused in one place: a player who sends one, for
a participant of theirs, is refused 403 in the table's words, the problem naming the field; the
Keeper sending the same request is not refused. Every such field of every table is tried."""
from __future__ import annotations

from typing import Any, Callable

import pytest

from api.systems.coc7e.actions import ACTION_ROUTES as COC7E_ROUTES
from api.systems.d6 import ACTION_ROUTES as D6_ROUTES
from api.systems.savage_worlds.actions import ACTION_ROUTES as SAVAGE_ROUTES
from application.access import PLAYER
from application.systems.coc7e.permissions import CHASE as COC7E_CHASE, PARTICIPANT as COC7E
from application.systems.d6.commands import CHASE_PERMISSIONS as D6_CHASE, PARTICIPANT_PERMISSIONS as D6
from application.systems.savage_worlds.permissions import CHASE as SAVAGE_CHASE, PARTICIPANT as SAVAGE
from tests.conftest import BearerClient
from tests.e2e.test_permissions_agree import CHASES, GUN, SERVER

# (system, action, field) -> the request's body with the field sent, for the player's participant
# ``own`` against ``rival`` (everything else as a player may send it).
Body = Callable[[str, str], dict[str, Any]]
AFTERMATH = {"aftermath": {"accident": True}}
SENT: dict[tuple[str, str, str], Body] = {
    ("d6", "move", "modifier"): lambda own, rival: {"movement": "running", "rate": 10, "modifier": 2, **SERVER},
    ("d6", "move", "on_failure"): lambda own, rival: {"movement": "running", "rate": 10, "on_failure": "trip", **SERVER},
    ("d6", "move", "wild_die_one"): lambda own, rival: {"movement": "running", "rate": 10, "wild_die_one": "complication", **SERVER},
    ("d6", "fatigue_roll", "modifier"): lambda own, rival: {"modifier": 2, **SERVER},
    ("d6", "fatigue_roll", "wild_die_one"): lambda own, rival: {"wild_die_one": "no_effect", **SERVER},
    ("d6", "skill_roll", "participant_id"): lambda own, rival: {"code": "3D", **SERVER},
    ("d6", "skill_roll", "wild_die_one"): lambda own, rival: {"participant_id": own, "skill": "running", "wild_die_one": "remove", **SERVER},
    ("coc7e", "negotiate", "keeper_accepts_skill"): lambda own, rival: {"keeper_accepts_skill": True, "skill": "Swim"},
    ("coc7e", "break_barrier", "debris"): lambda own, rival: {"debris": {"name": "Splinters", "skills": ["Jump"]}},
    ("coc7e", "break_barrier", "aftermath"): lambda own, rival: {**AFTERMATH},
    ("coc7e", "attack", "aftermath"): lambda own, rival: {"target_id": rival, "response": "fight back", **AFTERMATH},
    ("coc7e", "fire", "aftermath"): lambda own, rival: {"weapon": GUN, "target_id": rival, **AFTERMATH},
    ("coc7e", "attack_on_the_move", "aftermath"): lambda own, rival: {"target_id": rival, "response": "fight back", **AFTERMATH},
    ("coc7e", "fire_on_the_move", "aftermath"): lambda own, rival: {"weapon": GUN, "target_id": rival, **AFTERMATH},
    ("coc7e", "create_hazard", "obstacle"): lambda own, rival: {"action": "upend stall", "obstacle": {"name": "Apples", "kind": "hazard"}},
    ("coc7e", "skill_roll", "participant_id"): lambda own, rival: {"skill": "Luck", "target": 50, **SERVER},
    ("coc7e", "dice_roll", "participant_id"): lambda own, rival: {"expression": "1D6", **SERVER},
    ("coc7e", "call_sudden_hazard", "called_by"): lambda own, rival: {"called_by": "keeper", "target": 50},
    ("coc7e", "call_sudden_hazard", "difficulty"): lambda own, rival: {"called_by": "players", "target": 50, "difficulty": "hard"},
    ("swade", "new_action_card", "card"): lambda own, rival: {"card": "QH"},
    ("swd", "maneuver", "cards"): lambda own, rival: {"cards": ["QH", "2C"], **SERVER},
    ("swade", "damage_roll", "roller_id"): lambda own, rival: {"target_id": rival, "expression": "2d6", **SERVER},
    ("swade", "breaking_things", "roller_id"): lambda own, rival: {"object": "door", "hardness": 8, "expression": "2d6", **SERVER},
    ("swd", "damage_roll", "roller_id"): lambda own, rival: {"target_id": rival, "expression": "2d6", **SERVER},
    ("swd", "breaking_things", "roller_id"): lambda own, rival: {"object": "door", "hardness": 8, "expression": "2d6", **SERVER},
}
TABLES = {  # system -> its tables (participant's, chase's) and its routes
    "coc7e": (COC7E, COC7E_CHASE, COC7E_ROUTES["coc7e"]),
    "d6": (D6, D6_CHASE, D6_ROUTES["d6"]),
    "swade": (SAVAGE["swade"], SAVAGE_CHASE["swade"], SAVAGE_ROUTES["swade"]),
    "swd": (SAVAGE["swd"], SAVAGE_CHASE["swd"], SAVAGE_ROUTES["swd"]),
}


def declared() -> set[tuple[str, str, str]]:
    """Every Keeper-only field of every table the view routes, as (system, action, field)."""
    found = set()
    for system, (participant, chase, routes) in TABLES.items():
        for table, routed in ((participant, routes[0]), (chase, routes[1])):
            found |= {(system, action, name) for action, permission in table.items() if action in routed for name in permission.keeper_only}
    return found


def test_every_field_only_the_keeper_may_send_is_tried_below():
    assert set(SENT) == declared()


@pytest.mark.parametrize("system", list(TABLES))
def test_a_player_sending_a_field_only_the_keeper_may_send_is_refused_naming_it(client, ledger, system):
    keeper, chase_id, (own, rival, *_) = CHASES[system][0](client)
    player = BearerClient(client, ledger.access.issue(chase_id, PLAYER, [own]))
    participant, chase, routes = TABLES[system]
    for (of, action, name), body in SENT.items():
        if of != system:
            continue
        route = routes[0].get(action) or routes[1][action]
        href = f"/chases/{chase_id}" + route.path.replace("{participant_id}", own)
        refused = player.client.open(href, method=route.method, json=body(own, rival), headers={"Authorization": f"Bearer {player.token}"})
        problem = refused.get_json()
        # Refused in the table's words, the problem naming the field.
        what = (participant.get(action) or chase[action]).keeper_only[name].what
        assert (refused.status_code, problem["detail"]) == (403, f"only the Keeper may {what}"), (action, name, problem)
        assert problem["errors"] == [{"field": name, "message": f"only the Keeper may {what}"}]
        # The Keeper's same request is not refused for who sends it (the rules may refuse it).
        answered = keeper.client.open(href, method=route.method, json=body(own, rival), headers={"Authorization": f"Bearer {keeper.token}"})
        assert answered.status_code != 403, (action, name, answered.get_json())
        assert not (answered.status_code == 422 and answered.get_json()["detail"].startswith("invalid fields")), (action, name, answered.get_json())


@pytest.mark.parametrize("system", list(TABLES))
def test_a_player_sending_such_a_field_for_another_players_participant_is_refused_as_not_theirs_first(client, ledger, system):
    # The more basic refusal comes first: whatever the request holds, the participant is not theirs.
    keeper, chase_id, (own, rival, *_) = CHASES[system][0](client)
    player = BearerClient(client, ledger.access.issue(chase_id, PLAYER, [own]))
    participant, _, routes = TABLES[system]
    tried = 0
    for (of, action, name), body in SENT.items():
        if of != system or action not in routes[0]:
            continue
        route = routes[0][action]
        href = f"/chases/{chase_id}" + route.path.replace("{participant_id}", rival)
        refused = player.client.open(href, method=route.method, json=body(rival, own), headers={"Authorization": f"Bearer {player.token}"})
        problem = refused.get_json()
        assert (refused.status_code, problem["detail"]) == (403, f"a player may {participant[action].what} only for their own participants"), (action, name, problem)
        assert "errors" not in problem, (action, name, problem)
        tried += 1
    assert tried
