"""``Prefer: return=minimal`` on PostgreSQL: tests/e2e/test_minimal_answers.py with the
PostgreSQL ledger fixture."""
from __future__ import annotations

from tests.e2e.test_minimal_answers import *  # noqa: F401,F403
