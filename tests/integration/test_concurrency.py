"""Several writers and readers on one chase, on PostgreSQL.

Each ledger built by ``ledger_factory`` stands for one API process: its own connection pool,
aggregate cache and view updater, on the same database.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any
from uuid import UUID

import pytest

from api import create_app
from application.projections.rolls import with_odds
from tests.conftest import BearerClient, ChaseClient
from tests.e2e.record_helpers import as_stored
from tests.e2e.test_harvey_and_the_farmer import FARMER, set_up

pytestmark = pytest.mark.postgres

APP = "ChaseLedger"
PROBLEM = "application/problem+json"
THREADS, COMMANDS = 8, 10  # writers (API processes) and commands each


def http(ledger: Any, token: str | None = None) -> Any:
    """An HTTP client for an API process whose ledger is ``ledger``, sending ``token`` (if any).

    Every chase endpoint needs a bearer token. Tokens are kept (hashed) in the shared database,
    so the Keeper's token issued through one process works through every other one.
    """
    app = create_app(lambda: ledger)
    app.config["TESTING"] = True
    return BearerClient(app.test_client(), token)


def event_versions(pg: Any, chase_id: str) -> list[int]:
    rows = pg.execute(
        "SELECT originator_version FROM chaseledger_events WHERE originator_id = %s ORDER BY originator_version",
        (chase_id,),
    ).fetchall()
    return [v for (v,) in rows]


def run_threads(count: int, target: Callable[[int], None], timeout: float = 60) -> None:
    """Run ``target(i)`` in ``count`` threads started together; re-raise the first failure."""
    errors: list[BaseException] = []

    def guarded(i: int) -> None:
        try:
            target(i)
        except BaseException as e:  # noqa: BLE001 - reported in the main thread
            errors.append(e)

    threads = [threading.Thread(target=guarded, args=(i,), daemon=True) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
        assert not t.is_alive(), "a writer thread hung"
    if errors:
        raise errors[0]


# -- (a) two writers, one If-Match ---------------------------------------------------------------


def assert_one_winner(responses: dict[str, Any], base: dict[str, Any], reader: Any, pg: Any) -> None:
    """Exactly one writer got 201, the other 412 (its If-Match failed); the log has the winner's event."""
    chase_id = base["chase_id"]
    statuses = sorted(r.status_code for r in responses.values())
    assert statuses == [201, 412], {name: (r.status_code, r.get_json()) for name, r in responses.items()}
    (winner_name,) = [name for name, r in responses.items() if r.status_code == 201]
    (loser,) = [r for r in responses.values() if r.status_code == 412]
    assert loser.mimetype == PROBLEM
    problem = loser.get_json()
    assert problem["type"] == "/problems/precondition-failed"
    assert problem["status"] == 412
    winner = responses[winner_name].get_json()
    assert winner["chase"]["version"] == base["version"] + 1

    # The log holds exactly the winner's command after the version both writers acted on.
    events = reader.get(f"/chases/{chase_id}/events").get_json()["events"]
    after = [e for e in events if e["version"] > base["version"]]
    assert [e["name"] for e in after] == ["ParticipantAdded"]
    assert after[0]["data"]["participant"]["id"] == winner["participant_id"]
    assert after[0]["data"]["participant"]["name"] == winner_name
    assert event_versions(pg, chase_id) == list(range(1, base["version"] + 2))
    track = reader.get(f"/chases/{chase_id}/track").get_json()["chase"]
    assert [p["name"] for p in track["participants"].values()] == [winner_name]


def add(client: Any, chase_id: str, name: str, etag: str) -> Any:
    return client.post(
        f"/chases/{chase_id}/participants",
        json={"name": name, "role": "quarry", "dex": 50, "con": 50, "mov": 7},
        headers={"If-Match": etag},
    )


