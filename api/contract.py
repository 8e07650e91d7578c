"""The OpenAPI 3.1 document as the contract (issue 18 part 1, DESIGN.md section 10).

flask-smorest and apispec write each operation from its blueprint; this module finishes the
document once it is built, from rules that hold for every operation of every game system, so
that no blueprint has to repeat them: an operationId, a description, the security it really
needs, every error status it can answer (one problem schema, api/problem_docs.py) and the
headers of its answers. What apispec 6 lacks for 3.1 is fixed here too: ``example`` in a
schema becomes ``examples`` (3.1 is JSON Schema 2020-12, where ``example`` is deprecated).
"""
from __future__ import annotations

import copy
import hashlib
import json
import re
import threading
from typing import Any, Callable

from flask import Response
from flask_smorest import Api

from api import answer_forms, problem_docs, request_headers, roll_docs, stream_docs
from api.doc_parts import (
    CACHING, CHASE_HEADERS, COMMAND_HEADERS, LOCATION, NOT_MODIFIED, PAGING, PROBES, PUBLIC, RATE_HEADERS, SECURITY_SCHEMES, VALIDATOR, WHO,
)
from api.problem_docs import answer
from api.representation import MINIMAL_CHASE
from api.view_docs import DryRun

OPENAPI_VERSION = "3.1.0"
WRITES = ("post", "put", "patch", "delete")
# flask-smorest's own error documentation ({code, status, message, errors} as application/json),
# which this API never answers: every error is problem+json.
SMOREST_LEFTOVERS = ("Error", "PaginationMetadata")

# Answers that carry the chase's envelope headers (api/chases.py result), and reads of the record
# that carry its chain head (api/history.py with_head).
CHASE_ANSWERS = re.compile(rf"^#/components/schemas/({'|'.join(answer_forms.NAMES)}|\w*Result)$")
RECORD_READS = re.compile(r"^#/components/schemas/(RollHistory|EventLog|Export)$")
DRY_RUN = "#/components/schemas/DryRun"


def operation_id(method: str, path: str) -> str:
    """method_words, from the path: /chases/{chase_id}/d6/participants/{participant_id}/move is
    post_d6_participants_move; a path ending in a parameter says so (get_jobs_by_job)."""
    segments = [s for s in path.split("/") if s]
    if segments[:2] == ["chases", "{chase_id}"] and len(segments) > 2:
        segments = segments[2:]
    words = []
    for i, segment in enumerate(segments):
        names = re.findall(r"\{(\w+)\}", segment)
        if not names:
            words.append(re.sub(r"\W", "_", segment))
        elif names == ["system"]:
            words.append("system")
        elif i == len(segments) - 1:
            words.append("by_" + "_".join(n.removesuffix("_id") for n in names))
    return "_".join([method, *words])


def security_of(method: str, path: str) -> list[dict[str, list[str]]]:
    if path.startswith("/rules/") or path in ("/health", "/ready", "/openapi.json") or (method == "post" and path in ("/chases", "/sessions", "/campaigns")):
        return []
    if path.startswith("/admin/"):
        return [{"operatorToken": []}]
    if path == "/metrics":
        return [{"metricsToken": []}, {}]
    if path.startswith(("/sessions/", "/campaigns/")):
        return [{"groupToken": []}]
    if path.endswith("/stream"):
        return [{"chaseToken": []}, {"streamTicket": []}]
    return [{"chaseToken": []}]


