"""What in an answer the served OpenAPI document does not allow, checked as schemathesis checks it.

The operation's documented 200 response (anyOf included) decides; when it refuses, the chase's
own view schema names the fields, since an anyOf's refusal names none.
"""
from __future__ import annotations

from functools import cache
from typing import Any

import jsonschema_rs

_DOCUMENTS: dict[str, dict[str, Any]] = {}


def violations(client: Any, method: str, operation: str, answer: dict[str, Any], view: str) -> list[str]:
    """``answer`` to ``method`` ``operation`` (a path of the document) against the document:
    [] when it conforms, else each field the ``view`` schema refuses and why."""
    if "served" not in _DOCUMENTS:  # the document is the code's, the same for every app of a run
        _DOCUMENTS["served"] = client.get("/openapi.json").get_json()
    if _validator(method, operation).is_valid(answer):
        return []
    refused = _validator(None, view).iter_errors(answer.get("chase", answer))
    return [f"{'/'.join(map(str, e.instance_path))}: {e.message[:200]}" for e in refused] or ["the answer, outside the chase"]


@cache
def _validator(method: str | None, name: str) -> Any:
    """The validator of an operation's 200 answer, or (``method`` None) of a component schema."""
    document = _DOCUMENTS["served"]
    if method is None:
        schema = {"$ref": f"#/components/schemas/{name}"}
    else:
        schema = document["paths"][name][method]["responses"]["200"]["content"]["application/json"]["schema"]
    return jsonschema_rs.Draft202012Validator({**schema, "components": document["components"]})
