"""Who may send each participant-level command is said once (application/permissions.py and each
system's table), so what the track view's ``actions`` tell a token and what the command does
with that token's request cannot drift: for every system, every participant-level action of its
table and each kind of token (the Keeper's, the participant's own player's, another player's, a
player's bound to no participant), the action marked refused for the token (the rule: the
tokens') is the one the command refuses with 403, and the one not so marked is not refused 403."""
from __future__ import annotations

from typing import Any, Callable

import pytest

from api.action_routes import TOKENS
from application.access import PLAYER
from application.systems.coc7e.permissions import PARTICIPANT as COC7E
from application.systems.d6.commands import PARTICIPANT_PERMISSIONS as D6
from application.systems.savage_worlds.permissions import PARTICIPANT as SAVAGE
from domain.rules.coc7e.optional_rules import NAMES as OPTIONAL_RULES
from tests.conftest import BearerClient
from tests.e2e.affordance_checks import expanded
from tests.e2e.coc7e_table import FARMER, HARVEY

GUN = "12-gauge Shotgun (2B)"
SERVER = {"dice": "server"}
# A body each command takes (schema-valid: its permission is then what decides 403), for the
# participant ``me`` against ``rival``; ``healer``: the token's own participant, None if none.
Body = Callable[[str, str, "str | None"], dict[str, Any]]
COC7E_BODIES: dict[str, Body] = {
    **dict.fromkeys(("speed_roll", "delay", "end_turn", "negotiate", "break_barrier", "consequences", "dying_roll", "ready_firearm", "flee",
                     "leave", "alight", "navigate", "keep_control", "fly_over", "hide"), lambda me, rival, healer: {}),
    "move": lambda me, rival, healer: {"locations": 1},
    "attack": lambda me, rival, healer: {"target_id": rival, "response": "fight back"},
    "attack_on_the_move": lambda me, rival, healer: {"target_id": rival, "response": "fight back"},
    "fire": lambda me, rival, healer: {"weapon": GUN, "target_id": rival},
    "fire_on_the_move": lambda me, rival, healer: {"weapon": GUN, "target_id": rival},
    "aim": lambda me, rival, healer: {"weapon": GUN, "target_id": rival},
    "reload": lambda me, rival, healer: {"weapon": GUN},
    "mishap_roll": lambda me, rival, healer: {"skill": "DEX"},
    "damage": lambda me, rival, healer: {"amount": 1},
    "first_aid": lambda me, rival, healer: {"target": 50, **({"healer_id": healer} if healer else {})},
    "medicine": lambda me, rival, healer: {"target": 50, **({"healer_id": healer} if healer else {})},
    "recovery": lambda me, rival, healer: {"days": 1},
    "condition": lambda me, rival, healer: {"standing": True},
    "join_fight": lambda me, rival, healer: {"participant_id": me},
    "choose_route": lambda me, rival, healer: {"route": "High road"},
    "join": lambda me, rival, healer: {"location": 0, "keep_if_slower": True},
    "switch_mode": lambda me, rival, healer: {"mode": "swimming"},
    "board": lambda me, rival, healer: {"vehicle_id": rival},
    "substitute_skill": lambda me, rival, healer: {"skill": "Stealth", "aptitude": "half", "characteristic": "DEX"},
    "accelerate": lambda me, rival, healer: {"locations": 2},
    "visibility": lambda me, rival, healer: {"locations": 1},
    "shoot_tire": lambda me, rival, healer: {"vehicle_id": rival, "weapon": GUN},
    "create_hazard": lambda me, rival, healer: {"action": "upend stall"},
    "follow_trail": lambda me, rival, healer: {"quarry_id": rival, "target": 50},
}
SAVAGE_BODIES: dict[str, Body] = {
    **dict.fromkeys(("end_turn", "hold", "drop_back", "evade", "hold_steady"), lambda me, rival, healer: {}),
    **dict.fromkeys(("benny_reroll", "cooperate", "maneuver", "flee", "recover"), lambda me, rival, healer: {**SERVER}),
    "act_from_hold": lambda me, rival, healer: {**SERVER},
    "new_action_card": lambda me, rival, healer: {},
    "conditions": lambda me, rival, healer: {"shaken": True},
    "bennies": lambda me, rival, healer: {"change": 1},
    "benny_soak": lambda me, rival, healer: {"trait_die": "d6", **SERVER},
    "test": lambda me, rival, healer: {"target_id": rival, "trait_die": "d6", "resist_die": "d6", **SERVER},
    "recover_from_stunned": lambda me, rival, healer: {"trait_die": "d6", **SERVER},
    "break_free": lambda me, rival, healer: {"trait_die": "d6", **SERVER},
    "change_position": lambda me, rival, healer: {"direction": 1, **SERVER},
    "force": lambda me, rival, healer: {"target_id": rival, "direction": 1, **SERVER},
    "ram": lambda me, rival, healer: {"target_id": rival, **SERVER},
    "attack": lambda me, rival, healer: {"target_id": rival, "trait_die": "d6", **SERVER},
}
D6_BODIES: dict[str, Body] = {
    "move": lambda me, rival, healer: {"movement": "running", "rate": 10, **SERVER},
    "fatigue_roll": lambda me, rival, healer: {**SERVER},
    "set_fatigue_limit": lambda me, rival, healer: {"fatigue_limit": 2},
}


