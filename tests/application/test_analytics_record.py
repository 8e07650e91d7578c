"""Analytics is a projection of the log: rebuilt from it the same, for every system; undo requests
are credited to who asked; a campaign reports all its sessions' chases."""
from __future__ import annotations

from uuid import UUID

from application.access import KEEPER, PLAYER, SYSTEM, Principal
from application.dice import DiceChoice
from tests.application.test_savage_worlds_views import play_deluxe, play_swade


def harvey_and_the_farmer(ledger) -> tuple[UUID, str, str]:
    coc7e = ledger.commands["coc7e"]
    chase_id = UUID(ledger.create_chase("The farm track", dice="table")["chase_id"])
    harvey, _ = coc7e.add_participant(chase_id, {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6})
    farmer, _ = coc7e.add_participant(chase_id, {"name": "Farmer", "role": "pursuer", "dex": 50, "con": 55, "mov": 7})
    coc7e.roll_speed(chase_id, harvey, DiceChoice(faces=[70, 2]))
    coc7e.roll_speed(chase_id, farmer, DiceChoice(faces=[80, 0]))
    coc7e.cut_to_the_chase(chase_id, opening_range=2)
    return chase_id, harvey, farmer


def test_analytics_rebuilt_from_the_log_equal_the_live_ones(ledger):
    # A coc7e chase with moves and an undo, a swade chase with a ram, a Deluxe chase of three rounds.
    coc7e, harvey, farmer = harvey_and_the_farmer(ledger)
    ledger.commands["coc7e"].move(coc7e, harvey, 1)
    ledger.commands["coc7e"].move(coc7e, farmer, 2)
    ledger.history.undo(coc7e, 1)
    chases = [coc7e, play_swade(ledger), play_deluxe(ledger, rounds=3)]
    live = {c: ledger.analytics.chase_report(c, SYSTEM, series=True) for c in chases}
    assert live[coc7e]["game"]["by_participant"][harvey] == {"movement actions spent": 1, "locations covered": 1}
    assert farmer not in live[coc7e]["game"]["by_participant"]  # the farmer's move was undone

    # The operator clears every view and replays the log.
    ledger.views.clear(ledger.name)
    ledger.updater.catch_up()

    for chase_id in chases:
        assert ledger.analytics.chase_report(chase_id, SYSTEM, series=True) == live[chase_id]


def test_savage_worlds_rolls_are_read_against_their_exact_odds(ledger):
    swade = play_swade(ledger)

    report = ledger.analytics.chase_report(swade, SYSTEM)

    # Dan's Ram: 7 on the d8 against 4, a success without a raise; Eve's 3 fails to resist; the Ram's
    # damage (20) is a total with no success to it: a roll made, not one for luck.
    totals = report["totals"]
    assert (totals["rolls"], totals["rolls_without_odds"], totals["luck"]["successes"]) == (3, 1, 1)
    assert {n: c["observed"] for n, c in totals["levels"].items() if c["observed"]} == {"success": 1, "failure": 1}
    assert set(totals["levels"]) == {"critical failure", "failure", "success", "raise 1", "raise 2", "raise 3", "raise 4+"}
    # The game: the bike took three wounds from the Ram (three dealt in the chase); nine Chase Cards and two action cards were dealt.
    game = report["game"]
    assert sorted(c.get("wounds taken", 0) for c in game["by_participant"].values()) == [0, 3]
    # The Ram's damage roll was the sedan's (the pending follow-up it resolved): the wounds are its to claim.
    names = {pid: p["name"] for pid, p in report["by_participant"].items()}
    dealt = {names.get(pid, pid): c["wounds dealt"] for pid, c in game["by_participant"].items() if "wounds dealt" in c}
    assert dealt == {"Sedan": 3}
    assert game["chase"] == {"chase cards dealt": 9, "wounds dealt": 3}
    assert sum(c.get("action cards dealt", 0) for c in game["by_participant"].values()) == 2


def test_undo_requests_are_counted_for_the_player_who_asked(ledger):
    chase_id, harvey, farmer = harvey_and_the_farmer(ledger)
    ledger.commands["coc7e"].move(chase_id, harvey, 1)
    player = Principal(PLAYER, str(chase_id), (harvey,), "player (Harvey)")
    keeper = Principal(KEEPER, str(chase_id), (), "keeper")
    # Harvey's player asks twice; the Keeper grants the first and refuses the second.
    first, _ = ledger.history.request_undo(chase_id, 1, "wrong way", by=player)
    ledger.history.answer_undo_request(chase_id, first, True, by=keeper)
    second, _ = ledger.history.request_undo(chase_id, 1, "again", by=player)
    ledger.history.answer_undo_request(chase_id, second, False, by=keeper)

    game = ledger.analytics.chase_report(chase_id, SYSTEM)["game"]

    assert game["undo_requests"] == {"player (Harvey)": {"made": 2, "granted": 1, "refused": 1}}
    assert game["undos"] == 1