def errors_of(method: str, path: str, operation: dict[str, Any], security: list[dict[str, list[str]]]) -> list[str]:
    """Every error status the operation can answer, by what it takes and what it touches."""
    statuses = ["422", "429"]  # any request: a bad query parameter (unknown ones too), the rate limit
    if method in WRITES:
        statuses += ["413", "415"]  # api/guards.py: before the body is read
    if "requestBody" in operation:
        statuses.append("400")
    if any(security_option for security_option in security):
        statuses += ["401", "403"]
    if "{" in path:
        statuses.append("404")
    if method == "post" or (method in WRITES and "{chase_id}" in path) or "409" in operation.get("responses", {}):
        # A rule broken, the record refusing, an Idempotency-Key in flight; a read that a rule
        # may refuse says so itself (``@blp.alt_response(409, ...)``).
        statuses.append("409")
    if method in WRITES and "{chase_id}" in path:
        statuses += ["412", "428"]  # If-Match
    if "{chase_id}" in path:
        statuses.append("503")  # the chase's views set aside
    return sorted(set(statuses))


def _success_headers(method: str, status: str, response: dict[str, Any]) -> dict[str, Any]:
    headers = {name: {"$ref": f"#/components/headers/{name}"} for name in RATE_HEADERS}
    schema = next(iter(response.get("content", {}).values()), {}).get("schema", {})
    refs = _refs(schema)
    if any(CHASE_ANSWERS.match(ref) for ref in refs):
        # A dry run answers without them: required only where every answer has them.
        required = DRY_RUN not in refs
        headers.update({name: {"$ref": f"#/components/headers/{name}" + ("" if required else "Optional")} for name in CHASE_HEADERS})
        if method == "get":  # Prefer: actions=full (or compact) is honoured on reads of the track view too
            headers["Preference-Applied"] = {"$ref": "#/components/headers/Preference-Applied"}
    if any(RECORD_READS.match(ref) for ref in refs):
        headers["X-Chain-Head"] = {"$ref": "#/components/headers/X-Chain-Head"}
    headers.update({name: {"$ref": f"#/components/headers/{name}"} for name in _more_headers(method, status)})
    if method == "get" and status == "200":
        headers.setdefault("ETag", {"$ref": "#/components/headers/Validator"})
    return headers


def _refs(schema: dict[str, Any]) -> list[str]:
    """The schemas an answer may be: its own, or each of its forms (a command or its dry run)."""
    return [schema.get("$ref", "")] + [option.get("$ref", "") for option in schema.get("oneOf", ())]


def _carries_chase(operation: dict[str, Any]) -> bool:
    for status, response in operation.get("responses", {}).items():
        schema = response.get("content", {}).get("application/json", {}).get("schema", {})
        if status.startswith("2") and any(CHASE_ANSWERS.match(ref) for ref in _refs(schema)):
            return True
    return False


def _more_headers(method: str, status: str) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if method == "post":
        headers.update(COMMAND_HEADERS)
    if method == "get" and status == "200":
        headers.update(CACHING)
    if status in ("201", "202"):
        headers.update(LOCATION)
    return headers


def _pages(response: dict[str, Any], components: dict[str, Any]) -> bool:
    """A list answered a page at a time: its schema has the ``next`` link (api/paging.py)."""
    ref = response.get("content", {}).get("application/json", {}).get("schema", {}).get("$ref", "")
    return "next" in components.get("schemas", {}).get(ref.rsplit("/", 1)[-1], {}).get("properties", {})


def dry_runs(operation: dict[str, Any]) -> None:
    """An operation with ``?dry_run=`` (api/dry_run.py) may answer 200 with what it would do:
    one of the two forms, told apart by ``dry_run`` (true only in a dry run's answer)."""
    if not any(p.get("name") == "dry_run" and p.get("in") == "query" for p in operation.get("parameters", ())):
        return
    responses = operation.setdefault("responses", {})
    recorded = next((status for status in ("200", "201", "202") if status in responses), None)
    dry = {"$ref": DRY_RUN}
    if recorded == "200":
        media = responses["200"].setdefault("content", {}).setdefault("application/json", {})
        media["schema"] = {"oneOf": [media["schema"], dry]} if "schema" in media else dry
        responses["200"]["description"] += "; with ?dry_run=true, what the command would do (DryRun)"
    else:
        responses["200"] = {"description": "?dry_run=true: what the command would do, recorded nothing", "content": {"application/json": {"schema": dry}}}


