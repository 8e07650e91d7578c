"""Rate limits on PostgreSQL: the e2e tests of tests/e2e/test_rate_limits.py, collected here
with the PostgreSQL ledger fixture (a throttled command records nothing there either)."""
from __future__ import annotations

from tests.e2e.test_rate_limits import *  # noqa: F401,F403
