"""The part of the track view that tells a client where part 5's optional rules on the road and
the trail stand (pursuit_events.py), so that no front-end re-implements them: who may call the
next sudden hazard and who places the one called, accelerations under way, how far drivers see
and what the stretches ahead turned out to be, navigation ready, tires burst, and drivers who must
roll to keep control."""
from __future__ import annotations

from typing import Any

from domain.rules.coc7e import pursuit, pursuit_events
from domain.rules.coc7e.pedal_procedures import live, navigation_ready
from domain.rules.coc7e.road_procedures import control_due


def render(chase: Any) -> dict[str, Any]:
    s = pursuit_events.read(chase)
    sudden = s["sudden_hazards"]
    return {
        "sudden_hazards": {
            "last_called_by": sudden["last_called_by"],
            "may_call": list(pursuit.next_caller(sudden["last_called_by"])),
            "to_place": dict(sudden["pending"]) if sudden["pending"] else None,
        },
        "accelerating": {pid: dict(acc) for pid, acc in s["accelerations"].items() if live(chase, pid)},
        "visibility": {pid: dict(v) for pid, v in s["visibility"].items()},
        "stretches": [{"location": int(k), "outcome": v} for k, v in sorted(s["revealed"].items(), key=lambda kv: int(kv[0]))],
        "navigated": sorted(vid for vid in s["navigation"] if navigation_ready(chase, vid)),
        "burst_tires": dict(s["burst_tires"]),
        # Only a driver with a major wound on record can owe a roll: looked for among those, not
        # among every participant of a big chase (issue 12 part 6).
        "keep_control_due": sorted(
            pid for pid in s.get("major_wounds", {}) if (p := chase.participants.get(pid)) is not None and p.aboard and control_due(chase, p)
        ),
    }
