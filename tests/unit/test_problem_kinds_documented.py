"""Every kind of problem the server or its proxy can answer has a page at /problems/<kind>.

A problem's ``type`` is a URI a client may follow (RFC 9457 section 3.1.1), so a kind named in
code but missing from api/problem_docs.py KINDS would send a client to a 404. This reads the
code for every kind it answers, so a new kind cannot be added without its page.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

from api.problem_docs import KINDS

ROOT = Path(__file__).resolve().parents[2]
# The functions that build a problem, and which of their arguments is the kind.
BUILDERS = {"problem": 1, "refuse": 2, "refusal": 2}
KIND = re.compile(r"^[a-z]+(-[a-z]+)*$")
TYPE_URI = re.compile(r"/problems/([a-z]+(?:-[a-z]+)*)")


def kinds_in_python() -> dict[str, str]:
    found: dict[str, str] = {}
    for package in ("api", "application", "infrastructure"):
        for path in (ROOT / package).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Call):
                    name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
                    at = BUILDERS.get(name or "")
                    if at is not None and len(node.args) > at:
                        arg = node.args[at]
                        if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and KIND.match(arg.value):
                            found[arg.value] = f"{path.relative_to(ROOT)}:{node.lineno}"
                elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                    for kind in TYPE_URI.findall(node.value):
                        found[kind] = f"{path.relative_to(ROOT)}:{node.lineno}"
    return found


def kinds_in_the_proxy() -> dict[str, str]:
    conf = ROOT / "deploy" / "nginx.conf"
    return {kind: "deploy/nginx.conf" for kind in TYPE_URI.findall(conf.read_text())} if conf.exists() else {}


def test_every_problem_kind_answered_has_its_page():
    # Given every kind of problem named where problems are built (and in the proxy's own answers)
    named = {**kinds_in_python(), **kinds_in_the_proxy()}
    assert {"invalid-request", "rule-broken", "store-busy"} <= set(named)  # the reading finds them
    # Then each has a page a client can follow
    missing = {kind: where for kind, where in named.items() if kind not in KINDS}
    assert not missing, f"problem kinds with no page in api/problem_docs.py KINDS: {missing}"