def _chase(client: Any, system: str, add: str, a: dict[str, Any], b: dict[str, Any], rider: dict[str, Any] | None = None,
           **create: Any) -> tuple[BearerClient, str, list[str]]:
    """A chase of ``system`` (server dice) with participants ``a`` and ``b`` and, if given, one
    riding in ``a`` (a unit); the Keeper's client, the chase and the participants' ids."""
    keeper = BearerClient(client)
    made = keeper.post("/chases", json={"name": f"Who may ({system})", "system": system, "dice": "server", **create})
    assert made.status_code == 201, made.get_json()
    keeper.token = made.get_json()["keeper_token"]
    chase_id = made.get_json()["chase"]["chase_id"]
    ids = []
    for spec in (a, b, *([rider] if rider else [])):
        added = keeper.post(f"/chases/{chase_id}{add}", json={**spec, "with_id": ids[0]} if spec is rider else spec)
        assert added.status_code == 201, added.get_json()
        ids.append(added.get_json()["participant_id"])
    return keeper, chase_id, ids


SAVAGE_A = {"name": "Sedan", "kind": "vehicle", "role": "quarry", "toughness": 10, "top_speed": 60}
SAVAGE_RIDER = {"name": "Dan", "seat": "driver", "maneuver_die": "d8"}  # drives the Sedan: its player acts for the unit
SAVAGE_B = {"name": "Bo", "role": "chaser", "maneuver_die": "d6", "spirit": "d6", "toughness": 5, "pace": 6}
CHASES = {  # system -> (how to make the chase and its two participants, its table, the bodies)
    "coc7e": (lambda c: _chase(c, "coc7e", "/participants", HARVEY, FARMER, optional_rules=list(OPTIONAL_RULES)), COC7E, COC7E_BODIES),
    "coc7e-combat": (lambda c: _chase(c, "coc7e-combat", "/participants", HARVEY, FARMER), COC7E, COC7E_BODIES),
    "d6": (lambda c: _chase(c, "d6", "/d6/participants", {"name": "Ana", "role": "quarry", "move": 10, "physique": "3D"},
                            {"name": "Bo", "role": "pursuer", "move": 10, "physique": "3D"}), D6, D6_BODIES),
    "swade": (lambda c: _chase(c, "swade", "/swade/participants", SAVAGE_A, SAVAGE_B, SAVAGE_RIDER), SAVAGE["swade"], SAVAGE_BODIES),
    "swd": (lambda c: _chase(c, "swd", "/swd/participants", SAVAGE_A, SAVAGE_B, SAVAGE_RIDER), SAVAGE["swd"],
            {**SAVAGE_BODIES, "force": lambda me, rival, healer: {"target_id": rival, **SERVER}}),
}


