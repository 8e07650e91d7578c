"""On PostgreSQL: retries are safe, with keys beside the events (issue 12 part 3).

The same dice roll sent at once from many threads with one ``Idempotency-Key`` is recorded
exactly once: one request runs it, the others are told it is in flight (409) or, once it is
answered, get its answer again, byte for byte. The SQLite scenarios of tests/e2e/test_idempotency.py
run here on PostgreSQL too, and those of tests/e2e/test_idempotency_preferences.py: the headers
that describe a kept answer (Preference-Applied, Vary) go through the store, as answers kept by
the earlier version without them come out of it.
"""
from __future__ import annotations

import threading
from typing import Any

import pytest

from tests.e2e.test_idempotency import (  # noqa: F401 - collected here, on PostgreSQL
    roll,
    running,
    test_a_claim_that_lapsed_while_its_request_ran_and_was_taken_over_records_one_roll,
    test_a_command_recorded_then_answered_with_a_server_error_is_told_where_to_read_it_on_retry,
    test_a_command_recorded_whose_answer_was_lost_is_told_where_to_read_it,
    test_a_key_expires_after_its_time,
    test_a_key_left_in_flight_by_a_dead_process_is_taken_over_within_seconds,
    test_a_roll_retried_three_times_is_recorded_once_and_answered_the_same,
    test_a_slow_request_keeps_its_claim_past_the_lease,
    test_keys_are_scoped_to_the_token,
    test_the_same_key_with_another_request_is_refused_naming_the_header,
)
from tests.e2e.test_idempotency_preferences import (  # noqa: F401 - collected here, on PostgreSQL
    test_a_full_answer_is_replayed_with_the_headers_that_describe_it,
    test_a_retry_preferring_another_form_gets_the_first_answer_saying_its_form,
    test_an_answer_kept_by_the_earlier_version_still_replays_saying_its_form,
    test_an_answer_kept_while_the_full_form_was_the_default_replays_saying_its_form,
)

pytestmark = pytest.mark.postgres
THREADS = 8


def test_the_same_roll_sent_from_many_threads_at_once_is_recorded_once(keeper):
    running(keeper)
    start = threading.Barrier(THREADS)
    answers: list[Any] = []
    lock = threading.Lock()

    def send() -> None:
        start.wait(10)
        answer = roll(keeper)
        with lock:
            answers.append(answer)

    # Eight clients send the same roll with the same key at the same moment.
    threads = [threading.Thread(target=send) for _ in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)

    # Exactly one roll is recorded; every other answer is a 409 (in flight) or the first answer replayed.
    assert len([r for r in keeper.rolls() if r["roll"]["purpose"] == "spot the farmer"]) == 1
    ran = [a for a in answers if a.status_code == 200 and "Idempotent-Replayed" not in a.headers]
    replayed = [a for a in answers if a.headers.get("Idempotent-Replayed") == "true"]
    in_flight = [a for a in answers if a.status_code == 409]
    assert len(ran) == 1 and len(ran) + len(replayed) + len(in_flight) == THREADS
    assert all(a.get_data() == ran[0].get_data() for a in replayed)
    assert all(a.get_json()["header"] == "Idempotency-Key" for a in in_flight)

    # A retry after all of them gets the first answer.
    last = roll(keeper)
    assert last.get_data() == ran[0].get_data() and last.headers["Idempotent-Replayed"] == "true"


def test_a_chase_created_with_a_key_is_created_once(client, pg):
    answers = [client.post("/chases", json={"name": "The Arkham docks"}, headers={"Idempotency-Key": "docks-1"}) for _ in range(3)]
    assert [a.status_code for a in answers] == [201, 201, 201]
    assert answers[1].get_data() == answers[0].get_data() == answers[2].get_data()
    assert pg.execute("SELECT count(DISTINCT originator_id) FROM chaseledger_events").fetchone() == (1,)
    # The key is stored hashed and the answer (with the Keeper's token) sealed.
    token = answers[0].get_json()["keeper_token"]
    stored = " ".join(str(row) for row in pg.execute("SELECT * FROM idempotency_keys").fetchall())
    assert token not in stored and "docks-1" not in stored
