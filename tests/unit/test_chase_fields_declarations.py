"""An event that says it changes none of the chase's own fields (``chase_fields_changed() ==
()``) lets a command keep the chase's digest bytes (application/chase_digest.py). The
declaration holds for the ``apply`` it was written beside: a subclass that applies itself
differently must say again what it changes, or a kept answer would go stale unseen.
"""
from __future__ import annotations

import infrastructure.bootstrap  # noqa: F401  (every game system's aggregate, as the application loads them)
from domain.recorded_chase import RecordedChase


def every_event_class() -> list[type]:
    found, todo = [], [RecordedChase.Event]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return found


def owner(cls: type, name: str) -> type | None:
    """The class in ``cls``'s MRO that defines ``name``."""
    return next((c for c in cls.__mro__ if name in vars(c)), None)


def test_every_event_declaring_its_chase_fields_applies_itself_as_the_declaration_read():
    # Given every event class of every game system that declares the chase fields it changes
    declaring = [cls for cls in every_event_class() if owner(cls, "chase_fields_changed") is not None]
    assert len(declaring) >= 10, "the declarations were not found: the test would pass on nothing"

    # Then neither its apply nor its mutate is overridden below the class that declared
    stale = []
    for cls in declaring:
        declared_in = cls.__mro__.index(owner(cls, "chase_fields_changed"))
        for method in ("apply", "mutate", "mutate_unchained"):
            defined = owner(cls, method)
            if defined is not None and cls.__mro__.index(defined) < declared_in:
                stale.append(f"{cls.__qualname__}.{method} (declared in {owner(cls, 'chase_fields_changed').__qualname__})")
    assert not stale, f"re-declare chase_fields_changed beside these: {stale}"


def test_the_check_sees_an_apply_overridden_below_its_declaration():
    # Given a subclass of a roll that applies itself differently and says nothing more
    from domain.rules.coc7e.chase_events import DiceRolled

    class Sloppy(DiceRolled):
        def apply(self, chase):  # noqa: ANN001
            super().apply(chase)

    try:
        # Then the check above would name it
        assert owner(Sloppy, "apply") is Sloppy
        assert Sloppy.__mro__.index(owner(Sloppy, "apply")) < Sloppy.__mro__.index(owner(Sloppy, "chase_fields_changed"))
    finally:
        del Sloppy
