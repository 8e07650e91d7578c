"""Front-end developers find every endpoint in the OpenAPI document and in the docs page."""
from __future__ import annotations


def test_openapi_document_lists_every_chase_command(client):
    # A front-end developer fetches the OpenAPI 3 document.
    doc = client.get("/openapi.json").get_json()

    assert doc["openapi"].startswith("3.")
    paths = doc["paths"]
    for path in (
        "/chases",
        "/chases/{chase_id}/track",
        "/chases/{chase_id}/participants",
        "/chases/{chase_id}/participants/{participant_id}/speed-roll",
        "/chases/{chase_id}/cut-to-the-chase",
        "/chases/{chase_id}/participants/{participant_id}/move",
        "/chases/{chase_id}/participants/{participant_id}/delay",
        "/chases/{chase_id}/participants/{participant_id}/end-turn",
        "/chases/{chase_id}/end",
        "/chases/{chase_id}/skill-rolls",
        "/chases/{chase_id}/dice-rolls",
        "/chases/{chase_id}/rolls",
        "/chases/{chase_id}/events",
        "/chases/{chase_id}/stream-tickets",
        "/chases/{chase_id}/webhooks",
        "/chases/{chase_id}/webhooks/{webhook_id}/deliveries",
    ):
        assert path in paths, path
    # The participant schema documents its ranges, so clients can validate before sending.
    participant = doc["components"]["schemas"]["ParticipantCreate"]["properties"]["mov"]
    assert participant["minimum"] == 1 and participant["maximum"] == 30


def test_interactive_docs_are_served(client):
    response = client.get("/docs")

    assert response.status_code == 200
    assert b"swagger" in response.data.lower()


def operations_of(doc):
    return [(method, path, op) for path, item in doc["paths"].items() for method, op in item.items() if method != "parameters"]


def test_every_operation_is_named_described_tagged_and_secured(client):
    # A front-end developer reads the OpenAPI 3.1 document, as a client generator would.
    doc = client.get("/openapi.json").get_json()
    assert doc["openapi"] == "3.1.0"
    operations = operations_of(doc)
    assert len(operations) > 100

    # Every operation has a unique operationId, a summary, a description and a tag.
    ids = [op["operationId"] for _, _, op in operations]
    assert len(set(ids)) == len(ids)
    for method, path, op in operations:
        assert op["summary"] and op["description"] and op["tags"], (method, path)
    # Each game system's operations are under its own tags.
    assert doc["paths"]["/chases/{chase_id}/d6/begin"]["post"]["tags"] == ["d6"]
    assert doc["paths"]["/chases/{chase_id}/participants/{participant_id}/speed-roll"]["post"]["tags"] == ["coc7e"]

    # Public operations say so; the others need the chase's token (or the operator's).
    assert doc["paths"]["/chases"]["post"]["security"] == []
    assert doc["paths"]["/rules/coc7e/weapons"]["get"]["security"] == []
    assert doc["paths"]["/health"]["get"]["security"] == []
    assert doc["paths"]["/chases/{chase_id}/track"]["get"]["security"] == [{"chaseToken": []}]
    assert doc["paths"]["/admin/rebuilds"]["post"]["security"] == [{"operatorToken": []}]
    assert {"streamTicket": []} in doc["paths"]["/chases/{chase_id}/stream"]["get"]["security"]
    assert "security" not in doc  # nothing claims a token by default


