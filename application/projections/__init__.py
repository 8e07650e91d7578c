"""Projections: pure functions from a chase's events to its views."""
