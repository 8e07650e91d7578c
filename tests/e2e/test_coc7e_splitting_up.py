"""Splitting up, over HTTP with table dice (issue 15, item 12): coc7e-chases.txt "Splitting Up",
"Chases with Multiple Characters" ("If they split up there will be multiple chases and each chase
should be tracked and resolved separately")."""
from __future__ import annotations

from tests.conftest import ChaseClient


def four_in_a_chase(keeper):
    # Harvey and his aunt flee (MOV 6, both fail: 5), the farmer (MOV 7, fails: 6) and his dog
    # (MOV 8, 40: Regular) give chase. The farmer at 0, the dog at 2, Harvey and his aunt at 4.
    keeper.create("The farm", dice="table")
    keeper.add(name="Harvey", role="quarry", dex=55, con=60, mov=6)
    keeper.add(name="Aunt", role="quarry", dex=40, con=50, mov=6)
    keeper.add(name="Farmer", role="pursuer", dex=50, con=55, mov=7)
    keeper.add(name="Dog", kind="creature", role="pursuer", dex=70, con=50, mov=8)
    for name, faces in (("Harvey", [70, 2]), ("Aunt", [90, 3]), ("Farmer", [80, 0]), ("Dog", [40, 0])):
        keeper.speed_roll(name, faces)
    return keeper.cut()


def test_the_aunt_runs_another_way_and_the_dog_follows_her_a_chase_of_their_own(keeper):
    chase = four_in_a_chase(keeper)
    assert [keeper.location_of(chase, n) for n in ("Farmer", "Dog", "Harvey", "Aunt")] == [0, 2, 4, 4]
    # The aunt takes the lane, the dog after her: the Keeper splits them off.
    body = keeper.ok(keeper.post("/split", {"groups": [[keeper.ids["Aunt"], keeper.ids["Dog"]]]}), 201)
    original, (split,) = body["chase"], body["chases"]
    new = split["chase"]
    # The original goes on with Harvey and the farmer, and links to the new chase.
    assert original["split_into"] == [new["chase_id"]] and original["split_from"] is None
    assert original["participants"][keeper.ids["Aunt"]]["status"] == "split_off"
    assert original["turn_order"] == [keeper.ids["Harvey"], keeper.ids["Farmer"]]
    # The new chase starts where they stood, in the same round, and links back.
    assert new["split_from"] == keeper.chase_id and new["split_sisters"] == [] and new["round"] == 1
    assert {p["name"]: p["location"] for p in new["participants"].values()} == {"Aunt": 4, "Dog": 2}
    assert new["turn_order"] == [keeper.ids["Dog"], keeper.ids["Aunt"]]
    # Each is played on its own: the dog runs in the new chase with the new Keeper token.
    other = ChaseClient(keeper.http.client)
    other.chase_id, other.ids, other.http.token = new["chase_id"], keeper.ids, split["keeper_token"]
    moved = other.move("Dog", 2)
    assert other.location_of(moved, "Dog") == 4 and [c["quarry_id"] for c in moved["caught_up"]] == [keeper.ids["Aunt"]]
    assert keeper.track()["version"] == original["version"]  # the original did not move
    # The dog is not in the original chase any more.
    assert keeper.post(f"/participants/{keeper.ids['Dog']}/move", {"locations": 1}).status_code == 409


def test_a_split_is_refused_when_the_table_does_not_use_it_or_leaves_no_one(keeper):
    four_in_a_chase(keeper)
    before = keeper.events()
    everyone = [keeper.ids[n] for n in ("Harvey", "Aunt", "Farmer", "Dog")]
    assert keeper.post("/split", {"groups": [everyone]}).status_code == 409  # no one would stay
    assert keeper.post("/split", {"groups": [[keeper.ids["Dog"]]]}).status_code == 409  # no quarry to follow
    problem = keeper.post("/split", {"groups": [[keeper.ids["Aunt"]], [keeper.ids["Aunt"]]]}).get_json()
    assert problem["status"] == 422 and problem["errors"][0]["field"] == "groups.1"
    keeper.ok(keeper.http.client.put(
        f"/chases/{keeper.chase_id}/optional-rules", json={"optional_rules": []}, headers={"Authorization": f"Bearer {keeper.keeper_token}"}))
    problem = keeper.post("/split", {"groups": [[keeper.ids["Aunt"]]]}).get_json()
    assert problem["status"] == 409 and "splitting_up" in problem["detail"]
    assert keeper.events()[:len(before)] == before and len(keeper.events()) == len(before) + 1  # only the rules changed
