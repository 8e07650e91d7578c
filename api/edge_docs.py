"""The edge's answers in the OpenAPI document: 413 and 415 for every operation taking a body,
429 for every operation (api/guards.py, api/limits.py), each with its headers."""
from __future__ import annotations

from typing import Any

from apispec import APISpec, BasePlugin

PROBLEM = {"application/problem+json": {"schema": {"type": "object", "description": "RFC 9457 problem details; errors[].field names the header"}}}
RATE_HEADERS = {
    "RateLimit-Limit": {"description": "requests allowed in the window of the limit nearest to running out", "schema": {"type": "integer"}},
    "RateLimit-Remaining": {"description": "requests left in that window", "schema": {"type": "integer"}},
    "RateLimit-Reset": {"description": "seconds until that window frees a request", "schema": {"type": "integer"}},
}
ANSWERS = {
    "PAYLOAD_TOO_LARGE": ("413", "the body is over CHASE_LEDGER_MAX_BODY_BYTES (refused before it is read)", {}),
    "UNSUPPORTED_MEDIA_TYPE": ("415", "the body is not JSON (Content-Type: application/json)", {"Accept-Post": {"schema": {"type": "string"}}}),
    "TOO_MANY_REQUESTS": ("429", "over the rate limit of the token or the client address", {**RATE_HEADERS, "Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}}),
}


class EdgeAnswers(BasePlugin):
    """Adds the edge's answers to each operation as the document is built."""

    def init_spec(self, spec: APISpec) -> None:
        for name, (_, description, headers) in ANSWERS.items():
            spec.components.response(name, {"description": description, "content": PROBLEM, **({"headers": headers} if headers else {})})

    def operation_helper(self, path: str | None = None, operations: dict[str, Any] | None = None, **kwargs: Any) -> None:
        for method, operation in (operations or {}).items():
            if not isinstance(operation, dict):
                continue
            responses = operation.setdefault("responses", {})
            wanted = ["TOO_MANY_REQUESTS"] + (["PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"] if method in ("post", "put", "patch") else [])
            for name in wanted:
                responses.setdefault(ANSWERS[name][0], {"$ref": f"#/components/responses/{name}"})


def install(spec: APISpec) -> None:
    """Before any blueprint is registered, so every operation gets the answers."""
    plugin = EdgeAnswers()
    plugin.init_spec(spec)
    spec.plugins.append(plugin)
