"""Webhook host names: a name in another script is sent in its ASCII form, a name with none is
refused; a name at an internal address is refused without telling which kind of address; and
one Keeper's names whose nameserver never answers cannot get other Keepers' webhooks switched
off (infrastructure/webhook_targets.py, infrastructure/webhook_lookups.py).

The receivers are on 127.0.0.1; the names are answered by a stand-in for the resolver; the
ledger is on a SQLite file (tests/integration/test_webhook_names_postgres.py: PostgreSQL).
"""
from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator
from typing import Any
from uuid import UUID

import pytest

from api import create_app
from infrastructure.bootstrap import build_ledger
from infrastructure.webhook_lookups import THREADS
from tests.e2e.test_webhooks import RECEIVERS_ALLOWED, Receiver, roll, start, wait_for

SETTINGS = {"CHASE_LEDGER_JOB_BACKOFF": "1", "CHASE_LEDGER_WEBHOOK_TIMEOUT": "1", "CHASE_LEDGER_WEBHOOK_DISABLE_AFTER": "3"}


@pytest.fixture
def store(tmp_path) -> dict[str, str]:
    """Where the ledger keeps its events (tests/integration/test_webhook_names_postgres.py: PostgreSQL)."""
    return {"SQLITE_DBNAME": str(tmp_path / "chase.sqlite3")}


@pytest.fixture
def table(store) -> Iterator[tuple[Any, Any]]:
    ledger = build_ledger({**store, **SETTINGS, **RECEIVERS_ALLOWED})
    yield ledger, create_app(lambda: ledger).test_client()
    ledger.close()


@pytest.fixture
def shipped(store) -> Iterator[tuple[Any, Any]]:
    """The server as shipped: no CHASE_LEDGER_WEBHOOK_ALLOW."""
    ledger = build_ledger({**store, **SETTINGS})
    yield ledger, create_app(lambda: ledger).test_client()
    ledger.close()


def resolver(monkeypatch: pytest.MonkeyPatch, names: dict[str, str], blocked: Callable[[str], bool] = lambda host: False) -> threading.Event:
    """Stands in for the resolver: ``names`` answered at once, ``blocked`` hosts never until the event is set."""
    answer = threading.Event()
    real = socket.getaddrinfo

    def getaddrinfo(host: Any, *args: Any, **kw: Any) -> Any:
        if blocked(host):
            answer.wait(60)
            raise socket.gaierror(socket.EAI_AGAIN, "no answer")
        if host in names:
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (names[host], 0))]
        return real(host, *args, **kw)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return answer


def hooks(client: Any, chase_id: str, keeper: dict[str, str]) -> list[dict[str, Any]]:
    return client.get(f"/chases/{chase_id}/webhooks", headers=keeper).get_json()["webhooks"]


def deliveries(client: Any, chase_id: str, hook_id: str, keeper: dict[str, str]) -> list[dict[str, Any]]:
    return client.get(f"/chases/{chase_id}/webhooks/{hook_id}/deliveries", headers=keeper).get_json()["deliveries"]


def test_a_host_in_another_script_is_kept_and_sent_in_its_ascii_form(table, monkeypatch):
    ledger, client = table
    receiver = Receiver()
    port = receiver.server.server_port
    resolver(monkeypatch, {"xn--bcher-kva.example": "127.0.0.1"})
    try:
        chase_id, keeper = start(client)
        # Step 1: the Keeper registers a URL whose host is written in German; it is kept in ASCII.
        registered = client.post(f"/chases/{chase_id}/webhooks", json={"url": f"http://Bücher.example:{port}/hooks/ü"}, headers=keeper)
        assert registered.status_code == 201
        assert registered.get_json()["url"] == f"http://xn--bcher-kva.example:{port}/hooks/%C3%BC"
        # Step 2: an event is delivered there, and listed as delivered.
        roll(ledger, chase_id, 1)
        assert wait_for(lambda: len(receiver.taken()) == 1)
        assert receiver.taken()[0][0]["host"] == f"xn--bcher-kva.example:{port}"
        hook_id = registered.get_json()["webhook_id"]
        assert wait_for(lambda: [d["status"] for d in deliveries(client, chase_id, hook_id, keeper)] == ["delivered"])
    finally:
        receiver.close()


