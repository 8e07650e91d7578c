"""Server dice derivation: dispute-proof and reproducible offline (DESIGN.md section 4).

Every die is HMAC-SHA256(seed, [chase id, roll sequence, die index, attempt, entropy]) read as a
256-bit number; numbers in the incomplete top band are rejected and the next attempt taken, so
every face is exactly equally likely (no modulo bias). Anyone holding the revealed seed can
recompute every roll of a chase with this module alone.
"""
from __future__ import annotations

import hashlib
import hmac
import json

from domain.json_encoding import encoder_made_once

_SPACE = 1 << 256
# json.dumps(message) as DESIGN.md 4 specifies it, the standard library's default encoder made once.
_dumps = encoder_made_once(json.JSONEncoder())


def commitment_of(seed: bytes) -> str:
    """The SHA-256 commitment published in the chase's first event."""
    return hashlib.sha256(seed).hexdigest()


def derive_index(
    seed: bytes, chase_id: str, sequence: int, die_index: int, sides: int, entropy: str = ""
) -> int:
    """Index 0..sides-1 of one die of one roll, unbiased by rejection sampling."""
    if sides < 2:
        raise ValueError("a die has at least two sides")
    limit = _SPACE - (_SPACE % sides)
    attempt = 0
    while True:
        message = _dumps([str(chase_id), sequence, die_index, attempt, entropy]).encode()
        value = int.from_bytes(hmac.digest(seed, message, "sha256"), "big")  # (HMAC-SHA256 in one call)
        if value < limit:
            return value % sides
        attempt += 1