def test_two_writers_racing_with_the_same_if_match_one_wins_the_other_gets_412(ledger, ledger_factory, pg):
    first, second = http(ledger), http(ledger_factory())  # two API processes
    for attempt in range(5):  # a few races, each on a fresh chase
        created = first.post("/chases", json={"name": f"race {attempt}", "dice": "table"})
        base = created.get_json()["chase"]
        first.token = second.token = created.get_json()["keeper_token"]  # the Keeper, in both processes
        etag = created.headers["ETag"]
        assert etag == f'"{base["version"]}-compact"'
        barrier = threading.Barrier(2)
        responses: dict[str, Any] = {}

        def write(i: int, barrier=barrier, responses=responses, chase_id=base["chase_id"], etag=etag) -> None:
            client, name = ((first, "Alice"), (second, "Bob"))[i]
            barrier.wait()
            responses[name] = add(client, chase_id, name, etag)

        run_threads(2, write)
        assert_one_winner(responses, base, first, pg)


def test_a_writer_that_loses_the_race_after_loading_gets_412_not_a_silent_retry(ledger, ledger_factory, pg):
    # Forces the slow path: both writers load the chase at the same version and pass the
    # If-Match check; the loser's save hits the store's uniqueness (IntegrityError) and must
    # answer 412 instead of re-running the command on the new state.
    second_ledger = ledger_factory()
    first, second = http(ledger), http(second_ledger)
    created = first.post("/chases", json={"name": "race", "dice": "table"})
    base = created.get_json()["chase"]
    first.token = second.token = created.get_json()["keeper_token"]  # the Keeper, in both processes
    etag = created.headers["ETag"]
    assert second.get(f"/chases/{base['chase_id']}/track").status_code == 200  # warm the other process

    loaded, first_done = threading.Event(), threading.Event()
    load = second_ledger.runner.check_out  # how a command loads its chase

    def load_then_wait(cid: UUID) -> Any:
        chase = load(cid)
        loaded.set()
        assert first_done.wait(30), "the first writer never finished"
        return chase

    second_ledger.runner.check_out = load_then_wait  # instance attribute: only the second process is slowed
    responses: dict[str, Any] = {}
    thread = threading.Thread(target=lambda: responses.update(Bob=add(second, base["chase_id"], "Bob", etag)), daemon=True)
    thread.start()
    try:
        assert loaded.wait(30), "the second writer never loaded the chase"
        responses["Alice"] = add(first, base["chase_id"], "Alice", etag)
    finally:
        first_done.set()
        thread.join(30)
    assert responses["Alice"].status_code == 201, responses["Alice"].get_json()
    assert_one_winner(responses, base, second, pg)


# -- start-up --------------------------------------------------------------------------------------


