"""Adapters: persistence, views, dice with their secret, job queues, and the composition root."""
