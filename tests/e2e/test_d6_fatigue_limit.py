"""The GM rules on a participant's fatigue limit during the chase (d6-movement.txt
"Accelerating and Decelerating", on fatigue: the suitable length of time depends on "existing
conditions, the Physique of the character, and any relevant special abilities"): the modifier
follows the new limit at once, only the GM may set it, and the track view says so."""
from __future__ import annotations

from tests.e2e.affordance_checks import actions_of
from tests.e2e.d6_table import D6Table


def test_the_gm_changes_a_fatigue_limit_and_the_fatigue_modifier_follows_it(client):
    # Step 1: Ann may run fast for one round before fatigue; she runs fast for two.
    table = D6Table(client, name="A long race")
    table.add("Ann", "racer", fatigue_limit=1, skills={"running": "4D"})
    table.add("Bob", "racer")
    table.begin(finish=500)
    table.run("Ann", 20, [4, 4, 4, 4])
    table.end_round()
    table.run("Ann", 20, [4, 4, 4, 4])
    assert table.who("Ann")["fatigue"] == {"limit": 1, "fast_rounds": 2, "modifier": 3}

    # Step 2: a second wind: the GM rules she may run three rounds; the +3 is gone.
    path = f"/d6/participants/{table.ids['Ann']}/fatigue-limit"
    ruled = table.post(path, {"fatigue_limit": 3})
    assert ruled["outcome"] == {"fatigue_limit": 3, "modifier": 0} and ruled["rolls"] == []
    assert table.who("Ann", ruled["chase"])["fatigue"] == {"limit": 3, "fast_rounds": 2, "modifier": 0}
    assert table.events()[-1]["name"] == "FatigueLimitSet"

    # Step 3: the heat tells: no rounds of fast running at all now; the two she ran count (+6).
    assert table.post(path, {"fatigue_limit": 0})["outcome"] == {"fatigue_limit": 0, "modifier": 6}
    # ... and null stops tracking fatigue for her.
    assert table.post(path, {"fatigue_limit": None})["outcome"] == {"fatigue_limit": None, "modifier": 0}


def test_only_the_gm_sets_a_fatigue_limit_and_the_view_says_so(client):
    # Step 1: a chase begun; Ann's player holds a token for her.
    table = D6Table(client)
    table.add("Ann", "quarry", fatigue_limit=2)
    table.add("Bob", "pursuer")
    table.begin()
    path = f"/d6/participants/{table.ids['Ann']}/fatigue-limit"

    # Step 2: her player may not rule on it (403, nothing recorded); the view tells them so.
    player = table.player("Ann")
    problem = player.refused(path, {"fatigue_limit": 5}, 403)
    assert problem["detail"] == "only the Keeper may set fatigue limits"
    assert actions_of(player.track(), table.ids["Ann"])["set_fatigue_limit"]["why"] == "only the Keeper may do this"
    assert actions_of(table.track(), table.ids["Ann"])["set_fatigue_limit"]["allowed"] is True

    # Step 3: a limit out of bounds is a 422 naming the field; a chase over refuses it (409).
    assert table.refused(path, {"fatigue_limit": -1}, 422)["errors"][0]["field"] == "fatigue_limit"
    table.refused(path, {}, 422)
    table.post("/end", {"outcome": "abandoned"})
    assert "Accelerating and Decelerating" in table.refused(path, {"fatigue_limit": 3}, 409)["rule"]
