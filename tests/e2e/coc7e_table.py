"""Helpers for the e2e tests of hazards, barriers, conflict and vehicles (coc7e-chases.txt parts 3
and 4): the Keeper's side of the table over HTTP, with table dice for every roll.

A percentile roll's faces are its tens dice (00-90) then its units die (0-9); a dice expression's
one face per die. ``rolls`` maps each roll of a command to its faces.
"""
from __future__ import annotations

from typing import Any

PROBLEM = "application/problem+json"
HARVEY = {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6, "hp": 12, "skills": {"Climb": 40, "Fighting (Brawl)": 50, "Dodge": 30}}
FARMER = {"name": "Farmer", "role": "pursuer", "dex": 50, "con": 55, "mov": 7, "hp": 13, "skills": {"Fighting (Brawl)": 45}}


class Table:
    """The Keeper's commands for hazards, barriers, conflict and vehicles."""

    def __init__(self, keeper: Any) -> None:
        self.keeper = keeper

    @property
    def ids(self) -> dict[str, str]:
        return self.keeper.ids

    def post(self, path: str, body: dict[str, Any] | None = None, status: int = 200) -> dict[str, Any]:
        return self.keeper.ok(self.keeper.post(path, body or {}), status)

    def send(self, method: str, path: str, body: dict[str, Any] | None = None, **kw: Any) -> Any:
        """PUT, PATCH or DELETE on the chase with the Keeper's token (or ``headers``)."""
        headers = kw.pop("headers", None) or {"Authorization": f"Bearer {self.keeper.keeper_token}"}
        return self.keeper.http.client.open(f"/chases/{self.keeper.chase_id}{path}", method=method, json=body, headers=headers, **kw)

    def name_location(self, index: int, name: str) -> dict[str, Any]:
        return self.keeper.ok(self.send("PUT", f"/locations/{index}", {"name": name}))

    def participant(self, name: str) -> str:
        return f"/participants/{self.ids[name]}"

    def place(self, kind: str, between: list[Any], status: int = 201, **spec: Any) -> str:
        return self.post("/obstacles", {"kind": kind, "between": between, **spec}, status)["obstacle_id"]

    def negotiate(self, name: str, skill_faces: list[int], **body: Any) -> dict[str, Any]:
        return self.post(f"{self.participant(name)}/negotiate", {"rolls": {"skill": skill_faces}, **body})

    def break_barrier(self, name: str, **body: Any) -> dict[str, Any]:
        return self.post(f"{self.participant(name)}/break-barrier", body)

    def attack(self, name: str, target: str, **body: Any) -> dict[str, Any]:
        return self.post(f"{self.participant(name)}/attack", {"target_id": self.ids[target], **body})

    def mishap_roll(self, name: str, skill: str, faces: list[int], **body: Any) -> dict[str, Any]:
        return self.post(f"{self.participant(name)}/mishap-roll", {"skill": skill, "rolls": {"skill": faces}, **body})

    def consequences(self, name: str, **body: Any) -> dict[str, Any]:
        return self.post(f"{self.participant(name)}/consequences", body)

    def vehicles(self) -> dict[str, dict[str, Any]]:
        view = self.keeper.ok(self.keeper.http.get(f"/chases/{self.keeper.chase_id}/vehicles"))
        return {v["name"]: v for v in view["vehicles"]}

    def who(self, chase: dict[str, Any], name: str) -> dict[str, Any]:
        return chase["participants"][self.ids[name]]


def harvey_and_the_farmer(keeper: Any, **cut: Any) -> dict[str, Any]:
    """Part 2's set-up: Harvey fails his CON roll (MOV 5), the farmer fails his (MOV 6); Harvey at
    location 2, the farmer at 0 with two movement actions a round; Harvey (DEX 55) acts first."""
    keeper.create("Harvey and the angry farmer", dice="table")
    keeper.add(**HARVEY)
    keeper.add(**FARMER)
    keeper.speed_roll("Harvey", [70, 2])
    keeper.speed_roll("Farmer", [80, 0])
    return keeper.cut(**cut)


def refused(keeper: Any, response: Any, status: int, before: list[dict[str, Any]], *, field: str | None = None, rule: str | None = None) -> dict[str, Any]:
    """A problem document of ``status``, naming the field or the rule, and nothing recorded."""
    body = response.get_json()
    assert response.status_code == status, body
    assert response.mimetype == PROBLEM
    assert body["status"] == status and body["title"] and body["detail"]
    if field is not None:
        named = [e["field"] for e in body["errors"]]
        assert any(f == field or f.startswith(field + ".") for f in named), named
    if rule is not None:
        assert rule in body["rule"], body["rule"]
        assert "coc7e-" in body["rule"]  # the rules text's file, then the heading
    assert keeper.events() == before
    return body