def test_a_campaign_reports_every_chase_of_its_sessions(ledger):
    sessions = ledger.analytics.sessions
    night_one, one_token = sessions.create("session", "Night one")
    night_two, two_token = sessions.create("session", "Night two")
    campaign, _ = sessions.create("campaign", "Masks")
    for night, token in ((night_one, one_token), (night_two, two_token)):
        chase_id, _, _ = harvey_and_the_farmer(ledger)
        keeper_token = ledger.access.issue(str(chase_id), KEEPER)
        sessions.add_chase(night["session_id"], str(chase_id), keeper_token, Principal(KEEPER, night["session_id"]))
        sessions.add_session(campaign["campaign_id"], night["session_id"], token, Principal(KEEPER, campaign["campaign_id"]))

    report = ledger.analytics.group_report(campaign["campaign_id"], "campaign", SYSTEM)

    assert report["scope"]["sessions"] == [night_one["session_id"], night_two["session_id"]]
    assert len(report["scope"]["chases"]) == 2 and report["totals"]["rolls"] == 4
    # And by session: each night's two speed rolls (Harvey's 72 against 60 fails, the farmer's 80 against 55 too).
    assert {sid: (s["name"], s["rolls"], s["luck"]["successes"]) for sid, s in report["by_session"].items()} == {
        night_one["session_id"]: ("Night one", 2, 0), night_two["session_id"]: ("Night two", 2, 0)}
    # Taking a session out is one more entry in the campaign's log; the report follows.
    sessions.remove(campaign["campaign_id"], "campaign", night_two["session_id"], Principal(KEEPER, campaign["campaign_id"]))
    assert ledger.analytics.group_report(campaign["campaign_id"], "campaign", SYSTEM)["totals"]["rolls"] == 2
    assert [e["kind"] for e in sessions.group(campaign["campaign_id"])["log"]] == [
        "campaign created", "session added", "session added", "session removed"]


def test_the_farmer_who_caught_harvey_won_the_chase_and_harvey_lost_it(ledger):
    # coc7e-chases.txt parts 1 and 2, as `chase demo` plays them: the farmer catches Harvey.
    from infrastructure.demo import play

    chase_id = play(ledger, out=lambda line: None)["chase_id"]

    report = ledger.analytics.chase_report(chase_id, SYSTEM)

    names = {pid: p["name"] for pid, p in report["by_participant"].items()}
    won = {names[pid]: (c.get("chases won", 0), c.get("chases lost", 0)) for pid, c in report["game"]["by_participant"].items()}
    assert won == {"Harvey": (0, 1), "Farmer": (1, 0)}
    assert report["game"]["chases_ended"] == {"caught": 1}
    # Both ran: Harvey one location a round, the farmer two; three rounds began.
    assert [c["locations covered"] for c in report["game"]["by_participant"].values()] == [2, 4]
    assert report["time"]["rounds"] == 3


def test_a_chase_recorded_before_analytics_is_read_from_its_events_until_a_rebuild(ledger):
    # A chase whose views were written by code that kept no analytics facts.
    chase_id, harvey, _ = harvey_and_the_farmer(ledger)
    kept = ledger.analytics.chase_report(chase_id, SYSTEM)
    ledger.views.clear(ledger.name)
    ledger.renderers.facts, facts = (lambda event: []), ledger.renderers.facts
    ledger.updater.catch_up()
    ledger.renderers.facts = facts
    assert ledger.views.analytics_facts([str(chase_id)]) == []

    # Its report is the same, read from its events.
    assert ledger.analytics.chase_report(chase_id, SYSTEM) == kept


def test_a_player_sees_no_game_counts_of_the_keepers_participants(ledger):
    # Harvey's player holds a token for Harvey; the farmer is the Keeper's. Both move.
    chase_id, harvey, farmer = harvey_and_the_farmer(ledger)
    ledger.commands["coc7e"].move(chase_id, harvey, 1)
    ledger.commands["coc7e"].move(chase_id, farmer, 2)
    ledger.issue_player_token(chase_id, [harvey])

    # The player's report of the chase.
    seen = ledger.analytics.chase_report(chase_id, Principal(PLAYER, str(chase_id)))

    # Harvey's counts show; the farmer's are as private as his rolls.
    assert seen["game"]["by_participant"] == {harvey: {"movement actions spent": 1, "locations covered": 1}}
    assert farmer not in seen["time"]["turns"]
    # The Keeper sees both.
    keeper = ledger.analytics.chase_report(chase_id, Principal(KEEPER, str(chase_id)))
    assert set(keeper["game"]["by_participant"]) == {harvey, farmer}
