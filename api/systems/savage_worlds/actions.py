"""Where each Savage Worlds command is sent, and who may send it (api/affordances.py): the
track view's ``actions`` name these, with what the domain's guards say of each now
(domain/rules/savage_worlds/affordances.py)."""
from __future__ import annotations

from api.affordances import Route


def _routes(system: str) -> tuple[dict[str, Route], dict[str, Route]]:
    p = f"/{system}/participants/{{participant_id}}"
    participant = {
        "end_turn": Route("POST", f"{p}/end-turn", "player"),
        "recover": Route("POST", f"{p}/recover", "player"),
        "conditions": Route("POST", f"{p}/conditions", "keeper"),
        "bennies": Route("POST", f"{p}/bennies", "keeper"),
        "benny_reroll": Route("POST", f"{p}/bennies/reroll", "player"),
        "benny_soak": Route("POST", f"{p}/bennies/soak", "player"),
        "test": Route("POST", f"{p}/tests", "player"),
        "recover_from_stunned": Route("POST", f"{p}/recover-from-stunned", "player"),
        "break_free": Route("POST", f"{p}/break-free", "player"),
    }
    if system == "swade":
        participant.update({
            "hold": Route("POST", f"{p}/hold", "player"),
            "act_from_hold": Route("POST", f"{p}/act-from-hold", "player"),
            "new_action_card": Route("POST", f"{p}/bennies/new-action-card", "player"),
            **{name: Route("POST", f"{p}/{name.replace('_', '-')}", "player")
               for name in ("change_position", "drop_back", "evade", "hold_steady", "flee", "force", "ram", "attack")},
        })
    else:
        participant.update({name: Route("POST", f"{p}/{name}", "player") for name in ("maneuver", "cooperate", "attack", "force")})
    chase = {
        "add_participant": Route("POST", f"/{system}/participants", "keeper"),
        "begin": Route("POST", f"/{system}/begin", "keeper"),
        "resolve": Route("POST", f"/{system}/resolve", "keeper"),
        "trait_roll": Route("POST", f"/{system}/trait-rolls", "player"),
        "damage_roll": Route("POST", f"/{system}/damage-rolls", "player"),
        "breaking_things": Route("POST", f"/{system}/breaking-things", "player"),
    }
    if system == "swade":
        chase["action_cards"] = Route("POST", "/swade/action-cards", "keeper")
    return participant, chase


ACTION_ROUTES = {"swade": _routes("swade"), "swd": _routes("swd")}
