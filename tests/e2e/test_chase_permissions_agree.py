"""Who may send each chase-level command is said once (application/permissions.py ``RECORD``, every
chase's, and each system's ``CHASE``), so what the track view's chase-level ``actions`` tell a
token and what the command does with that token's request cannot drift: on a chase of every rule
set, each kind of token (the Keeper's, a player's of participant A, of participant B, of no
participant, of one riding in A) sends every chase-level action the view lists, as the view
names it, with a valid body (a roll for a participant: one of the token's own); the action
marked refused for the token (the rule: the tokens') is the one the command refuses with 403,
and the one not so marked is not refused 403. So too where who may send a command turns on the
chase: a sudden hazard the Keeper's side won is theirs to place; a Savage Worlds follow-up is the
GM's (a Bump, the Action cards to deal) or its participant's player's."""
from __future__ import annotations

from typing import Any, Callable
from uuid import UUID

import pytest

from api.action_routes import TOKENS
from application.access import PLAYER
from application.permissions import RECORD
from application.systems.coc7e.permissions import CHASE as COC7E
from application.systems.d6.commands import CHASE_PERMISSIONS as D6
from application.systems.savage_worlds.permissions import CHASE as SAVAGE
from tests.conftest import BearerClient
from tests.e2e.coc7e_table import HARVEY
from tests.e2e.test_permissions_agree import CHASES, SAVAGE_B, SERVER

# A body each command takes (schema-valid: its permission is then what decides 403): ``own`` is a
# participant the token acts for (A for the Keeper and a player of no one), ``rival`` another;
# ``n`` makes what must be new each time new (a name, an idempotency key).
Body = Callable[[str, str, int], dict[str, Any]]
RECORD_BODIES: dict[str, Body] = {
    "undo": lambda own, rival, n: {"count": 1},
    "rewind": lambda own, rival, n: {"to_version": 1},  # the Keeper's: 428 without If-Match, never 403
    "redo": lambda own, rival, n: {},
    "request_undo": lambda own, rival, n: {"count": 1},
    "reveal_seed": lambda own, rival, n: {},
    "add_entropy": lambda own, rival, n: {"entropy": f"dice bag {n}"},
    "issue_token": lambda own, rival, n: {"participant_ids": [own]},
    "end_chase": lambda own, rival, n: {"outcome": "escaped"},
    "export": lambda own, rival, n: {},
}
COC7E_BODIES: dict[str, Body] = {
    "add_participant": lambda own, rival, n: {**HARVEY, "name": f"Newcomer {n}"},
    "cut_to_the_chase": lambda own, rival, n: {},
    "begin_fight": lambda own, rival, n: {},
    "skill_roll": lambda own, rival, n: {"skill": "Luck", "participant_id": own, "target": 50, **SERVER},
    "dice_roll": lambda own, rival, n: {"expression": "1D6", "participant_id": own, **SERVER},
    "place_obstacle": lambda own, rival, n: {"kind": "hazard", "between": [0, 1], "name": "Mud", "skills": ["Climb"]},
    "random_hazards": lambda own, rival, n: {"key": f"who may roll hazards {n}"},
    "place_fork": lambda own, rival, n: {"at": 1, "routes": ["High road", "Low road"]},
    "split": lambda own, rival, n: {"groups": [[rival]]},
    "call_sudden_hazard": lambda own, rival, n: {"called_by": "players", "target": 50},
    "place_sudden_hazard": lambda own, rival, n: {"between": [1, 2], "name": "Delivery truck", "skills": ["Drive Auto"]},
    "change_optional_rules": lambda own, rival, n: {"optional_rules": []},
}
D6_BODIES: dict[str, Body] = {
    "add_participant": lambda own, rival, n: {"name": f"Cy {n}", "role": "quarry", "move": 10, "physique": "3D"},
    "begin": lambda own, rival, n: {},
    "skill_roll": lambda own, rival, n: {"participant_id": own, "skill": "running", **SERVER},
    "end_round": lambda own, rival, n: {},
}
SAVAGE_BODIES: dict[str, Body] = {
    "add_participant": lambda own, rival, n: {**SAVAGE_B, "name": f"Cy {n}"},
    "resolve": lambda own, rival, n: {**SERVER},
    "trait_roll": lambda own, rival, n: {"participant_id": own, "trait_die": "d6", **SERVER},
    "damage_roll": lambda own, rival, n: {"target_id": rival, "expression": "2d6", "roller_id": own, **SERVER},
    "breaking_things": lambda own, rival, n: {"roller_id": own, "object": "door", "hardness": 8, "expression": "2d6", **SERVER},
    "action_cards": lambda own, rival, n: {},
}
BODIES = {
    "coc7e": COC7E_BODIES, "coc7e-combat": {**COC7E_BODIES, "end_chase": lambda own, rival, n: {"outcome": "fled"}}, "d6": D6_BODIES,
    "swade": {**SAVAGE_BODIES, "begin": lambda own, rival, n: {"mode": "foot", "placements": {own: 0, rival: 1}}},
    "swd": {**SAVAGE_BODIES, "begin": lambda own, rival, n: {}},
}
TABLES = {"coc7e": COC7E, "coc7e-combat": COC7E, "d6": D6, "swade": SAVAGE["swade"], "swd": SAVAGE["swd"]}
LAST = ("reveal_seed", "end_chase")  # sent last, as the chase's last words to each token


