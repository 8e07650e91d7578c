"""Server dice derivation: dispute-proof and reproducible offline (DESIGN.md section 4).

Every die is HMAC-SHA256(seed, [chase id, roll sequence, die index, attempt, entropy]) read as a
256-bit number; numbers in the incomplete top band are rejected and the next attempt taken, so
every face is exactly equally likely (no modulo bias). Anyone holding the revealed seed can
recompute every roll of a chase with this module alone.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any

from domain.json_encoding import encoder_made_once

_SPACE = 1 << 256
# json.dumps(message) as DESIGN.md 4 specifies it, the standard library's default encoder made once.
_dumps = encoder_made_once(json.JSONEncoder())
# HMAC (RFC 2104) over SHA-256, as ``hmac.digest`` computes it: the key padded to SHA-256's block
# with zeros (hashed first when longer), XORed with 0x36 for the inner hash and 0x5c for the outer.
_BLOCK = 64
_INNER = bytes(x ^ 0x36 for x in range(256))
_OUTER = bytes(x ^ 0x5C for x in range(256))
_KEYED_KEPT = 256  # seeds whose keyed hashes are kept
_keyed: dict[bytes, tuple[Any, Any]] = {}


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
        value = int.from_bytes(_hmac_sha256(seed, message), "big")
        if value < limit:
            return value % sides
        attempt += 1


def _hmac_sha256(key: bytes, message: bytes) -> bytes:
    """``hmac.digest(key, message, "sha256")``, from the key's inner and outer hashes begun once
    per seed and copied for each die: OpenSSL 3's one-call HMAC looks the algorithm up by name on
    every call (tests/unit/test_server_dice_properties.py compares the two)."""
    keyed = _keyed.get(key)
    if keyed is None:
        block = (hashlib.sha256(key).digest() if len(key) > _BLOCK else key).ljust(_BLOCK, b"\0")
        if len(_keyed) >= _KEYED_KEPT:
            _keyed.clear()  # (a command rolls with one seed)
        keyed = _keyed[bytes(key)] = (hashlib.sha256(block.translate(_INNER)), hashlib.sha256(block.translate(_OUTER)))
    inner, outer = keyed[0].copy(), keyed[1].copy()
    inner.update(message)
    outer.update(inner.digest())
    return outer.digest()
