"""The layers of DESIGN.md section 1, checked on the source itself.

The domain imports only the standard library and ``eventsourcing.domain``; the application layer
knows ports, never the web framework, the queue, the databases or the infrastructure adapters.
Imports are read with ``ast`` (nothing is imported), including those inside functions and
``TYPE_CHECKING`` blocks.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# application/ must not reach for these (the layer's adapters live in infrastructure/ and api/).
FORBIDDEN_IN_APPLICATION = (
    "flask",
    "flask_smorest",
    "marshmallow",
    "redis",
    "rq",
    "psycopg",
    "psycopg2",
    "psycopg_pool",
    "sqlite3",
    "infrastructure",
    "api",
)


def python_files(layer: str) -> list[Path]:
    files = sorted((ROOT / layer).rglob("*.py"))
    assert files, f"no Python files found under {layer}/"
    return files


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) for every import in one file; relative imports stay in the package."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # from . import x / from ..rules import y: resolve against the package
                base_parts = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            # "from eventsourcing import domain" imports eventsourcing.domain: name each import.
            found.extend((node.lineno, f"{base}.{alias.name}") for alias in node.names)
    return found


def domain_may_import(module: str) -> bool:
    top = module.split(".")[0]
    if top in sys.stdlib_module_names or top == "domain":
        return True
    return module == "eventsourcing.domain" or module.startswith("eventsourcing.domain.")


def application_may_import(module: str) -> bool:
    return module.split(".")[0] not in FORBIDDEN_IN_APPLICATION


def offending_imports(layer: str, allowed) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in python_files(layer)
        for line, module in imported_modules(path)
        if not allowed(module)
    ]


def test_the_domain_imports_only_the_standard_library_and_eventsourcing_domain():
    offences = offending_imports("domain", domain_may_import)
    assert not offences, "the domain must not import:\n" + "\n".join(offences)


def test_the_application_layer_knows_no_web_queue_database_or_adapter():
    offences = offending_imports("application", application_may_import)
    assert not offences, "application/ must not import:\n" + "\n".join(offences)


# --- the checks themselves catch what they are meant to catch --------------------------------


@pytest.mark.parametrize(
    "source, allowed",
    [
        ("import json", True),
        ("from __future__ import annotations", True),
        ("from dataclasses import dataclass", True),
        ("from eventsourcing.domain import Aggregate", True),
        ("from eventsourcing import domain", True),
        ("from domain.dice import D", True),
        ("from . import dice", True),
        ("import eventsourcing.domain", True),
        ("import flask", False),
        ("from eventsourcing.application import Application", False),
        ("from eventsourcing.persistence import Transcoding", False),
        ("from eventsourcing import application", False),
        ("import eventsourcing", False),
        ("from marshmallow import fields", False),
        ("def later():\n    import redis", False),
        ("from infrastructure.dice import ServerDice", False),
        ("from application.chases import Chases", False),
    ],
)
def test_the_domain_check_tells_allowed_from_forbidden_imports(tmp_path, monkeypatch, source, allowed):
    # A throwaway domain/ package with one module importing ``source``.
    (tmp_path / "domain").mkdir()
    (tmp_path / "domain" / "__init__.py").write_text("")
    (tmp_path / "domain" / "module.py").write_text(source + "\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)

    offences = offending_imports("domain", domain_may_import)

    if allowed:
        assert offences == []
    else:
        # The failure names the file and the module.
        assert len(offences) == 1 and offences[0].startswith("domain/module.py:")


@pytest.mark.parametrize(
    "source, allowed",
    [
        ("from domain.dice import TableDice", True),
        ("from eventsourcing.application import Application", True),
        ("from application.ports import SeedVault", True),
        ("from .ports import SeedVault", True),
        ("import flask", False),
        ("from flask import current_app", False),
        ("from marshmallow import Schema", False),
        ("import redis", False),
        ("from rq import Queue", False),
        ("import psycopg", False),
        ("import sqlite3", False),
        ("from infrastructure.dice import ServerDice", False),
        ("from infrastructure import bootstrap", False),
    ],
)
def test_the_application_check_tells_allowed_from_forbidden_imports(tmp_path, monkeypatch, source, allowed):
    (tmp_path / "application").mkdir()
    (tmp_path / "application" / "module.py").write_text(source + "\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)

    offences = offending_imports("application", application_may_import)

    assert (offences == []) is allowed
