"""The sample hazards and barriers of coc7e-chases.txt part 3, for the Keeper to pick from.

The lists are printed as ideas, with no skill or difficulty (the Keeper names those: "Skills and
Hazards", "Skills and Barriers"); they are served as printed, each entry citing its list. Part 5's
"Random Hazards and Barriers" says when one lies ahead; these say what it might be.
"""
from __future__ import annotations

from dataclasses import dataclass

from domain.rules.coc7e.errors import CHASES

SETTINGS = ("car", "foot")
KINDS = ("hazard", "barrier")


@dataclass(frozen=True)
class Sample:
    kind: str  # hazard or barrier
    setting: str  # car or foot chase
    name: str

    @property
    def source(self) -> str:
        return f'{CHASES} "Sample {self.kind.capitalize()}s for {self.setting.capitalize()} Chases"'


_PRINTED = {
    ("hazard", "car"): (
        "Traffic jam with room to weave between vehicles",
        "Performing a U-turn or bootlegger reverse",
        "Roadwork that causes an obstruction",
        "Road traffic accident",
        "Pedestrian crossing",
        "Busy junction",
        "Cyclists in the road",
        "Sharp bends or pot holes",
        "Animals (deer, goats, sheep) on the road",
        "Other vehicles pulling out or stopping suddenly",
        "Fallen rocks and debris on the road",
        "Narrow road between a cliff and a drop",
        "Slow-moving delivery vehicles and refuse collection trucks",
        "Pedestrianized area",
        "Two men carrying a large sheet of glass across the street",
        "A marketplace or building site",
        "A large stack of cardboard boxes",
        "Overtaking a vehicle on a narrow road or in the face of oncoming traffic",
        "Heading off-road or through a field",
        "An oncoming vehicle (a hazard can move)",
    ),
    ("hazard", "foot"): (
        "A low fence or wall",
        "A latched window",
        "A river, lake, or muddy swamp",
        "A crowded street",
        "A narrow alley",
        "A rooftop",
        "A hole in a wall",
        "A crawlspace, junk-filled attic, or cellar",
        "A spiral staircase",
        "Between the stacks of a library or museum",
    ),
    ("barrier", "car"): (
        "Traffic jam with no room to weave between vehicles",
        "Police roadblock",
        "A fallen tree",
        "A rockslide",
    ),
    ("barrier", "foot"): (
        "A high fence or wall",
        "A chasm",
        "A locked door",
    ),
}
SAMPLES: tuple[Sample, ...] = tuple(Sample(kind, setting, name) for (kind, setting), names in _PRINTED.items() for name in names)


def samples(kind: str | None = None, setting: str | None = None) -> list[Sample]:
    """The samples of a kind and setting (None: all), in the printed order."""
    return [s for s in SAMPLES if kind in (None, s.kind) and setting in (None, s.setting)]
