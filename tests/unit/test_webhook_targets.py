"""Where a webhook may send (infrastructure/webhook_targets.py), address by address, and what a
job's error shows of a URL (application/jobs.py)."""
from __future__ import annotations

import ipaddress

import pytest

from application.jobs import without_urls
from infrastructure.webhook_targets import TargetPolicy, TargetRefused, is_public


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
