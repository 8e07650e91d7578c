"""Where each Savage Worlds command is sent, and who may send it (api/action_routes.py): the
track view's ``actions`` name these, with what the domain's guards say of each now
(domain/rules/savage_worlds/affordances.py). Each command's ``who`` is the table's its command
refuses by (application/systems/savage_worlds/permissions.py)."""
from __future__ import annotations

from api.action_routes import Route, chase_routes, participant_routes
from application.systems.savage_worlds.permissions import CHASE as CHASE_WHO, PARTICIPANT as WHO, SWADE_MANEUVERS


def _routes(system: str) -> tuple[dict[str, Route], dict[str, Route]]:
    p = f"/{system}/participants/{{participant_id}}"
    paths = {
        "end_turn": f"{p}/end-turn",
        "recover": f"{p}/recover",
        "conditions": f"{p}/conditions",
        "bennies": f"{p}/bennies",
        "benny_reroll": f"{p}/bennies/reroll",
        "benny_soak": f"{p}/bennies/soak",
        "test": f"{p}/tests",
        "recover_from_stunned": f"{p}/recover-from-stunned",
        "break_free": f"{p}/break-free",
    }
    if system == "swade":
        paths.update({
            "hold": f"{p}/hold",
            "act_from_hold": f"{p}/act-from-hold",
            "new_action_card": f"{p}/bennies/new-action-card",
            **{name: f"{p}/{name.replace('_', '-')}" for name in SWADE_MANEUVERS},
        })
    else:
        paths.update({name: f"{p}/{name}" for name in ("maneuver", "cooperate", "attack", "force")})
    participant = participant_routes({name: ("POST", path) for name, path in paths.items()}, WHO[system])
    chase_paths = {
        "add_participant": ("POST", f"/{system}/participants"),
        "begin": ("POST", f"/{system}/begin"),
        "resolve": ("POST", f"/{system}/resolve"),
        "trait_roll": ("POST", f"/{system}/trait-rolls"),
        "damage_roll": ("POST", f"/{system}/damage-rolls"),
        "breaking_things": ("POST", f"/{system}/breaking-things"),
    }
    if system == "swade":
        chase_paths["action_cards"] = ("POST", "/swade/action-cards")
    return participant, chase_routes(chase_paths, CHASE_WHO[system])


ACTION_ROUTES = {"swade": _routes("swade"), "swd": _routes("swd")}