@pytest.mark.parametrize("tables", ["missing", "present"])
def test_api_processes_starting_at_once_all_build_their_ledger(tables, ledger_factory, pg):
    # gunicorn workers and scaled containers build their ledgers at the same moment; creating
    # the tables (and the insert function) at once used to fail in all but one of them.
    if tables == "present":
        ledger_factory()
    barrier = threading.Barrier(THREADS)

    def start(i: int) -> None:
        barrier.wait()
        ledger_factory()

    run_threads(THREADS, start)
    names = {name for (name,) in pg.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'").fetchall()}
    assert {"chaseledger_events", "chaseledger_snapshots", "chaseledger_tracking", "chase_track_views", "chase_roll_history", "chase_seeds"} <= names


# -- (b) many writers without If-Match ------------------------------------------------------------

def test_many_processes_rolling_at_once_lose_no_roll_and_leave_no_gap(ledger, ledger_factory, pg):
    owner = http(ledger)
    created = owner.post("/chases", json={"name": "dice storm", "dice": "server"}).get_json()
    chase_id, owner.token = created["chase"]["chase_id"], created["keeper_token"]
    clients = [http(ledger_factory(), owner.token) for _ in range(THREADS)]
    for client in clients:  # build each process's ledger before the storm (as at start-up)
        assert client.get(f"/chases/{chase_id}/track").status_code == 200
    barrier = threading.Barrier(THREADS)
    results: list[list[tuple[int, Any]]] = [[] for _ in range(THREADS)]

    def roll(i: int) -> None:
        barrier.wait()
        for _ in range(COMMANDS):
            r = clients[i].post(f"/chases/{chase_id}/dice-rolls", json={"expression": "1D6"})
            results[i].append((r.status_code, r.get_json()))

    run_threads(THREADS, roll)

    bodies = [body for rs in results for status, body in rs if status == 200]
    lost = [body for rs in results for status, body in rs if status != 200]
    # A command without If-Match that keeps losing the race is answered 409 (never 500, never
    # another problem), and nothing of it is recorded.
    assert all(b.get("type") == "/problems/version-conflict" for b in lost), lost[:3]
    done = len(bodies)
    assert done > 0

    # The rolls that were answered are exactly the chase's rolls: sequences 1..n, no gap, no
    # duplicate, each in the roll history as its response showed it (read-your-writes).
    for body in bodies:
        assert body["chase"]["version"] >= body["rolls"][0]["sequence"] + 1
        assert 1 <= body["rolls"][0]["total"] <= 6 and body["rolls"][0]["source"]["kind"] == "server"
    assert sorted(b["rolls"][0]["sequence"] for b in bodies) == list(range(1, done + 1))
    history = owner.get(f"/chases/{chase_id}/rolls").get_json()["rolls"]
    assert [r["roll"]["sequence"] for r in history] == list(range(1, done + 1))
    by_sequence = {r["roll"]["sequence"]: r["roll"] for r in history}
    assert all(by_sequence[b["rolls"][0]["sequence"]] == b["rolls"][0] for b in bodies)

    # The log: Created, then one event per answered roll, versions contiguous.
    versions = [e["version"] for e in owner.get(f"/chases/{chase_id}/events").get_json()["events"]]
    assert versions == list(range(1, done + 2))
    assert event_versions(pg, chase_id) == versions
    for client in (owner, *clients):
        assert client.get(f"/chases/{chase_id}/track").get_json()["chase"]["version"] == versions[-1]
    assert pg.execute("SELECT version FROM chase_track_views WHERE chase_id = %s", (chase_id,)).fetchone() == (versions[-1],)
    assert pg.execute("SELECT count(*) FROM chase_roll_history WHERE chase_id = %s", (chase_id,)).fetchone() == (done,)

    # Every command without If-Match was re-run until it was recorded: none was lost.
    assert lost == []
    assert done == THREADS * COMMANDS


# -- (c) the read side: rebuild by replay, and other processes' writes -----------------------------


def play_round_one(keeper: ChaseClient, farmer: dict[str, Any] = FARMER) -> dict[str, Any]:
    set_up(keeper, farmer)
    keeper.speed_roll("Harvey", [70, 2])
    keeper.speed_roll("Farmer", [80, 0])
    keeper.cut()
    keeper.move("Harvey", 1)
    return keeper.move("Farmer", 2)


def view_rows(pg: Any, chase_id: str) -> tuple[Any, list[Any]]:
    track = pg.execute("SELECT version, doc FROM chase_track_views WHERE chase_id = %s", (chase_id,)).fetchone()
    track = (*track, pg.execute("SELECT participant_id, ord, doc FROM chase_track_rows WHERE chase_id = %s ORDER BY ord", (chase_id,)).fetchall())
    rolls = pg.execute(
        "SELECT sequence, version, participant_id, purpose, round, source, undone, doc "
        "FROM chase_roll_history WHERE chase_id = %s ORDER BY sequence",
        (chase_id,),
    ).fetchall()
    return track, rolls


def test_clearing_the_views_and_replaying_the_log_rebuilds_them_identically(keeper, ledger, pg):
    play_round_one(keeper)
    keeper.move("Harvey", 1)
    keeper.move("Farmer", 2)  # caught up in round 2
    keeper.ok(keeper.post("/skill-rolls", {"skill": "Dodge", "target": 40, "table_dice": [30, 5]}))
    chase_id = keeper.chase_id
    track_before, rolls_before = keeper.track(), keeper.rolls()
    rows_before = view_rows(pg, chase_id)
    assert track_before["caught_up"] and len(rolls_before) == 3

    ledger.views.clear(APP)
    assert ledger.views.track_view(chase_id) is None
    assert ledger.views.roll_history(chase_id, {}) == []
    assert ledger.views.max_tracking_id(APP) is None

    written = ledger.updater.catch_up()

    # The replay wrote this chase's views (by name), the track view rendered from every event of its log.
    assert set(written) == {chase_id}
    assert written[chase_id]["track"]["version"] == len(keeper.events()) == track_before["version"]
    assert ledger.views.track_view(chase_id) == as_stored(track_before)  # the API adds what is live (actions, turn, distances)
    assert with_odds(ledger.views.roll_history(chase_id, {}), ledger.odds_of) == rolls_before  # the API adds each roll's odds
    assert view_rows(pg, chase_id) == rows_before
    assert keeper.track() == track_before and keeper.rolls() == rolls_before


def test_another_process_sees_the_first_ones_writes_and_builds_on_them(keeper, ledger_factory):
    chase = play_round_one(keeper)
    other = ChaseClient(http(ledger_factory()))
    other.chase_id, other.ids = keeper.chase_id, keeper.ids
    other.http.token = keeper.keeper_token  # the Keeper's token, issued through the first process

    assert other.track() == chase == keeper.track()
    assert other.events() == keeper.events()
    assert other.rolls() == keeper.rolls()

    # The other process writes (its aggregate cache is fast-forwarded from the store) ...
    after_other = other.move("Harvey", 1)
    assert after_other["version"] == chase["version"] + 2  # Moved, TurnEnded
    # ... and the first sees it, then writes on top of it, which the other sees in turn.
    assert keeper.track() == after_other
    after_keeper = keeper.move("Farmer", 2)
    assert after_keeper["caught_up"] and after_keeper["version"] > after_other["version"]
    assert other.track() == after_keeper
    assert other.events() == keeper.events()
    assert [e["version"] for e in other.events()] == list(range(1, after_keeper["version"] + 1))


def test_a_view_batch_read_while_another_process_caught_up_is_not_applied_twice(ledger, ledger_factory, pg):
    # Process A reads how far the views are, then (before A reads the new events) process B
    # catches the views up and one more command is recorded. A's batch overlaps what B
    # projected; it must not be applied on top of B's views a second time.
    a, b = ledger, ledger_factory()
    keeper = ChaseClient(http(a))
    set_up(keeper, dict(FARMER, dex=60))  # the farmer moves first and catches Harvey at once
    keeper.speed_roll("Harvey", [70, 2])
    keeper.speed_roll("Farmer", [80, 0])
    keeper.cut()
    chase_id = UUID(keeper.chase_id)
    farmer = keeper.ids["Farmer"]

    def record(command: Callable[[Any], None]) -> None:  # a command in B, views not caught up
        chase = b.repository.get(chase_id)
        command(chase)
        b.save(chase)

    record(lambda c: c.move(farmer, 2))  # Moved, CaughtUp, TurnEnded
    select = a.recorder.select_notifications
    interleaved = []

    def select_after_b(*args: Any, **kwargs: Any) -> Any:
        if not interleaved:
            interleaved.append(True)
            b.updater.catch_up()
            record(lambda c: c.end("caught"))
        return select(*args, **kwargs)

    a.recorder.select_notifications = select_after_b
    try:
        a.updater.catch_up()
    finally:
        a.recorder.select_notifications = select
    assert interleaved

    live = a.views.track_view(str(chase_id))
    assert live["phase"] == "ended"
    assert live["caught_up"] == [{"pursuer_id": farmer, "quarry_id": keeper.ids["Harvey"], "location": 2, "round": 1}]
    a.views.clear(APP)
    a.updater.catch_up()
    assert a.views.track_view(str(chase_id)) == live
