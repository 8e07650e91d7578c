"""How long `chase serve` waits on a client, and how many connections one address may hold
(README "Configuration"). Read by gunicorn's settings (api/gunicorn_conf.py) and each worker."""
from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from infrastructure.settings import ConfigurationError, whole_number


@dataclass(frozen=True)
class ServerSettings:
    """The time a request's headers and body may take, the idle time between requests, and the
    connections one client address may hold open in each worker process (0: no cap)."""

    header_timeout: float = 10.0  # a request line and its headers fit in a packet or two: a real client sends them at once
    body_timeout: float = 30.0  # the largest body accepted (256 KiB) on a link of 70 kbit/s
    idle_timeout: int = 5  # between requests on a kept-alive connection (gunicorn's keepalive)
    # A browser opens at most six connections to a host, its live streams included; a table of
    # players behind one router a few dozen. One address may not take a worker's every file.
    connections_per_address: int = 256

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> ServerSettings:
        environ = os.environ if environ is None else environ
        return cls(
            header_timeout=_seconds(environ, "CHASE_LEDGER_HEADER_TIMEOUT", cls.header_timeout),
            body_timeout=_seconds(environ, "CHASE_LEDGER_BODY_TIMEOUT", cls.body_timeout),
            idle_timeout=int(whole_number(environ, "CHASE_LEDGER_IDLE_TIMEOUT", cls.idle_timeout, least=1)),
            connections_per_address=whole_number(environ, "CHASE_LEDGER_CONNECTIONS_PER_ADDRESS", cls.connections_per_address, least=0),
        )


def _seconds(environ: Mapping[str, str], name: str, default: float) -> float:
    raw = environ.get(name, str(default)).strip()
    try:
        value = float(raw)
    except ValueError:
        value = 0.0
    if not 0 < value <= 3600:
        raise ConfigurationError(f"{name} must be a number of seconds above 0 and at most 3600, not {raw!r}")
    return value

