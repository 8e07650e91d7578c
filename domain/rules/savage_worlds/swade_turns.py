"""Rounds and turns of an Adventure Edition chase (procedures of SwadeChase).

Each round every unit in the chase is dealt an Action card and the units act high to low (ties
in suit order, cards.py); a unit whose Action card is a Club first faces a Complication
(swade-chases-reference.txt "COMPLICATIONS"). A unit on Hold is dealt no card: it keeps the one
it holds ("Hold", hold.py). A turn suspended by a unit coming off Hold resumes where it stopped.
"""
from __future__ import annotations

from typing import Any

from domain.rules.savage_worlds.cards import card
from domain.rules.savage_worlds.errors import SWADE, InvalidValue, RuleBroken
from domain.rules.savage_worlds.savage_decks import DeckDice
from domain.rules.savage_worlds.swade_chase import SURPRISE, complication_due, surprised_units
from domain.rules.savage_worlds.swd_chase import resolution_order

ACTION_CARDS = "Savage Worlds core rules, \"Action Cards\""


def deal_action_cards(
    chase: Any, cards: dict[str, str] | None = None, deck_dice: DeckDice | None = None, surprised: list[str] | None = None,
    ambushers: list[str] | None = None,
) -> None:
    """A new round: an Action card to every unit in the chase not on Hold, then they act high to
    low. In the first round, ``surprised``: the units whose Notice failed get none, and
    ``ambushers`` start on Hold with theirs ("Surprise")."""
    check_deal(chase)
    in_chase = [u.id for u in chase.units()]
    left_out = surprised_units(chase.round, surprised, in_chase)
    ambush = _ambushers(chase.round, ambushers, in_chase, left_out)
    units = [u for u in chase.units() if u.id not in left_out and not u.on_hold]
    if not chase.server_deck:
        if not isinstance(cards, dict) or set(cards) != {u.id for u in units}:
            raise InvalidValue("cards", "a physical deck: enter the Action card dealt to each unit in the chase not on Hold")
    elif cards:
        raise InvalidValue("cards", "this chase deals from the server's deck: no card is entered")
    chase.trigger_event(chase.RoundBegan, round=chase.round + 1)
    for unit in units:
        entered = cards[unit.id] if not chase.server_deck else None  # type: ignore[index]
        chase.trigger_event(chase.ActionCardDealt, participant_id=unit.id, **chase.draw_card("action", deck_dice, entered))
    for unit_id in ambush:
        chase.trigger_event(chase.WentOnHold, participant_id=unit_id, reason="an ambusher starts on Hold (Surprise)")
    acting = [u for u in units if u.id not in ambush]
    order = resolution_order({u.id: card(chase.action_cards[u.id][0]) for u in acting if chase.action_cards.get(u.id)})
    chase.trigger_event(chase.TurnOrderSet, turn_order=order)
    advance(chase, deck_dice)


def _ambushers(round_number: int, ambushers: list[str] | None, units: list[str], surprised: set[str]) -> set[str]:
    """"Surprise": "Ambushers start on Hold" -- in the first round, and not the surprised."""
    if not ambushers:
        return set()
    if round_number != 0:
        raise RuleBroken("ambushers start on Hold in the first round only", SURPRISE)
    if not isinstance(ambushers, list) or not all(isinstance(u, str) and u in units for u in ambushers):
        raise InvalidValue("ambushers", "name units in the chase (each vehicle, or each character not riding or following)")
    if set(ambushers) & surprised:
        raise InvalidValue("ambushers", "a unit is either surprised or an ambusher")
    return set(ambushers)


def check_deal(chase: Any) -> None:
    """The guard of ``deal_action_cards``: a chase going on, between rounds, nothing waiting."""
    chase._require_running()
    chase._require_nothing_pending()
    if chase.round and not chase.round_over:
        raise RuleBroken(f"round {chase.round} is still being played: end its turns first", ACTION_CARDS)


def end_turn(chase: Any, participant_id: str, deck_dice: DeckDice | None = None) -> None:
    unit = acting_unit(chase, participant_id, "end the turn", in_chase=False)  # also once it left the chase
    chase.trigger_event(chase.TurnEnded, participant_id=unit.id, reason="done" if unit.in_chase else f"{unit.status}")
    advance(chase, deck_dice)


def advance(chase: Any, deck_dice: DeckDice | None) -> None:
    """Begin the next unit's turn (a Club brings its Complication) or resume a suspended one;
    after the last, end the round."""
    while chase.phase == "running" and chase.whose_turn is not None:
        unit_id = chase.whose_turn
        if chase.turn.get("unit") == unit_id:
            return  # its turn is under way
        if not chase.participants[unit_id].in_chase:
            chase.trigger_event(chase.TurnEnded, participant_id=unit_id, reason="out of the chase")
            continue
        if unit_id in chase.suspended_turns:
            chase.trigger_event(chase.TurnResumed, participant_id=unit_id)
            return
        chase.trigger_event(chase.TurnBegan, participant_id=unit_id)
        if chase.turn.get("lost"):
            chase.trigger_event(chase.TurnEnded, participant_id=unit_id, reason="lost turn (Critical Failure)")
            continue
        action_card = card(chase.action_cards[unit_id][0])
        if complication_due(action_card):
            position = chase.track.location_of(unit_id)
            chase_card = chase.row[position] if position is not None and 0 <= position < len(chase.row) else None
            chase.require("complication", unit_id, chase_card=chase_card, rule="COMPLICATIONS")
        return
    if chase.phase == "running" and not chase.round_over and chase.round:
        chase.trigger_event(chase.RoundEnded, round=chase.round)
        chase.discard_action_cards("end of the round")
        chase.reshuffle_if_due(deck_dice)


def acting_unit(chase: Any, participant_id: str, what: str, in_chase: bool = True) -> Any:
    """The unit whose turn it is, for someone in it, with nothing left to resolve first."""
    chase._require_running()
    chase._require_nothing_pending()
    unit_id = chase.unit_of(participant_id)
    if chase.whose_turn != unit_id:
        whose = chase.participants[chase.whose_turn].name + "'s" if chase.whose_turn else "no one's (deal the Action cards)"
        raise RuleBroken(f"{chase.participants[unit_id].name} cannot {what}: it is {whose} turn", f"{SWADE} \"MANEUVERS\" (on his turn)")
    return chase._require_in_chase(unit_id) if in_chase else chase.participants[unit_id]
