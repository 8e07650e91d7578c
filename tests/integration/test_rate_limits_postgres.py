"""Rate limits on PostgreSQL: the e2e tests of tests/e2e/test_rate_limits.py, collected here
with the PostgreSQL ledger fixture (a throttled command records nothing there either), and the
count shared by a server's worker processes on PostgreSQL without Redis."""
from __future__ import annotations

from tests.e2e.test_rate_limits import *  # noqa: F401,F403
from tests.e2e.test_rate_limits_shared import two_workers_share_one_count  # noqa: E402


def test_two_workers_on_postgresql_share_one_count(tmp_path, postgres_env):
    two_workers_share_one_count(tmp_path, postgres_env)
