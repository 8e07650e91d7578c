"""Webhook host names on the PostgreSQL store: the stories of tests/e2e/test_webhook_names.py
that keep something (the ASCII form of a URL, the failed attempts that switch a webhook off)."""
from __future__ import annotations

import pytest

from tests.e2e.test_webhook_names import (  # noqa: F401  (run here on PostgreSQL)
    shipped,
    table,
    test_a_host_in_another_script_is_kept_and_sent_in_its_ascii_form,
    test_names_that_never_resolve_get_no_other_keepers_webhook_switched_off,
)

pytestmark = pytest.mark.postgres


@pytest.fixture
def store(postgres_env: dict[str, str]) -> dict[str, str]:
    return postgres_env
