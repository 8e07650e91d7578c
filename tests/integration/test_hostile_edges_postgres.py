"""Hostile input at the edge on PostgreSQL, which refuses NUL in text outright: the e2e tests of
tests/e2e/test_hostile_edges.py, collected here with the PostgreSQL ledger fixture."""
from __future__ import annotations

from tests.e2e.test_hostile_edges import *  # noqa: F401,F403