@pytest.mark.parametrize("url, why", [
    ("http://xn--ü.example/", "no ASCII form"),  # "xn--" begins an ASCII form, never a name in another script
    ("http://‿.example/", "no ASCII form"),  # a character no host name may hold
    ("http://127.0.0.1。/", "loopback"),  # the ideographic full stop is a dot: this is the server itself
    ("http://127。0。0。1/", "loopback"),
])
def test_a_host_without_an_ascii_form_or_at_the_server_itself_is_refused_naming_the_url(shipped, url, why):
    ledger, client = shipped
    chase_id, keeper = start(client)
    refused = client.post(f"/chases/{chase_id}/webhooks", json={"url": url}, headers=keeper)
    assert refused.status_code == 422
    error = refused.get_json()["errors"][0]
    assert error["field"] == "url" and why in error["message"]
    assert hooks(client, chase_id, keeper) == []


def test_a_name_at_an_internal_address_is_refused_without_saying_what_kind_it_is(shipped, monkeypatch):
    ledger, client = shipped
    resolver(monkeypatch, {"db.internal.example": "10.1.2.3", "metadata.internal.example": "169.254.169.254"})
    chase_id, keeper = start(client)
    # Names at a private and a link-local address are refused in the very same words: a Keeper
    # cannot map the server's internal names by the answers.
    said = []
    for name in ("db.internal.example", "metadata.internal.example"):
        refused = client.post(f"/chases/{chase_id}/webhooks", json={"url": f"http://{name}/hook"}, headers=keeper)
        assert refused.status_code == 422 and refused.get_json()["errors"][0]["field"] == "url"
        said.append(refused.get_json()["errors"][0]["message"])
    assert said[0] == said[1] and "not public" in said[0] and "private" not in said[0] and "link-local" not in said[0]
    # An address written as such is named by its kind: the Keeper wrote it.
    literal = client.post(f"/chases/{chase_id}/webhooks", json={"url": "http://10.1.2.3/hook"}, headers=keeper)
    assert "private" in literal.get_json()["errors"][0]["message"]


def test_names_that_never_resolve_get_no_other_keepers_webhook_switched_off(table, monkeypatch):
    ledger, client = table
    receiver = Receiver()
    port = receiver.server.server_port
    answer = resolver(monkeypatch, {"bot.example": "127.0.0.1"}, blocked=lambda host: str(host).startswith("tarpit"))
    try:
        # Step 1: a hostile Keeper registers webhooks at names whose nameserver never answers, as
        # many as the server looks up at once: they hold every lookup thread.
        hostile, hostile_keeper = start(client)
        for n in range(THREADS):
            assert client.post(f"/chases/{hostile}/webhooks", json={"url": f"http://tarpit-{n}.example/"}, headers=hostile_keeper).status_code == 201
        # Step 2: another Keeper's webhook, at a name that resolves, and an event of theirs.
        chase_id, keeper = start(client)
        hook = client.post(f"/chases/{chase_id}/webhooks", json={"url": f"http://bot.example:{port}/hook"}, headers=keeper).get_json()
        roll(ledger, hostile, 1)
        roll(ledger, chase_id, 1)
        # Step 3: the hostile webhooks fail and are switched off; the other Keeper's is not.
        assert wait_for(lambda: not any(h["enabled"] for h in hooks(client, hostile, hostile_keeper)), timeout=60)
        assert not wait_for(lambda: not hooks(client, chase_id, keeper)[0]["enabled"], timeout=3)
        shown = hooks(client, chase_id, keeper)[0]
        assert shown["enabled"] and shown["failed_attempts"] == 0
        assert deliveries(client, chase_id, hook["webhook_id"], keeper) == []
        # Step 4: once the lookups are free again, its events arrive.
        answer.set()
        roll(ledger, chase_id, 1)
        assert wait_for(lambda: hooks(client, chase_id, keeper)[0]["delivered_version"] == ledger.runner.load(UUID(chase_id)).version, timeout=60)
        assert len(receiver.taken()) == 2
    finally:
        answer.set()
        receiver.close()
