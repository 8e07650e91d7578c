"""The names people give: a chase, a participant, a session or campaign.

A name is shown to every player, written into logs, reports and exports, and read aloud at the
table: it must read as it is. So it is 1 to ``MAX_NAME`` printable characters (Python's
``str.isprintable``): no control characters (CR, LF, tab: a name that starts a new line in a log
or a CSV cell), no invisible format characters (zero-width spaces and joiners, and the
bidirectional overrides and isolates that make "Harvey\u202eyrevlis" show as another name), no
line or paragraph separators.
"""
from __future__ import annotations

from domain.errors import InvalidInput

MAX_NAME = 200  # characters


def screened_name(value: object, field_name: str = "name") -> str:
    """The name without surrounding spaces, or InvalidInput naming ``field_name``."""
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME or not value.isprintable():
        raise InvalidInput(field_name, f"is required: printable text of 1 to {MAX_NAME} characters (no line breaks, control, zero-width or bidirectional-override characters)")
    return value.strip()
