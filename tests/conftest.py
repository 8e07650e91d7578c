"""Fixtures shared by every kind of test: a ledger on in-memory SQLite and an HTTP client."""
from __future__ import annotations

from typing import Any

import pytest

from api import create_app
from infrastructure.bootstrap import build_ledger


@pytest.fixture
def ledger():
    """The real application on an in-memory SQLite database."""
    app = build_ledger({"SQLITE_DBNAME": ":memory:"})
    yield app
    app.close()


@pytest.fixture
def client(ledger):
    """An HTTP client for the API, backed by ``ledger``."""
    app = create_app(lambda: ledger)
    app.config["TESTING"] = True
    return app.test_client()


class BearerClient:
    """A test client that sends a bearer token with every request, once it has one."""

    def __init__(self, client: Any, token: str | None = None) -> None:
        self.client = client
        self.token = token

    def _headers(self, kw: dict[str, Any]) -> dict[str, Any]:
        headers = dict(kw.pop("headers", None) or {})
        if self.token and "Authorization" not in headers:
            headers["Authorization"] = f"Bearer {self.token}"
        return headers

    def get(self, *args: Any, **kw: Any) -> Any:
        return self.client.get(*args, headers=self._headers(kw), **kw)

    def post(self, *args: Any, **kw: Any) -> Any:
        return self.client.post(*args, headers=self._headers(kw), **kw)


class ChaseClient:
    """A thin HTTP helper so scenario tests read as the Keeper's actions."""

    def __init__(self, client: Any) -> None:
        self.http = BearerClient(client)
        self.chase_id: str | None = None
        self.ids: dict[str, str] = {}

    @property
    def keeper_token(self) -> str | None:
        return self.http.token

    def ok(self, response: Any, status: int = 200) -> dict[str, Any]:
        assert response.status_code == status, (response.status_code, response.get_json())
        return response.get_json()

    def create(self, name: str = "A chase", dice: str = "table") -> dict[str, Any]:
        body = self.ok(self.http.post("/chases", json={"name": name, "dice": dice}), 201)
        self.chase_id = body["chase"]["chase_id"]
        self.http.token = body["keeper_token"]
        return body["chase"]

    def player(self, *names: str) -> "ChaseClient":
        """A client for a player whose token the Keeper issued for these participants."""
        ids = [self.ids[n] for n in names]
        body = self.ok(self.http.post(f"/chases/{self.chase_id}/tokens", json={"participant_ids": ids}), 201)
        other = ChaseClient(self.http.client)
        other.chase_id, other.ids, other.http.token = self.chase_id, self.ids, body["token"]
        return other

    def add(self, **spec: Any) -> str:
        body = self.ok(self.http.post(f"/chases/{self.chase_id}/participants", json=spec), 201)
        self.ids[spec["name"]] = body["participant_id"]
        return body["participant_id"]

    def post(self, path: str, json: dict[str, Any] | None = None, **kw: Any) -> Any:
        return self.http.post(f"/chases/{self.chase_id}{path}", json=json or {}, **kw)

    def speed_roll(self, name: str, faces: list[int] | None = None) -> dict[str, Any]:
        json = {"table_dice": faces} if faces is not None else {}
        return self.ok(self.post(f"/participants/{self.ids[name]}/speed-roll", json))

    def cut(self, **json: Any) -> dict[str, Any]:
        return self.ok(self.post("/cut-to-the-chase", json))["chase"]

    def move(self, name: str, locations: int = 1) -> dict[str, Any]:
        return self.ok(self.post(f"/participants/{self.ids[name]}/move", {"locations": locations}))["chase"]

    def end_turn(self, name: str) -> dict[str, Any]:
        return self.ok(self.post(f"/participants/{self.ids[name]}/end-turn"))["chase"]

    def if_match(self) -> dict[str, str]:
        """If-Match naming the chase's version now (its ETag): a command acting on what the Keeper sees."""
        version = self.track()["version"]
        return {"If-Match": f'"{version}"'}

    def track(self) -> dict[str, Any]:
        return self.ok(self.http.get(f"/chases/{self.chase_id}/track"))["chase"]

    def events(self) -> list[dict[str, Any]]:
        return self.ok(self.http.get(f"/chases/{self.chase_id}/events"))["events"]

    def rolls(self, **query: Any) -> list[dict[str, Any]]:
        return self.ok(self.http.get(f"/chases/{self.chase_id}/rolls", query_string=query))["rolls"]

    def location_of(self, chase: dict[str, Any], name: str) -> int:
        return chase["participants"][self.ids[name]]["location"]


@pytest.fixture
def keeper(client) -> ChaseClient:
    return ChaseClient(client)