def test_every_error_is_one_problem_schema_and_headers_are_documented(client):
    doc = client.get("/openapi.json").get_json()
    responses = doc["components"]["responses"]
    problem = doc["components"]["schemas"]["Problem"]
    # One problem schema: RFC 9457's fields, every bad field, and the rule broken.
    assert set(problem["required"]) == {"type", "title", "status", "detail", "instance"}
    assert problem["properties"]["errors"]["items"] == {"$ref": "#/components/schemas/FieldError"}
    assert "rule" in problem["properties"]
    # flask-smorest's own error shape, which the API never answers, is gone.
    assert "Error" not in doc["components"]["schemas"]
    for method, path, op in operations_of(doc):
        for status, answer in op["responses"].items():
            if status >= "400":
                content = responses[answer["$ref"].rsplit("/", 1)[-1]]["content"] if "$ref" in answer else answer["content"]
                assert list(content) == ["application/problem+json"], (method, path, status)
                assert content["application/problem+json"]["schema"] == {"$ref": "#/components/schemas/Problem"}
    move = doc["paths"]["/chases/{chase_id}/participants/{participant_id}/move"]["post"]["responses"]
    # A command documents a bad field, a token problem, an unknown chase, a rule broken and a stale If-Match.
    assert {"401", "403", "404", "409", "412", "422"} <= set(move)
    # Its answer carries the chase's version and chain head, and a replayed retry says so.
    assert {"ETag", "X-Chain-Head", "Idempotent-Replayed", "RateLimit-Remaining"} <= set(move["200"]["headers"])
    assert doc["components"]["headers"]["ETag"]["required"] is True
    assert "Retry-After" in responses["Problem429"]["headers"]


def test_views_are_typed_with_their_nullability(client):
    doc = client.get("/openapi.json").get_json()
    schemas = doc["components"]["schemas"]
    # A command's chase is its system's track view, chosen by `system`.
    assert schemas["CommandResult"]["properties"]["chase"]["$ref"] == "#/components/schemas/TrackView"
    assert schemas["TrackView"]["discriminator"]["mapping"]["d6"] == "#/components/schemas/D6View"
    # Participants, rolls, events and obstacles are typed, and null where the views say null.
    participant = schemas["Coc7eParticipant"]["properties"]
    assert participant["speed_mov"]["type"] == ["integer", "null"]
    assert schemas["Coc7eView"]["properties"]["slowest_mov"]["type"] == ["integer", "null"]
    assert schemas["Coc7eView"]["properties"]["participants"]["additionalProperties"] == {"$ref": "#/components/schemas/Coc7eParticipant"}
    assert schemas["Coc7eView"]["properties"]["obstacles"]["items"] == {"$ref": "#/components/schemas/Obstacle"}
    assert schemas["RollHistory"]["properties"]["rolls"]["items"] == {"$ref": "#/components/schemas/RollRow"}
    assert schemas["EventLog"]["properties"]["events"]["items"] == {"$ref": "#/components/schemas/Event"}
    assert schemas["SavageView"]["properties"]["pending"]["items"] == {"$ref": "#/components/schemas/Pending"}
    assert schemas["ChaseView"]["properties"]["seed_commitment"]["type"] == ["string", "null"]


def test_interactive_docs_need_no_network(client):
    # The docs pages load Swagger UI and ReDoc from the API itself, never from a CDN.
    for page, asset in (("/docs", "/docs/assets/swagger-ui/swagger-ui-bundle.js"), ("/redoc", "/docs/assets/redoc/redoc.standalone.js")):
        html = client.get(page).get_data(as_text=True)
        assert asset in html and "https://" not in html, page
        served = client.get(asset)
        assert served.status_code == 200 and len(served.data) > 100_000
    assert client.get("/docs/assets/swagger-ui/swagger-ui.css").status_code == 200
    # The vendored builds ship with their licences.
    assert b"Apache License" in client.get("/docs/assets/swagger-ui/LICENSE").data
    assert b"MIT" in client.get("/docs/assets/redoc/LICENSE").data


