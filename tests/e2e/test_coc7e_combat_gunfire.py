"""Several shots in one attack, over HTTP with table dice: coc7e-combat.txt "Handguns, Multiple
Shots (Penalty die)" (Harvey's three pistol shots) and "Automatic Fire" (the shooter of 63% firing
full auto in volleys of 6, then 12 shots at three targets)."""
from __future__ import annotations

from tests.e2e.coc7e_table import refused

HARVEY = {"name": "Harvey", "role": "pursuer", "dex": 60, "con": 60, "mov": 7, "hp": 15,
          "skills": {"Firearms (Handgun)": 50, "Firearms (SMG)": 63}, "weapons": [{"weapon": ".38 or 9mm Revolver"}, {"weapon": "Thompson"}]}
TARGETS = [{"name": name, "kind": "creature", "role": "quarry", "dex": 40, "con": 50, "mov": 7, "hp": 300} for name in ("Shoggoth", "Ghoul", "Ghast")]


def shooting_gallery(keeper) -> None:
    keeper.create("Gunfire", dice="table")
    keeper.add(**HARVEY)
    for target in TARGETS:
        keeper.add(**target)
    for name in ["Harvey", *(t["name"] for t in TARGETS)]:
        keeper.speed_roll(name, [40, 0])
    keeper.cut(opening_range=2)


def fire(keeper, status: int = 200, **body) -> dict:
    return keeper.ok(keeper.post(f"/participants/{keeper.ids['Harvey']}/fire", body), status)


def next_round(keeper) -> None:
    for name in ["Harvey", *(t["name"] for t in TARGETS)]:
        if keeper.track()["whose_turn"] == keeper.ids[name]:
            keeper.end_turn(name)


def test_harvey_fires_one_shot_then_three_each_with_a_penalty_die(keeper):
    shooting_gallery(keeper)
    shoggoth = keeper.ids["Shoggoth"]

    # "Harvey is shooting a single shot from his pistol at a target at normal range, so the
    # difficulty level is Regular": one roll, no penalty die; 40 hits for 1D10 (6).
    one = fire(keeper, weapon=".38 or 9mm Revolver", target_id=shoggoth, rolls={"attack": {"1": [40, 0]}, "damage": {"1.1": [6]}})
    assert [(r["penalty_dice"], r["difficulty"], r["level"]) for r in one["rolls"][:1]] == [(0, "regular", "regular")]
    assert one["chase"]["participants"][shoggoth]["damage"] == 6
    next_round(keeper)

    # "On the next round he fires three shots. Harvey's player rolls for each shot (at Regular
    # difficulty), applying a penalty die to each roll." 30 and 60 with 5: 65, a miss; 10 and 20
    # with 2: 22, a hit (1D10: 4); 40 and 70 with 0: 70, a miss.
    three = fire(keeper, weapon=".38 or 9mm Revolver", target_id=shoggoth, shots=3,
                 rolls={"attack": {"1": [30, 60, 5], "2": [10, 20, 2], "3": [40, 70, 0]}, "damage": {"2.1": [4]}})
    attacks = [r for r in three["rolls"] if r.get("skill")]
    assert [(r["penalty_dice"], r["result"], r["success"]) for r in attacks] == [(1, 65, False), (1, 22, True), (1, 70, False)]
    assert [v["hits"] for v in three["outcome"]["volleys"]] == [0, 1, 0]
    harvey = three["chase"]["participants"][keeper.ids["Harvey"]]
    assert next(w for w in harvey["weapons"] if w["weapon"] == ".38 or 9mm Revolver")["loaded"] == 2  # 6 - 1 - 3
    assert three["chase"]["participants"][shoggoth]["damage"] == 10

    # A fourth shot in a round is beyond the revolver's "1 (3)"; and so is a round without ammunition.
    next_round(keeper)
    before = keeper.events()
    refused(keeper, keeper.post(f"/participants/{keeper.ids['Harvey']}/fire", {"weapon": ".38 or 9mm Revolver", "target_id": shoggoth, "shots": 4}), 409, before, rule="Multiple Shots")
    refused(keeper, keeper.post(f"/participants/{keeper.ids['Harvey']}/fire", {"weapon": ".38 or 9mm Revolver", "target_id": shoggoth, "shots": 3}), 409, before, rule="Reloading")


