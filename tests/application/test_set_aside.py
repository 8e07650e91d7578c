"""One chase that cannot be projected is set aside; every other chase goes on (DESIGN.md section 7)."""
from __future__ import annotations

import json
import threading
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.persistence import DataError

from application.dice import DiceChoice
from application.views import ViewsUnavailable
from domain import names
from tests.conftest import ChaseClient

OPERATOR = {"Authorization": "Bearer s3cret"}
HARVEY = {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6}
FARMER = {"name": "Farmer", "role": "pursuer", "dex": 50, "con": 55, "mov": 7}


def cursed_renderer(ledger: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A defect in the track view's renderer: it fails on a participant named Nyarlathotep."""
    render = ledger.renderers.by_system["coc7e"]["track"]

    def failing(state: Any) -> dict[str, Any]:
        if any(p.name == "Nyarlathotep" for p in state.participants.values()):
            raise RuntimeError("the renderer cannot look upon it")
        return render(state)

    monkeypatch.setitem(ledger.renderers.by_system["coc7e"], "track", failing)


def recorded_by_an_earlier_version(monkeypatch: pytest.MonkeyPatch) -> None:
    """Names let in as an earlier version let them (a NUL too: domain/names.py refuses it now),
    to record what a store may hold from before."""
    monkeypatch.setattr(names, "screened_name", lambda value, field_name="name": value.strip())


def picky_store(ledger: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A store that refuses any row holding a NUL character, as PostgreSQL's jsonb does."""
    write, write_in = ledger.views.write_views, ledger.views.write_in

    def refuse(updates: Any) -> None:
        if any("\\u0000" in json.dumps(u["doc"]) for u in updates):
            raise DataError("unsupported Unicode escape sequence")

    def refusing(updates: Any, tracking: Any = None) -> set[str]:
        refuse(updates)
        return write(updates, tracking)

    def refusing_in(cursor: Any, encoded: Any) -> Any:  # a command's write, in its events' transaction
        rows = encoded["rows"].upserts if encoded["rows"] else ()  # the track's participants, stored apart
        if any("\\u0000" in text for text in [encoded["write"][1 if len(encoded["write"]) == 4 else 2], *(row for _, _, row in rows)]):
            raise DataError("unsupported Unicode escape sequence")
        return write_in(cursor, encoded)

    monkeypatch.setattr(ledger.views, "write_views", refusing)
    monkeypatch.setattr(ledger.views, "write_in", refusing_in)


def rebuilt(ledger: Any, chase_ids: list[UUID]) -> dict[UUID, Any]:
    ledger.views.clear(ledger.name)
    ledger.updater.catch_up()
    return {c: (ledger.track(c), ledger.vehicles(c), ledger.rolls(c)) for c in chase_ids}


def test_a_chase_whose_views_cannot_be_rendered_is_set_aside_and_the_others_go_on(client, ledger, monkeypatch):
    monkeypatch.setattr(ledger, "worker", ledger.worker.__class__(admin_token="s3cret"))
    cursed, ordinary = ChaseClient(client), ChaseClient(client)
    cursed.create("The Dunwich road")
    ordinary.create("The Arkham docks")
    cursed.add(**HARVEY)

    # Given a renderer that fails on one participant, the Keeper adds that participant.
    original = ledger.renderers.by_system["coc7e"]["track"]
    cursed_renderer(ledger, monkeypatch)
    response = cursed.post("/participants", {"name": "Nyarlathotep", "role": "pursuer", "dex": 99, "con": 99, "mov": 9})

    # The command is recorded, but its views cannot be shown: a clear problem, not a 500.
    assert response.status_code == 503
    assert response.get_json()["type"] == "/problems/views-unavailable"
    # ... and says it was recorded, so a client does not send it again (no Retry-After).
    assert response.get_json()["recorded"] is True and "Retry-After" not in response.headers
    recorded = ledger.repository.get(UUID(cursed.chase_id))
    assert [p.name for p in recorded.participants.values()] == ["Harvey", "Nyarlathotep"]
    assert cursed.http.get(f"/chases/{cursed.chase_id}/track").status_code == 503

    # Every other chase goes on: commands, reads, and new chases.
    ordinary.add(**HARVEY)
    ordinary.add(**FARMER)
    ordinary.speed_roll("Harvey", [40, 0])
    assert len(ordinary.track()["participants"]) == 2
    assert ordinary.rolls()[0]["roll"]["result"] == 40
    ChaseClient(client).create("A third chase")

    # The operator sees the chase set aside, with the event and the error.
    listed = client.get("/admin/projection-errors", headers=OPERATOR).get_json()
    assert listed["count"] == 1
    record = listed["chases"][0]
    assert record["chase_id"] == cursed.chase_id and record["version"] == 3
    assert "cannot look upon it" in record["error"] and record["attempts"] == 1

    # After the fix, the operator retries it: its views catch up and it is no longer set aside.
    monkeypatch.setitem(ledger.renderers.by_system["coc7e"], "track", original)
    retried = client.post("/admin/projection-errors/retry", json={}, headers=OPERATOR).get_json()
    assert retried["results"] == [{"chase_id": cursed.chase_id, "projected": True, "version": 3}]
    assert retried["count"] == 0
    assert {p["name"] for p in cursed.track()["participants"].values()} == {"Harvey", "Nyarlathotep"}

    # And the views equal those rebuilt from the log.
    chases = [UUID(cursed.chase_id), UUID(ordinary.chase_id)]
    live = {c: (ledger.track(c), ledger.vehicles(c), ledger.rolls(c)) for c in chases}
    assert rebuilt(ledger, chases) == live


def test_a_chase_whose_rows_the_store_refuses_keeps_answering_from_its_events(ledger, monkeypatch):
    picky_store(ledger, monkeypatch)
    cursed = UUID(ledger.create_chase("The Dunwich road")["chase_id"])
    ordinary = UUID(ledger.create_chase("The Arkham docks")["chase_id"])

    # A participant whose name the store refuses (recorded before names were screened): the
    # command still answers with its effect.
    recorded_by_an_earlier_version(monkeypatch)
    pid, view = ledger.commands["coc7e"].add_participant(cursed, dict(HARVEY, name="Har\x00vey"))
    assert view["participants"][pid]["name"] == "Har\x00vey"

    # A read after it shows it (rendered from the chase's events while it is set aside).
    assert ledger.track(cursed) == view
    [record] = ledger.updater.set_aside_chases()
    assert (record["chase_id"], record["version"]) == (str(cursed), 2)
    assert "unsupported Unicode escape sequence" in record["error"]

    # More commands on it keep working and keep being shown; its later events wait.
    harvey = pid
    ledger.commands["coc7e"].roll_speed(cursed, harvey, DiceChoice(faces=[30, 0]))
    assert ledger.rolls(cursed)[0]["roll"]["result"] == 30
    assert ledger.track(cursed)["version"] == 3

    # The other chase, and the projector following the log, go on.
    ledger.commands["coc7e"].add_participant(ordinary, FARMER)
    ledger.updater.catch_up()
    assert len(ledger.track(ordinary)["participants"]) == 1
    assert [r["chase_id"] for r in ledger.updater.set_aside_chases()] == [str(cursed)]

    # A retry that fails again counts the attempt (as each command's write on it did), and backs off.
    [before] = ledger.updater.set_aside_chases()
    [again] = ledger.updater.retry(str(cursed))
    [after] = ledger.updater.set_aside_chases()
    assert again["projected"] is False and after["attempts"] == before["attempts"] + 1
    assert after["retry_at"] - after["last_seen"] > before["retry_at"] - before["last_seen"]

    # After the fix (the store accepts the row), a retry projects every waiting event in order.
    monkeypatch.undo()
    [done] = ledger.updater.retry()
    assert done == {"chase_id": str(cursed), "projected": True, "version": 3}
    assert ledger.views.read_views(str(cursed))["set_aside"] is False
    live = {c: (ledger.track(c), ledger.vehicles(c), ledger.rolls(c)) for c in (cursed, ordinary)}
    assert rebuilt(ledger, [cursed, ordinary]) == live


def test_the_projector_sets_aside_one_chase_of_a_batch_and_projects_the_others(ledger, monkeypatch):
    cursed = UUID(ledger.create_chase("The Dunwich road")["chase_id"])
    ordinary = UUID(ledger.create_chase("The Arkham docks")["chase_id"])

    # Events saved without their views (as when a process dies between its save and its views).
    for chase_id, name in ((cursed, "Nyarlathotep"), (ordinary, "Farmer")):
        chase = ledger.runner.load(chase_id)
        chase.add_participant(name.lower(), dict(FARMER, name=name))
        ledger.save(chase)
    cursed_renderer(ledger, monkeypatch)

    # The projector follows the log: the ordinary chase is projected, the cursed one set aside.
    written = ledger.updater.catch_up()
    assert set(written) == {str(ordinary)}
    assert "farmer" in ledger.track(ordinary)["participants"]
    assert [r["chase_id"] for r in ledger.updater.set_aside_chases()] == [str(cursed)]
    with pytest.raises(ViewsUnavailable):
        ledger.track(cursed)
    assert ledger.views.max_tracking_id(ledger.name) == ledger.recorder.max_notification_id()

    # Once fixed, the projector's own rounds retry it when due (here: forced due).
    monkeypatch.undo()
    ledger.updater.clock = lambda: 10**12
    assert str(cursed) in ledger.updater.catch_up()
    assert "nyarlathotep" in ledger.track(cursed)["participants"]
    assert ledger.updater.set_aside_chases() == []


def test_reads_after_commands_show_them_with_writers_on_many_threads(tmp_path):
    from infrastructure.bootstrap import build_ledger

    # Two processes' worth of ledgers on one SQLite file, four threads each, over two chases.
    env = {"SQLITE_DBNAME": str(tmp_path / "chase.sqlite3")}
    ledgers = [build_ledger(env), build_ledger(env)]
    chases = [UUID(ledgers[0].create_chase(f"Chase {i}", dice="table")["chase_id"]) for i in range(2)]
    stale: list[tuple[int, int]] = []

    def play(ledger: Any, chase_id: UUID) -> None:
        for _ in range(15):
            roll, view = ledger.commands["coc7e"].roll_dice(chase_id, "1D6", dice=DiceChoice(faces=[3]))
            # Each read after the command shows it: its version, and its roll in the history.
            seen = ledger.track(chase_id)["version"]
            if seen < view["version"] or roll["sequence"] not in {r["sequence"] for r in ledger.rolls(chase_id)}:
                stale.append((view["version"], seen))

    threads = [threading.Thread(target=play, args=(ledgers[i % 2], chases[i % 4 // 2])) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    assert stale == []
    for chase_id in chases:  # every roll once, in order; the views equal a rebuild
        rolls = ledgers[0].rolls(chase_id)
        assert [r["sequence"] for r in rolls] == list(range(1, 61))
    live = {c: (ledgers[0].track(c), ledgers[0].rolls(c)) for c in chases}
    ledgers[0].views.clear(ledgers[0].name)
    ledgers[0].updater.catch_up()
    assert {c: (ledgers[1].track(c), ledgers[1].rolls(c)) for c in chases} == live
    for ledger in ledgers:
        ledger.close()


def test_a_view_write_that_keeps_failing_after_the_save_never_fails_the_command(keeper, ledger, monkeypatch):
    from eventsourcing.persistence import OperationalError

    keeper.create("The Arkham docks")
    keeper.add(**HARVEY)

    # Given a database that refuses every view write (a deadlock, a busy SQLite lock) ...
    def busy(updates: Any, tracking: Any = None) -> set[str]:
        raise OperationalError("database is locked")

    monkeypatch.setattr(ledger.views, "write_views", busy)
    # ... the Keeper adds the farmer: the event is saved, so the command succeeds, once.
    response = keeper.post("/participants", FARMER)
    assert response.status_code == 201, response.get_json()
    monkeypatch.undo()

    # A GET shows it (read-your-writes): the chase is set aside and rendered from its events.
    names = [p["name"] for p in keeper.track()["participants"].values()]
    assert names == ["Harvey", "Farmer"]
    assert len([e for e in keeper.events() if e["name"] == "ParticipantAdded"]) == 2


def test_a_chase_with_an_event_this_code_cannot_read_answers_503_on_every_view(keeper, ledger, monkeypatch):
    keeper.create("The Dunwich road")
    keeper.add(**HARVEY)
    keeper.speed_roll("Harvey", [40, 0])
    chase_id = UUID(keeper.chase_id)
    ledger.updater.set_aside(keeper.chase_id, 2, None, ValueError("an event from a newer version"))

    # Given the chase's events cannot be decoded by this code (a newer schema, say) ...
    def unreadable(*args: Any, **kwargs: Any) -> Any:
        raise ValueError("a state of schema 3 is newer than this code's Participant (schema 1)")

    monkeypatch.setattr(ledger.mapper, "to_domain_event", unreadable)

    # ... every view of it is a clear 503, never a 500, nor a 404 for a chase that exists.
    for view in ("track", "vehicles", "rolls"):
        response = keeper.http.get(f"/chases/{chase_id}/{view}")
        assert response.status_code == 503, (view, response.status_code, response.get_json())
        assert response.get_json()["type"] == "/problems/views-unavailable"
