"""Wounds and healing over HTTP with table dice: the worked examples of coc7e-combat.txt.

"Major Wound: The Effects" (Harvey takes 3, then 8), "Dying" (a further 5: dying, First Aid fails,
his CON roll holds, First Aid again, Medicine in hospital), "Major Wound Recovery" (three weeks of
recovery rolls), "Regular Damage Recovery" (4, 6 and 7: zero hit points, back in 15 days).
"""
from __future__ import annotations

from tests.e2e.coc7e_table import refused

HARVEY = {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 7, "hp": 15, "skills": {"Dodge": 30}}
COMPANION = {"name": "Companion", "role": "quarry", "dex": 50, "con": 50, "mov": 7, "hp": 12, "skills": {"First Aid": 50}}


class Ward:
    """The Keeper's wound commands for one chase."""

    def __init__(self, keeper) -> None:
        self.keeper = keeper
        keeper.create("Harvey's wounds", dice="table")
        keeper.add(**HARVEY)
        keeper.add(**COMPANION)

    def post(self, what: str, body: dict, name: str = "Harvey", status: int = 200) -> dict:
        return self.keeper.ok(self.keeper.post(f"/participants/{self.keeper.ids[name]}/{what}", body), status)

    def damage(self, amount: int, **body) -> dict:
        return self.post("damage", {"amount": amount, **body})

    def harvey(self, answer: dict | None = None) -> dict:
        chase = answer["chase"] if answer else self.keeper.track()
        return chase["participants"][self.keeper.ids["Harvey"]]


def major_wound(keeper) -> Ward:
    """"Harvey has 15 hit points. Damage of 8 or more will inflict a Major Wound. ... takes 3
    damage, then 8 damage. His current hit points are down to 4. The Major Wound knocks him to the
    floor. He is required to make a CON roll for the Major Wound and does so successfully"."""
    ward = Ward(keeper)
    first = ward.damage(3, cause="the cultist's fist")
    assert first["rolls"] == [] and not ward.harvey(first)["major_wound"]
    second = ward.damage(8, cause="the cultist's knife", rolls={"con": {keeper.ids["Harvey"]: [40, 5]}})
    assert [(r["skill"], r["target"], r["level"]) for r in second["rolls"]] == [("CON", 60, "regular")]
    return ward


def test_harveys_major_wound_knocks_him_down_and_his_con_roll_keeps_him_conscious(keeper):
    ward = major_wound(keeper)

    harvey = ward.harvey()
    assert (harvey["hp_left"], harvey["major_wound"], harvey["prone"], harvey["unconscious"], harvey["dying"]) == (4, True, True, False, False)
    wounded = [e["data"] for e in keeper.events() if e["name"] == "Wounded"]
    assert [(w["taken"], w["major_wound"]) for w in wounded] == [(3, False), (8, True)]
    assert [e["data"]["conscious"] for e in keeper.events() if e["name"] == "ConsciousnessRolled"] == [True]


def test_harvey_dying_is_stabilised_by_first_aid_then_saved_by_medicine(keeper):
    ward = major_wound(keeper)

    # "Harvey suffers a further 5 damage. His current hit points fall to zero and, since he has
    # taken a Major Wound ..., he is now dying".
    harvey = ward.harvey(ward.damage(5))
    assert (harvey["hp_left"], harvey["dying"], harvey["unconscious"]) == (0, True, True)

    # "The following round a companion attempts First Aid and fails. Harvey's CON roll is
    # successful and he survives another round."
    failed = ward.post("first-aid", {"healer_id": keeper.ids["Companion"], "rolls": {"first_aid": [80, 0]}})
    assert failed["outcome"]["success"] is False and failed["rolls"][0]["roller"] == keeper.ids["Companion"]
    held = ward.post("dying-roll", {"rolls": {"con": [40, 0]}})
    assert held["outcome"] == {"survived": True, "dead": False}

    # First Aid again is a pushed roll: without saying so it is refused, nothing recorded.
    before = keeper.events()
    again = keeper.post(f"/participants/{keeper.ids['Harvey']}/first-aid", {"healer_id": keeper.ids["Companion"], "rolls": {"first_aid": [20, 0]}})
    refused(keeper, again, 409, before, rule="First Aid")

    # "The companion attempts First Aid again, this time he is successful. Harvey gains 1 hit
    # point and is stabilized".
    pushed = ward.post("first-aid", {"healer_id": keeper.ids["Companion"], "pushed": True, "rolls": {"first_aid": [20, 0]}})
    harvey = ward.harvey(pushed)
    assert pushed["outcome"]["stabilised"] and (harvey["hp_left"], harvey["stabilised"], harvey["dying"]) == (1, True, True)

    # "... he receives professional medical assistance. The dying tick is removed and Harvey gains
    # 2 hit points (1D3 from Medicine skill roll)."
    treated = ward.post("medicine", {"target": 70, "rolls": {"medicine": [30, 0], "heal": [2]}})
    harvey = ward.harvey(treated)
    assert treated["outcome"]["saved"] and (harvey["hp_left"], harvey["dying"], harvey["stabilised"], harvey["major_wound"]) == (3, False, False, True)


