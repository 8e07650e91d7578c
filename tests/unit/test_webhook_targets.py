"""Where a webhook may send (infrastructure/webhook_targets.py), address by address, and what a
job's error shows of a URL (application/jobs.py)."""
from __future__ import annotations

import ipaddress
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from application.jobs import without_urls
from infrastructure.webhook_lookups import LookupFailed, LookupQueued, Lookups
from infrastructure.webhook_sender import StandardWebhookSender
from infrastructure.webhook_targets import TargetPolicy, TargetRefused, ascii_url, is_public


@pytest.mark.parametrize("address", [
    "127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.0.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1",
    "224.0.1.1", "240.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "fc00::1", "ff02::1",
    "::ffff:127.0.0.1", "::ffff:10.0.0.1", "2002:7f00:1::", "64:ff9b::a00:1",
])
def test_the_servers_own_networks_are_not_public(address):
    assert not is_public(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", ["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111", "::ffff:93.184.216.34"])
def test_public_addresses_are(address):
    assert is_public(ipaddress.ip_address(address))


@pytest.mark.parametrize("url", ["http://2130706433/", "http://0x7f.1/", "http://127.1/", "http://0177.0.0.1/",
                                 "http://localhost./", "http://a.localhost/", "http://u@example.com/", "ftp://example.com/"])
def test_odd_forms_and_credentials_are_refused_as_written(url):
    with pytest.raises(TargetRefused):
        TargetPolicy().check_url(url)


def test_the_operator_allows_hosts_and_networks():
    policy = TargetPolicy.parse("localhost, 10.0.0.0/8, [::1]")
    assert policy.check_url("http://localhost:8080/x") == ("localhost", 8080)
    assert policy.resolve("10.2.3.4", 80, 1.0) == ["10.2.3.4"]
    assert policy.resolve("::1", 80, 1.0) == ["::1"]
    with pytest.raises(TargetRefused):
        policy.resolve("192.168.1.1", 80, 1.0)


def test_a_job_error_shows_no_url():
    recorded = "WebhookFailed: https://bot.example/s3cret/path did not take event c:2: ConnectError"
    assert without_urls(recorded) == "WebhookFailed: <URL> did not take event c:2: ConnectError"


def test_a_host_in_another_script_is_written_in_ascii_and_judged_so():
    assert ascii_url("http://Bücher.example:81/ü?q=é") == "http://xn--bcher-kva.example:81/%C3%BC?q=%C3%A9"
    assert TargetPolicy().check_url("http://bücher.example/") == ("xn--bcher-kva.example", 80)
    with pytest.raises(TargetRefused, match="loopback"):
        TargetPolicy().check_url("http://127.0.0.1。/")  # the ideographic full stop: a dot
    with pytest.raises(TargetRefused, match="no ASCII form"):
        TargetPolicy().check_url("http://xn--ü.example/")


def test_a_url_kept_with_a_host_in_another_script_is_sent_in_its_ascii_form(monkeypatch):
    """A URL registered before hosts were converted: sending it once raised (httpcore sends ASCII only)."""
    hosts: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            hosts.append(self.headers["Host"])
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    real = socket.getaddrinfo
    monkeypatch.setattr(socket, "getaddrinfo", lambda host, *a, **kw: (
        [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", 0))] if host == "xn--bcher-kva.example" else real(host, *a, **kw)))
    try:
        sender = StandardWebhookSender(timeout=5.0, policy=TargetPolicy.parse("127.0.0.1"))
        port = server.server_port
        assert sender.send(f"http://bücher.example:{port}/", "whsec_" + "A" * 44, "c:1", 1, "{}") == (204, None)
        assert hosts == [f"xn--bcher-kva.example:{port}"]
    finally:
        server.shutdown()
        server.server_close()


def test_one_lookup_per_host_and_a_lookup_that_never_started_is_no_receivers_failure(monkeypatch):
    answer = threading.Event()
    asked: list[str] = []

    def getaddrinfo(host: str, *args: Any, **kw: Any) -> Any:
        asked.append(host)
        if host.startswith("tarpit"):  # a nameserver that never answers
            answer.wait(30)
            raise socket.gaierror(socket.EAI_AGAIN, "no answer")
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.216.34", 0))]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    policy = TargetPolicy(lookups=Lookups(threads=2))
    try:
        # Step 1: three deliveries to a host that never answers: each gives up, its lookup started
        # (the receiver's failure); the host was asked once, and holds one thread.
        for _ in range(3):
            with pytest.raises(LookupFailed) as failed:
                policy.resolve("tarpit-1.example", 80, 0.1)
            assert not isinstance(failed.value, LookupQueued)
        assert asked == ["tarpit-1.example"]
        # Step 2: the other thread still answers for other hosts.
        assert policy.resolve("bot.example", 80, 5.0) == ["93.184.216.34"]
        # Step 3: a second such host takes the last thread; a lookup of a good host waits in the
        # queue until its delivery gives up: no failure of that receiver.
        with pytest.raises(LookupFailed):
            policy.resolve("tarpit-2.example", 80, 0.1)
        with pytest.raises(LookupQueued):
            policy.resolve("bot.example", 80, 0.1)
        # Step 4: the nameserver answers at last (no), the threads are free, the good host resolves.
        answer.set()
        assert policy.resolve("bot.example", 80, 5.0) == ["93.184.216.34"]
    finally:
        answer.set()
