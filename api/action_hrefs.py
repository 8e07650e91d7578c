"""Where a chase's commands are sent, worked out once per chase (issue 12 part 6): the same for
every answer of the chase, made (dicts, hrefs) and encoded again for each command before.

- the chase's ``action_templates`` (api/compact_actions.py), encoded once: some 5 KB of JSON;
- the chase-level commands' method and href, in their order, each answer's chase-level
  ``actions`` then only the allowed or refused of each (api/affordances.py).
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Mapping

import orjson

from api.action_routes import RECORD, Route, token_refusal
from api.compact_actions import templates
from api.representation import Encoded
from application.access import PLAYER

KEPT = 256  # chases


class Where:
    """A chase's commands: ``templates`` (Encoded), ``chase_level`` [(action, route, method, href)]."""

    __slots__ = ("routes", "templates", "chase_level")

    def __init__(self, routes: tuple[Mapping[str, Route], Mapping[str, Route]], templates: Encoded, chase_level: list[tuple[str, Route, str, str]]) -> None:
        self.routes, self.templates, self.chase_level = routes, templates, chase_level


# The chases asked for most lately (least recently used out first): a chase played for hours
# stays while chases looked at once pass through.
_kept: OrderedDict[tuple[str, bool], Where] = OrderedDict()
_lock = threading.Lock()


def where(routes: tuple[Mapping[str, Route], Mapping[str, Route]], prefix: str, sort_keys: bool) -> Where:
    """The chase at ``prefix``'s commands, of its system's ``routes`` (participant-level,
    chase-level); ``sort_keys``: the app's JSON sorts its keys (the encoded templates do too,
    as the app would encode them: its own setting, off, keeps the system's order).

    The same ``Where`` is handed to every answer of the chase, so nothing may change it: its
    templates go out only inside ``Encoded``, whose bytes every answer sends as they are (its
    ``plain`` is read by an encoder only), and ``chase_level`` is read, never written."""
    key = (prefix, sort_keys)
    found = _kept.get(key)
    if found is not None and found.routes is routes:
        with _lock:
            if key in _kept:  # (another thread may have let it go since)
                _kept.move_to_end(key)
        return found
    plain = templates(routes[0], prefix)
    encoded = Encoded(plain, orjson.dumps(plain, option=orjson.OPT_SORT_KEYS if sort_keys else 0))
    chase_level = [(action, route, route.method, prefix + route.path) for action, route in {**routes[1], **RECORD}.items()]
    found = Where(routes, encoded, chase_level)
    with _lock:
        _kept[key] = found
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return found


def chase_actions(chase_level: list[tuple[str, Route, str, str]], legal: Mapping[str, Any], principal: Any,
                  whose: Mapping[str, tuple[Any, str | None]] | None = None, acting_for: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """The chase-level ``actions``: each command the rules speak of now, allowed or why not (a
    player's token is refused the Keeper's commands first); ``whose``: the commands whose sender
    turns on the chase -> the Permission that decides now and the participant it is for then
    (application/affordances.py ``whose_now``), ``acting_for`` whom a player acts for."""
    player = principal is not None and principal.role == PLAYER
    out = []
    for action, route, method, href in chase_level:
        if action not in legal:
            continue
        refused = (_token_refusal(action, route, principal, whose, acting_for) if player else None) or legal[action]
        if refused is None:
            out.append({"action": action, "method": method, "href": href, "allowed": True})
        else:
            out.append({"action": action, "method": method, "href": href, "allowed": False, "why": refused[0], "rule": refused[1]})
    return out


def _token_refusal(action: str, route: Route, principal: Any, whose: Mapping[str, tuple[Any, str | None]] | None, acting_for: Any) -> Any:
    """What a player's token is refused of a chase-level command: as its command would, by the
    Permission that decides it now where that turns on the chase."""
    now = whose.get(action) if whose else None
    if now is None:
        return token_refusal(route, principal, None, None)
    permission, participant_id = now
    return token_refusal(Route(route.method, route.path, permission.who), principal, participant_id, acting_for)
