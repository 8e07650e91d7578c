"""The layers of DESIGN.md sections 1 and 2, checked on the source itself.

import-linter checks the contracts written in pyproject.toml ([tool.importlinter]): the layers
(api > infrastructure > application > domain), no import cycles, the game systems independent of
one another in each layer, the core naming no system, and the domain and the application knowing
no web framework, queue or database driver. Two checks it cannot express stay here: the domain
imports only the standard library and ``eventsourcing.domain`` (import-linter sees external
packages only whole: ``eventsourcing``), read with ``ast`` (nothing is imported), including
imports inside functions and ``TYPE_CHECKING`` blocks; and a game system's packages in every
layer import no other system's, with only the registry (infrastructure/systems.py) importing
them all, read from import-linter's own import graph (grimp).
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import grimp
import pytest
from importlinter.cli import lint_imports

from infrastructure.systems import SYSTEMS

ROOT = Path(__file__).resolve().parents[2]
REGISTRY = "infrastructure.systems"
# Where each layer keeps its game systems: a package per system, named alike in every layer.
SYSTEM_PACKAGES = ("domain.rules", "application.systems", "api.systems")


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


def test_the_import_contracts_hold():
    # import-linter reads pyproject.toml's contracts and checks every import of the four layers;
    # a broken contract names the importing line (shown in the captured output).
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True) == 0


def system_of(module: str) -> str | None:
    """The game system a module belongs to ("coc7e" for application.systems.coc7e.commands), if any."""
    for packages in SYSTEM_PACKAGES:
        if module.startswith(packages + "."):
            return module[len(packages) + 1:].split(".")[0]
    return None


def test_only_the_registry_imports_the_game_systems_and_no_system_imports_another():
    graph = grimp.build_graph("domain", "application", "infrastructure", "api")
    offences = []
    for module in sorted(graph.modules):
        system = system_of(module)
        if system is None:
            continue
        for importer in sorted(graph.find_modules_that_directly_import(module)):
            # A system's own packages (in any layer) and the registry may import it; no one else.
            if system_of(importer) != system and importer != REGISTRY:
                offences.append(f"{importer} imports {module}")
    assert not offences, "game systems are plug-ins: only infrastructure/systems.py names them\n" + "\n".join(offences)
    # The registry does import every system's application plug-in.
    registered = {system_of(m) for m in graph.find_modules_directly_imported_by(REGISTRY)} - {None}
    assert registered == {plugin.package for plugin in SYSTEMS}


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
        ("from infrastructure.systems import SYSTEMS", False),
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
