"""On PostgreSQL: a chase whose views jsonb refuses is set aside, and nothing else is held up.

Measured before (issue 11): one chase or participant name containing a NUL character made every
later request on every chase answer 500, ``POST /chases`` included, and still after a restart.
"""
from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from tests.application.test_views_and_snapshots import (  # noqa: F401 - collected here, on PostgreSQL
    test_a_command_writes_its_views_in_the_transaction_of_its_events,
)
from tests.application.test_set_aside import recorded_by_an_earlier_version
from tests.conftest import ChaseClient

pytestmark = pytest.mark.postgres

OPERATOR = {"Authorization": "Bearer s3cret"}
HARVEY = {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6}
FARMER = {"name": "Farmer", "role": "pursuer", "dex": 50, "con": 55, "mov": 7}


def deploy_the_fix(ledger: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fix an operator would deploy: the track view shows names without NUL characters."""
    render = ledger.renderers.by_system["coc7e"]["track"]

    def fixed(state: Any) -> dict[str, Any]:
        view = render(state)
        view["name"] = view["name"].replace("\x00", "")
        for participant in view["participants"].values():
            participant["name"] = participant["name"].replace("\x00", "")
        return view

    monkeypatch.setitem(ledger.renderers.by_system["coc7e"], "track", fixed)


def views(ledger: Any, chase_ids: list[UUID]) -> dict[UUID, Any]:
    return {c: (ledger.track(c), ledger.vehicles(c), ledger.rolls(c)) for c in chase_ids}


def test_a_nul_in_a_name_sets_one_chase_aside_and_every_other_goes_on(client, ledger, ledger_factory, monkeypatch):
    monkeypatch.setattr(ledger, "worker", ledger.worker.__class__(admin_token="s3cret"))
    ordinary, cursed = ChaseClient(client), ChaseClient(client)
    ordinary.create("The Arkham docks")

    # A chase whose name PostgreSQL's jsonb cannot hold, recorded before the API refused a NUL
    # at its edge (issue 12; tests/e2e/test_hostile_edges.py): it is shown as recorded.
    recorded_by_an_earlier_version(monkeypatch)
    chase, cursed.http.token = ledger.start_chase("Dunwich\x00road", "table", "coc7e")
    cursed.chase_id = chase["chase_id"]
    assert chase["name"] == "Dunwich\x00road"
    cursed.add(**HARVEY)
    assert cursed.track()["participants"][cursed.ids["Harvey"]]["name"] == "Harvey"
    assert cursed.track()["name"] == "Dunwich\x00road"

    # Every other chase goes on: commands, reads, and new chases.
    ordinary.add(**HARVEY)
    ordinary.add(**FARMER)
    ordinary.speed_roll("Harvey", [40, 0])
    assert len(ordinary.track()["participants"]) == 2
    ChaseClient(client).create("A third chase")

    # And after a restart (another process), and for the projector following the log.
    restarted = ledger_factory()
    assert len(restarted.track(UUID(ordinary.chase_id))["participants"]) == 2
    restarted.commands["coc7e"].add_participant(UUID(ordinary.chase_id), dict(FARMER, name="Farmhand"))
    restarted.updater.catch_up()
    assert restarted.views.max_tracking_id(restarted.name) == restarted.recorder.max_notification_id()

    # The operator sees the one chase set aside, at its first event, with PostgreSQL's error.
    listed = client.get("/admin/projection-errors", headers=OPERATOR).get_json()
    assert [(c["chase_id"], c["version"]) for c in listed["chases"]] == [(cursed.chase_id, 1)]
    assert "Unicode" in listed["chases"][0]["error"]

    # After the fix, a retry projects it; its views then equal those rebuilt from the log.
    deploy_the_fix(ledger, monkeypatch)
    retried = client.post("/admin/projection-errors/retry", json={"chase_id": cursed.chase_id}, headers=OPERATOR).get_json()
    assert retried["results"] == [{"chase_id": cursed.chase_id, "projected": True, "version": 2}]
    assert retried["count"] == 0
    assert cursed.track()["name"] == "Dunwichroad"
    chases = [UUID(cursed.chase_id), UUID(ordinary.chase_id)]
    live = views(ledger, chases)
    ledger.views.clear(ledger.name)
    ledger.updater.catch_up()
    assert views(ledger, chases) == live


def test_the_projector_writes_a_batch_around_the_chase_postgresql_refuses(ledger, monkeypatch):
    ordinary = UUID(ledger.create_chase("The Arkham docks")["chase_id"])
    cursed = UUID(ledger.create_chase("The Dunwich road")["chase_id"])

    # Events written straight to the store, without their views, one of them with a NUL (as an
    # earlier version let in).
    recorded_by_an_earlier_version(monkeypatch)
    for chase_id, name in ((ordinary, "Farmer"), (cursed, "Far\x00mer"), (ordinary, "Farmhand")):
        chase = ledger.runner.load(chase_id)
        chase.add_participant(name.lower(), dict(FARMER, name=name))
        ledger.save(chase)

    # One batch: the ordinary chase is projected, the cursed one set aside, the position moves on.
    written = ledger.updater.catch_up()
    assert set(written) == {str(ordinary)}
    assert {p["name"] for p in ledger.track(ordinary)["participants"].values()} == {"Farmer", "Farmhand"}
    assert [r["chase_id"] for r in ledger.updater.set_aside_chases()] == [str(cursed)]
    assert ledger.views.max_tracking_id(ledger.name) == ledger.recorder.max_notification_id()

    # Its views are rendered from its events meanwhile, and its commands go on.
    assert ledger.track(cursed)["participants"]["far\x00mer"]["name"] == "Far\x00mer"
    ledger.commands["coc7e"].add_participant(cursed, HARVEY)
    assert len(ledger.track(cursed)["participants"]) == 2
