"""A Keeper keeps their webhooks: a few per chase, changed, re-keyed, switched off and on, deleted;
a receiver that keeps failing is switched off; retries number their attempts and never send an
event twice at once, even from two API processes.

The receivers are on 127.0.0.1 (allowed by CHASE_LEDGER_WEBHOOK_ALLOW); the ledger is on a
SQLite file (tests/integration/test_webhook_keeping_postgres.py runs the same on PostgreSQL).
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from api import create_app
from infrastructure.bootstrap import build_ledger
from tests.e2e.test_webhooks import RECEIVERS_ALLOWED, Receiver, roll, start, wait_for

SETTINGS = {"CHASE_LEDGER_JOB_BACKOFF": "1", "CHASE_LEDGER_WEBHOOK_DISABLE_AFTER": "3", **RECEIVERS_ALLOWED}


@pytest.fixture
def store(tmp_path) -> dict[str, str]:
    """Where the ledger keeps its events (tests/integration/test_webhook_keeping_postgres.py: PostgreSQL)."""
    return {"SQLITE_DBNAME": str(tmp_path / "chase.sqlite3")}


@pytest.fixture
def table(store) -> Iterator[tuple[Any, Any]]:
    ledger = build_ledger({**store, **SETTINGS})
    yield ledger, create_app(lambda: ledger).test_client()
    ledger.close()


def webhooks(client: Any, chase_id: str, keeper: dict[str, str]) -> list[dict[str, Any]]:
    return client.get(f"/chases/{chase_id}/webhooks", headers=keeper).get_json()["webhooks"]


def attempts(client: Any, chase_id: str, hook_id: str, keeper: dict[str, str]) -> list[tuple[int, str, int]]:
    """(version, status, attempt) of each delivery, oldest first."""
    found = client.get(f"/chases/{chase_id}/webhooks/{hook_id}/deliveries", headers=keeper).get_json()["deliveries"]
    return [(d["version"], d["status"], d["attempt"]) for d in reversed(found)]


def test_a_chase_has_a_few_webhooks_that_the_keeper_changes_rekeys_switches_off_and_deletes(table):
    ledger, client = table
    receiver = Receiver()
    try:
        chase_id, keeper = start(client)
        base = f"/chases/{chase_id}/webhooks"

        # Step 1: five webhooks are accepted; a sixth is refused, saying why.
        hooks = [client.post(base, json={"url": f"{receiver.url}/{n}"}, headers=keeper).get_json() for n in range(5)]
        sixth = client.post(base, json={"url": receiver.url}, headers=keeper)
        assert sixth.status_code == 409 and sixth.get_json()["type"] == "/problems/too-many-webhooks"
        assert len(webhooks(client, chase_id, keeper)) == 5

        # Step 2: the Keeper deletes four; the one left is theirs to change.
        for hook in hooks[1:]:
            assert client.delete(f"{base}/{hook['webhook_id']}", headers=keeper).status_code == 204
        assert client.get(f"{base}/{hooks[1]['webhook_id']}", headers=keeper).status_code == 404
        hook = hooks[0]
        url = f"{base}/{hook['webhook_id']}"

        # Step 3: only dice rolls, at a new URL; the view says so.
        changed = client.patch(url, json={"url": receiver.url, "events": ["chase.DiceRolled"]}, headers=keeper)
        assert changed.status_code == 200 and changed.get_json()["events"] == ["chase.DiceRolled"]
        assert client.patch(url, json={"url": "http://127.0.0.1@10.0.0.1/"}, headers=keeper).status_code == 422

        # Step 4: a new secret, shown once; the next message is signed with it, not the old one.
        rekeyed = client.post(f"{url}/secret", headers=keeper).get_json()
        assert rekeyed["secret"].startswith("whsec_") and rekeyed["secret"] != hook["secret"]
        assert "secret" not in client.get(url, headers=keeper).get_json()
        roll(ledger, chase_id, 1)
        assert wait_for(lambda: len(receiver.taken()) == 1)
        headers, body = receiver.taken()[0]
        assert Webhook(rekeyed["secret"]).verify(body, headers)["type"] == "chase.DiceRolled"
        with pytest.raises(WebhookVerificationError):
            Webhook(hook["secret"]).verify(body, headers)

        # Step 5: switched off, nothing is sent; switched on, what was recorded meanwhile follows.
        off = client.patch(url, json={"enabled": False}, headers=keeper).get_json()
        assert off["enabled"] is False and off["disabled_reason"] == "switched off by the Keeper"
        roll(ledger, chase_id, 2)
        assert webhooks(client, chase_id, keeper)[0]["delivered_version"] == 2 and len(receiver.taken()) == 1
        on = client.patch(url, json={"enabled": True}, headers=keeper).get_json()
        assert on["enabled"] is True and on["disabled_reason"] is None
        assert wait_for(lambda: len(receiver.taken()) == 3)
        assert [h["webhook-id"] for h, _ in receiver.taken()] == [f"{chase_id}:{v}" for v in (2, 3, 4)]

        # Step 6: a change that names nothing is refused.
        assert client.patch(url, json={}, headers=keeper).status_code == 422
    finally:
        receiver.close()


def test_a_receiver_that_keeps_failing_is_switched_off_saying_why(table):
    ledger, client = table
    receiver = Receiver(answers=[500] * 10)
    try:
        chase_id, keeper = start(client)
        hook = client.post(f"/chases/{chase_id}/webhooks", json={"url": receiver.url}, headers=keeper).get_json()
        roll(ledger, chase_id, 1)
        # Three failed attempts in a row (CHASE_LEDGER_WEBHOOK_DISABLE_AFTER=3) switch it off.
        assert wait_for(lambda: not webhooks(client, chase_id, keeper)[0]["enabled"])
        shown = webhooks(client, chase_id, keeper)[0]
        assert shown["failed_attempts"] == 3
        assert shown["disabled_reason"] == "switched off after 3 failed attempts in a row (the last: the receiver answered 500)"
        # The job's later attempt sends nothing more; the next event neither.
        roll(ledger, chase_id, 1)
        assert not wait_for(lambda: len(receiver.received) > 3, timeout=3)
        assert attempts(client, chase_id, hook["webhook_id"], keeper) == [(2, "failed", 1), (2, "failed", 2), (2, "failed", 3)]
        # The receiver is mended and the Keeper switches the webhook on: both events follow.
        receiver.answers = []
        client.patch(f"/chases/{chase_id}/webhooks/{hook['webhook_id']}", json={"enabled": True}, headers=keeper)
        assert wait_for(lambda: webhooks(client, chase_id, keeper)[0]["delivered_version"] == 3)
        assert attempts(client, chase_id, hook["webhook_id"], keeper)[3:] == [(2, "delivered", 4), (3, "delivered", 1)]
    finally:
        receiver.close()


def test_after_a_failure_each_event_is_sent_once_with_its_attempt_number(table):
    ledger, client = table
    receiver = Receiver(answers=[500])  # down for the first message only
    try:
        chase_id, keeper = start(client)
        hook = client.post(f"/chases/{chase_id}/webhooks", json={"url": receiver.url}, headers=keeper).get_json()
        roll(ledger, chase_id, 1)
        assert wait_for(lambda: len(receiver.received) == 1)
        # Three more events while the first waits for its retry.
        roll(ledger, chase_id, 3)
        assert wait_for(lambda: webhooks(client, chase_id, keeper)[0]["delivered_version"] == 5)
        # Each event reached the receiver once it was taken, in order; the retry is attempt 2.
        assert [h["webhook-id"] for h, _, _ in receiver.received] == [f"{chase_id}:{v}" for v in (2, 2, 3, 4, 5)]
        assert attempts(client, chase_id, hook["webhook_id"], keeper) == [
            (2, "failed", 1), (2, "delivered", 2), (3, "delivered", 1), (4, "delivered", 1), (5, "delivered", 1)]
    finally:
        receiver.close()


def test_two_api_processes_never_send_one_event_twice(store):
    receiver = Receiver(delay=0.3)  # each answer takes a while: the two processes' jobs overlap
    first, second = build_ledger({**store, **SETTINGS}), build_ledger({**store, **SETTINGS})
    try:
        client = create_app(lambda: first).test_client()
        chase_id, keeper = start(client)
        client.post(f"/chases/{chase_id}/webhooks", json={"url": receiver.url}, headers=keeper)
        # Both processes record events at once; each has the webhook's new events sent.
        for _ in range(3):
            roll(first, chase_id, 1)
            roll(second, chase_id, 1)
        assert wait_for(lambda: webhooks(client, chase_id, keeper)[0]["delivered_version"] == 7, timeout=30)
        assert wait_for(lambda: len(receiver.received) >= 6)
        # Every event arrived once, in order.
        assert [h["webhook-id"] for h, _, _ in receiver.received] == [f"{chase_id}:{v}" for v in range(2, 8)]
    finally:
        receiver.close()
        first.close()
        second.close()
