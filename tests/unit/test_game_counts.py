"""Each game system's analytics counts are asked only of the event classes it declares
(application/analytics/facts.py ``GameCounts.counted``): the declaration must name every class
its ``counts`` looks at, or those events' counts would be lost from every report."""
from __future__ import annotations

import ast
import importlib
import inspect

import pytest

from application.analytics.facts import FactReader, GameCounts

SYSTEMS = ["application.systems.coc7e.analytics", "application.systems.d6.analytics", "application.systems.savage_worlds.analytics"]


def looked_at(module) -> set[type]:
    """The classes the module's ``counts`` checks an event against (its isinstance calls)."""
    tree = ast.parse(inspect.getsource(module.counts))
    found: set[type] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance" and getattr(node.args[0], "id", None) == "event":
            named = eval(compile(ast.Expression(node.args[1]), "<counts>", "eval"), vars(module))  # noqa: S307 - the module's own names
            found.update(named if isinstance(named, tuple) else (named,))
    return found


@pytest.mark.parametrize("name", SYSTEMS)
def test_a_system_declares_every_event_class_its_counts_look_at(name):
    module = importlib.import_module(name)
    classes = looked_at(module)
    assert classes, "counts looks at no event class: the check found nothing to check"
    assert all(issubclass(cls, module.GAME_COUNTS.counted) for cls in classes)


def test_a_system_is_not_asked_of_events_it_does_not_declare_and_is_of_those_it_does():
    asked = []

    class Counted:
        pass

    class Other:
        pass

    reader = FactReader(lambda roll: None, [GameCounts(counts=lambda e: asked.append(type(e)) or [], counted=(Counted,)),
                                             GameCounts(counts=lambda e: asked.append("every") or [])])
    for event in (Counted(), Other()):  # (no roll and none of the record's own: only the systems' counts)
        event.originator_id, event.originator_version = "c", 1
        reader._facts(event)
    assert asked == [Counted, "every", "every"]
