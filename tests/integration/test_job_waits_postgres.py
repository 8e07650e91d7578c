"""Job waits hold no thread on PostgreSQL too: the e2e story of tests/e2e/test_job_waits.py, the
jobs kept in PostgreSQL."""
from __future__ import annotations

import pytest

from tests.e2e.test_job_waits import many_waits_leave_the_threads

pytestmark = pytest.mark.postgres


def test_many_open_job_waits_on_postgresql_leave_the_threads_to_everyone_else(tmp_path, postgres_env):
    many_waits_leave_the_threads(tmp_path, postgres_env)
