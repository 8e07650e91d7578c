"""A Savage Worlds table over HTTP, for the e2e tests: the GM's and players' actions as calls.

Table dice throughout unless a test asks for the server's: a trait roll's faces are the trait
die, then the Wild Die (for a Wild Card), then each ace's rerolls (acing.py).
"""
from __future__ import annotations

from typing import Any

from tests.conftest import BearerClient

PROBLEM = "application/problem+json"


class SavageTable:
    """One Savage Worlds chase, played by its GM (the Keeper token) through the API."""

    def __init__(self, client: Any, system: str, dice: str = "table", name: str = "A Savage chase") -> None:
        self.system = system
        self.http = BearerClient(client)
        response = self.http.post("/chases", json={"name": name, "system": system, "dice": dice})
        assert response.status_code == 201, response.get_json()
        body = response.get_json()
        self.chase_id = body["chase"]["chase_id"]
        self.http.token = body["keeper_token"]
        self.ids: dict[str, str] = {}
        self.created = body["chase"]

    # -- calls -----------------------------------------------------------------------------

    def url(self, path: str) -> str:
        return f"/chases/{self.chase_id}{path}"

    def post(self, path: str, body: dict[str, Any] | None = None, status: int = 200) -> dict[str, Any]:
        response = self.http.post(self.url(path), json=body or {})
        assert response.status_code == status, (path, response.status_code, response.get_json())
        return response.get_json()

    def get(self, path: str) -> dict[str, Any]:
        response = self.http.get(self.url(path))
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def refused(self, path: str, body: dict[str, Any] | None, status: int) -> dict[str, Any]:
        """The command is refused with a problem document of ``status``, and nothing is recorded."""
        before = self.events()
        response = self.http.post(self.url(path), json=body or {})
        problem = response.get_json()
        assert response.status_code == status, problem
        assert response.mimetype == PROBLEM and problem["status"] == status and problem["detail"]
        assert self.events() == before, "a refused command changed the log"
        return problem

    # -- reads -----------------------------------------------------------------------------

    def track(self) -> dict[str, Any]:
        return self.get("/track")["chase"]

    def vehicles(self) -> list[dict[str, Any]]:
        return self.get("/vehicles")["vehicles"]

    def vehicle(self, name: str) -> dict[str, Any]:
        return next(v for v in self.vehicles() if v["name"] == name)

    def events(self) -> list[dict[str, Any]]:
        return self.get("/events")["events"]

    def names(self, after: int = 0) -> list[str]:
        return [e["name"] for e in self.events() if e["version"] > after]

    def rolls(self) -> list[dict[str, Any]]:
        return self.get("/rolls")["rolls"]

    def who(self, chase: dict[str, Any], name: str) -> dict[str, Any]:
        return chase["participants"][self.ids[name]]

    def position(self, name: str, chase: dict[str, Any] | None = None) -> int:
        return self.who(chase or self.track(), name)["location"]

    # -- set-up ----------------------------------------------------------------------------

    def add(self, **spec: Any) -> str:
        for key in ("with_id", "target_id"):
            if key in spec and spec[key] in self.ids:
                spec[key] = self.ids[spec[key]]
        body = self.post(f"/{self.system}/participants", spec, 201)
        self.ids[spec["name"]] = body["participant_id"]
        return body["participant_id"]

    def vehicle_with_driver(self, name: str, role: str, driver: str, die: str = "d8", **spec: Any) -> str:
        vehicle = self.add(name=name, kind="vehicle", role=role, **{"toughness": 10, "top_speed": 60, **spec})
        self.add(name=driver, with_id=name, seat="driver", maneuver_die=die)
        return vehicle

    def begin(self, **body: Any) -> dict[str, Any]:
        if "placements" in body:
            body["placements"] = {self.ids[n]: at for n, at in body["placements"].items()}
        return self.post(f"/{self.system}/begin", body)

    # -- play ------------------------------------------------------------------------------

    def deal(self, **cards: str) -> dict[str, Any]:
        """Adventure Edition: a round's Action cards, by unit name."""
        return self.post("/swade/action-cards", {"cards": {self.ids[n]: c for n, c in cards.items()}})

    def act(self, name: str, action: str, status: int = 200, **body: Any) -> dict[str, Any]:
        if body.get("target_id") in self.ids:
            body["target_id"] = self.ids[body["target_id"]]
        return self.post(f"/{self.system}/participants/{self.ids[name]}/{action}", body, status)

    def resolve(self, status: int = 200, **body: Any) -> dict[str, Any]:
        return self.post(f"/{self.system}/resolve", body, status)

    def end_turn(self, name: str) -> dict[str, Any]:
        return self.post(f"/{self.system}/participants/{self.ids[name]}/end-turn")

    def damage(self, target: str, expression: str, faces: list[int], **body: Any) -> dict[str, Any]:
        if body.get("roller_id") in self.ids:
            body["roller_id"] = self.ids[body["roller_id"]]
        return self.post(f"/{self.system}/damage-rolls", {"target_id": self.ids[target], "expression": expression, "table_dice": faces, **body})

    def pending(self, chase: dict[str, Any] | None = None) -> list[str]:
        return [f["kind"] for f in (chase or self.track())["pending"]]
