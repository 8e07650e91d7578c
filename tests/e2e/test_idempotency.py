"""Retries are safe (issue 12 part 3): a POST sent again with its ``Idempotency-Key`` is answered
with the first answer, byte for byte, and recorded once (application/retries.py, api/idempotency.py).

Measured before: a dice roll retried three times with the same Idempotency-Key was recorded
three times.
"""
from __future__ import annotations

import threading
from typing import Any

from eventsourcing.persistence import ConnectionUnavailableError

from application.retries import IN_FLIGHT_LEASE
from tests.conftest import ChaseClient
from tests.e2e.record_helpers import HARVEY

KEY = {"Idempotency-Key": "roll-7f3a"}
ROLL = {"expression": "1D6", "table_dice": [4], "purpose": "spot the farmer"}


def running(keeper: ChaseClient) -> None:
    keeper.create("Harvey and the farmer")
    keeper.add(**HARVEY)


def roll(keeper: ChaseClient, body: dict[str, Any] = ROLL, headers: dict[str, str] = KEY) -> Any:
    return keeper.post("/dice-rolls", dict(body, participant_id=keeper.ids["Harvey"]), headers=headers)


def test_a_roll_retried_three_times_is_recorded_once_and_answered_the_same(keeper):
    running(keeper)

    # The Keeper's dice roll is sent, and sent again twice (the answers were lost on the way).
    first, second, third = roll(keeper), roll(keeper), roll(keeper)

    # One roll is recorded; every answer is the first one, the retries marked as replayed.
    assert [r["roll"]["purpose"] for r in keeper.rolls()].count("spot the farmer") == 1
    assert first.status_code == second.status_code == third.status_code == 200
    assert second.get_data() == first.get_data() and third.get_data() == first.get_data()
    assert "Idempotent-Replayed" not in first.headers
    assert second.headers["Idempotent-Replayed"] == "true" and third.headers["Idempotent-Replayed"] == "true"
    assert second.headers["ETag"] == first.headers["ETag"] and second.headers["X-Chain-Head"] == first.headers["X-Chain-Head"]

    # A new key is a new roll.
    assert roll(keeper, headers={"Idempotency-Key": "roll-8b21"}).status_code == 200
    assert [r["roll"]["purpose"] for r in keeper.rolls()].count("spot the farmer") == 2


def test_the_same_key_with_another_request_is_refused_naming_the_header(keeper):
    running(keeper)
    roll(keeper)

    # The key again, for another roll: 422, naming the header, and nothing more recorded.
    refused = roll(keeper, dict(ROLL, expression="2D6", table_dice=[1, 2]))
    assert refused.status_code == 422 and refused.mimetype == "application/problem+json"
    assert refused.get_json()["errors"] == [{"field": "Idempotency-Key", "message": "already used for another request"}]
    assert len([r for r in keeper.rolls() if r["roll"]["purpose"] == "spot the farmer"]) == 1

    # The same body in another key order is the same request: replayed, not refused.
    reordered = keeper.post("/dice-rolls", {"participant_id": keeper.ids["Harvey"], **dict(reversed(list(ROLL.items())))}, headers=KEY)
    assert reordered.status_code == 200 and reordered.headers["Idempotent-Replayed"] == "true"


def test_keys_are_scoped_to_the_token(keeper):
    running(keeper)
    harvey = keeper.player("Harvey")
    roll(keeper)

    # The player's token sends the same key: it is the player's own key, so the roll is recorded.
    answer = roll(harvey)
    assert answer.status_code == 200 and "Idempotent-Replayed" not in answer.headers
    assert len([r for r in keeper.rolls() if r["roll"]["purpose"] == "spot the farmer"]) == 2


def a_roll_held_in_flight(keeper: Any, ledger: Any, monkeypatch: Any) -> tuple[threading.Thread, threading.Event, list[Any]]:
    """A roll sent on a running chase and held inside its command until ``release`` is set: the
    thread sending it, the release, and the list its answer is appended to."""
    running(keeper)
    commands = ledger.commands["coc7e"]
    entered, release = threading.Event(), threading.Event()
    roll_dice = commands.roll_dice

    def slow(*args: Any, **kwargs: Any) -> Any:
        entered.set()
        release.wait(10)
        return roll_dice(*args, **kwargs)

    monkeypatch.setattr(commands, "roll_dice", slow)
    answers: list[Any] = []
    first = threading.Thread(target=lambda: answers.append(roll(keeper)))
    first.start()
    assert entered.wait(10)
    return first, release, answers


