"""The track view's actions, each said once (issue 12 part 6): the default form; ``Prefer:
actions=full`` lists them per participant, as clients written before this change read them.

Listed per participant, each participant's ``actions`` named every participant-level command of
the chase's system with its method, its href and, when refused, why and rule. At 1,000
participants of Call of Cthulhu that was some 9 KB of each participant's 10 KB, nearly all of it
repeated: 36 hrefs differing from the next participant's only by the participant's id (4.1 KB),
and one refusal ("the chase has not been cut to yet") written out for 23 commands (3.3 KB of why
and rule). The view (a GET of it, and every command's ``chase``) says the same, each part once:

- the chase's ``action_templates``: each participant-level command's ``method`` and ``href``,
  a URI template (RFC 6570: ``{participant_id}`` is the participant's id), in the order of the
  full ``actions`` list;
- each participant's ``allowed_actions``, the commands the token may send now, and
  ``refused_actions``, each refusal once, ``{"actions": [...], "why", "rule"}``, with the
  commands it refuses (both empty in a past version, which is read-only).

The chase-level ``actions`` are listed in full in either form. ``Prefer: actions=full`` puts each
participant's ``actions`` list in place of ``allowed_actions`` and ``refused_actions`` (and leaves
``action_templates`` out); the answer says ``Preference-Applied: actions=full``. Each form keeps
the ETag it had before this form was the default: the full form the plain version (``"12"``),
this form the version with ``COMPACT_ETAG_SUFFIX`` (``"12-compact"``). ``Prefer:
actions=compact`` (which chose this form before it was the default) is still accepted: the
default, said applied. Either way the answer says ``Vary: Prefer``. README.md
"What a client may do now" shows both shapes.
"""
from __future__ import annotations

from typing import Any, Mapping

COMPACT = "actions=compact"
FULL = "actions=full"
# RFC 9110 section 8.8.3: a strong tag names one representation, and over time too: a browser
# or cache that kept the full form under "12" (the default before this form) revalidates with
# If-None-Match: "12" after the upgrade, and a 304 would have it show the full form to a client
# that reads this one (no action buttons). So each form keeps its tag: this one "12-compact",
# the full form "12". If-Match takes any form's tag as the version (api/conditional.py).
COMPACT_ETAG_SUFFIX = "-compact"


def said_once(refusals: Mapping[str, Any]) -> dict[str, Any]:
    """A participant's ``allowed_actions`` and ``refused_actions`` from each action's refusal
    (None: allowed; else (why, rule)), in the order of the actions."""
    allowed: list[str] = []
    refused: list[dict[str, Any]] = []
    groups: dict[Any, list[str]] = {}
    for action, why in refusals.items():
        if why is None:
            allowed.append(action)
            continue
        found = groups.get(why)
        if found is None:
            found = groups[why] = []
            refused.append({"actions": found, "why": why[0], "rule": why[1]})
        found.append(action)
    return {"allowed_actions": allowed, "refused_actions": refused}


def templates(routes: Mapping[str, Any], prefix: str) -> dict[str, dict[str, str]]:
    """Where each participant-level command is sent (its path holds ``{participant_id}``)."""
    return {action: {"method": route.method, "href": prefix + route.path} for action, route in routes.items()}
