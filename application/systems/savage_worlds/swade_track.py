"""The Adventure Edition track view: the row of Chase Cards with who is on each, the Range between
rivals, the round's Action cards and what waits to be resolved (swade-chases-reference.txt "SETUP")."""
from __future__ import annotations

from typing import Any

from application.projections.rows import participant_rows
from application.systems.savage_worlds.views import bookkeeping, card_dict, deck, header, participant
from domain.rules.savage_worlds.swade_chase import cards_apart


def render(chase: Any) -> dict[str, Any]:
    participants = participant_rows(chase, _participant)
    increment = chase.settings.get("range_increment")
    return {
        **header(chase),
        "mode": chase.settings.get("mode"),
        "range_increment": increment,
        "linear": chase.settings.get("linear"),
        "locations": _row(chase),
        "participants": participants,
        "ranges": _ranges(chase, increment) if increment else [],
        "action_cards": [
            {"participant_id": unit, "name": chase.participants[unit].name, **card_dict(chase.action_cards[unit][0]),
             "acted": i < chase.turn_index}
            for i, unit in enumerate(chase.turn_order) if chase.action_cards.get(unit)
        ],
        "deck": {"action": deck(chase, "action"), "chase": deck(chase, "chase")},
        **bookkeeping(chase),
    }


def _participant(chase: Any, pid: str) -> dict[str, Any]:
    """A participant's row, kept while its inputs stand (application/projections/rows.py)."""
    p = chase.participants[pid]
    view = participant(chase, p)
    location = chase.track.location_of(view["unit"])
    view["location"] = location if p.in_chase else None
    view["evading"] = chase.evading.get(view["unit"], 0)
    view["holding_steady"] = view["unit"] in chase.holding_steady
    return view


def _row(chase: Any) -> list[dict[str, Any]]:
    """Each Chase Card, rear (index 0) to front, with the units on it (those with them move along)."""
    positions = chase.track.positions
    lowest = min([0, *positions.values()])
    highest = max([len(chase.row) - 1, *positions.values()])
    rows = []
    for index in range(lowest, highest + 1):
        dealt = 0 <= index < len(chase.row)
        units = sorted((u for u, at in positions.items() if at == index), key=lambda u: chase.participants[u].joined)
        rows.append({"index": index, **(card_dict(chase.row[index]) if dealt else {"card": None}), "participants": units})
    return rows


def _ranges(chase: Any, increment: int) -> list[dict[str, Any]]:
    """The Range from each unit to each rival: cards between (his own not counted) x increment.

    While "SETUP" is being recorded (the row dealt, units placed one event at a time) a unit not
    yet on a Chase Card has no Range: time travel to those versions shows the ranges known so far.
    """
    out = []
    placed = [u for u in chase.units() if chase.track.location_of(u.id) is not None]
    for a in placed:
        for b in placed:
            if a.role != b.role:
                cards = cards_apart(chase.track.location_of(a.id), chase.track.location_of(b.id))
                out.append({"from": a.id, "to": b.id, "cards_between": cards, "range": cards * increment})
    return out