def test_a_duplicate_arriving_while_the_first_is_in_flight_is_409(keeper, ledger, monkeypatch):
    first, release, answers = a_roll_held_in_flight(keeper, ledger, monkeypatch)

    # While the first is still being handled, its duplicate is refused with 409 naming the header.
    duplicate = roll(keeper)
    assert duplicate.status_code == 409 and duplicate.get_json()["header"] == "Idempotency-Key"

    # Once the first is answered, the duplicate gets its answer.
    release.set()
    first.join(10)
    assert answers[0].status_code == 200
    later = roll(keeper)
    assert later.get_data() == answers[0].get_data() and later.headers["Idempotent-Replayed"] == "true"
    assert len([r for r in keeper.rolls() if r["roll"]["purpose"] == "spot the farmer"]) == 1


def test_creating_a_chase_with_a_key_creates_one_and_keeps_the_token_sealed(client, ledger):
    # POST /chases has no token yet: the key alone (with the request's fingerprint) scopes it.
    first = client.post("/chases", json={"name": "The Dunwich road"}, headers={"Idempotency-Key": "new-chase-1"})
    again = client.post("/chases", json={"name": "The Dunwich road"}, headers={"Idempotency-Key": "new-chase-1"})
    assert first.status_code == again.status_code == 201
    assert again.get_data() == first.get_data() and again.headers["Idempotent-Replayed"] == "true"
    token = first.get_json()["keeper_token"]

    # One chase; the answer kept beside the events does not show the Keeper's token (nor the key).
    with ledger.factory.datastore.transaction(commit=False) as c:
        c.execute("SELECT * FROM idempotency_keys")
        rows = [dict(r) for r in c.fetchall()]
        c.execute("SELECT count(DISTINCT originator_id) AS chases FROM stored_events")
        assert c.fetchone()["chases"] == 1
    stored = repr(rows).encode() + b"".join(bytes(r["answer"]) for r in rows)
    assert len(rows) == 1 and token.encode() not in stored and b"new-chase-1" not in stored


def told_it_was_recorded(answer: Any, keeper: ChaseClient) -> None:
    """The retry is told the command stands, and where to read it: never an answer made up
    without the rolls and outcome the lost answer held."""
    problem = answer.get_json()
    assert answer.status_code == 409 and answer.mimetype == "application/problem+json", problem
    assert problem["type"] == "/problems/idempotency-key-recorded" and problem["header"] == "Idempotency-Key"
    assert problem["chase_id"] == keeper.chase_id and problem["version"] == keeper.track()["version"]
    at = keeper.http.get(answer.headers["Location"])
    assert at.status_code == 200 and at.get_json()["chase"]["version"] == problem["version"]
    assert "rolls" in problem["detail"] and "Idempotent-Replayed" not in answer.headers


def test_a_command_recorded_whose_answer_was_lost_is_told_where_to_read_it(keeper, ledger, monkeypatch):
    running(keeper)
    # The process dies between the commit and keeping the answer: no answer is kept.
    monkeypatch.setattr(ledger.retries.keys, "answer", lambda *args: None)
    first = roll(keeper)
    assert first.status_code == 200 and first.get_json()["rolls"]

    # A retry at once may still meet the first in flight (recorded, its answer about to be kept).
    assert roll(keeper).get_json()["type"] == "/problems/idempotency-key-in-flight"

    # Once its lease has run out unrenewed, the retry is told the roll was recorded and where to
    # read it; not answered with the chase and no rolls, and not recorded again.
    now = ledger.retries.clock()
    monkeypatch.setattr(ledger.retries, "clock", lambda: now + IN_FLIGHT_LEASE + 1)
    told_it_was_recorded(roll(keeper), keeper)
    assert [r["roll"]["purpose"] for r in keeper.rolls()].count("spot the farmer") == 1


