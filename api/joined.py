"""A big chase's participants in an answer as a few encoded blocks, kept from one answer to the
next while their participants are shown unchanged (issue 12 part 6).

At 1,000 participants an answer is some 10 MB, nearly all of it the participants, each encoded
already (api/affordances.py). Joining them into one body copied all 10 MB for every answer,
the largest part of a big chase's full answer. Here they are joined in blocks of ``BLOCK``
participants by place; a block whose participants are the very parts of the last answer's
block at that place is that block's bytes again, so a command that changed one participant, or
added one at the end, joins one block. The answer's body is then a short list of chunks
(api/representation.py), which a WSGI server writes one after another: the same bytes as one
body, never copied whole.
"""
from __future__ import annotations

from typing import Any

import orjson

BLOCK = 64  # participants a block
FEW = 2 * BLOCK  # fewer participants are simply encoded with the answer


class Joined:
    """A mapping of participant id to its encoded answer (``plain``: api.representation.Encoded
    values), as the encoded blocks of its JSON object (``chunks``, with the braces and commas)."""

    __slots__ = ("plain", "chunks", "blocks")

    def __init__(self, plain: dict[str, Any], chunks: list[bytes], blocks: list[tuple[tuple[int, ...], bytes]]) -> None:
        self.plain, self.chunks, self.blocks = plain, chunks, blocks


def joined(now: dict[str, Any], before: Joined | None) -> Joined:
    """``now`` (every value encoded) in blocks, each taken from ``before`` when its parts are the
    very ones of ``before``'s block at that place. ``before`` must still hold its parts (the
    identities compared are of live objects only)."""
    pids, values = list(now), list(now.values())
    then = before.blocks if before is not None else []
    blocks = []
    chunks = [b"{"]
    for start in range(0, len(pids), BLOCK):
        key = tuple(map(id, values[start:start + BLOCK]))  # an encoded part is one participant's, never another's
        n = start // BLOCK
        found = then[n][1] if n < len(then) and then[n][0] == key else None
        if found is None:
            parts = []
            for pid, value in zip(pids[start:start + BLOCK], values[start:start + BLOCK]):
                parts += (b",", orjson.dumps(pid), b":", value.encoded)
            found = b"".join(parts[1:] if start == 0 else parts)
        blocks.append((key, found))
        chunks.append(found)
    chunks.append(b"}")
    return Joined(now, chunks, blocks)
