"""The D6 track view: the course in metres, who stands where at what rate, their fatigue, and
what each may do this round: every movement type still open, its free short distance, the rates
the GM's limits allow and the difficulty of each (d6-movement.txt). Pure functions of the state."""
from __future__ import annotations

from typing import Any

from application.projections.record import record_fields
from application.projections.rows import participant_rows
from domain.rules.d6.movement import MOVEMENT, SPEED_LIMIT, acceleration_limits, fatigue_modifier, free_distance, step, whole_or_half
from domain.rules.d6.moving import assess
from domain.rules.d6.participants import D6Participant

SHOWN_STEPS = 6  # rates shown beyond the base when no limit caps them


def render(chase: Any) -> dict[str, Any]:
    return {
        **record_fields(chase),
        "round_over": chase.round_over,
        "settings": dict(chase.settings),
        "course": {"finish": chase.course["finish"], "terrain": [dict(s) for s in chase.course["terrain"]]},
        "locations": [],
        "participants": participant_rows(chase, lambda chase, pid: participant(chase, chase.participants[pid])),
    }


def participant(chase: Any, p: D6Participant) -> dict[str, Any]:
    return {
        "id": p.id,
        "name": p.name,
        "role": p.role,
        "status": p.status,
        "position": p.position,
        "move": p.move,
        "flying_move": p.flying_move,
        "physique": p.physique,
        "skills": dict(p.skills),
        "rates": dict(p.rates),
        "fatigue": {
            "limit": p.fatigue_limit,
            "fast_rounds": p.fast_rounds,
            "modifier": fatigue_modifier(p.fast_rounds, p.fatigue_limit),
        },
        "this_round": {"moved": list(p.this_round.get("moved", [])), "fast": p.this_round.get("fast", False), "tripped": p.this_round.get("tripped", False)},
        "caught_by": p.caught_by,
        "finished_round": p.finished_round,
        "may_move": may_move(chase, p) if chase.phase == "running" and p.in_chase else {},
    }


def may_move(chase: Any, p: D6Participant) -> dict[str, Any]:
    """Each movement type still open this round: its rates, limits and difficulties."""
    out = {}
    for movement, kind in MOVEMENT.items():
        base = p.base_rate(movement)
        if base is None or movement in p.this_round.get("moved", []):
            continue
        current = p.rates.get(movement, 0)
        limits = acceleration_limits(current, base) if chase.settings.get("acceleration") and kind.rate else None
        slowest, fastest = limits if limits else (0, None)
        if chase.settings.get("speed_limit"):
            fastest = SPEED_LIMIT * base if fastest is None else min(fastest, SPEED_LIMIT * base)
        top = fastest if fastest is not None else base + SHOWN_STEPS * step(movement, base)
        rates = [r for r in (base + n * step(movement, base) for n in range(4 * SHOWN_STEPS + 1)) if slowest <= r <= top]
        if fastest is not None and fastest > base and fastest not in rates:
            rates.append(fastest)
        free = free_distance(base)
        out[movement] = {
            "base_rate": base,
            "current_rate": current if kind.rate else None,
            "free_up_to": free if kind.rate and free >= slowest else None,
            "slowest": slowest if limits else None,
            "fastest": fastest,
            "options": [{"rate": whole_or_half(r), "difficulty": assess(chase.course["terrain"], p, movement, base, r)["difficulty"]} for r in sorted(rates)],
        }
    return out


def render_vehicles(chase: Any) -> dict[str, Any]:
    """The vehicle view of a D6 chase: d6-movement.txt gives vehicles no rules of their own
    (participants move on foot, in water, climbing or on wing), so it lists none."""
    return {"chase_id": str(chase.id), "version": chase.version, "vehicles": []}
