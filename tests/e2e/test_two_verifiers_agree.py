"""Verifiable by anyone (issue 18 part 5): a second verifier, written in JavaScript from
VERIFYING.md (api/static/verifier/), agrees with `chase verify` on every export: the golden
fixtures' chases of every system (v1 and v2 chained with sorted JSON, v3 with RFC 8785), honest and
tampered with (a changed face, a forged outcome, a broken chain, a wrong seed, a removed event,
a rewritten history against a kept head). Both must say the same: pass or fail, the first event
that fails and why, or the same summary.

Node.js (18 or later) runs the JavaScript verifier; without it this test fails (it does not skip): CI
installs it (.ci/run).
"""
from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
from functools import cache
from pathlib import Path
from typing import Any, Callable

import pytest

from domain.chain import encoding_named_by, hash_record
from infrastructure import cli

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
JS_CLI = ROOT / "api" / "static" / "verifier" / "cli.mjs"
JS_MANY = Path(__file__).with_name("verify_many.mjs")  # the same outcome as cli.mjs, many exports to a process
RECORD = ("chase_id", "version", "type", "recorded_at", "data")


@cache
def node() -> str:
    found = shutil.which("node")
    if found is None:
        pytest.fail("node (Node.js 18 or later) is needed to run the JavaScript verifier: install nodejs (.ci/run does)")
    major = int(re.match(r"v(\d+)", subprocess.run([found, "--version"], capture_output=True, text=True, check=True).stdout).group(1))
    assert major >= 18, f"the JavaScript verifier needs Node.js 18 or later (WebCrypto), not {major}"
    return found


def golden_exports() -> list[tuple[str, dict[str, Any]]]:
    """Every chase of every golden fixture as GET /export gave it, with the play that wrote it."""
    found = []
    for folder in sorted(p for p in FIXTURES.iterdir() if (p / "expected.json").is_file()):
        for chase_id, saved in json.loads((folder / "expected.json").read_text(encoding="utf-8"))["chases"].items():
            export = {"format": saved["export"]["format"], "chase_id": chase_id, "events": saved["events"]}
            found.append((f"{folder.name}:{saved['system']}:{saved['play'].rsplit('.', 1)[-1]}", export))
    return found


EXPORTS = golden_exports()


def rechain(export: dict[str, Any]) -> dict[str, Any]:
    """Hash a changed export afresh (in its chain's encoding) so that only a deeper check can catch it."""
    encoding = encoding_named_by(export["events"][0]["data"])
    previous = "0" * 64
    for event in export["events"]:
        event["data"]["previous_hash"] = previous
        event["hash"] = previous = hash_record({k: event[k] for k in RECORD}, encoding)
    return export


def rolls(export: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in export["events"] if isinstance(e["data"].get("roll"), dict)]


def server_roll_with_faces(export: dict[str, Any]) -> dict[str, Any] | None:
    """The first server roll with faces recorded (not a shuffle) whose seed was revealed later."""
    reveals = [e["version"] for e in export["events"] if e["type"].endswith("SeedRevealed")]
    return next((e for e in rolls(export) if e["data"]["roll"]["source"]["kind"] == "server" and "shuffle" not in e["data"]["roll"]
                 and any(v > e["version"] for v in reveals) and e["data"]["roll"].get("dice", e["data"]["roll"].get("tens"))), None)


# -- the tampering: each returns the forged export, or None where the chase has nothing to forge --


def changed_face(export: dict[str, Any]) -> dict[str, Any] | None:
    event = server_roll_with_faces(export)
    if event is None:
        return None
    roll = event["data"]["roll"]
    if "tens" in roll:
        roll["units"] = (roll["units"] + 1) % 10
    else:
        die = roll["dice"][0]
        die["face"] = 1 if die["face"] != 1 else 2
    return rechain(export)


def forged_outcome(export: dict[str, Any]) -> dict[str, Any] | None:
    for event in rolls(export):
        roll = event["data"]["roll"]
        for field in ("total", "result"):
            if isinstance(roll.get(field), int) and not isinstance(roll.get(field), bool):
                roll[field] += 1
                return rechain(export)
    return None


def swapped_faces(export: dict[str, Any]) -> dict[str, Any] | None:
    """Two faces of a summed server roll swapped: its total still adds up, only the seed tells."""
    reveals = [e["version"] for e in export["events"] if e["type"].endswith("SeedRevealed")]
    for event in rolls(export):
        roll = event["data"]["roll"]
        dice = roll.get("dice", [])
        summed = "expression" in roll or roll.get("kind") in ("damage roll", "table roll")
        if summed and roll["source"]["kind"] == "server" and any(v > event["version"] for v in reveals) and len(dice) >= 2:
            first, second = dice[0], dice[1]
            if first["die"] == second["die"] and first["face"] != second["face"] and not first.get("aced") and not second.get("aced"):
                first["face"], second["face"] = second["face"], first["face"]
                return rechain(export)
    return None


