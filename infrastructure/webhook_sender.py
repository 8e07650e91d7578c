"""Sends webhook messages signed as Standard Webhooks specifies (the ``standardwebhooks``
reference library signs; httpcore, the HTTP engine under httpx, posts).

Headers: ``webhook-id`` (the event id, the same on every retry), ``webhook-timestamp`` (Unix
seconds) and ``webhook-signature`` (``v1,<base64 HMAC-SHA256 of "id.timestamp.body">`` under the
``whsec_`` secret). Redirects are not followed: a receiver answers where it was registered.

The receiver is a stranger's server, so the sending is fenced:

* one deadline for the whole delivery (name lookup, connecting, TLS, sending, the answer's
  status and headers). httpx's timeouts count each read on its own, so a receiver sending a
  byte every few seconds kept a delivery 40 s under a 10 s timeout; here every socket operation
  gets only what is left of the deadline;
* the answer's body is never read, let alone inflated: ``accept-encoding: identity`` is asked
  for, only the status line and headers are read (h11 refuses headers past 16 KiB), and the
  connection is closed. (httpx inflated a 0.5 MB gzip answer into 512 MB of memory.);
* the target policy (infrastructure/webhook_targets.py) is checked on the resolved address, and
  the connection goes to that address: a name that resolves elsewhere next time cannot slip by;
* no proxy from the environment, no connection pooling, and no log line naming the URL (its
  path is often a secret); an error says what went wrong, never where.
"""
from __future__ import annotations

import base64
import secrets
import ssl
import time
from collections.abc import Iterable
from typing import Any
from datetime import datetime, timezone
from urllib.parse import urlsplit

import httpcore
from httpcore import NetworkStream
from standardwebhooks.webhooks import Webhook

from application.ports import SendPostponed
from infrastructure.webhook_targets import LookupFailed, LookupQueued, TargetPolicy, TargetRefused, ascii_url

SECRET_BYTES = 32
USER_AGENT = "chase-ledger-webhooks/1"


class DeadlinePassed(httpcore.TimeoutException):
    """The delivery's whole deadline is spent."""


class _Deadline:
    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.at = time.monotonic() + seconds

    def left(self, timeout: float | None = None) -> float:
        """What is left of the deadline (at most ``timeout``); DeadlinePassed when nothing is."""
        left = self.at - time.monotonic()
        if left <= 0:
            raise DeadlinePassed(f"no answer within the {self.seconds:g} s deadline")
        return left if timeout is None else min(timeout, left)


class _DeadlineStream(NetworkStream):
    """A socket whose every read and write gets only what is left of the delivery's deadline."""

    def __init__(self, inner: NetworkStream, deadline: _Deadline) -> None:
        self.inner = inner
        self.deadline = deadline

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self.inner.read(max_bytes, self.deadline.left(timeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self.inner.write(buffer, self.deadline.left(timeout))

    def close(self) -> None:
        self.inner.close()

    def start_tls(self, ssl_context: ssl.SSLContext, server_hostname: str | None = None, timeout: float | None = None) -> NetworkStream:
        return _DeadlineStream(self.inner.start_tls(ssl_context, server_hostname, self.deadline.left(timeout)), self.deadline)

    def get_extra_info(self, info: str) -> object:
        return self.inner.get_extra_info(info)


class _CheckedBackend(httpcore.SyncBackend):
    """Connects only to addresses the target policy allows, the very ones it checked."""

    def __init__(self, policy: TargetPolicy, deadline: _Deadline) -> None:
        self.policy = policy
        self.deadline = deadline

    def connect_tcp(
        self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> NetworkStream:
        failure: Exception = httpcore.ConnectError("no address to connect to")
        for address in self.policy.resolve(host, port, self.deadline.left()):
            try:
                stream = super().connect_tcp(address, port, self.deadline.left(timeout), local_address, socket_options)
                return _DeadlineStream(stream, self.deadline)
            except httpcore.ConnectError as e:
                failure = e
        raise failure

    def connect_unix_socket(self, path: str, timeout: float | None = None,
                            socket_options: Iterable[Any] | None = None) -> NetworkStream:
        raise TargetRefused("a webhook never connects to a local socket")


class StandardWebhookSender:
    """Posts one signed message and says how the receiver answered."""

    def __init__(self, timeout: float = 10.0, policy: TargetPolicy = TargetPolicy()) -> None:
        """``timeout``: seconds the whole delivery may take; ``policy``: where it may go."""
        self.timeout = timeout
        self.policy = policy

    def new_secret(self) -> str:
        return "whsec_" + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()

    def refusal(self, url: str) -> str | None:
        """Why a webhook may not send to this URL (checked when it is registered), or None."""
        try:  # a name that resolves to the server's own networks is refused now, not at each event
            host, port = self.policy.check_url(url)
            self.policy.resolve(host, port, min(self.timeout, 2.0))
        except TargetRefused as e:
            return str(e)
        except LookupFailed:
            pass  # not resolvable now: checked again at every delivery
        return None

    def ascii_url(self, url: str) -> str:
        """The URL as it is stored and sent (a host name in another script in its ASCII form)."""
        return ascii_url(url)

    def send(self, url: str, secret: str, message_id: str, timestamp: int, body: str) -> tuple[int | None, str | None]:
        try:
            url = ascii_url(url)  # (a URL stored before hosts were converted at registration)
            self.policy.check_url(url)
        except TargetRefused as e:
            return None, f"refused by the server's webhook policy: the URL {e}"
        signature = Webhook(secret).sign(message_id, datetime.fromtimestamp(timestamp, timezone.utc), body)
        content = body.encode()
        headers = [
            (b"host", urlsplit(url).netloc.encode("idna")), (b"content-type", b"application/json"),
            (b"content-length", str(len(content)).encode()), (b"accept-encoding", b"identity"),
            (b"user-agent", USER_AGENT.encode()), (b"webhook-id", message_id.encode()),
            (b"webhook-timestamp", str(timestamp).encode()), (b"webhook-signature", signature.encode()),
        ]
        deadline = _Deadline(self.timeout)
        limits = {"connect": self.timeout, "read": self.timeout, "write": self.timeout, "pool": self.timeout}
        try:
            with httpcore.ConnectionPool(network_backend=_CheckedBackend(self.policy, deadline), max_connections=1) as pool:
                with pool.stream("POST", url, headers=headers, content=content, extensions={"timeout": limits}) as response:
                    status = response.status  # the body is left unread: closing the pool drops it
        except TargetRefused as e:
            return None, f"refused by the server's webhook policy: {e}"
        except LookupQueued as e:
            raise SendPostponed(str(e)) from None
        except LookupFailed as e:
            return None, str(e)
        except httpcore.TimeoutException:
            return None, f"no answer within the {self.timeout:g} s deadline"
        except httpcore.ConnectError as e:
            return None, _plain("could not connect", e)
        except (httpcore.NetworkError, httpcore.ProtocolError, OSError, ssl.SSLError) as e:
            return None, _plain("the connection failed", e)
        except (TypeError, ValueError) as e:  # httpcore refusing the URL or a header: this receiver's failure all the same
            return None, _plain("the request could not be made", e)
        return status, None if 200 <= status < 300 else f"the receiver answered {status}"


def _plain(what: str, e: BaseException) -> str:
    """What went wrong, in words that never hold the URL (exception texts may quote it)."""
    cause = e.__cause__ or e.__context__ or e
    reason = cause.strerror if isinstance(cause, OSError) and cause.strerror else type(cause).__name__
    return f"{what} ({reason})"[:200]
