"""A machine-gun belt half changed shows in the fight's answers as the document says.

"Allow two rounds to change a machine gun belt" (coc7e-combat.txt "Reloading Firearms"): after
the first, the carried gun's row has ``belt_progress``, which the document did not name; its
rows allow no field they do not name, so every answer in that state broke the contract.
"""
from __future__ import annotations

from tests.e2e.documented import violations
from tests.e2e.test_coc7e_combat_turns import pass_turns_until, the_fight

RELOAD = "/chases/{chase_id}/participants/{participant_id}/reload"


def test_a_belt_half_changed_is_shown_as_documented(keeper):
    # Given a fight in which the gunman carries a Vickers machine gun
    table = the_fight(keeper)
    pass_turns_until(keeper, "Gunman")

    # When he spends his first action changing its belt
    half = table.post(f"{table.participant('Gunman')}/reload", {"weapon": "Vickers .303 Machine Gun"})

    # Then the belt is one action along, and the answer and the track are as documented
    vickers = {w["weapon"]: w for w in table.who(half["chase"], "Gunman")["weapons"]}["Vickers .303 Machine Gun"]
    assert (half["outcome"]["belt_rounds_left"], vickers["loaded"], vickers["belt_progress"]) == (1, 0, 1)
    assert violations(keeper.http.client, "post", RELOAD, half, "Coc7eView") == []
    track = keeper.ok(keeper.http.get(f"/chases/{keeper.chase_id}/track"))
    assert violations(keeper.http.client, "get", "/chases/{chase_id}/track", track, "Coc7eView") == []