def verdicts(client: Any, ledger: Any, system: str) -> dict[tuple[str, str], tuple[bool, int]]:
    """Each (action, token kind) -> (the view says refused for the token, the command's status)."""
    keeper, chase_id, (me, rival, *riders) = CHASES[system][0](client)
    tokens = {
        "keeper": keeper.token,
        "own player": ledger.access.issue(chase_id, PLAYER, [me]),
        "another player": ledger.access.issue(chase_id, PLAYER, [rival]),
        "player of no one": ledger.access.issue(chase_id, PLAYER, []),
        **{"player riding in it": ledger.access.issue(chase_id, PLAYER, riders) for _ in riders[:1]},
    }
    healers = {"keeper": None, "own player": me, "another player": rival, "player of no one": None, "player riding in it": None}
    bodies = CHASES[system][2]
    found = {}
    for kind, token in tokens.items():
        asker = BearerClient(client, token)
        view = asker.get(f"/chases/{chase_id}/track").get_json()["chase"]
        # What the view says each action once (the default) is what it lists in full.
        listed = expanded(view, me)
        assert listed == asker.get(f"/chases/{chase_id}/track", headers={"Prefer": "actions=full"}).get_json()["chase"]["participants"][me]["actions"]
        for action in listed:
            # The tokens' refusal is said before the rules' (api/affordances.py): it is what this reads.
            refused = not action["allowed"] and action["rule"] == TOKENS
            before = keeper.get(f"/chases/{chase_id}/track").get_json()["chase"]["version"]
            answer = asker.client.open(action["href"], method=action["method"], json=bodies[action["action"]](me, rival, healers[kind]),
                                       headers={"Authorization": f"Bearer {token}"})
            found[action["action"], kind] = (refused, answer.status_code)
            if keeper.get(f"/chases/{chase_id}/track").get_json()["chase"]["version"] != before:  # back as it was, for the next try
                assert keeper.post(f"/chases/{chase_id}/undo", json={"count": 1}).status_code == 200
    return found


@pytest.mark.parametrize("system", list(CHASES))
def test_the_view_refuses_a_token_exactly_what_the_command_refuses_it(client, ledger, system):
    # Each kind of token reads participant A's actions, then sends each one as the view names it.
    found = verdicts(client, ledger, system)

    # Every action of the system's table was tried with every kind of token (Call of Cthulhu's
    # chase and fight between them: the last test checks).
    table = CHASES[system][1]
    tried = {action for action, _ in found}
    assert tried <= set(table)
    # The view's verdict on the token's grounds is the command's: refused there, 403 here.
    disagree = {key: verdict for key, verdict in found.items() if verdict[0] != (verdict[1] == 403)}
    assert not disagree, disagree
    # And it is the table's: the Keeper and the participant's own player are refused only the
    # Keeper's commands; another player all of them but first aid and medicine (a healer of theirs
    # treats); a player bound to no participant every one.
    assert not any(found[a, "keeper"][0] for a in tried)
    assert {a for a in tried if found[a, "own player"][0]} == {a for a in tried if table[a].who == "keeper"}
    assert {a for a in tried if found[a, "another player"][0]} == {a for a in tried if table[a].who != "healer"}
    assert all(found[a, "player of no one"][0] for a in tried)
    # Where players act together (a Savage Worlds unit), the driver's player acts for the vehicle.
    if (next(iter(tried)), "player riding in it") in found:
        assert not any(found[a, "player riding in it"][0] for a in tried if table[a].who == "player")


def offered(client: Any, system: str) -> set[str]:
    """The actions the Keeper's view lists for participant A of the chase the test above makes."""
    keeper, chase_id, (me, *_) = CHASES[system][0](client)
    return {a["action"] for a in expanded(keeper.get(f"/chases/{chase_id}/track").get_json()["chase"], me)}


def test_the_test_above_tries_every_participant_level_action_of_every_table(client):
    # Call of Cthulhu's table is shared by its chase and its fight: each lists part of it, both all.
    assert offered(client, "coc7e") | offered(client, "coc7e-combat") == set(COC7E)
    # Every other system's chase lists its whole table.
    for system in ("d6", "swade", "swd"):
        assert offered(client, system) == set(CHASES[system][1]), system