def test_a_command_recorded_then_answered_with_a_server_error_is_told_where_to_read_it_on_retry(keeper, ledger, monkeypatch):
    running(keeper)
    # The roll is recorded, then the work after its commit meets the store busy: a 503 answer.
    after_save = ledger.read_side.after_save
    failing = [True]

    def busy_once(*args, **kwargs):
        if failing.pop() if failing else False:
            raise ConnectionUnavailableError("the store is busy")
        return after_save(*args, **kwargs)

    monkeypatch.setattr(ledger.read_side, "after_save", busy_once)
    first = roll(keeper)
    assert first.status_code == 503

    # The retry at once is not told of that failure again: it is told the roll was recorded, and
    # where; the roll stands once.
    told_it_was_recorded(roll(keeper), keeper)
    assert len([r for r in keeper.rolls() if r["roll"]["purpose"] == "spot the farmer"]) == 1


def test_a_key_left_in_flight_by_a_dead_process_is_taken_over_within_seconds(keeper, ledger, monkeypatch):
    running(keeper)
    # The process handling the first roll dies before recording anything: its claim stays, and
    # nobody renews it any more.
    commands, retries = ledger.commands["coc7e"], ledger.retries
    roll_dice = commands.roll_dice

    def died(*args: Any, **kwargs: Any) -> Any:
        raise SystemExit("the worker was killed")

    monkeypatch.setattr(commands, "roll_dice", died)
    monkeypatch.setattr(retries, "finish", lambda claim, *args: retries.leases.let_go(claim))
    monkeypatch.setattr(retries, "abandon", lambda claim: retries.leases.let_go(claim))
    try:
        roll(keeper)
    except SystemExit:
        pass
    monkeypatch.setattr(commands, "roll_dice", roll_dice)
    monkeypatch.undo()

    # A retry at once meets the claim in flight.
    assert roll(keeper).status_code == 409

    # Once the lease has run out (the claim once stayed in flight for two minutes), the retry runs
    # the roll, once.
    now = retries.clock()
    monkeypatch.setattr(retries, "clock", lambda: now + IN_FLIGHT_LEASE + 1)
    again = roll(keeper)
    assert again.status_code == 200 and "Idempotent-Replayed" not in again.headers
    assert [r["roll"]["purpose"] for r in keeper.rolls()].count("spot the farmer") == 1


