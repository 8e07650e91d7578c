"""Logs as JSON lines (python-json-logger), each with the request id of the request it is about.

The API puts each request's id (``X-Request-ID``: the client's, or one made up) in
``REQUEST_ID`` while Flask handles it (api/observability.py); every record logged meanwhile,
by any module, carries it as ``request_id``. ``CHASE_LEDGER_LOG_FORMAT=text`` keeps the
plain lines for a terminal.
"""
from __future__ import annotations

import json
import logging
from contextvars import ContextVar
from typing import Any

from pythonjsonlogger.json import JsonFormatter

REQUEST_ID: ContextVar[str | None] = ContextVar("request_id", default=None)
TEXT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class RequestIdFilter(logging.Filter):
    """Stamps each record with the id of the request being handled (None outside requests)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = REQUEST_ID.get()
        return True


class JsonLines(JsonFormatter):
    """python-json-logger's JSON lines, encoded by one encoder made once: the library makes a new
    ``json.JSONEncoder`` for every record (``json.dumps`` with ``cls`` and ``default``), a tenth of
    the time a request's log line takes. The same arguments, so the same text."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._encoder = self.json_encoder(default=self.json_default, indent=self.json_indent, ensure_ascii=self.json_ensure_ascii)

    def jsonify_log_record(self, log_data: Any) -> str:
        if self.json_serializer is not json.dumps:  # (a serializer of one's own: called as the library calls it)
            return super().jsonify_log_record(log_data)
        return self._encoder.encode(log_data)


def configure(log_format: str = "json", level: int = logging.INFO) -> None:
    """One handler on the root logger, writing JSON lines (or text) to standard error."""
    handler = logging.StreamHandler()
    handler.addFilter(RequestIdFilter())
    if log_format == "json":
        handler.setFormatter(JsonLines(
            "%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s",
            rename_fields={"asctime": "time", "levelname": "level", "name": "logger"},
            datefmt="%Y-%m-%dT%H:%M:%S%z",
        ))
    else:
        handler.setFormatter(logging.Formatter(TEXT))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