def test_harveys_weeks_of_recovery_from_his_major_wound(keeper):
    ward = major_wound(keeper)
    ward.damage(5)
    ward.post("first-aid", {"healer_id": keeper.ids["Companion"], "rolls": {"first_aid": [20, 0]}})
    ward.post("medicine", {"target": 70, "rolls": {"medicine": [30, 0], "heal": [2]}})
    assert ward.harvey()["hp_left"] == 3

    # Week 1: "the best of care and complete rest, so gains two bonus dice ... This roll gives a
    # Hard success, granting the recovery of 3 hit points (1D3)." The doctor's Medicine roll (30
    # against 70) comes first; the CON roll keeps the best of 25, 55 and 65.
    week = ward.post("recovery", {"week": True, "rest": True, "medical_care": {"target": 70}, "rolls": {"medicine": [30, 0], "con": [20, 50, 60, 5], "heal": [3]}})
    con = week["rolls"][1]
    assert (con["bonus_dice"], con["result"], con["level"]) == (2, 25, "hard") and ward.harvey(week)["hp_left"] == 6

    # Week 2: light work, no care: no bonus dice; a failure, no recovery.
    week = ward.post("recovery", {"week": True, "rolls": {"con": [70, 0]}})
    assert (week["rolls"][0]["bonus_dice"], week["rolls"][0]["level"]) == (0, "failure") and ward.harvey(week)["hp_left"] == 6

    # Week 3: rest in bed and a nurse (her Medicine roll a success): two bonus dice; an Extreme
    # success: 5 (2D3) hit points and the major wound marker erased. (The text's total of 8 counts
    # from zero, leaving out the 3 of First Aid and Medicine in its Dying example.)
    week = ward.post("recovery", {"week": True, "rest": True, "medical_care": {"target": 50}, "rolls": {"medicine": [40, 0], "con": [0, 50, 80, 9], "heal": [3, 2]}})
    harvey = ward.harvey(week)
    assert week["rolls"][1]["level"] == "extreme" and (harvey["hp_left"], harvey["major_wound"]) == (11, False)

    # "He regains one more hit point each day": to his maximum of 15, and no further.
    assert ward.harvey(ward.post("recovery", {"days": 7}))["hp_left"] == 15


def test_regular_damage_leaves_harvey_unconscious_at_zero_and_he_heals_in_15_days(keeper):
    ward = Ward(keeper)

    # "Harvey ... takes 4 damage, then 6, then 7. He has taken a total of 17 damage, but ... his
    # current hit points now equal zero. He has only taken regular damage".
    for amount in (4, 6, 7):
        answer = ward.damage(amount)
    harvey = ward.harvey(answer)
    assert (harvey["hp_left"], harvey["unconscious"], harvey["dying"], harvey["major_wound"], harvey["dead"]) == (0, True, False, False, False)

    # "... Harvey recovers one hit point per day and is back to full health after 15 days."
    assert ward.harvey(ward.post("recovery", {"days": 14}))["hp_left"] == 14
    harvey = ward.harvey(ward.post("recovery", {"days": 1}))
    assert (harvey["hp_left"], harvey["unconscious"]) == (15, False)


def test_more_than_his_maximum_hit_points_in_one_blow_is_death(keeper):
    ward = Ward(keeper)

    harvey = ward.harvey(ward.damage(16))

    assert (harvey["dead"], harvey["dying"], harvey["hp_left"]) == (True, False, 0)
    before = keeper.events()
    refused(keeper, keeper.post(f"/participants/{keeper.ids['Harvey']}/first-aid", {"target": 50}), 409, before, rule="First Aid")