def test_a_claim_that_lapsed_while_its_request_ran_and_was_taken_over_records_one_roll(keeper, ledger, monkeypatch):
    running(keeper)
    commands, retries = ledger.commands["coc7e"], ledger.retries
    entered, release = threading.Event(), threading.Event()
    roll_dice = commands.roll_dice
    calls: list[int] = []

    def first_is_slow(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 1:  # the first request only: it hangs until the retry has run
            entered.set()
            release.wait(10)
        return roll_dice(*args, **kwargs)

    monkeypatch.setattr(commands, "roll_dice", first_is_slow)
    # Its process fails to renew the claim (the store too busy for the renewals).
    monkeypatch.setattr(retries.leases, "renew", lambda: None)
    answers: list[Any] = []
    first = threading.Thread(target=lambda: answers.append(roll(keeper)))
    first.start()
    assert entered.wait(10)

    # The lease runs out while the first is still rolling: a retry takes the key over and rolls.
    now = retries.clock()
    monkeypatch.setattr(retries, "clock", lambda: now + IN_FLIGHT_LEASE + 1)
    retry = roll(keeper)
    assert retry.status_code == 200 and "Idempotent-Replayed" not in retry.headers

    # The first then finishes: it no longer holds the key, so its roll is not recorded; it is
    # told the request is in flight (the retry's answer is the one kept).
    release.set()
    first.join(10)
    assert answers[0].status_code == 409 and answers[0].get_json()["header"] == "Idempotency-Key"
    assert [r["roll"]["purpose"] for r in keeper.rolls()].count("spot the farmer") == 1
    again = roll(keeper)
    assert again.get_data() == retry.get_data() and again.headers["Idempotent-Replayed"] == "true"


def test_a_slow_request_keeps_its_claim_past_the_lease(keeper, ledger, monkeypatch):
    # A short lease, so that the request below outlives several of them.
    monkeypatch.setattr(ledger.retries.leases, "lease", 0.3)
    first, release, answers = a_roll_held_in_flight(keeper, ledger, monkeypatch)

    # Four leases later the first is still being handled: its process renewed the claim, so a
    # duplicate is still refused in flight, not run a second time.
    threading.Event().wait(1.2)
    duplicate = roll(keeper)
    release.set()
    first.join(10)
    assert duplicate.status_code == 409 and duplicate.get_json()["type"] == "/problems/idempotency-key-in-flight"
    assert answers[0].status_code == 200
    assert [r["roll"]["purpose"] for r in keeper.rolls()].count("spot the farmer") == 1


def test_a_duplicate_between_the_first_s_commit_and_its_answer_is_409_not_another_answer(keeper, ledger, monkeypatch):
    running(keeper)
    # The duplicate arrives after the first recorded its roll, just before its answer is kept.
    keep, duplicates = ledger.retries.keys.answer, []

    def answer_after_a_duplicate(*args: Any) -> None:
        if not duplicates:
            late = threading.Thread(target=lambda: duplicates.append(roll(keeper)))
            late.start()
            late.join(10)
        keep(*args)

    monkeypatch.setattr(ledger.retries.keys, "answer", answer_after_a_duplicate)
    first = roll(keeper)

    # It is told the first is in flight, not handed a second, different answer for the same roll.
    assert first.status_code == 200 and duplicates[0].status_code == 409
    assert duplicates[0].get_json()["header"] == "Idempotency-Key"
    later = roll(keeper)
    assert later.get_data() == first.get_data() and later.headers["Idempotent-Replayed"] == "true"


def test_a_key_expires_after_its_time(keeper, ledger, monkeypatch):
    running(keeper)
    roll(keeper)

    # A day and a second later the key is free again: the same request is a new roll.
    now = ledger.retries.clock()
    monkeypatch.setattr(ledger.retries, "clock", lambda: now + ledger.retries.ttl + 1)
    answer = roll(keeper)
    assert answer.status_code == 200 and "Idempotent-Replayed" not in answer.headers
    assert len([r for r in keeper.rolls() if r["roll"]["purpose"] == "spot the farmer"]) == 2


def test_a_bad_key_is_refused_naming_the_header(keeper):
    running(keeper)
    refused = roll(keeper, headers={"Idempotency-Key": "x" * 256})
    assert refused.status_code == 422
    assert refused.get_json()["errors"][0]["field"] == "Idempotency-Key"
    assert not [r for r in keeper.rolls() if r["roll"]["purpose"] == "spot the farmer"]


def test_the_header_is_in_the_openapi_document(client):
    # A front-end developer reads in the contract that every POST takes the header.
    doc = client.get("/openapi.json").get_json()
    posts = [op for item in doc["paths"].values() for method, op in item.items() if method == "post"]
    assert posts and all(any(p["name"] == "Idempotency-Key" and p["in"] == "header" for p in op["parameters"]) for op in posts)


def test_a_dry_run_sent_with_a_key_leaves_the_key_for_the_real_roll(keeper):
    running(keeper)
    body = dict(ROLL, participant_id=keeper.ids["Harvey"])

    # A front-end asks the odds first, with the key it will send the roll with.
    tried = keeper.post("/dice-rolls?dry_run=true", body, headers=KEY)
    assert tried.status_code == 200 and tried.get_json()["dry_run"] is True

    # The roll itself, with that key, is recorded (not refused as another request, not replayed).
    rolled = roll(keeper)
    assert rolled.status_code == 200 and "Idempotent-Replayed" not in rolled.headers
    assert [r["roll"]["purpose"] for r in keeper.rolls()].count("spot the farmer") == 1


def test_a_roll_refused_as_the_chase_changed_too_fast_may_be_sent_again_with_its_key(keeper, monkeypatch):
    running(keeper)

    # The roll loses every race to record it: 409, "try again", and nothing recorded.
    monkeypatch.setattr("application.runner.RETRIES", 0)
    refused = roll(keeper)
    assert refused.status_code == 409 and "try again" in refused.get_json()["detail"]

    # Tried again with its key once the chase is calm: recorded, not the refusal replayed.
    monkeypatch.undo()
    rolled = roll(keeper)
    assert rolled.status_code == 200 and "Idempotent-Replayed" not in rolled.headers
    assert [r["roll"]["purpose"] for r in keeper.rolls()].count("spot the farmer") == 1
