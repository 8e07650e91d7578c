"""What the hash chain's encoding costs: RFC 8785 (domain/jcs.py) beside the sorted JSON it
replaced, and beside the ``rfc8785`` package, per record hashed.

Run from the project folder::

    .venv/bin/python bench/chain_encoding.py

It prints figures and never asserts. The records are every event of the v3 golden fixture
(tests/fixtures/v3/expected.json: chases of every system, undo payloads included), hashed as
RecordedChase.Event.mutate hashes each event it applies. Rows are interleaved round by round so
that outside load on a shared machine hits them alike; the median of the rounds is printed, in
microseconds per record, and the largest record's time apart. The floor is ``sorted-json``, the
standard library's C encoder; ``jcs`` takes it for records where it writes JCS's bytes (no integer out
of range, no member name beyond the BMP, no float Python writes otherwise once whole floats are
ints) and its own writer for the rest.
"""
from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import rfc8785  # noqa: E402

from domain.chain import hash_record, sorted_json  # noqa: E402
from domain.jcs import _write, canonicalize  # noqa: E402

ROUNDS = 15


def own_writer(record):
    """domain/jcs.py's writer alone (what a record with a float or an astral name takes)."""
    parts: list[str] = []
    _write(record, parts)
    return "".join(parts).encode()


def main() -> None:
    saved = json.loads((ROOT / "tests" / "fixtures" / "v3" / "expected.json").read_text(encoding="utf-8"))
    records = [{k: e[k] for k in ("chase_id", "version", "type", "recorded_at", "data")} for c in saved["chases"].values() for e in c["events"]]
    largest = max(records, key=lambda r: len(json.dumps(r)))
    encoders = {"sorted-json (floor)": sorted_json, "jcs": canonicalize, "jcs, own writer only": own_writer, "rfc8785 package": rfc8785.dumps,
                "jcs + SHA-256 (hash_record)": hash_record}
    times: dict[str, list[float]] = {name: [] for name in encoders}
    big: dict[str, list[float]] = {name: [] for name in encoders}
    for _ in range(ROUNDS):
        for name, encode in encoders.items():
            start = time.perf_counter()
            for record in records:
                encode(record)
            times[name].append((time.perf_counter() - start) / len(records) * 1e6)
            start = time.perf_counter()
            encode(largest)
            big[name].append((time.perf_counter() - start) * 1e6)
    plain = sum(canonicalize(r) == sorted_json(r) for r in records)
    print(f"{len(records)} records ({plain} with the same bytes in both encodings); largest {len(json.dumps(largest)):,} bytes; "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"{'encoder':32} {'us/record (median)':>20} {'largest record, us':>20}")
    for name in encoders:
        print(f"{name:32} {statistics.median(times[name]):20.1f} {statistics.median(big[name]):20.1f}")


if __name__ == "__main__":
    main()
