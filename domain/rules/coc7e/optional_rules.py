"""The optional rules of a Call of Cthulhu chase, and the Keeper's choice of them per chase.

coc7e-chases.txt part 5 ("This final part includes optional rules that can be used to embellish
and further develop chases"): the table picks which it uses. Each rule is named here once, in the
game's words, with the heading of the text that gives it. A chase uses every one of them unless
the Keeper listed otherwise when creating it (chases recorded before the choice existed, too), and
the Keeper may change the choice at any time (OptionalRulesChanged, undone like any action). A
command of a rule the chase does not use is refused (OptionalRuleOff, a broken rule naming it).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Protocol

from domain.recorded_chase import InvalidChase, RecordedChase
from domain.rules.coc7e.errors import CHASES, RuleBroken

Event = RecordedChase.Event


@dataclass(frozen=True)
class OptionalRule:
    name: str
    heading: str  # the heading of coc7e-chases.txt that gives the rule
    what: str

    @property
    def source(self) -> str:
        return f'{CHASES} "{self.heading}"'


# In the order of part 5. The extract lost the headings of the passengers' and of the hiding
# paragraphs: they sit under "Escaping the Pursuer", which is cited for them.
RULES: tuple[OptionalRule, ...] = (
    OptionalRule("choosing_a_route", "Choosing a Route", "the track branches; the quarry chooses, pursuers follow a branch"),
    OptionalRule("random_hazards", "Random Hazards and Barriers", "1D100 for what lies on each new location"),
    OptionalRule("sudden_hazards", "Sudden Hazards", "group Luck rolls for sudden hazards, players and Keeper alternating"),
    OptionalRule("pedal_to_the_metal", "Pedal to the Metal", "a vehicle's movement action covers 2 to 5 locations"),
    OptionalRule("visibility", "Pedal to the Metal", "how far a driver can see: 1D3 city, 1D6 suburbs, 1D10 country"),
    OptionalRule("escaping_and_hiding", "Escaping the Pursuer", "Tracking rolls to keep the trail; hiding against Spot Hidden"),
    OptionalRule("passengers", "Escaping the Pursuer", "passengers act once in DEX order; a navigator helps the driver"),
    OptionalRule("ranged_attacks", "Ranged Attacks During a Chase", "shooting stopped or on the move; tires"),
    OptionalRule("driver_damage", "Driver Damage", "a major wound at the wheel forces a Hard Drive Auto roll"),
    OptionalRule("joining_and_leaving", "Characters Joining a Chase in Progress", "joining a chase in progress; leaving it"),
    OptionalRule("switching_modes", "Switching Between Modes of Movement", "swimming, flying, getting into or out of a vehicle"),
    OptionalRule("characters_creating_hazards", "Characters Creating Hazards", "actions that add or remove hazards and barriers"),
    OptionalRule("splitting_up", "Splitting Up", "a chase splits into separate chases"),
    OptionalRule("monsters", "Monsters in a Chase", "skills from DEX or another characteristic; fliers skip Jump and Climb"),
    OptionalRule("fleeing_the_scene", "Fleeing the Scene", "how many locations are covered in a number of rounds"),
)
BY_NAME = {rule.name: rule for rule in RULES}
NAMES = tuple(BY_NAME)
ALL_ON = list(NAMES)  # the default: a chase uses every optional rule unless the Keeper lists otherwise


class OptionalRuleOff(RuleBroken):
    """A command of an optional rule this chase does not use; ``optional_rule`` names it."""

    def __init__(self, rule: OptionalRule) -> None:
        super().__init__(
            f"this chase does not use the optional rule {rule.name} ({rule.what}); "
            "the Keeper switches it on with PUT /chases/{id}/optional-rules",
            rule.source,
        )
        self.optional_rule = rule.name


def chosen(names: Iterable[Any], field: str = "optional_rules") -> list[str]:
    """The rules named, checked, without repeats and in the order of part 5."""
    if isinstance(names, (str, bytes)) or not isinstance(names, Iterable):
        raise InvalidChase(field, "must be a list of optional rule names")
    names = list(names)
    unknown = [n for n in names if not isinstance(n, str) or n not in BY_NAME]
    if unknown:
        raise InvalidChase(field, f"unknown optional rules {', '.join(map(str, unknown))}; the rules are {', '.join(NAMES)}")
    return [n for n in NAMES if n in names]


class OptionalRulesChosen(Event):
    """The optional rules the Keeper chose when creating the chase: part of its creation, like
    Created, so not an action undo takes back (recorded only when the Keeper listed them)."""

    TOPIC = "coc7e:Chase.OptionalRulesChosen"
    meta = True
    optional_rules: list

    def apply(self, chase: Any) -> None:
        chase.optional_rules = list(self.optional_rules)


class OptionalRulesChanged(Event):
    """The Keeper changed which optional rules the chase uses."""

    TOPIC = "coc7e:Chase.OptionalRulesChanged"
    optional_rules: list  # every rule in use from now on
    switched_on: list
    switched_off: list

    def apply(self, chase: Any) -> None:
        chase.optional_rules = list(self.optional_rules)


class UsesOptionalRules(Protocol):
    optional_rules: list[str]
    phase: str

    def trigger_event(self, event_class: Any, **kwargs: Any) -> None: ...


def choose_optional_rules(chase: UsesOptionalRules, names: Iterable[Any]) -> None:
    """At creation: the rules the Keeper listed, and no others."""
    chase.trigger_event(OptionalRulesChosen, optional_rules=chosen(names))


def check_change_optional_rules(chase: UsesOptionalRules) -> None:
    """The guard of ``change_optional_rules`` before the rules named: a chase not yet over."""
    if chase.phase == "ended":
        raise RuleBroken("the chase has ended", f"{CHASES} \"Escaping the Pursuer\"")


def change_optional_rules(chase: UsesOptionalRules, names: Iterable[Any]) -> None:
    """The Keeper's new choice: the rules listed are in use from now on, the others are not."""
    check_change_optional_rules(chase)
    now = chosen(names)
    if now == chase.optional_rules:
        raise RuleBroken("the chase already uses exactly these optional rules", f"{CHASES} part 5 (optional rules)")
    chase.trigger_event(
        OptionalRulesChanged,
        optional_rules=now,
        switched_on=[n for n in now if n not in chase.optional_rules],
        switched_off=[n for n in chase.optional_rules if n not in now],
    )