def test_the_document_is_the_same_bytes_on_every_fetch_and_revalidates(client):
    # A client generator fetches the document again and again
    first = client.get("/openapi.json")
    fetches = [client.get("/openapi.json") for _ in range(6)]

    # Then every fetch answers the same bytes under the same ETag
    assert first.status_code == 200 and first.headers["ETag"]
    assert {response.data for response in fetches} == {first.data}
    assert {response.headers["ETag"] for response in fetches} == {first.headers["ETag"]}
    # And a client holding it is answered 304 with no body
    again = client.get("/openapi.json", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""


def test_unions_say_which_member_an_answer_is(client):
    doc = client.get("/openapi.json").get_json()
    schemas = doc["components"]["schemas"]
    # Each system's view names its systems as constants, mapped by the discriminator
    assert schemas["D6View"]["properties"]["system"]["enum"] == ["d6"]
    assert schemas["SavageView"]["properties"]["system"]["enum"] == ["swade", "swd"]
    assert "system" in schemas["Coc7eView"]["required"]
    # A command with a dry run answers one of two forms, told apart by dry_run
    speed_roll = doc["paths"]["/chases/{chase_id}/participants/{participant_id}/speed-roll"]["post"]["responses"]["200"]
    assert speed_roll["content"]["application/json"]["schema"] == {"oneOf": [{"$ref": "#/components/schemas/CommandResult"}, {"$ref": "#/components/schemas/DryRun"}]}
    assert schemas["DryRun"]["properties"]["dry_run"]["enum"] == [True] and schemas["CommandResult"]["properties"]["dry_run"]["enum"] == [False]
    # A roll is one of its kinds, each closed: a percentile roll has its tens, units and level
    kinds = [option["$ref"].rsplit("/", 1)[-1] for option in schemas["Roll"]["anyOf"]]
    assert {"PercentileRoll", "TraitRoll", "D6Roll", "DamageRoll"} <= set(kinds)
    assert all(schemas[kind]["additionalProperties"] is False for kind in kinds)
    assert {"tens", "units", "result", "level"} <= set(schemas["PercentileRoll"]["required"])
    assert schemas["D6Roll"]["properties"]["kind"]["enum"] == ["d6 roll"]
    # One envelope: the systems' commands answer CommandResult, and creating a chase requires its token
    assert "D6Result" not in schemas and "SavageResult" not in schemas
    assert doc["paths"]["/chases/{chase_id}/d6/begin"]["post"]["responses"]["200"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/CommandResult"}
    assert {"chase", "rolls", "outcome"} <= set(schemas["CommandResult"]["required"])
    assert schemas["ChaseCreated"]["allOf"][1]["required"] == ["keeper_token"]


def test_every_header_a_client_sends_is_declared(client):
    doc = client.get("/openapi.json").get_json()

    def headers(method, path):
        named = []
        for parameter in doc["paths"][path][method].get("parameters", []):
            if "$ref" in parameter:
                parameter = doc["components"]["parameters"][parameter["$ref"].rsplit("/", 1)[-1]]
            if parameter["in"] == "header":
                named.append(parameter["name"])
        return set(named)

    # A command takes If-Match, Prefer and Idempotency-Key; a read If-None-Match; a stream Last-Event-ID
    assert {"If-Match", "Prefer", "Idempotency-Key"} <= headers("post", "/chases/{chase_id}/participants/{participant_id}/move")
    assert {"If-None-Match", "Prefer"} <= headers("get", "/chases/{chase_id}/track")
    assert "Last-Event-ID" in headers("get", "/chases/{chase_id}/stream")
    # And the stream's events are named, with their data's schema
    replay = doc["paths"]["/chases/{chase_id}/replays/{job_id}/stream"]["get"]["responses"]["200"]["content"]["text/event-stream"]
    assert set(replay["x-sse-events"]) == {"frame", "end"}


def test_a_problem_type_resolves_to_a_page(client):
    # Given a problem answered for a request on a chase with no token
    chase_id = client.post("/chases", json={"name": "Harvey and the farmer"}).get_json()["chase"]["chase_id"]
    problem = client.post(f"/chases/{chase_id}/undo", json={}).get_json()
    assert problem["type"] == "/problems/unauthenticated"

    # When a developer follows its type, then a page says what it means
    page = client.get(problem["type"])
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert b"Authorization: Bearer" in page.data
    # And every kind the problems name has its page; an unknown kind is a 404 problem
    from api.problem_docs import KINDS
    assert all(client.get(f"/problems/{kind}").status_code == 200 for kind in KINDS)
    assert client.get("/problems/no-such-kind").status_code == 404
