"""Projections: pure functions from a chase's state (folded from its events) to its views."""
from application.projections import track, vehicles

# Every view rendered from a chase's state, by name; all are written in one transaction.
RENDERERS = {"track": track.render, "vehicles": vehicles.render}
