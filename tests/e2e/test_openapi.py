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
