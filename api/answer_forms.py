"""The forms of a command's answer in the OpenAPI document (api/contract.py): a command that
creates something answers the one envelope (CommandResult) with the id of what it created always
there (api.chases.result: ``participant_id``, ``obstacle_id``, ``request_id``, the Keeper's
``keeper_token``, the ``chases`` split off), so its answer is the envelope with that field
required, and a client needs no check that it is there."""
from __future__ import annotations

from typing import Any

ENVELOPE = "#/components/schemas/CommandResult"
# What a 201 answer of the envelope holds, by what the path creates.
CREATED: dict[str, tuple[str, str]] = {
    "/chases": ("ChaseCreated", "keeper_token"),
    "/participants": ("ParticipantAdded", "participant_id"),
    "/obstacles": ("ObstacleAdded", "obstacle_id"),
    "/sudden-hazards/placement": ("ObstacleAdded", "obstacle_id"),
    "/undo-requests": ("UndoRequested", "request_id"),
    "/split": ("ChaseSplit", "chases"),
}
NAMES = sorted({"CommandResult", *(name for name, _ in CREATED.values())})


def created(path: str, operation: dict[str, Any], schemas: dict[str, Any]) -> None:
    """Point a creating command's 201 answer at the envelope with what it created required."""
    media = operation.get("responses", {}).get("201", {}).get("content", {}).get("application/json", {})
    if media.get("schema") != {"$ref": ENVELOPE}:
        return
    form = next((made for suffix, made in CREATED.items() if path == suffix or (suffix != "/chases" and path.endswith(suffix))), None)
    if form is None:
        return
    name, field = form
    declared = schemas["CommandResult"]["properties"][field]
    schemas[name] = {"description": f"the command envelope (CommandResult), with `{field}`: what the command created",
                     "allOf": [{"$ref": ENVELOPE}, {"type": "object", "properties": {field: declared}, "required": [field]}]}
    media["schema"] = {"$ref": f"#/components/schemas/{name}"}