def _describe(operation: dict[str, Any], security: list[dict[str, list[str]]]) -> None:
    summary = operation.get("summary") or operation.get("description", "").split("\n")[0]
    operation["summary"] = summary
    schemes = [name for option in security for name in option]
    who = PUBLIC if not schemes else WHO[schemes[0]]
    if "streamTicket" in schemes:
        who += " A browser's EventSource sends a stream ticket instead (?ticket=)."
    # The docstring's body, when it has one beyond the summary, then who may call it.
    body = operation.get("description", "").strip()
    operation["description"] = (body + "\n\n" if body and body != summary else "") + who


def _examples(node: Any) -> None:
    """3.1 schemas say ``examples: [...]``; apispec writes marshmallow's ``example`` metadata as is."""
    if isinstance(node, dict):
        if "example" in node and ("type" in node or "$ref" in node or "properties" in node):
            node["examples"] = [node.pop("example")]
        for value in node.values():
            _examples(value)
    elif isinstance(node, list):
        for value in node:
            _examples(value)


def track_view(doc: dict[str, Any], views: dict[str, type]) -> None:
    """A command's ``chase`` is its system's track view (api/schemas.py SystemView), chosen by
    ``system``; with Prefer: return=minimal, only the envelope's identity, which each matches."""
    schemas = doc["components"]["schemas"]
    for view in set(views.values()):
        # Each view names the systems it shows as constants, so that a generated client parses
        # each system's view as its own type (the discriminator's mapping below).
        names = sorted(system for system, shown_by in views.items() if shown_by is view)
        schemas[view.__name__]["properties"]["system"] = {**schemas[view.__name__]["properties"]["system"], "type": "string", "enum": names}
        # Every form of the view has the envelope's identity (with Prefer: return=minimal, only that).
        schemas[view.__name__]["required"] = sorted({*schemas[view.__name__].get("required", ()), *MINIMAL_CHASE})
    schemas["TrackView"] = {
        "description": "the chase's track view, as its game system (`system`) shows it",
        "oneOf": [{"$ref": f"#/components/schemas/{name}"} for name in sorted({view.__name__ for view in views.values()})],
        "discriminator": {"propertyName": "system", "mapping": {system: f"#/components/schemas/{view.__name__}" for system, view in sorted(views.items())}},
    }
    for schema in schemas.values():
        for prop in schema.get("properties", {}).values():
            if prop.get("$ref") == "#/components/schemas/ChaseView":
                prop["$ref"] = "#/components/schemas/TrackView"
    # One participant (GET .../participants/{id}): as its system's track view shows it.
    kinds = sorted({schemas[view.__name__]["properties"]["participants"]["additionalProperties"]["$ref"] for view in views.values()})
    if "ParticipantView" in schemas:
        described = schemas["ParticipantView"]["properties"]["participant"].get("description", "")
        schemas["ParticipantView"]["properties"]["participant"] = {"anyOf": [{"$ref": ref} for ref in kinds], "description": described}


