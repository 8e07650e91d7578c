"""A D6 table over HTTP, for the e2e tests: the GM's and players' actions as calls.

Table dice throughout unless a test asks for the server's: a roll's faces are the ordinary
dice, then the Wild Die, then each reroll of the Wild Die after a 6 (domain/rules/d6/dice.py).
"""
from __future__ import annotations

from typing import Any

from tests.conftest import BearerClient

PROBLEM = "application/problem+json"


class D6Table:
    """One D6 race or chase, played by its GM (the Keeper token) through the API."""

    def __init__(self, client: Any, dice: str = "table", name: str = "A D6 chase") -> None:
        self.client = client
        self.http = BearerClient(client)
        response = self.http.post("/chases", json={"name": name, "system": "d6", "dice": dice})
        assert response.status_code == 201, response.get_json()
        body = response.get_json()
        self.chase_id = body["chase"]["chase_id"]
        self.http.token = body["keeper_token"]
        self.ids: dict[str, str] = {}

    def url(self, path: str) -> str:
        return f"/chases/{self.chase_id}{path}"

    def post(self, path: str, body: dict[str, Any] | None = None, status: int = 200, headers: dict[str, str] | None = None) -> dict[str, Any]:
        response = self.http.post(self.url(path), json=body or {}, headers=headers or {})
        assert response.status_code == status, (path, response.status_code, response.get_json())
        return response.get_json()

    def get(self, path: str, **query: Any) -> dict[str, Any]:
        response = self.http.get(self.url(path), query_string=query)
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

    def player(self, *names: str) -> "D6Table":
        """The same table seen by a player whose token the GM issued for these participants."""
        token = self.post("/tokens", {"participant_ids": [self.ids[n] for n in names]}, 201)["token"]
        seat = object.__new__(D6Table)
        seat.__dict__.update(self.__dict__, http=BearerClient(self.client, token))
        return seat

    def answer(self, path: str, body: dict[str, Any]) -> Any:
        """The raw response to a command, whatever its status."""
        return self.http.post(self.url(path), json=body)

    # -- reads -----------------------------------------------------------------------------

    def track(self) -> dict[str, Any]:
        return self.get("/track")["chase"]

    def events(self) -> list[dict[str, Any]]:
        return self.get("/events")["events"]

    def rolls(self, **query: Any) -> list[dict[str, Any]]:
        return self.get("/rolls", **query)["rolls"]

    def who(self, name: str, chase: dict[str, Any] | None = None) -> dict[str, Any]:
        return (chase or self.track())["participants"][self.ids[name]]

    def position(self, name: str, chase: dict[str, Any] | None = None) -> float:
        return self.who(name, chase)["position"]

    # -- the GM's and players' actions -----------------------------------------------------

    def add(self, name: str, role: str, move: int = 10, physique: str = "3D", **spec: Any) -> str:
        body = self.post("/d6/participants", {"name": name, "role": role, "move": move, "physique": physique, **spec}, 201)
        self.ids[name] = body["participant_id"]
        return body["participant_id"]

    def begin(self, **options: Any) -> dict[str, Any]:
        return self.post("/d6/begin", options)["chase"]

    def move(self, name: str, movement: str, rate: float, faces: list[int] | None = None, **options: Any) -> dict[str, Any]:
        body = dict(options, movement=movement, rate=rate)
        if faces is not None:
            body["table_dice"] = faces
        return self.post(f"/d6/participants/{self.ids[name]}/move", body)

    def run(self, name: str, rate: float, faces: list[int] | None = None, **options: Any) -> dict[str, Any]:
        return self.move(name, "running", rate, faces, **options)

    def end_round(self) -> dict[str, Any]:
        return self.post("/d6/end-round")

    def last_moved(self) -> dict[str, Any]:
        """The data of the last Moved event: outcome, distance, difficulty and its parts."""
        return next(e for e in reversed(self.events()) if e["name"] == "Moved")["data"]
