"""Game systems are plug-ins: the core refuses a command sent to a chase of another system with one
check, a typo in a system's code is a bug that fails loudly, and every registered system brings
what the core loops over."""
from __future__ import annotations

from uuid import UUID

import pytest

from domain.errors import RuleBroken, WrongSystem
from infrastructure.systems import SYSTEMS, system_names


def test_a_command_for_another_system_is_refused_naming_the_chases_system(ledger):
    # A Savage Worlds (Adventure Edition) chase.
    chase_id = UUID(ledger.create_chase("Cars", "table", "swade")["chase_id"])
    before = ledger.track(chase_id)["version"]

    # A Call of Cthulhu command is sent to it: the core refuses it, naming the chase's system.
    with pytest.raises(WrongSystem) as refused:
        ledger.commands["coc7e"].cut_to_the_chase(chase_id)
    assert "this is a swade chase" in str(refused.value) and "for coc7e chases" in str(refused.value)
    assert isinstance(refused.value, RuleBroken)  # a broken rule: 409 over HTTP

    # So is a Deluxe command, even from the same plug-in; nothing was recorded.
    with pytest.raises(WrongSystem, match="this is a swade chase; this command is for swd chases"):
        ledger.commands["savage_worlds"].begin_swd(chase_id)
    assert ledger.track(chase_id)["version"] == before


def test_a_command_for_another_system_is_a_409_problem_naming_the_chases_system(client):
    # The Keeper creates a Deluxe chase and sends it a Call of Cthulhu speed roll.
    created = client.post("/chases", json={"name": "Cars", "system": "swd", "dice": "table"}).get_json()
    chase_id, token = created["chase"]["chase_id"], created["keeper_token"]
    response = client.post(
        f"/chases/{chase_id}/participants/someone/speed-roll", json={"table_dice": [40, 0]},
        headers={"Authorization": f"Bearer {token}"},
    )

    # A 409 problem: a rule broken, naming the chase's system and where the choice is made.
    problem = response.get_json()
    assert response.status_code == 409 and problem["type"] == "/problems/rule-broken"
    assert "this is a swd chase" in problem["detail"] and "POST /chases" in problem["rule"]


def test_a_typo_in_a_systems_code_is_an_attribute_error_not_a_409(ledger):
    # A Savage Worlds chase in set-up.
    chase_id = UUID(ledger.create_chase("Cars", "table", "swade")["chase_id"])
    savage = ledger.commands["savage_worlds"]

    # System code calling a procedure the chase does not have (a typo of "begin") fails as the
    # bug it is: an AttributeError, never a refusal by the rules that would reach a client as 409.
    with pytest.raises(AttributeError) as failed:
        savage._run(chase_id, "swade", None, lambda chase: chase.begn("foot", {}))
    assert not isinstance(failed.value, RuleBroken)


def test_every_registered_system_brings_its_chases_views_and_commands(ledger):
    # The registry lists each plug-in once; together they play every system a chase may choose.
    assert len({plugin.package for plugin in SYSTEMS}) == len(SYSTEMS)
    assert set(system_names()) == set(ledger.chase_classes) >= {"coc7e", "swade", "swd"}
    for plugin in SYSTEMS:
        # Each system has a track view, and its aggregate says which system it plays.
        for system, cls in plugin.chases.items():
            assert cls.SYSTEM == system and "track" in plugin.views[system]
        # Its commands: declared (application/declared.py), or a service of its own until they are.
        assert plugin.package in ledger.commands or all(ledger.declared.command(system, c.name) is c for c in plugin.declared for system in c.systems)
        assert plugin.package in ledger.commands or plugin.declared
    # A chase of each system is created and shows its track view.
    for system in system_names():
        assert ledger.create_chase(f"A {system} chase", "table", system)["system"] == system


def test_random_hazards_for_a_savage_worlds_chase_are_refused_when_asked_not_in_the_worker(client):
    # The GM of an Adventure Edition chase asks for Call of Cthulhu's random hazards table.
    created = client.post("/chases", json={"name": "Cars", "system": "swade", "dice": "table"}).get_json()
    response = client.post(
        f"/chases/{created['chase']['chase_id']}/random-hazards", json={"locations": 1},
        headers={"Authorization": f"Bearer {created['keeper_token']}", "Idempotency-Key": "k"},
    )
    # Refused at once, naming the chase's system; no job is accepted to fail later.
    assert response.status_code == 409, response.get_json()
    assert "swade" in response.get_json()["detail"]
