"""Every timestamp an answer shows is RFC 3339 in UTC (issue 18), as the log's ``recorded_at``:
``2026-11-24T03:04:05.123456+00:00``. Stores keep what they keep (jobs, webhooks and the
projector's records keep epoch seconds); only the representation is this one."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from marshmallow import fields


def rfc3339(value: float | datetime | None) -> str | None:
    if value is None:
        return None
    moment = value if isinstance(value, datetime) else datetime.fromtimestamp(value, timezone.utc)
    return moment.astimezone(timezone.utc).isoformat()


class Timestamp(fields.Field):
    """A moment (epoch seconds or a datetime as stored) shown as RFC 3339 UTC."""

    def __init__(self, **kwargs: Any) -> None:
        metadata = kwargs.pop("metadata", {})
        metadata["description"] = "RFC 3339, UTC" + (f": {metadata['description']}" if "description" in metadata else "")
        super().__init__(metadata={"type": "string", "format": "date-time", **metadata}, **kwargs)

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> str | None:
        return rfc3339(value)
