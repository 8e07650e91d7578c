"""Webhooks on PostgreSQL: the same stories as tests/e2e/test_webhooks.py, on the PostgreSQL
webhook store (delivered versions moved by compare-and-set, deliveries kept beside the events)."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from api import create_app
from infrastructure.bootstrap import build_ledger
from tests.e2e.test_webhooks import (  # noqa: F401  (run here on PostgreSQL)
    RECEIVERS_ALLOWED,
    test_a_failed_delivery_is_retried_and_order_still_holds,
    test_every_event_arrives_signed_in_order_with_its_event_id,
)


@pytest.fixture
def table(postgres_env: dict[str, str]) -> Iterator[tuple[Any, Any]]:
    ledger = build_ledger({**postgres_env, "CHASE_LEDGER_JOB_BACKOFF": "1", **RECEIVERS_ALLOWED})
    yield ledger, create_app(lambda: ledger).test_client()
    ledger.close()