def finish(doc: dict[str, Any], views: dict[str, type] | None = None, rolls: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    doc["openapi"] = OPENAPI_VERSION
    if views:
        track_view(doc, views)
    if rolls:
        roll_docs.install(doc["components"]["schemas"], rolls)
    doc.pop("security", None)  # declared per operation
    # The app's own routes (api/__init__.py, api/observability.py), which no blueprint documents.
    doc.setdefault("paths", {}).update(copy.deepcopy(PROBES))
    doc.setdefault("tags", []).append({"name": "operations", "description": "Liveness, readiness and metrics, for operators and load balancers"})
    components = doc.setdefault("components", {})
    for name in SMOREST_LEFTOVERS:
        components.get("schemas", {}).pop(name, None)
    components["responses"] = {}
    problem_docs.install(components)
    components["securitySchemes"] = SECURITY_SCHEMES
    components["headers"] = {**RATE_HEADERS, **CHASE_HEADERS, **COMMAND_HEADERS, **LOCATION, **CACHING, **PAGING, "Validator": VALIDATOR}
    components["responses"]["NotModified"] = NOT_MODIFIED
    components["schemas"]["ReplayEnd"] = stream_docs.REPLAY_END
    components["parameters"] = {**components.get("parameters", {}), **request_headers.PARAMETERS}
    components["headers"].update({f"{name}Optional": {**header, "required": False} for name, header in CHASE_HEADERS.items()})
    for path, item in doc.get("paths", {}).items():
        for method, operation in item.items():
            if method == "parameters":
                continue
            operation["operationId"] = operation_id(method, path)
            security = security_of(method, path)
            operation["security"] = security
            _describe(operation, security)
            answer_forms.created(path, operation, components.setdefault("schemas", {}))
            dry_runs(operation)
            request_headers.declare(method, path, operation, _carries_chase(operation))
            stream_docs.declare(path, operation)
            responses = {status: response for status, response in operation.get("responses", {}).items() if status[0] in "123"}
            for status, response in responses.items():
                response.setdefault("headers", {}).update(_success_headers(method, status, response))
                if _pages(response, components):
                    response["headers"]["Link"] = {"$ref": "#/components/headers/Link"}
            if method == "get" and "200" in responses and "text/event-stream" not in responses["200"].get("content", {}):
                responses["304"] = {"$ref": "#/components/responses/NotModified"}  # If-None-Match
            for status in errors_of(method, path, operation, security):
                responses[status] = answer(status)
            operation["responses"] = dict(sorted(responses.items()))
    for schema in components.get("schemas", {}).values():
        _examples(schema)
    for item in doc.get("paths", {}).values():
        _examples(item)
    return doc


class Document:
    """The finished document of one app, built once when it is first asked for (by then every
    blueprint and system is registered) and never changed afterwards: every fetch answers the
    same bytes under the same ETag, and If-None-Match gets 304 (api/conditional.py)."""

    def __init__(self, build: Callable[[], dict[str, Any]], views: dict[str, type], rolls: dict[str, dict[str, Any]]) -> None:
        self._build, self._views, self._rolls = build, views, rolls
        self._built: tuple[dict[str, Any], bytes, str] | None = None
        self._lock = threading.Lock()

    def built(self) -> tuple[dict[str, Any], bytes, str]:
        with self._lock:
            if self._built is None:
                # A copy: apispec hands out its own dicts, which finishing would change in place.
                doc = finish(copy.deepcopy(self._build()), self._views, copy.deepcopy(self._rolls))
                body = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode()
                self._built = (doc, body, hashlib.sha256(body).hexdigest()[:32])
            return self._built

    def to_dict(self) -> dict[str, Any]:
        """A copy of the document, for ``flask openapi write`` and tests: the built one stays as it is."""
        return copy.deepcopy(self.built()[0])

    def answer(self) -> Response:
        _, body, tag = self.built()
        response = Response(body, mimetype="application/json")
        response.set_etag(tag)
        response.headers["Cache-Control"] = "public, no-cache"  # revalidated with If-None-Match: 304 until the server changes
        return response


def install(api: Api, views: dict[str, type], rolls: dict[str, dict[str, Any]]) -> None:
    """GET /openapi.json answers the document, built once; ``views``: each system's track-view
    schema, ``rolls``: each system's kinds of roll, both filled in as the systems are registered."""
    api.spec.components.schema("DryRun", schema=DryRun)
    document = Document(api.spec.to_dict, views, rolls)
    api.spec.to_dict = document.to_dict  # type: ignore[method-assign]
    app = api._app  # type: ignore[attr-defined]
    app.view_functions[f"{api._make_doc_blueprint_name()}.openapi_json"] = document.answer  # type: ignore[attr-defined]