# A state the chase is put in first, where who may send a command turns on it: (ledger, the
# Keeper's client, the chase, its participants) -> None.
State = Callable[[Any, BearerClient, str, list[str]], None]


def verdicts(client: Any, ledger: Any, system: str, state: State | None = None) -> tuple[dict[tuple[str, str], tuple[bool, int]], dict[tuple[str, str], Any]]:
    """Each (chase-level action, token kind) -> (the view says refused for the token, the command's
    status); and each answered 422, its problem."""
    keeper, chase_id, (a, b, *riders) = CHASES[system][0](client)
    if state is not None:
        state(ledger, keeper, chase_id, [a, b, *riders])
    tokens = {  # the Keeper's last: their commands change the chase (each is undone after)
        "player of A": (ledger.access.issue(chase_id, PLAYER, [a]), a, b),
        "player of B": (ledger.access.issue(chase_id, PLAYER, [b]), b, a),
        "player of no one": (ledger.access.issue(chase_id, PLAYER, []), a, b),
        **{"player riding in A": (ledger.access.issue(chase_id, PLAYER, riders), riders[0], b) for _ in riders[:1]},
        "keeper": (keeper.token, a, b),
    }
    bodies = {**RECORD_BODIES, **BODIES[system]}
    found, unread = {}, {}
    for n, (kind, (token, own, rival)) in enumerate(tokens.items()):
        asker = BearerClient(client, token)
        listed = asker.get(f"/chases/{chase_id}/track").get_json()["chase"]["actions"]
        for action in sorted(listed, key=lambda action: action["action"] in LAST):
            # The tokens' refusal is said before the rules' (api/affordances.py): it is what this reads.
            refused = not action["allowed"] and action["rule"] == TOKENS
            before = keeper.get(f"/chases/{chase_id}/track").get_json()["chase"]["actions_counted"]
            body = bodies[action["action"]](own, rival, n)
            answer = asker.client.open(action["href"], method=action["method"], json=body if action["method"] != "GET" else None,
                                       headers={"Authorization": f"Bearer {token}"})
            found[action["action"], kind] = (refused, answer.status_code)
            if answer.status_code == 422:
                unread[action["action"], kind] = answer.get_json()
            # Back as it was, for the next try (entropy, tokens and the seed are no actions to undo).
            after = keeper.get(f"/chases/{chase_id}/track").get_json()["chase"]["actions_counted"]
            if after != before:
                back = keeper.post(f"/chases/{chase_id}/undo", json={"count": 1}) if after > before else keeper.post(f"/chases/{chase_id}/redo", json={})
                assert back.status_code == 200, (action["action"], back.get_json())
    return found, unread


@pytest.mark.parametrize("system", list(CHASES))
def test_the_view_refuses_a_token_exactly_the_chase_level_commands_that_refuse_it(client, ledger, system):
    found, unread = verdicts(client, ledger, system)

    # Every body was read (refused by the schema, a request is answered before its permission is looked at).
    assert not {key: problem for key, problem in unread.items() if problem["detail"].startswith("invalid fields")}
    # The view's verdict on the token's grounds is the command's: refused there, 403 here.
    disagree = {key: verdict for key, verdict in found.items() if verdict[0] != (verdict[1] == 403)}
    assert not disagree, disagree
    # And it is the tables': the Keeper is refused nothing; a player with participants only the
    # Keeper's commands; a player bound to no participant also every roll, which names one of theirs.
    table = {**RECORD, **TABLES[system]}
    tried = {action for action, _ in found}
    assert tried <= set(table)
    assert not any(found[a, "keeper"][0] for a in tried)
    for kind in ("player of A", "player of B"):
        assert {a for a in tried if found[a, kind][0]} == {a for a in tried if table[a].who == "keeper"}
    assert {a for a in tried if found[a, "player of no one"][0]} == {a for a in tried if table[a].who in ("keeper", "player")}