def test_full_auto_in_volleys_of_six_each_harder_than_the_last(keeper):
    shooting_gallery(keeper)
    shoggoth = keeper.ids["Shoggoth"]

    # "A shooter with a skill of 63%, firing a full auto ... makes one attack roll for each volley
    # of 6 shots. ... The second volley ... incurs a penalty die, ... the third volley takes two
    # penalty dice ... a fourth volley ... two penalty dice, and the difficulty level ... Hard."
    # Volley 1: 50, a success: half (3) hit. Volley 2: 25 and 75, the worse kept: a miss.
    # Volley 3: 01, 11, 21: 21, a success: 3 hit. Volley 4: 10 three times: Extreme at Hard: all 6
    # hit, the first 3 impaling (maximum 12 plus a 1D10+2 roll).
    damage = {f"{v}.{k}": [5] for v, n in ((1, 3), (3, 3), (4, 6)) for k in range(1, n + 1)}
    auto = fire(keeper, weapon="Thompson", mode="full auto", targets=[{"target_id": shoggoth, "bullets": 24}],
                rolls={"attack": {"1": [50, 0], "2": [20, 70, 5], "3": [0, 10, 20, 1], "4": [10, 10, 10, 0]}, "damage": damage})

    attacks = [r for r in auto["rolls"] if r.get("skill")]
    assert [(r["skill"], r["penalty_dice"], r["difficulty"]) for r in attacks] == [
        ("Firearms (SMG)", 0, "regular"), ("Firearms (SMG)", 1, "regular"), ("Firearms (SMG)", 2, "regular"), ("Firearms (SMG)", 2, "hard"),
    ]
    volleys = auto["outcome"]["volleys"]
    assert [(v["bullets"], v["hits"], v["impales"]) for v in volleys] == [(6, 3, 0), (6, 0, 0), (6, 3, 0), (6, 6, 3)]
    # Hits: 9 of 1D10+2 rolled 5 (7 each), 3 impales of 12 + 7, and 3 more of 7.
    assert auto["chase"]["participants"][shoggoth]["damage"] == 9 * 7 + 3 * 19
    harvey = auto["chase"]["participants"][keeper.ids["Harvey"]]
    assert next(w for w in harvey["weapons"] if w["weapon"] == "Thompson")["loaded"] == 50 - 24
    assert harvey["attacks_made"] == 1  # one pull of the trigger: one attack


def test_twelve_shots_at_three_targets_are_three_partial_volleys(keeper):
    shooting_gallery(keeper)

    # "... fired just 12 shots, dividing them equally between three targets (4 shots at each) ...
    # the first attack roll would be for the 4 shots at the first target. The next 4 shots at the
    # second target would require a second attack roll, with one penalty die, followed by a
    # further attack roll ... with two penalty dice." All three miss here.
    targets = [{"target_id": keeper.ids[name], "bullets": 4} for name in ("Shoggoth", "Ghoul", "Ghast")]
    spread = fire(keeper, weapon="Thompson", mode="full auto", targets=targets,
                  rolls={"attack": {"1": [90, 0], "2": [90, 90, 0], "3": [90, 90, 90, 0]}})

    assert [r["penalty_dice"] for r in spread["rolls"]] == [0, 1, 2]
    assert [(v["target_id"], v["bullets"], v["hits"]) for v in spread["outcome"]["volleys"]] == [(t["target_id"], 4, 0) for t in targets]


def test_a_thompson_jams_at_its_malfunction_number_and_is_cleared_then_reloaded(keeper):
    shooting_gallery(keeper)
    shoggoth = keeper.ids["Shoggoth"]

    # A burst of full auto: the first volley's roll is 97, at or above the Thompson's 96: it does
    # not fire; an automatic jams (the rules name duds only for revolvers, break-open and
    # bolt-action guns).
    jammed = fire(keeper, weapon="Thompson", mode="full auto", targets=[{"target_id": shoggoth, "bullets": 12}], rolls={"attack": {"1": [90, 7]}})
    assert jammed["outcome"]["malfunction"] == "jam" and [v["hits"] for v in jammed["outcome"]["volleys"]] == [0]
    thompson = next(w for w in jammed["chase"]["participants"][keeper.ids["Harvey"]]["weapons"] if w["weapon"] == "Thompson")
    assert (thompson["jammed"], thompson["loaded"]) == (True, 50)
    next_round(keeper)

    # A jammed gun does not fire; clearing it takes a Firearms roll (here SMG 63: 40, cleared).
    before = keeper.events()
    refused(keeper, keeper.post(f"/participants/{keeper.ids['Harvey']}/fire", {"weapon": "Thompson", "mode": "full auto", "targets": [{"target_id": shoggoth, "bullets": 3}]}), 409, before, rule="Malfunctions")
    cleared = keeper.ok(keeper.post(f"/participants/{keeper.ids['Harvey']}/reload", {"weapon": "Thompson", "clear_jam": True, "rolls": {"clear": [40, 0]}}))
    assert cleared["outcome"]["jam_cleared"] and cleared["rolls"][0]["skill"] == "Firearms (SMG)"
    # The try took Harvey's action for the round ("once per round until succeeding"): his turn passed.
    assert cleared["chase"]["whose_turn"] != keeper.ids["Harvey"]
    next_round(keeper)

    # A full drum has no room for more; the revolver, two shots down, is loaded again.
    fire(keeper, weapon=".38 or 9mm Revolver", target_id=shoggoth, shots=2, rolls={"attack": {"1": [90, 90, 0], "2": [90, 90, 0]}})
    next_round(keeper)
    before = keeper.events()
    refused(keeper, keeper.post(f"/participants/{keeper.ids['Harvey']}/reload", {"weapon": "Thompson"}), 409, before, rule="Reloading")
    loaded = keeper.ok(keeper.post(f"/participants/{keeper.ids['Harvey']}/reload", {"weapon": ".38 or 9mm Revolver", "rounds": 2}))
    assert loaded["outcome"]["loaded"] == 6
