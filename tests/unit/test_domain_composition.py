"""Composition, not mixin stacks (DESIGN.md section 1, issue 11): checked on the domain itself.

Each chase aggregate has one line of ancestors down to RecordedChase; its procedures are
functions of their own modules that take the chase as their first argument, typed with a
Protocol. A procedure may use of the chase only what its Protocol declares, and each aggregate
has everything the Protocols of the procedures it binds declare: no name is left for a subclass
to hope for. The domain's modules import one another without a cycle.
"""
from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path
from typing import Any, Protocol
from uuid import uuid4

import pytest

import domain
from domain.recorded_chase import RecordedChase
from infrastructure.systems import SYSTEMS
from tests.unit.test_layers import imported_modules

ROOT = Path(__file__).resolve().parents[2]
AGGREGATES = tuple(aggregate for plugin in SYSTEMS for aggregate in plugin.chases.values())  # every system's
DOMAIN_MODULES = sorted(m.name for m in pkgutil.walk_packages(domain.__path__, "domain."))


def domain_classes_in_mro(cls: type) -> list[type]:
    return [c for c in cls.__mro__ if c.__module__.startswith("domain.")]


def protocol_members(protocol: type) -> set[str]:
    """Every attribute and method a Protocol declares, its own and those of the Protocols it extends."""
    members: set[str] = set()
    for c in protocol.__mro__:
        if c in (Protocol, object) or not c.__module__.startswith("domain."):
            continue
        members |= set(c.__dict__.get("__annotations__", {}))
        members |= {name for name, value in c.__dict__.items() if not name.startswith("__") and callable(value) or isinstance(value, property)}
    return members


def procedures() -> list[tuple[str, ast.FunctionDef, type]]:
    """(module, function, its Protocol) for every module-level function that takes the chase first."""
    found = []
    for name in DOMAIN_MODULES:
        module = importlib.import_module(name)
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.args.args and node.args.args[0].arg == "chase":
                annotation = node.args.args[0].annotation
                assert annotation is not None, f"{name}.{node.name}: the chase it takes has no type"
                declared = eval(ast.unparse(annotation), vars(module))  # the module's own names
                if declared is Any:
                    continue
                found.append((name, node, declared))
    return found


def started(aggregate: type) -> Any:
    return aggregate.start(uuid4(), "A chase", "table", "0" * 64)


@pytest.mark.parametrize("aggregate", AGGREGATES, ids=lambda a: a.__name__)
def test_a_chase_aggregate_is_one_line_of_chases_down_to_the_recorded_chase(aggregate):
    # Every class of the domain among its ancestors is a chase itself: no mixin in between.
    lineage = domain_classes_in_mro(aggregate)
    strays = [c.__qualname__ for c in lineage if not issubclass(c, RecordedChase)]
    assert not strays, f"{aggregate.__name__} mixes in {strays}: make them procedures taking the chase"
    # ... and each has one base only.
    assert all(len(c.__bases__) == 1 for c in lineage if c is not RecordedChase)


def test_the_procedures_use_of_the_chase_only_what_their_protocol_declares():
    # Given every procedure of the domain, with the Protocol of the chase it takes
    found = procedures()
    assert len(found) > 60, "the procedures were not found"
    # Then every name it reads on the chase is one its Protocol declares
    undeclared = {}
    for module, function, protocol in found:
        assert issubclass(type(protocol), type(Protocol)) and getattr(protocol, "_is_protocol", False), f"{module}.{function.name}"
        used = {n.attr for n in ast.walk(function) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "chase"}
        missing = used - protocol_members(protocol)
        if missing:
            undeclared[f"{module}.{function.name}"] = sorted(missing)
    assert not undeclared


@pytest.mark.parametrize("aggregate", AGGREGATES, ids=lambda a: a.__name__)
def test_each_aggregate_has_all_that_the_procedures_it_binds_declare(aggregate):
    # Given a fresh chase, and the procedures its class binds as methods
    chase = started(aggregate)
    by_function = {(m, f.name): p for m, f, p in procedures()}
    bound = {
        name: by_function[(value.__module__, value.__name__)]
        for c in domain_classes_in_mro(aggregate)
        for name, value in vars(c).items()
        if inspect.isfunction(value) and (value.__module__, value.__name__) in by_function
    }
    assert bound, f"{aggregate.__name__} binds no procedure"
    # Then the chase has every member their Protocols declare
    lacking = {name: sorted(m for m in protocol_members(p) if not hasattr(chase, m)) for name, p in bound.items()}
    assert not {name: m for name, m in lacking.items() if m}


def test_the_domain_modules_import_one_another_without_a_cycle():
    # Given the imports between the domain's modules (read from the source: nothing is run)
    modules = set(DOMAIN_MODULES)
    graph: dict[str, set[str]] = {}
    for name in modules:
        path = ROOT / Path(*name.split("."))
        path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
        targets = set()
        for _, imported in imported_modules(path):
            while imported and imported not in modules:
                imported = imported.rpartition(".")[0]
            if imported and imported != name and not (ROOT / Path(*imported.split("."))).is_dir():
                targets.add(imported)  # a package's __init__ imports nothing of its modules
        graph[name] = targets
    # Then a depth-first walk never comes back to a module it is inside of
    state: dict[str, str] = {}

    def visit(module: str, path: list[str]) -> None:
        state[module] = "inside"
        for target in sorted(graph[module]):
            assert state.get(target) != "inside", "import cycle: " + " -> ".join(path[path.index(target):] + [target])
            if target not in state:
                visit(target, path + [target])
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
