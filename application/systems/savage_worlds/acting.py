"""Who may act for whom in a Savage Worlds chase, and the server dice its decks deal with."""
from __future__ import annotations

from typing import Any

from application.access import KEEPER, SYSTEM_ROLE, Forbidden, Principal
from application.dice import DiceResolver
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


def acts_for(by: Principal, chase: Any, participant_id: str | None, what: str) -> None:
    """The Keeper (GM) may do anything; a player acts for their participants and the units they are in."""
    if by.role in (KEEPER, SYSTEM_ROLE):
        return
    ids: set[str] = set()
    if participant_id in chase.participants:
        unit = chase.unit_of(participant_id)
        ids = {participant_id, unit} | {m.id for m in chase.members(unit)}
    if not ids & set(by.participant_ids):
        raise Forbidden(f"a player may {what} only for their own participants")
