"""Who may act for whom in a Savage Worlds chase, and the server dice its decks deal with."""
from __future__ import annotations

from typing import Any, Collection, Mapping

from application.access import Principal
from application.dice import DiceResolver
from application.permissions import Permission, require
from domain.recorded_chase import HistoryRefused


class ServerDeckDice:
    """Server dice for a chase's decks (domain.rules.savage_worlds.savage_decks.DeckDice)."""

    def __init__(self, dice: DiceResolver, chase: Any) -> None:
        self.dice, self.chase = dice, chase

    def for_shuffle(self) -> Any:
        if self.chase.seed_commitment is None:
            raise HistoryRefused("the chase's seed has been revealed and the chase is over: no server shuffle")
        return self.dice.recorded(self.chase, self.chase.seed_commitment, self.chase.entropy, self.chase.seed_epoch)

    def for_provenance(self, provenance: dict[str, Any]) -> Any:
        return self.dice.recorded(self.chase, provenance["commitment"], provenance.get("entropy", ""), provenance.get("epoch", 0))


def crews(chase: Any, only: str | None = None) -> Mapping[str, Collection[str]]:
    """Whom a player acts for (application/permissions.py ActingFor): each participant (or
    ``only`` that one) -> itself, its unit and everyone riding in it or following it; a player of
    any of them acts for it."""
    riding: dict[str, set[str]] = {}
    for p in chase.participants.values():
        if p.with_id:
            riding.setdefault(p.with_id, set()).add(p.id)
    out = {}
    for pid in (chase.participants if only is None else (only,)):
        p = chase.participants.get(pid)
        if p is not None:
            unit = p.with_id or p.id
            out[p.id] = frozenset((p.id, unit, *riding.get(unit, ())))
    return out


def permit(by: Principal, chase: Any, participant_id: str | None, permission: Permission, sent: Mapping[str, Any] | None = None) -> None:
    """Refuses ``by`` (403) a command of ``permission`` for ``participant_id`` (None: for no one;
    a chase-level command's: whom it names), or a field of ``sent`` only the GM may send: the
    Keeper (GM) may do anything; a player acts for their participants and the units they are in."""
    require(by, permission, lambda: crews(chase, participant_id).get(participant_id, ()) if participant_id is not None else (), sent)
