"""VERIFYING.md cannot drift from the code: its test vectors, taken from a real export
(tests/fixtures/v3/export-of-issue-18.json), are what the code computes from that export."""
from __future__ import annotations

import hashlib
import hmac
import json
import re
from pathlib import Path

from domain.chain import JCS, SORTED_JSON, canonical, hash_record
from domain.dice import D, TENS, UNITS, derive_index
from domain.verification import dice_of, faces_of, verify
from infrastructure.systems import verify as verify_with_every_system

ROOT = Path(__file__).resolve().parents[2]
EXPORT = json.loads((ROOT / "tests" / "fixtures" / "v3" / "export-of-issue-18.json").read_text(encoding="utf-8"))
VECTORS = dict(re.findall(r"<!-- vector ([\w-]+) -->\n```\n(.*?)\n```", (ROOT / "VERIFYING.md").read_text(encoding="utf-8"), re.S))
RECORD = ("chase_id", "version", "type", "recorded_at", "data")


def record(version: int) -> dict:
    return {k: EXPORT["events"][version - 1][k] for k in RECORD}


def test_every_vector_is_there():
    assert set(VECTORS) == {"record-1-jcs", "record-2-jcs", "record-2-sorted-json", "hashes", "seed", "message-escaped", "derivation"}


def test_the_export_is_a_real_one_that_checks_out():
    # Written by the v3 fixture's code, a chase of RFC 8785 whose seed is revealed: every roll recomputed.
    report = verify_with_every_system(EXPORT)
    assert EXPORT["events"][0]["data"]["chain_encoding"] == JCS
    assert report.server_rolls_verified == report.rolls == 2 and report.seeds_revealed == 1


def test_the_canonical_bytes_are_the_documents():
    assert canonical(record(1), JCS) == VECTORS["record-1-jcs"].encode()
    assert canonical(record(2), JCS) == VECTORS["record-2-jcs"].encode()
    assert canonical(record(2), SORTED_JSON) == VECTORS["record-2-sorted-json"].encode()
    # The participant is where the two encodings part.
    assert VECTORS["record-2-jcs"] != VECTORS["record-2-sorted-json"]


def test_the_hashes_are_the_documents_and_the_exports():
    for line in VECTORS["hashes"].splitlines():
        version, *encoding, digest = line.split()
        assert hash_record(record(int(version)), encoding[0] if encoding else JCS) == digest
        if not encoding:
            assert EXPORT["events"][int(version) - 1]["hash"] == digest


def test_the_seed_matches_its_commitment():
    seed, commitment = (line.split()[1] for line in VECTORS["seed"].splitlines())
    revealed = EXPORT["events"][-1]["data"]
    assert (revealed["seed"], revealed["commitment"], EXPORT["events"][0]["data"]["seed_commitment"]) == (seed, commitment, commitment)
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitment


def test_the_message_escapes_every_character_outside_printable_ascii():
    assert json.dumps(["x", 1, 0, 0, "\u00e9\U0001f600\n\"\u007f"]) == VECTORS["message-escaped"]


def test_every_die_is_derived_as_the_document_says():
    seed = bytes.fromhex(EXPORT["events"][-1]["data"]["seed"])
    rows = [line.split(" | ") for line in VECTORS["derivation"].splitlines()]
    rolls = {e["data"]["roll"]["sequence"]: e["data"]["roll"] for e in EXPORT["events"] if "roll" in e["data"]}
    for message, mac, sides, index, face in rows:
        chase_id, sequence, die, attempt, entropy = json.loads(message)
        # Step by step: the message bytes, the HMAC, rejection sampling (accepted at once), the face.
        assert json.dumps([chase_id, sequence, die, attempt, entropy]) == message and attempt == 0
        value = int(hmac.new(seed, message.encode(), hashlib.sha256).hexdigest(), 16)
        assert f"{value:064x}" == mac and value < (1 << 256) - (1 << 256) % int(sides) and value % int(sides) == int(index)
        # ... which is what the code derives, and the face the roll recorded.
        assert derive_index(seed, chase_id, sequence, die, int(sides)) == int(index)
        drawn = dice_of(rolls[sequence])[die]
        assert drawn.sides == int(sides) and drawn.face(int(index)) == int(face) == faces_of(rolls[sequence])[die]
    assert dice_of(rolls[1]) == [TENS, UNITS] and dice_of(rolls[2]) == [D(6), D(6)]


def test_the_summary_is_the_documents_shape():
    summary = verify(EXPORT, checks=[lambda *_: True]).summary()
    assert re.fullmatch(r"chase \S+: \d+ events, chain head [0-9a-f]{64}\n\d+ rolls \(\d+ undone\), \d+ with table dice, \d+ server rolls recomputed "
                        r"and matching, \d+ server rolls whose seed is not revealed yet; \d+ seed\(s\) revealed and matching their commitments", summary)
