"""A Keeper keeps their webhooks, on PostgreSQL: the stories of tests/e2e/test_webhook_keeping.py
on the PostgreSQL webhook store (the per-chase cap, the lease, the failure count in SQL)."""
from __future__ import annotations

import pytest

from tests.e2e.test_webhook_keeping import (  # noqa: F401  (run here on PostgreSQL)
    table,
    test_a_chase_has_a_few_webhooks_that_the_keeper_changes_rekeys_switches_off_and_deletes,
    test_a_receiver_that_keeps_failing_is_switched_off_saying_why,
    test_after_a_failure_each_event_is_sent_once_with_its_attempt_number,
    test_two_api_processes_never_send_one_event_twice,
)


@pytest.fixture
def store(postgres_env: dict[str, str]) -> dict[str, str]:
    return postgres_env
