"""``Prefer: actions=compact``: the track view's actions, each said once (issue 12 part 6).

In full (the default, unchanged), each participant's ``actions`` lists every participant-level
command of the chase's system with its method, its href and, when refused, why and rule. At
1,000 participants of Call of Cthulhu that is some 9 KB of each participant's 10 KB, nearly all
of it repeated: 36 hrefs differing from the next participant's only by the participant's id
(4.1 KB), and one refusal ("the chase has not been cut to yet") written out for 23 commands
(3.3 KB of why and rule). A client that sends ``Prefer: actions=compact`` (with a command, or
with ``GET`` of the track view) gets the same information, each part once:

- the chase's ``action_templates``: each participant-level command's ``method`` and ``href``,
  a URI template (RFC 6570: ``{participant_id}`` is the participant's id), in the order of the
  full ``actions`` list;
- in place of each participant's ``actions``: ``allowed_actions``, the commands the token may
  send now, and ``refused_actions``, each refusal once, ``{"actions": [...], "why", "rule"}``,
  with the commands it refuses (both empty in a past version, which is read-only).

The chase-level ``actions`` are as in full. The answer says ``Preference-Applied:
actions=compact`` and ``Vary: Prefer``, and has an ETag of its own: the version with
``ETAG_SUFFIX`` (``"12-compact"`` beside the full form's ``"12"``). README.md "What a client may
do now" shows both shapes.
"""
from __future__ import annotations

from typing import Any, Mapping

PREFERENCE = "actions=compact"
# RFC 9110 section 8.8.3: a strong tag names one representation; two forms of one version under
# one tag let a conditional GET answer 304 for the form the client does not hold (and a cache
# serve it). If-Match takes either form's tag as the version (api/conditional.py).
ETAG_SUFFIX = "-compact"


def compact(actions: list[dict[str, Any]]) -> dict[str, Any]:
    """A participant's ``actions`` (api/affordances.py), each refusal once."""
    allowed: list[str] = []
    refused: list[dict[str, Any]] = []
    groups: dict[tuple[str, str], list[str]] = {}
    for entry in actions:
        if entry["allowed"]:
            allowed.append(entry["action"])
            continue
        key = (entry["why"], entry["rule"])
        found = groups.get(key)
        if found is None:
            found = groups[key] = []
            refused.append({"actions": found, "why": key[0], "rule": key[1]})
        found.append(entry["action"])
    return {"allowed_actions": allowed, "refused_actions": refused}


def templates(routes: Mapping[str, Any], prefix: str) -> dict[str, dict[str, str]]:
    """Where each participant-level command is sent (its path holds ``{participant_id}``)."""
    return {action: {"method": route.method, "href": prefix + route.path} for action, route in routes.items()}
