"""A player's undo requests and the Keeper's answers (DESIGN.md 5): a player may not undo, but may
ask the Keeper to; the request names the actions the player saw as the last ones, so the Keeper's
accepting it never undoes something the player did not see. Bound as RecordedChase's methods."""
from __future__ import annotations

from typing import Any, Protocol

from domain.errors import HistoryRefused


class RequestingChase(Protocol):
    """What undo requests use of a chase (RecordedChase)."""

    version: int
    effective_actions: list[int]
    undo_requests: dict[str, dict[str, Any]]
    UndoRequested: Any
    UndoRequestAnswered: Any

    def trigger_event(self, event_class: Any, **kwargs: Any) -> None: ...
    def undo_target(self, count: int) -> int: ...
    def undo_request(self, request_id: int) -> dict[str, Any]: ...
    def undo_request_target(self, request_id: int) -> int: ...
    def undo(self, count: int, earlier: Any, by: str, reason: str = "") -> None: ...


def request_undo(chase: RequestingChase, count: int, by: str, note: str = "") -> int:
    """A player asks the Keeper to undo the last ``count`` actions; returns the request id."""
    chase.undo_target(count)
    request_id = chase.version + 1
    actions = chase.effective_actions[-count:]
    chase.trigger_event(chase.UndoRequested, request_id=request_id, count=count, actions=actions, by=by, note=note)
    return request_id


def undo_request(chase: RequestingChase, request_id: int) -> dict[str, Any]:
    request = chase.undo_requests.get(str(request_id))
    if request is None:
        raise HistoryRefused(f"no undo request {request_id} in this chase", "request_id")
    if request["answer"] is not None:
        raise HistoryRefused(f"undo request {request_id} was already {request['answer']}", "request_id")
    return request


def undo_request_target(chase: RequestingChase, request_id: int) -> int:
    """The version an accepted request restores; refused when what it asked about is no longer last."""
    request = chase.undo_request(request_id)
    if chase.effective_actions[-request["count"]:] != request["actions"]:
        raise HistoryRefused(
            f"undo request {request_id} asked to undo actions {request['actions']}, and they are no longer "
            "the last ones: refuse it, or undo what is last now"
        )
    return chase.undo_target(request["count"])


def answer_undo_request(chase: RequestingChase, request_id: int, accept: bool, by: str, earlier: Any = None) -> None:
    """The Keeper accepts (and so undoes) or refuses a player's undo request."""
    request = chase.undo_request(request_id)
    if accept:
        chase.undo_request_target(request_id)
    chase.trigger_event(chase.UndoRequestAnswered, request_id=request_id, accepted=accept, by=by)
    if accept:
        assert earlier is not None
        chase.undo(request["count"], earlier, by, reason=f"undo request {request_id} by {request['by']}")