def changed_without_rehashing(export: dict[str, Any]) -> dict[str, Any] | None:
    export["events"][len(export["events"]) // 2]["recorded_at"] = "2000-01-01T00:00:00+00:00"
    return export


def broken_chain(export: dict[str, Any]) -> dict[str, Any] | None:
    rechain(export)
    export["events"][len(export["events"]) // 2]["data"]["previous_hash"] = "f" * 64
    return export


def wrong_seed(export: dict[str, Any]) -> dict[str, Any] | None:
    reveal = next((e for e in export["events"] if e["type"].endswith("SeedRevealed")), None)
    if reveal is None:
        return None
    reveal["data"]["seed"] = "00" * 32
    return rechain(export)


def removed_event(export: dict[str, Any]) -> dict[str, Any] | None:
    del export["events"][len(export["events"]) // 2]
    return export


TAMPERING: dict[str, Callable[[dict[str, Any]], dict[str, Any] | None]] = {
    "a changed face": changed_face,
    "two faces swapped": swapped_faces,
    "a forged outcome": forged_outcome,
    "a changed time, not rehashed": changed_without_rehashing,
    "a broken chain": broken_chain,
    "a wrong seed": wrong_seed,
    "a removed event": removed_event,
}


def python_verifier(path: Path, head: str | None, capsys) -> tuple[int, str]:
    capsys.readouterr()
    code = cli.main(["verify", str(path), *(["--head", head] if head else [])])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def javascript_verifier(path: Path, head: str | None) -> tuple[int, str]:
    done = subprocess.run([node(), str(JS_CLI), str(path), *(["--head", head] if head else [])], capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout + done.stderr


def javascript_verifier_on_many(paths: list[Path]) -> list[tuple[int, str]]:
    done = subprocess.run([node(), str(JS_MANY)], input=json.dumps([[str(p), None] for p in paths]), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return [(r["code"], r["out"] + r["err"]) for r in json.loads(done.stdout)]


def written(export: dict[str, Any], path: Path) -> Path:
    path.write_text(json.dumps(export, ensure_ascii=False), encoding="utf-8")
    return path


def both(export: dict[str, Any], tmp_path: Path, capsys, head: str | None = None) -> tuple[tuple[int, str], tuple[int, str]]:
    path = written(export, tmp_path / "export.json")
    return python_verifier(path, head, capsys), javascript_verifier(path, head)


@pytest.mark.parametrize("name, export", EXPORTS, ids=[n for n, _ in EXPORTS])
def test_both_verifiers_pass_every_honest_export_with_the_same_summary(name, export, tmp_path, capsys):
    # The export as the API gave it, checked against the chain head a client kept then.
    python, javascript = both(export, tmp_path, capsys, head=export["events"][-1]["hash"])

    assert python[0] == 0, python[1]
    assert javascript == python


@pytest.mark.parametrize("how", TAMPERING)
def test_both_verifiers_fail_every_tampered_export_at_the_same_event_for_the_same_reason(how, tmp_path, capsys):
    # Each chase forged this way, where it has something to forge.
    forged = {name: TAMPERING[how](copy.deepcopy(export)) for name, export in EXPORTS}
    paths = {name: written(export, tmp_path / f"{i}.json") for i, (name, export) in enumerate(forged.items()) if export is not None}
    tried = {name.rsplit(":", 1)[0] for name in paths}  # fixture and system

    javascript = dict(zip(paths, javascript_verifier_on_many(list(paths.values()))))

    for name, path in paths.items():
        python = python_verifier(path, None, capsys)
        assert python[0] == 1 and python[1].startswith("FAILED at event "), (name, python)
        assert javascript[name] == python, name
    # Every system of every fixture had something to forge this way (v1 has no D6 chase); only
    # some rolls are sums whose faces can be swapped unseen but for the seed.
    systems = {name.rsplit(":", 1)[0] for name, _ in EXPORTS}
    if how == "two faces swapped":
        assert tried and all("the revealed seed gives" in python_verifier(paths[n], None, capsys)[1] for n in paths), sorted(tried)
    else:
        assert tried == systems, (how, sorted(tried))


def test_a_rewritten_log_fails_both_against_the_head_a_client_kept(tmp_path, capsys):
    # A client kept the head of a v3 chase; the log is then rewritten from the middle on.
    name, export = next((n, e) for n, e in EXPORTS if n.startswith("v3:d6"))
    kept = export["events"][len(export["events"]) // 2]["hash"]
    forged = copy.deepcopy(export)
    forged["events"][len(forged["events"]) // 2]["data"]["note"] = "rewritten"
    rechain(forged)

    python, javascript = both(forged, tmp_path, capsys, head=kept)

    assert python[0] == 1 and "is not in this log: it was rewritten" in python[1], python
    assert javascript == python