def listed(client: Any, system: str) -> set[str]:
    """The chase-level actions the Keeper's view lists for a chase the test above makes."""
    keeper, chase_id, _ = CHASES[system][0](client)
    return {a["action"] for a in keeper.get(f"/chases/{chase_id}/track").get_json()["chase"]["actions"]}


def test_the_test_above_tries_every_chase_level_action_of_the_view(client):
    # Every action of the record is listed for every chase, with each system's own; the test
    # above has a body for each (Call of Cthulhu's chase and fight between them list all of theirs).
    from api.action_routes import RECORD as RECORD_ROUTES
    from api.systems.coc7e.actions import CHASE as COC7E_ROUTES
    from api.systems.d6 import ACTION_ROUTES as D6_ACTION_ROUTES

    D6_ROUTES = D6_ACTION_ROUTES["d6"][1]
    from api.systems.savage_worlds.actions import ACTION_ROUTES as SAVAGE_ROUTES

    assert listed(client, "coc7e") | listed(client, "coc7e-combat") == set(COC7E_ROUTES) | set(RECORD_ROUTES) == set(COC7E_BODIES) | set(RECORD_BODIES)
    assert listed(client, "d6") == set(D6_ROUTES) | set(RECORD_ROUTES) == set(D6_BODIES) | set(RECORD_BODIES)
    for system in ("swade", "swd"):
        assert listed(client, system) == set(SAVAGE_ROUTES[system][1]) | set(RECORD_ROUTES) <= set(BODIES[system]) | set(RECORD_BODIES), system


def keepers_side_won_the_call(ledger: Any, keeper: BearerClient, chase_id: str, ids: list[str]) -> None:
    # The group Luck roll failed (99 against 50): "a sudden hazard for the investigators, presented by the Keeper".
    for pid in ids:
        rolled = keeper.post(f"/chases/{chase_id}/participants/{pid}/speed-roll", json={**SERVER})
        assert rolled.status_code == 200, rolled.get_json()
    cut = keeper.post(f"/chases/{chase_id}/cut-to-the-chase", json={})
    assert cut.status_code == 200, cut.get_json()
    called = keeper.post(f"/chases/{chase_id}/sudden-hazards", json={"called_by": "players", "target": 50, "rolls": {"luck": [90, 9]}})
    assert called.status_code == 200, called.get_json()


def begun_waiting_on(system: str, kind: str, whose: int) -> State:
    """A Savage Worlds chase begun, waiting on a follow-up of ``kind`` for the participant
    ``whose`` (its index: 0 is A, 1 is B), as the rules would require it."""
    def state(ledger: Any, keeper: BearerClient, chase_id: str, ids: list[str]) -> None:
        body = {"mode": "foot", "placements": {ids[0]: 0, ids[1]: 1}} if system == "swade" else {}
        begun = keeper.post(f"/chases/{chase_id}/{system}/begin", json=body)
        assert begun.status_code == 200, begun.get_json()
        ledger.runner.run(UUID(chase_id), lambda c: c.require(kind, ids[whose], rule="a test's"))
    return state


# (system, state) -> the state, the action and the token kinds refused it there (a rider only in Savage Worlds' chases)
STATES = {
    ("coc7e", "the Keeper's side won a sudden hazard's call"): (keepers_side_won_the_call, "place_sudden_hazard", {"player of A", "player of B", "player of no one"}),
    ("swade", "a Bump: the GM's"): (begun_waiting_on("swade", "bump", 0), "resolve", {"player of A", "player of B", "player of no one", "player riding in A"}),
    ("swade", "B's injury roll"): (begun_waiting_on("swade", "injury", 1), "resolve", {"player of A", "player of no one", "player riding in A"}),
    ("swd", "the Action cards to deal: the GM's"): (begun_waiting_on("swd", "deal action cards", 0), "resolve", {"player of A", "player of B", "player of no one", "player riding in A"}),
    ("swd", "B's injury roll"): (begun_waiting_on("swd", "injury", 1), "resolve", {"player of A", "player of no one", "player riding in A"}),
}


@pytest.mark.parametrize("system, named", list(STATES), ids=[f"{system}: {named}" for system, named in STATES])
def test_where_who_may_act_turns_on_the_chase_the_view_still_says_what_the_command_answers(client, ledger, system, named):
    state, action, refused = STATES[system, named]
    found, unread = verdicts(client, ledger, system, state)

    assert not {key: problem for key, problem in unread.items() if problem["detail"].startswith("invalid fields")}
    disagree = {key: verdict for key, verdict in found.items() if verdict[0] != (verdict[1] == 403)}
    assert not disagree, disagree
    # The command is the Keeper's, or its participant's player's, now: so the view says.
    assert {kind for (a, kind), verdict in found.items() if a == action and verdict[0]} == refused
