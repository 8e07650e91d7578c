"""A replay is the first answer with the headers that say what it is (api/idempotency.py):
``Preference-Applied``, ``Vary``, ``ETag``, ``Content-Type``, whatever ``Prefer`` the retry sends.

Measured before: a roll sent with ``Prefer: actions=compact`` and retried came back without its
``Preference-Applied: actions=compact``; a full answer retried with ``Prefer: return=minimal``
came back saying ``Preference-Applied: return=minimal`` over the whole track view. (The form
then asked for with ``actions=compact`` is the default now; ``actions=full`` asks for the other.)
"""
from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.test_idempotency import ROLL, running

KEY = "roll-preferred-1"
COMPACT, FULL, MINIMAL = "actions=compact", "actions=full", "return=minimal"
DESCRIBING = ("Content-Type", "ETag", "X-Chase-Version", "X-Chain-Head", "Preference-Applied", "Vary")
KEPT_BY_VERSION_1 = ("Content-Type", "Location", "ETag", "X-Chase-Version", "X-Chain-Head")


def roll(keeper: Any, prefer: str | None) -> Any:
    headers = {"Idempotency-Key": KEY, **({"Prefer": prefer} if prefer else {})}
    return keeper.post("/dice-rolls", dict(ROLL, participant_id=keeper.ids["Harvey"]), headers=headers)


def described(response: Any) -> dict[str, str | None]:
    return {name: response.headers.get(name) for name in DESCRIBING}


def rolled(keeper: Any) -> int:
    return [r["roll"]["purpose"] for r in keeper.rolls()].count(ROLL["purpose"])


def test_a_full_answer_is_replayed_with_the_headers_that_describe_it(keeper):
    running(keeper)

    # The Keeper's roll, asking for the full actions, is sent and sent again.
    first, again = roll(keeper, FULL), roll(keeper, FULL)

    # The retry is the first answer: the same bytes, saying the same form, tag and variance.
    assert first.headers["Preference-Applied"] == FULL and "Prefer" in first.headers["Vary"]
    assert first.headers["ETag"] == f'"{first.get_json()["chase"]["version"]}"'  # the tag the full form always had
    assert again.get_data() == first.get_data() and described(again) == described(first)
    assert again.headers["Idempotent-Replayed"] == "true" and rolled(keeper) == 1


@pytest.mark.parametrize("first_prefers, retry_prefers", [(FULL, None), (MINIMAL, FULL), (None, MINIMAL), (COMPACT, MINIMAL), (None, FULL)])
def test_a_retry_preferring_another_form_gets_the_first_answer_saying_its_form(keeper, first_prefers, retry_prefers):
    running(keeper)

    # The roll is sent in one form; its retry (the same command) asks for another.
    first = roll(keeper, first_prefers)
    again = roll(keeper, retry_prefers)

    # Not refused: the roll's outcome comes back, recorded once, in the form first asked for,
    # and its Preference-Applied (or none: the default form) tells the client which form that is.
    assert again.status_code == first.status_code == 200 and rolled(keeper) == 1
    assert again.get_data() == first.get_data() and again.headers["Idempotent-Replayed"] == "true"
    assert again.headers.get("Preference-Applied") == first_prefers
    assert described(again) == described(first)


# The forms version 1 kept: the compact form (asked for by name then), the minimal, and the full
# form, then the default (what actions=full answers now; its answers said no form, and now say it).
@pytest.mark.parametrize("first_prefers, said", [(COMPACT, COMPACT), (MINIMAL, MINIMAL), (FULL, FULL)])
def test_an_answer_kept_by_the_earlier_version_still_replays_saying_its_form(keeper, ledger, monkeypatch, first_prefers, said):
    running(keeper)
    # The first roll's answer is kept as version 1 kept it: no Preference-Applied, no Vary, no version.
    keep = ledger.retries.keys.answer

    def as_version_1(scope: str, key: str, claim_id: str, answer: dict[str, Any]) -> None:
        headers = {name: value for name, value in answer["headers"].items() if name in KEPT_BY_VERSION_1}
        keep(scope, key, claim_id, {"status": answer["status"], "headers": headers, "body": answer["body"]})

    monkeypatch.setattr(ledger.retries.keys, "answer", as_version_1)
    first = roll(keeper, first_prefers)
    monkeypatch.undo()

    # After the upgrade the retry still gets that answer, saying its form as answers did then.
    again = roll(keeper, None)
    assert again.get_data() == first.get_data() and again.headers["Idempotent-Replayed"] == "true"
    assert described(again) == {**described(first), "Preference-Applied": said} and rolled(keeper) == 1


# Version 2 kept Preference-Applied and Vary, but the full form was the default (said no form)
# and a minimal answer's ETag was the plain version, the full form's tag.
@pytest.mark.parametrize("first_prefers, said, tag", [(FULL, FULL, ""), (MINIMAL, MINIMAL, "-minimal"), (COMPACT, COMPACT, "-compact")])
def test_an_answer_kept_while_the_full_form_was_the_default_replays_saying_its_form(keeper, ledger, monkeypatch, first_prefers, said, tag):
    running(keeper)
    keep = ledger.retries.keys.answer

    def as_version_2(scope: str, key: str, claim_id: str, answer: dict[str, Any]) -> None:
        headers = dict(answer["headers"])
        version = headers["X-Chase-Version"]
        headers["ETag"] = f'"{version}-compact"' if first_prefers == COMPACT else f'"{version}"'
        if first_prefers == FULL:  # the default then: no form said
            del headers["Preference-Applied"]
        keep(scope, key, claim_id, {**answer, "headers": headers, "version": 2})

    monkeypatch.setattr(ledger.retries.keys, "answer", as_version_2)
    first = roll(keeper, first_prefers)
    monkeypatch.undo()
    version = first.headers["X-Chase-Version"]

    # After the upgrade, a retry with no Prefer gets that answer saying its form, under its form's tag.
    again = roll(keeper, None)
    assert again.get_data() == first.get_data() and again.headers["Idempotent-Replayed"] == "true" and rolled(keeper) == 1
    assert again.headers.get("Preference-Applied") == said and "Prefer" in again.headers["Vary"]
    assert again.headers["ETag"] == f'"{version}{tag}"'
    if first_prefers == FULL:
        assert all(isinstance(p["actions"], list) for p in again.get_json()["chase"]["participants"].values())
