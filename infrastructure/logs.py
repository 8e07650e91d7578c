"""Logs as JSON lines (python-json-logger), each with the request id of the request it is about.

The API puts each request's id (``X-Request-ID``: the client's, or one made up) in
``REQUEST_ID`` while Flask handles it (api/observability.py); every record logged meanwhile,
by any module, carries it as ``request_id``. ``CHASE_LEDGER_LOG_FORMAT=text`` keeps the
plain lines for a terminal.
"""
from __future__ import annotations

import json
import logging
import time
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
    """python-json-logger's JSON lines, the same text made with less work: one encoder made once
    (the library makes a new ``json.JSONEncoder`` for every record), the time formatted once a
    second (the format has no finer field) and the fields gathered in one pass, in the library's
    order (its format, then the record's extras, told apart once for each set of names). A record
    it handles otherwise (a dict as the message, an exception or a stack, defaults or static
    fields) goes through the library."""

    KEPT_NAMES = 256  # sets of record attribute names whose extras are kept: a few kinds of log call

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._encoder = self.json_encoder(default=self.json_default, indent=self.json_indent, ensure_ascii=self.json_ensure_ascii)
        self._fields = tuple((field, self.rename_fields.get(field, field)) for field in self._required_fields)
        self._plain = not (self.defaults or self.static_fields or self.timestamp or self.rename_fields_keep_missing)
        self._second: tuple[int, str, str | None] = (-1, "", None)
        self._extras_by_names: dict[tuple[str, ...], tuple[tuple[str, str], ...]] = {}

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        if not datefmt or self.converter is not time.localtime:
            return super().formatTime(record, datefmt)
        second, cached = int(record.created), self._second
        if cached[0] != second or cached[2] != datefmt:  # (threads may race here: to the same text)
            cached = self._second = (second, super().formatTime(record, datefmt), datefmt)
        return cached[1]

    def format(self, record: logging.LogRecord) -> str:
        if not self._plain or isinstance(record.msg, dict) or record.exc_info or record.exc_text or record.stack_info:
            return super().format(record)
        record.message = record.getMessage()
        if "asctime" in self._required_fields:
            record.asctime = self.formatTime(record, self.datefmt)
        values = record.__dict__
        log_data = {renamed: values.get(field) for field, renamed in self._fields}
        for key, renamed in self._extras(tuple(values)):
            log_data[renamed] = values[key]
        return self.serialize_log_record(self.process_log_record(log_data))

    def _extras(self, names: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
        """The record's extras (merge_record_extra's test) as (name, name written), in the record's
        order: worked out once for each set of a record's attribute names (every request's log
        line has the same), not tested name by name for each record."""
        found = self._extras_by_names.get(names)
        if found is None:
            skip, rename = self._skip_fields, self.rename_fields
            found = tuple((key, rename.get(key, key)) for key in names if key not in skip and not (hasattr(key, "startswith") and key.startswith("_")))
            if len(self._extras_by_names) < self.KEPT_NAMES:
                self._extras_by_names[names] = found
        return found

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
