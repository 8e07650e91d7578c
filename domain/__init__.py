"""Chase Ledger's domain: rules, aggregates, events and value objects.

Imports only the standard library and ``eventsourcing.domain`` (tests/unit/test_layers.py).
"""
