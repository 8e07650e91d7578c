"""Sends webhook messages signed as Standard Webhooks specifies (the ``standardwebhooks``
reference library signs; httpx posts).

Headers: ``webhook-id`` (the event id, the same on every retry), ``webhook-timestamp`` (Unix
seconds) and ``webhook-signature`` (``v1,<base64 HMAC-SHA256 of "id.timestamp.body">`` under the
``whsec_`` secret). Redirects are not followed: a receiver answers where it was registered.
"""
from __future__ import annotations

import base64
import secrets
from datetime import datetime, timezone

import httpx
from standardwebhooks.webhooks import Webhook

SECRET_BYTES = 32
USER_AGENT = "chase-ledger-webhooks/1"


class StandardWebhookSender:
    """Posts one signed message and says how the receiver answered."""

    def __init__(self, timeout: float = 10.0) -> None:
        self.timeout = timeout

    def new_secret(self) -> str:
        return "whsec_" + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()

    def send(self, url: str, secret: str, message_id: str, timestamp: int, body: str) -> tuple[int | None, str | None]:
        signature = Webhook(secret).sign(message_id, datetime.fromtimestamp(timestamp, timezone.utc), body)
        headers = {
            "content-type": "application/json", "user-agent": USER_AGENT,
            "webhook-id": message_id, "webhook-timestamp": str(timestamp), "webhook-signature": signature,
        }
        try:
            response = httpx.post(url, content=body.encode(), headers=headers, timeout=self.timeout, follow_redirects=False)
        except httpx.HTTPError as e:
            return None, f"{type(e).__name__}: {e}"[:500]
        return response.status_code, None if 200 <= response.status_code < 300 else f"the receiver answered {response.status_code}"