def require_optional_rule(chase: UsesOptionalRules, name: str) -> OptionalRule:
    """Refuse unless the chase uses the optional rule ``name`` (one of NAMES)."""
    rule = BY_NAME[name]
    if not uses(chase, name):
        raise OptionalRuleOff(rule)
    return rule


def uses(chase: Any, name: str) -> bool:
    """Whether the chase uses the optional rule; a fight without a chase (Encounter, which
    shares some of the chase's procedures) has none of them."""
    return name in getattr(chase, "optional_rules", ())


def fresh_state() -> dict[str, Any]:
    """Part 5's state of a new chase: every optional rule in use; everyone in their standard mode
    of movement (modes.py: participant id -> mode); no forks in the track and no routes taken
    (forks.py: location -> route names; participant id -> location -> route); not split from or
    into other chases (splitting.py: their ids)."""
    return {"optional_rules": list(ALL_ON), "modes": {}, "forks": {}, "paths": {}, "split_from": None, "split_into": [], "split_sisters": []}


def state_v2_v3(state: dict[str, Any]) -> None:
    """A chase's stored state, schema 2 -> 3: schema 3 keeps part 5's state (fresh_state). Every
    chase recorded before could play every optional rule (the default), and had none of the rest."""
    for key, value in fresh_state().items():
        state.setdefault(key, value)