def test_negative_damage_and_medicine_for_a_dying_man_are_refused_and_nothing_recorded(keeper):
    ward = major_wound(keeper)
    before = keeper.events()

    refused(keeper, keeper.post(f"/participants/{keeper.ids['Harvey']}/damage", {"amount": -3}), 422, before, field="amount")
    ward.damage(5)
    before = keeper.events()
    # "Only the First Aid skill can be used to stabilize a dying character."
    refused(keeper, keeper.post(f"/participants/{keeper.ids['Harvey']}/medicine", {"target": 70}), 409, before, rule="Dying")
    # A player may not deal damage: the Keeper does.
    player = keeper.player("Harvey")
    assert player.post(f"/participants/{keeper.ids['Companion']}/damage", {"amount": 1}).status_code == 403


def test_two_people_give_first_aid_together_and_either_success_is_enough(keeper):
    ward = major_wound(keeper)
    keeper.add(name="Nurse", role="quarry", dex=50, con=50, mov=7, hp=10, skills={"First Aid": 60})

    # "Two people can work together to administer First Aid, with a success granted if either one
    # of them rolls a success": the companion fails (80), the nurse succeeds (30 of 60).
    both = ward.post("first-aid", {"healer_id": keeper.ids["Companion"], "assistant_id": keeper.ids["Nurse"],
                                   "rolls": {"first_aid": [80, 0], "assistant": [30, 0]}})
    assert [(r["roller"], r["success"]) for r in both["rolls"]] == [(keeper.ids["Companion"], False), (keeper.ids["Nurse"], True)]
    assert both["outcome"]["success"] is True and ward.harvey(both)["hp_left"] == 5

    # The assistant is a second person: the healer twice is refused, nothing recorded.
    before = keeper.events()
    twice = keeper.post(f"/participants/{keeper.ids['Harvey']}/first-aid", {"healer_id": keeper.ids["Nurse"], "assistant_id": keeper.ids["Nurse"],
                                                                           "pushed": True})
    refused(keeper, twice, 422, before, field="assistant_id")


def test_after_a_successful_first_aid_no_pushed_roll_is_allowed(keeper):
    ward = major_wound(keeper)

    # The companion's First Aid succeeds (20 of 50): Harvey gains 1 hit point.
    done = ward.post("first-aid", {"healer_id": keeper.ids["Companion"], "rolls": {"first_aid": [20, 0]}})
    assert done["outcome"]["success"] is True and ward.harvey(done)["hp_left"] == 5

    # "It may be attempted once, with subsequent attempts constituting a Pushed roll": a push is
    # another go at a failed roll, so after a success it is refused (409, naming "First Aid"), as is
    # a plain second try; nothing is recorded.
    before = keeper.events()
    for body in ({"pushed": True}, {}):
        again = keeper.post(f"/participants/{keeper.ids['Harvey']}/first-aid", {"healer_id": keeper.ids["Companion"], "rolls": {"first_aid": [20, 0]}, **body})
        problem = refused(keeper, again, 409, before, rule="First Aid")
        assert "already succeeded" in problem["detail"]

    # A new wound is a new injury to treat: First Aid may be tried again.
    ward.damage(1)
    fresh = ward.post("first-aid", {"healer_id": keeper.ids["Companion"], "rolls": {"first_aid": [90, 0]}})
    assert fresh["outcome"]["success"] is False


def test_a_stabilised_patient_who_fails_the_hourly_con_roll_needs_first_aid_afresh(keeper):
    ward = major_wound(keeper)
    ward.damage(5)
    ward.post("first-aid", {"healer_id": keeper.ids["Companion"], "rolls": {"first_aid": [20, 0]}})
    assert ward.harvey()["stabilised"]

    # "a failure indicates ... they lose the temporary hit point and revert to the start of the
    # Dying process, in need of First Aid": a first try again, not a pushed one.
    lost = ward.post("dying-roll", {"rolls": {"con": [90, 0]}})
    harvey = ward.harvey(lost)
    assert (harvey["hp_left"], harvey["stabilised"], harvey["dying"], harvey["first_aid_tries"]) == (0, False, True, 0)
    again = ward.post("first-aid", {"healer_id": keeper.ids["Companion"], "rolls": {"first_aid": [10, 0]}})
    assert again["outcome"]["stabilised"] is True
