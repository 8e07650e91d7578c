"""The Deluxe track view: the round's Action cards high to low, each with its Advantage, its Attack
"Range" and its Complication, the rounds left and what waits to be resolved (swd-chases.txt)."""
from __future__ import annotations

from typing import Any

from application.projections.rows import participant_rows
from application.systems.savage_worlds.views import bookkeeping, card_dict, deck, header, participant
from domain.rules.savage_worlds.cards import card
from domain.rules.savage_worlds.swd_chase import attack_range, complication, complication_due, may_attack, resolution_order


def render(chase: Any) -> dict[str, Any]:
    participants = participant_rows(chase, _participant)
    length = chase.settings.get("length")
    completed = chase.round if chase.round_over else max(0, chase.round - 1)
    return {
        **header(chase),
        "length": length,
        "rounds_left": None if length is None else max(0, length - completed),
        "locations": [],
        "participants": participants,
        "action_cards": _cards(chase),
        "deck": {"action": deck(chase, "action")},
        **bookkeeping(chase),
    }


def _participant(chase: Any, pid: str) -> dict[str, Any]:
    """A participant's row, kept while its inputs stand (application/projections/rows.py)."""
    p = chase.participants[pid]
    view = participant(chase, p)
    view["barred"] = chase.barred.get(pid)
    view["cards_earned"] = chase.maneuvered.get(view["unit"]) if not p.aboard else None
    view["cooperative_bonus"] = chase.cooperative.get(pid, {}).get("bonus", 0)
    return view

def _cards(chase: Any) -> list[dict[str, Any]]:
    """The kept Action cards, high to low: who each has the Advantage over, and what the card does."""
    held = {u.id: card(chase.action_cards[u.id][0]) for u in chase.units() if len(chase.action_cards.get(u.id, [])) == 1}
    out = []
    for unit_id in resolution_order(held):
        mine = held[unit_id]
        reach = attack_range(mine)
        foes = chase.foes(unit_id)
        out.append(
            {
                "participant_id": unit_id,
                "name": chase.participants[unit_id].name,
                **card_dict(mine.code),
                "advantage_over": [f.id for f in foes if may_attack(mine, held.get(f.id))],
                "attack_range": reach.name,
                "range_penalty": reach.penalty,
                "complication": complication(mine).name if complication_due(mine) else None,
                "acted": unit_id in chase.turn_order[: chase.turn_index],
            }
        )
    return out
