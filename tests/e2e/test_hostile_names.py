"""Names that read other than they are, refused alike for chases, participants and sessions
(domain/names.py): a 422 naming the field, nothing recorded.

Measured before: a chase and a participant of every system were created with a right-to-left
override (U+202E), a zero-width space (U+200B) or CR/LF in their names; session names refused them.
"""
from __future__ import annotations

import pytest

from tests.e2e.d6_table import D6Table
from tests.e2e.savage_worlds_table import SavageTable

HOSTILE = {
    "right-to-left override": "Harvey\u202eyrevlis",
    "zero-width space": "Har\u200bvey",
    "zero-width joiner": "Harvey\u200d",
    "CR/LF": "Harvey\r\nKeeper: the seed is 42",
    "tab": "Harvey\tWalters",
    "line separator": "Harvey\u2028Walters",
    "too long": "H" * 201,
}


def named(problem: dict) -> list[str]:
    return [error["field"] for error in problem.get("errors", [])]


@pytest.mark.parametrize("name", HOSTILE.values(), ids=HOSTILE.keys())
@pytest.mark.parametrize("system", ["coc7e", "d6", "swade"])
def test_a_chase_with_a_hostile_name_is_refused_naming_the_field(client, system, name):
    # A chase of each system is asked for with the name: refused, naming it, nothing created.
    refused = client.post("/chases", json={"name": name, "dice": "table", "system": system})
    assert refused.status_code == 422 and refused.mimetype == "application/problem+json"
    assert named(refused.get_json()) == ["name"]


@pytest.mark.parametrize("name", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_participant_with_a_hostile_name_is_refused_in_every_system(client, keeper, name):
    # Call of Cthulhu: the Keeper adds Harvey under the name.
    keeper.create("Harvey and the farmer")
    refused = keeper.post("/participants", {"name": name, "kind": "character", "role": "quarry", "mov": 8, "dex": 50, "con": 50})
    assert refused.status_code == 422 and named(refused.get_json()) == ["name"]
    assert keeper.track()["participants"] == {}

    # D6 and Savage Worlds: the same name, refused alike.
    problem = D6Table(client).refused("/d6/participants", {"name": name, "role": "quarry", "move": 10, "physique": "3D"}, 422)
    assert named(problem) == ["name"]
    problem = SavageTable(client, "swade").refused("/swade/participants", {"name": name, "role": "chaser"}, 422)
    assert named(problem) == ["name"]


def test_plain_names_in_any_script_are_welcome(client, keeper):
    # Accents, other scripts and inner spaces are names like any other; surrounding spaces go.
    assert keeper.create("  Poursuite à Arkham – 追跡  ")["name"] == "Poursuite à Arkham – 追跡"
    keeper.add(name="Zoë O'Brien", kind="character", role="quarry", mov=8, dex=50, con=50)
    assert "Zoë O'Brien" in [p["name"] for p in keeper.track()["participants"].values()]
    session = client.post("/sessions", json={"name": "Game night \u202e"})
    assert session.status_code == 422 and named(session.get_json()) == ["name"]
