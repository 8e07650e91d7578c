"""Sessions and campaigns: a game night groups chases into a session, and sessions into a campaign.

Each is the Keeper's: creating one answers with its own Keeper token (kept hashed, like a chase's).
Only the Keeper of a chase adds it to a session (their chase token proves it) and only the Keeper
of a session adds it to a campaign. Every change is an entry appended to the group's log (who, what,
when), so a group is the fold of its entries: auditable, and rebuilt by reading them again.
"""
from __future__ import annotations

import uuid
from datetime import datetime, timezone
from typing import Any, Callable

from application.access import KEEPER, Access, Forbidden, Principal, Unauthenticated
from application.ports import SessionLog
from domain.errors import InvalidInput, NotFound
from domain import names
from domain.names import MAX_NAME  # noqa: F401 - MAX_NAME: the bound the API's schema takes from here

SESSION, CAMPAIGN = "session", "campaign"
MEMBERS = {SESSION: "chase", CAMPAIGN: "session"}  # what each kind of group holds


class GroupNotFound(NotFound):
    """No session or campaign of that id."""


class Sessions:
    """Creates sessions and campaigns, adds and removes their members, and says who may read them."""

    def __init__(self, log: SessionLog, access: Access, chase_exists: Callable[[str], bool]) -> None:
        self.log = log
        self.access = access
        self.chase_exists = chase_exists

    def create(self, kind: str, name: str) -> tuple[dict[str, Any], str]:
        """A new session or campaign, and its Keeper's token (shown once)."""
        name = names.screened_name(name)
        group_id = str(uuid.uuid4())
        self.log.append(group_id, self._entry(f"{kind} created", None, "keeper", name=name.strip()))
        token = self.access.issue(group_id, KEEPER, label=f"{kind} keeper")
        return self.group(group_id), token

    def group(self, group_id: str, kind: str | None = None) -> dict[str, Any]:
        """The group as its entries leave it: id, kind, name, members in the order added, its log."""
        entries = self.log.entries(str(group_id))
        if not entries or (kind and entries[0]["kind"] != f"{kind} created"):
            raise GroupNotFound(f"no {kind or 'session or campaign'} {group_id}")
        found_kind = entries[0]["kind"].split()[0]
        members: list[str] = []
        for e in entries[1:]:
            if e["kind"].endswith(" added") and e["member"] not in members:
                members.append(e["member"])
            elif e["kind"].endswith(" removed") and e["member"] in members:
                members.remove(e["member"])
        return {f"{found_kind}_id": str(group_id), "kind": found_kind, "name": entries[0]["name"],
                f"{MEMBERS[found_kind]}s": members, "log": entries}

    def keeper(self, group_id: str, token: str | None, kind: str) -> Principal:
        """The group's Keeper, by the group's own token (401/403 otherwise; 404 no such group)."""
        self.group(group_id, kind)
        principal = self.access.whose(token)
        if principal.chase_id != str(group_id) or principal.role != KEEPER:
            raise Forbidden(f"only the Keeper of this {kind} may do this: send its token")
        return principal

    def reader(self, group_id: str, token: str | None, kind: str) -> Principal:
        """Who may read the group's report: its Keeper, or a player of one of its chases."""
        group = self.group(group_id, kind)
        principal = self.access.whose(token)
        if principal.chase_id == str(group_id):
            return principal
        if principal.role != KEEPER and principal.chase_id in self.chases(group):
            return principal
        raise Forbidden(f"this token is neither the {kind}'s Keeper's nor a player's of one of its chases")

    def chases(self, group: dict[str, Any]) -> list[str]:
        """Every chase of a session, or of a campaign's sessions, in order."""
        if group["kind"] == SESSION:
            return list(group["chases"])
        return [c for sid in group["sessions"] for c in self.group(sid, SESSION)["chases"]]

    def add_chase(self, session_id: str, chase_id: str, chase_token: str | None, by: Principal) -> dict[str, Any]:
        """Only the chase's Keeper adds it: ``chase_token`` is the chase's Keeper token."""
        if not self.chase_exists(chase_id):
            raise InvalidInput("chase_id", f"no chase {chase_id}")
        if chase_token is None or self._whose(chase_token) != (str(chase_id), KEEPER):
            raise InvalidInput("chase_token", "must be the Keeper token of that chase: only its Keeper adds it to a session")
        self.log.append(session_id, self._entry("chase added", str(chase_id), by.name))
        return self.group(session_id, SESSION)

    def add_session(self, campaign_id: str, session_id: str, session_token: str | None, by: Principal) -> dict[str, Any]:
        """Only the session's Keeper puts it in a campaign: ``session_token`` is its Keeper token."""
        try:
            self.group(session_id, SESSION)
        except GroupNotFound:
            raise InvalidInput("session_id", f"no session {session_id}") from None
        if session_token is None or self._whose(session_token) != (str(session_id), KEEPER):
            raise InvalidInput("session_token", "must be the Keeper token of that session")
        self.log.append(campaign_id, self._entry("session added", str(session_id), by.name))
        return self.group(campaign_id, CAMPAIGN)

    def remove(self, group_id: str, kind: str, member: str, by: Principal) -> dict[str, Any]:
        group = self.group(group_id, kind)
        if member not in group[f"{MEMBERS[kind]}s"]:
            raise GroupNotFound(f"{MEMBERS[kind]} {member} is not in this {kind}")
        self.log.append(group_id, self._entry(f"{MEMBERS[kind]} removed", member, by.name))
        return self.group(group_id, kind)

    def _whose(self, token: str) -> tuple[str | None, str] | None:
        try:
            principal = self.access.whose(token)
        except Unauthenticated:  # an unknown token is simply not the Keeper's
            return None
        return principal.chase_id, principal.role

    @staticmethod
    def _entry(kind: str, member: str | None, by: str, name: str | None = None) -> dict[str, Any]:
        return {"kind": kind, "member": member, "name": name, "by": by, "at": datetime.now(timezone.utc).isoformat()}
