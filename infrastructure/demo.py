"""``chase demo``: Harvey and the farmer (coc7e-chases.txt parts 1 and 2), played through the application."""
from __future__ import annotations

from typing import Any, Callable
from uuid import UUID

from application.chases import ChaseLedger
from application.dice import DiceChoice


def render_track(view: dict[str, Any]) -> str:
    """The Keeper's sheet from "Keeping Track of the Chase": a dot per location, names beneath."""
    width = 16
    locations = view["locations"]
    parts = view["participants"]
    dots = "".join("*".ljust(width) for _ in locations)
    names = []
    for loc in locations:
        here = [parts[pid]["name"] for pid in loc["participants"]]
        names.append(", ".join(here)[: width - 1].ljust(width))
    return dots.rstrip() + "\n" + "".join(names).rstrip()


def render_roll(roll: dict[str, Any], names: dict[str, str]) -> str:
    who = names.get(roll.get("roller") or "", "Keeper")
    if "level" in roll:
        tens = "/".join(f"{t['face']:02d}" for t in roll["tens"])
        dice = f"tens {tens} units {roll['units']}"
        return f"#{roll['sequence']:>3} {who:<8} {roll['purpose']:<12} {roll['skill']} {roll['target']}: {dice} -> {roll['result']} {roll['level']} ({roll['source']['kind']} dice)"
    faces = " ".join(str(d["face"]) for d in roll["dice"])
    return f"#{roll['sequence']:>3} {who:<8} {roll['purpose']:<12} {roll['expression']}: [{faces}] -> {roll['total']} ({roll['source']['kind']} dice)"


def play(ledger: ChaseLedger, out: Callable[[str], None] = print) -> dict[str, Any]:
    """Harvey fails his CON roll: the chase down the farm track is on, and the farmer catches him."""
    view = ledger.create_chase("Harvey and the angry farmer", dice="table", system="coc7e")
    coc7e = ledger.commands["coc7e"]  # the Call of Cthulhu plug-in's commands
    chase_id = UUID(view["chase_id"])
    out(f"Chase {chase_id}: {view['name']}")
    harvey, _ = coc7e.add_participant(chase_id, {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6})
    farmer, _ = coc7e.add_participant(chase_id, {"name": "Farmer", "role": "pursuer", "dex": 50, "con": 55, "mov": 7})
    # Both fail their CON rolls: Harvey 72 against 60, the farmer 80 against 55.
    coc7e.roll_speed(chase_id, harvey, DiceChoice(faces=[70, 2]))
    _, view = coc7e.roll_speed(chase_id, farmer, DiceChoice(faces=[80, 0]))
    p = view["participants"]
    out(f"Speed rolls: Harvey MOV {p[harvey]['mov']} -> {p[harvey]['speed_mov']}, farmer MOV {p[farmer]['mov']} -> {p[farmer]['speed_mov']}")
    view = coc7e.cut_to_the_chase(chase_id, opening_range=2)
    out("Cut to the chase: the farmer two locations behind Harvey")
    out(render_track(view))
    while view["phase"] == "running" and not view["caught_up"]:
        number = view["round"]
        for pid in list(view["turn_order"]):
            actions = view["participants"][pid]["movement_actions"]
            view = coc7e.move(chase_id, pid, actions)
            if view["caught_up"]:
                break
        out(f"\nEnd of round {number}:" if not view["caught_up"] else f"\nRound {number}: the farmer catches up with Harvey")
        out(render_track(view))
    view = ledger.end_chase(chase_id, "caught", "the farmer has caught Harvey; conflict follows")
    names = {pid: q["name"] for pid, q in view["participants"].items()}
    out("\nRoll log:")
    for row in ledger.rolls(chase_id):
        out(render_roll(row["roll"], names))
    out(f"\nChase ended: {view['outcome']} after {view['version']} events")
    return view
