"""The names people give: a chase, a participant, a session or campaign.

A name is shown to every player, written into logs, reports and exports, and read aloud at the
table: it must read as it is. So it is 1 to ``MAX_NAME`` characters that show, with these rules
after the free-form nickname rules of RFC 8266 (PRECIS, RFC 8264), kept to the standard library
because the domain imports nothing else:
- every kind of space (no-break, ideographic, ...) is a plain space, and spaces at either end go;
- no control characters (CR, LF, tab: a name that starts a new line in a log or a CSV cell), no
  line or paragraph separators, and no invisible format characters (zero-width spaces, the
  bidirectional overrides and isolates that make "Harvey\u202eyrevlis" show as another name);
- the zero-width joiner and non-joiner only where a script needs them to spell a word (RFC 5892
  appendix A.1): after a virama (Devanagari and the other Indic scripts), or, for the
  non-joiner, between two letters of a joining script such as Persian. "Harvey\u200d" and
  "Har\u200cvey" look like "Harvey" and are refused.
"""
from __future__ import annotations

import unicodedata

from domain.errors import InvalidInput

MAX_NAME = 200  # characters
ZWNJ, ZWJ = "\u200c", "\u200d"
VIRAMA = 9  # Unicode canonical combining class of a virama


def _joiner_spells(text: str, at: int) -> bool:
    """Whether the joiner at ``at`` is one a script needs (RFC 5892 appendix A.1, CONTEXTJ)."""
    before, after = text[at - 1] if at else "", text[at + 1] if at + 1 < len(text) else ""
    if before and unicodedata.combining(before) == VIRAMA:
        return True
    if text[at] != ZWNJ or not before or not after:
        return False
    return all(unicodedata.category(c).startswith("L") and "LATIN" not in unicodedata.name(c, "LATIN") for c in (before, after))


def _shows(text: str, at: int) -> bool:
    c = text[at]
    return c.isprintable() or (c in (ZWNJ, ZWJ) and _joiner_spells(text, at))


def screened_name(value: object, field_name: str = "name") -> str:
    """The name with its spaces made plain, or InvalidInput naming ``field_name``."""
    if isinstance(value, str):
        name = "".join(" " if unicodedata.category(c) == "Zs" else c for c in value).strip(" ")
        if 1 <= len(name) <= MAX_NAME and all(_shows(name, i) for i in range(len(name))):
            return name
    raise InvalidInput(field_name, f"is required: text of 1 to {MAX_NAME} characters that show (no line breaks, control, zero-width or bidirectional-override characters)")
