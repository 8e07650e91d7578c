"""The roll history, the server-dice seed and the offline verifier, over HTTP (issue 4).

DESIGN.md section 4 (server dice: a secret seed, committed in the first event, revealed by an
event when the chase ends or the Keeper reveals it, never before) and section 6 (the hash chain,
the export and `chase verify`, which names the first event that does not check out).
"""
from __future__ import annotations

import copy
import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from domain.rules.coc7e import percentile

from domain.chain import GENESIS, hash_record
from domain.dice import TENS, UNITS, D, commitment_of, derive_index
from infrastructure import cli
from tests.e2e.record_helpers import (
    FARMER,
    HARVEY,
    fields_named,
    path,
    problem,
    redo,
    rolls_at,
    undo,
)

ROOT = Path(__file__).resolve().parents[2]


# -- a chase with server dice -------------------------------------------------------------------


class Recorder:
    """Wraps the keeper's HTTP client so that every response can be searched afterwards."""

    def __init__(self, http: Any) -> None:
        self.http = http
        self.responses: list[Any] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.http, name)

    def get(self, *args: Any, **kw: Any) -> Any:
        response = self.http.get(*args, **kw)
        self.responses.append(response)
        return response

    def post(self, *args: Any, **kw: Any) -> Any:
        response = self.http.post(*args, **kw)
        self.responses.append(response)
        return response


def server_chase(keeper) -> dict[str, Any]:
    """Harvey and the farmer, server dice but for the speed rolls (so the chase is played out)."""
    keeper.create("Harvey and the angry farmer", dice="server")
    keeper.add(**HARVEY, skills={"Dodge": 40})
    keeper.add(**FARMER, damage_bonus="+1D4")
    keeper.speed_roll("Harvey", [70, 2])  # table dice: failure, MOV 5
    keeper.speed_roll("Farmer", [80, 0])  # table dice: failure, MOV 6
    keeper.ok(keeper.post("/skill-rolls", {"skill": "Dodge", "participant_id": keeper.ids["Harvey"], "bonus_dice": 1, "purpose": "dodge"}))
    keeper.cut()
    keeper.move("Harvey", 1)
    keeper.ok(keeper.post("/dice-rolls", {"expression": "1D10+DB", "participant_id": keeper.ids["Farmer"], "purpose": "damage", "entropy": "a player's word"}))
    keeper.ok(keeper.post("/dice-rolls", {"expression": "1D6", "purpose": "hazard"}))
    undo(keeper)  # the hazard roll is undone: it stays in the history, marked undone
    keeper.ok(keeper.post("/dice-rolls", {"expression": "1D6", "purpose": "hazard"}))  # rolled again: sequence 6
    return keeper.track()


def commitment_of_epoch(ledger, chase_id: str, epoch: int) -> str:
    """The commitment of an epoch's seed, as the log records it (Created, then SeedCommitted)."""
    for event in ledger.history.chase_events(UUID(chase_id)):
        if event["version"] == 1 and epoch == 0:
            return event["data"]["seed_commitment"]
        if event["name"] == "SeedCommitted" and event["data"]["epoch"] == epoch:
            return event["data"]["commitment"]
    raise LookupError(f"no seed committed for epoch {epoch}")


def seed_of(ledger, chase_id: str, epoch: int = 0) -> str:
    """The secret seed, read from the vault (the test looks behind the API to search for it)."""
    seed = ledger.seeds.seed_to_reveal(UUID(chase_id), commitment_of_epoch(ledger, chase_id, epoch))
    assert commitment_of(bytes.fromhex(seed)) == commitment_of_epoch(ledger, chase_id, epoch)
    return seed


def expected_faces(seed_hex: str, chase_id: str, roll: dict[str, Any]) -> list[int]:
    """Every die of a server roll, recomputed from the seed as anyone can once it is revealed."""
    seed = bytes.fromhex(seed_hex)
    entropy = roll["source"]["entropy"]
    dice = [TENS] * len(roll["tens"]) + [UNITS] if "tens" in roll else [D(int(d["die"][1:])) for d in roll["dice"]]
    return [die.face(derive_index(seed, chase_id, roll["sequence"], i, die.sides, entropy)) for i, die in enumerate(dice)]


def faces(roll: dict[str, Any]) -> list[int]:
    return [t["face"] for t in roll["tens"]] + [roll["units"]] if "tens" in roll else [d["face"] for d in roll["dice"]]


# -- the roll history ---------------------------------------------------------------------------


def test_every_roll_in_the_history_carries_what_is_needed_to_verify_it(keeper, ledger):
    server_chase(keeper)
    rolls = keeper.rolls()

    assert [r["sequence"] for r in rolls] == [1, 2, 3, 4, 5, 6]
    assert [r["undone"] for r in rolls] == [False, False, False, False, True, False]
    for row in rolls:
        roll = row["roll"]
        assert row["sequence"] == roll["sequence"]
        assert row["source"] == roll["source"]["kind"] in ("server", "table")
        assert faces(roll), row
        if row["source"] == "server":
            assert roll["source"]["epoch"] == 0
            assert isinstance(roll["source"]["entropy"], str)
        else:
            assert roll["source"]["entered_by"] == "keeper"
    assert rolls[3]["roll"]["source"]["entropy"] == "a player's word"
    # The two hazard rolls are different rolls: the re-roll after the undo has its own number.
    assert rolls[4]["purpose"] == rolls[5]["purpose"] == "hazard"
    assert rolls[4]["undone_by"] == "keeper" and rolls[4]["undone_at"]

    # End the chase: the seed is revealed, and every server die recomputes from it.
    keeper.ok(keeper.post("/end", {"outcome": "escaped"}))
    seed = seed_of(ledger, keeper.chase_id)
    for row in keeper.rolls(source="server"):
        assert faces(row["roll"]) == expected_faces(seed, keeper.chase_id, row["roll"]), row["sequence"]


def test_the_roll_history_filters(keeper):
    server_chase(keeper)
    harvey, farmer = keeper.ids["Harvey"], keeper.ids["Farmer"]

    def sequences(**query: Any) -> list[int]:
        return [r["sequence"] for r in keeper.rolls(**query)]

    assert sequences() == [1, 2, 3, 4, 5, 6]
    assert sequences(participant_id=harvey) == [1, 3]
    assert sequences(participant_id=farmer) == [2, 4]
    assert sequences(purpose="speed roll") == [1, 2]
    assert sequences(purpose="hazard") == [5, 6]
    assert sequences(purpose="no such purpose") == []
    assert sequences(round=0) == [1, 2, 3]
    assert sequences(round=1) == [4, 5, 6]
    assert sequences(source="table") == [1, 2]
    assert sequences(source="server") == [3, 4, 5, 6]
    assert sequences(undone="true") == [5]
    assert sequences(undone="false") == [1, 2, 3, 4, 6]
    assert sequences(purpose="hazard", undone="false") == [6]
    assert sequences(round=1, source="server", participant_id=farmer) == [4]
    # The undone hazard roll (5) cannot be redone: a new roll was recorded after the undo.
    problem(keeper.post("/redo"), 409)
    # As the history was at an earlier version, filtered the same way.
    versions = {r["sequence"]: r["version"] for r in keeper.rolls()}
    assert [r["sequence"] for r in rolls_at(keeper, versions[5])] == [1, 2, 3, 4, 5]
    assert [r["sequence"] for r in rolls_at(keeper, versions[5], undone="true")] == []
    assert [r["sequence"] for r in rolls_at(keeper, versions[5], source="server", round=1)] == [4, 5]
    assert [r["sequence"] for r in rolls_at(keeper, versions[6], undone="true")] == [5]


@pytest.mark.parametrize(
    "query, field",
    [({"source": "dice"}, "source"), ({"round": -1}, "round"), ({"round": "two"}, "round"), ({"undone": "maybe"}, "undone"), ({"version": 0}, "version")],
)
def test_a_bad_roll_history_filter_is_refused(keeper, query, field):
    server_chase(keeper)
    response = keeper.http.get(f"/chases/{keeper.chase_id}/rolls", query_string=query)
    assert fields_named(problem(response, 422)) == [field]


def test_redo_restores_a_roll_with_its_original_dice_and_never_reuses_its_number(keeper):
    keeper.create("dice", dice="server")
    first = keeper.ok(keeper.post("/dice-rolls", {"expression": "3D6"}))["rolls"][0]
    second = keeper.ok(keeper.post("/dice-rolls", {"expression": "3D6"}))["rolls"][0]
    undo(keeper, 2)
    assert [r["undone"] for r in keeper.rolls()] == [True, True]

    redo(keeper)

    assert [r["roll"] for r in keeper.rolls()] == [first, second]
    assert [r["undone"] for r in keeper.rolls()] == [False, False]
    assert keeper.ok(keeper.post("/dice-rolls", {"expression": "3D6"}))["rolls"][0]["sequence"] == 3


# -- the seed ---------------------------------------------------------------------------------


def test_the_seed_is_in_no_response_before_the_reveal_and_in_the_log_after_the_end(keeper, ledger):
    recorder = Recorder(keeper.http.client)
    keeper.http.client = recorder
    chase = server_chase(keeper)
    player = keeper.player("Harvey")
    player.ok(player.post("/entropy", {"entropy": "the players' own dice"}))
    request_id = player.ok(player.post("/undo-requests", {"count": 1}), 201)["request_id"]
    keeper.ok(keeper.post(f"/undo-requests/{request_id}", {"accept": False}))
    keeper.ok(keeper.post("/dice-rolls", {"expression": "1D100"}))
    # Reads of every kind, and refusals, are searched too.
    for version in [None, *range(1, keeper.track()["version"] + 1)]:
        query = {} if version is None else {"version": version}
        keeper.http.get(f"/chases/{keeper.chase_id}/track", query_string=query)
        keeper.http.get(f"/chases/{keeper.chase_id}/rolls", query_string=query)
    for reader in (keeper, player):
        reader.http.get(f"/chases/{keeper.chase_id}/events")
        reader.http.get(f"/chases/{keeper.chase_id}/export")
        reader.http.get(f"/chases/{keeper.chase_id}")
    keeper.http.client.get(f"/chases/{keeper.chase_id}/track")  # no token: 401
    keeper.post(path(keeper, "Harvey", "move"), {"locations": 9})
    keeper.post("/rewind", {"to_version": 10**6}, headers=keeper.if_match())
    assert any(r.status_code == 401 for r in recorder.responses) and any(r.status_code == 422 for r in recorder.responses)

    seed = seed_of(ledger, keeper.chase_id)
    assert commitment_of(bytes.fromhex(seed)) == chase["seed_commitment"] == keeper.events()[0]["data"]["seed_commitment"]
    secrets = {seed, seed.upper()}
    assert len(recorder.responses) > 60
    for response in recorder.responses:
        text = response.get_data(as_text=True) + str(response.headers)
        assert not any(secret in text for secret in secrets), response.request.path

    ended = keeper.ok(keeper.post("/end", {"outcome": "escaped"}))["chase"]

    revealed = [e for e in keeper.events() if e["name"] == "SeedRevealed"]
    assert len(revealed) == 1
    assert revealed[0]["data"]["seed"] == seed and revealed[0]["data"]["epoch"] == 0
    assert revealed[0]["data"]["commitment"] == chase["seed_commitment"]
    assert ended["revealed_seeds"] == [{"epoch": 0, "seed": seed, "commitment": chase["seed_commitment"]}]
    assert ended["seed_commitment"] is None
    assert seed in recorder.responses[-1].get_data(as_text=True)


def test_a_server_roll_after_a_mid_chase_reveal_uses_the_new_epoch_and_verifies_at_the_end(keeper, ledger, tmp_path, capsys):
    recorder = Recorder(keeper.http.client)
    keeper.http.client = recorder
    chase = server_chase(keeper)
    epoch0 = seed_of(ledger, keeper.chase_id, 0)

    revealed = keeper.ok(keeper.post("/reveal-seed"))["chase"]

    assert revealed["revealed_seeds"] == [{"epoch": 0, "seed": epoch0, "commitment": chase["seed_commitment"]}]
    assert revealed["seed_epoch"] == 1
    assert revealed["seed_commitment"] and revealed["seed_commitment"] != chase["seed_commitment"]
    assert [e["name"] for e in keeper.events()][-2:] == ["SeedRevealed", "SeedCommitted"]
    epoch1 = seed_of(ledger, keeper.chase_id, 1)
    assert commitment_of(bytes.fromhex(epoch1)) == revealed["seed_commitment"]
    # A second reveal of the same epoch is not possible: there is a fresh seed, still secret.
    roll = keeper.ok(keeper.post("/dice-rolls", {"expression": "2D6", "purpose": "after the reveal"}))["rolls"][0]
    assert roll["source"]["epoch"] == 1
    skill = keeper.ok(keeper.post("/skill-rolls", {"skill": "Luck", "target": 45}))["rolls"][0]
    assert skill["source"]["epoch"] == 1
    for response in recorder.responses:
        assert epoch1 not in response.get_data(as_text=True) + str(response.headers), response.request.path

    ended = keeper.ok(keeper.post("/end", {"outcome": "caught"}))["chase"]

    assert [s["epoch"] for s in ended["revealed_seeds"]] == [0, 1]
    assert ended["revealed_seeds"][1]["seed"] == epoch1
    assert faces(roll) == expected_faces(epoch1, keeper.chase_id, roll)
    report = verify_export(keeper, tmp_path, capsys)
    assert report.returncode == 0, report.err
    assert "6 server rolls recomputed and matching" in report.out
    assert "0 server rolls whose seed is not revealed yet" in report.out
    assert "2 seed(s) revealed" in report.out


def test_a_second_reveal_mid_chase_reveals_the_fresh_seed(keeper, ledger):
    keeper.create("reveals", dice="server")
    keeper.ok(keeper.post("/reveal-seed"))
    second = keeper.ok(keeper.post("/reveal-seed"))["chase"]
    assert [s["epoch"] for s in second["revealed_seeds"]] == [0, 1]
    assert second["seed_epoch"] == 2
    assert second["revealed_seeds"][1]["seed"] == seed_of(ledger, keeper.chase_id, 1)


def test_after_the_end_the_seed_is_revealed_and_a_second_reveal_is_refused(keeper):
    server_chase(keeper)
    keeper.ok(keeper.post("/end", {"outcome": "escaped"}))
    log = keeper.events()
    body = problem(keeper.post("/reveal-seed"), 409)
    assert "already been revealed" in body["detail"]
    assert keeper.events() == log


def test_player_entropy_is_mixed_into_every_later_server_roll(keeper, ledger, tmp_path, capsys):
    server_chase(keeper)
    player = keeper.player("Farmer")
    chase = player.ok(player.post("/entropy", {"entropy": "the farmer's lucky number 7"}))["chase"]
    event = keeper.events()[-1]
    assert event["name"] == "EntropyContributed" and event["data"]["by"] == "player (Farmer)"
    assert chase["entropy"] == event["data"]["combined"] == hashlib.sha256(b"|the farmer's lucky number 7").hexdigest()

    roll = keeper.ok(keeper.post("/dice-rolls", {"expression": "1D20", "entropy": "and mine"}))["rolls"][0]

    assert roll["source"]["entropy"] == f"{chase['entropy']}|and mine"
    keeper.ok(keeper.post("/end", {"outcome": "escaped"}))
    assert faces(roll) == expected_faces(seed_of(ledger, keeper.chase_id), keeper.chase_id, roll)
    assert verify_export(keeper, tmp_path, capsys).returncode == 0


# -- export and `chase verify` --------------------------------------------------------------------


class Verified:
    def __init__(self, returncode: int, out: str, err: str) -> None:
        self.returncode, self.out, self.err = returncode, out, err


def run_verify(export: dict[str, Any], tmp_path: Path, capsys, *extra: str) -> Verified:
    """`chase verify FILE [--head HASH]`, in this process."""
    file = tmp_path / f"export-{len(list(tmp_path.iterdir()))}.json"
    file.write_text(json.dumps(export))
    capsys.readouterr()
    code = cli.main(["verify", str(file), *extra])
    captured = capsys.readouterr()
    return Verified(code, captured.out, captured.err)


def verify_export(keeper, tmp_path: Path, capsys) -> Verified:
    return run_verify(keeper.ok(keeper.http.get(f"/chases/{keeper.chase_id}/export")), tmp_path, capsys)


@pytest.fixture
def exported(keeper) -> dict[str, Any]:
    """An ended server-dice chase (seed revealed) with an undone roll, exported."""
    server_chase(keeper)
    keeper.ok(keeper.post("/end", {"outcome": "escaped"}))
    export = keeper.ok(keeper.http.get(f"/chases/{keeper.chase_id}/export"))
    assert export["chase_id"] == keeper.chase_id and export["format"]
    return export


def event_named(export: dict[str, Any], name: str, nth: int = 0) -> dict[str, Any]:
    return [e for e in export["events"] if e["name"] == name][nth]


def rechain(export: dict[str, Any]) -> dict[str, Any]:
    """What a forger would do after editing: renumber, relink and rehash every event."""
    previous = GENESIS
    for version, event in enumerate(export["events"], start=1):
        event["version"] = version
        event["data"]["previous_hash"] = previous
        event["hash"] = previous = hash_record({k: event[k] for k in ("chase_id", "version", "type", "recorded_at", "data")})
    return export


def test_an_untouched_export_verifies_and_its_summary_counts_what_it_holds(exported, tmp_path, capsys):
    result = run_verify(exported, tmp_path, capsys)

    assert result.returncode == 0, result.err
    events = exported["events"]
    assert f"{len(events)} events, chain head {events[-1]['hash']}" in result.out
    # 6 rolls: 2 speed rolls with table dice, 4 with server dice of which the first hazard roll was undone.
    assert "6 rolls (1 undone), 2 with table dice, 4 server rolls recomputed and matching" in result.out
    assert "1 seed(s) revealed" in result.out
    assert "OK" in result.out


def test_verify_runs_as_the_chase_command(exported, tmp_path):
    file = tmp_path / "export.json"
    file.write_text(json.dumps(exported))
    chase = Path(sys.executable).with_name("chase")
    done = subprocess.run([str(chase), "verify", str(file), "--head", exported["events"][3]["hash"]], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert f"{len(exported['events'])} events" in done.stdout


def test_an_export_before_the_reveal_verifies_its_chain_but_cannot_recompute_server_rolls_yet(keeper, tmp_path, capsys):
    server_chase(keeper)
    result = verify_export(keeper, tmp_path, capsys)
    assert result.returncode == 0, result.err
    assert "0 server rolls recomputed and matching, 4 server rolls whose seed is not revealed yet" in result.out


def _failed_at(result: Verified, version: Any) -> None:
    assert result.returncode != 0
    assert f"FAILED at event {version}:" in result.err, result.err


def test_changing_one_die_face_is_caught(exported, tmp_path, capsys):
    forged = copy.deepcopy(exported)
    event = event_named(forged, "DiceRolled")
    roll = event["data"]["roll"]
    die = roll["dice"][0]
    new = die["face"] % 10 + 1
    roll["total"] += new - die["face"]  # a careful forger keeps the total in step with the faces
    die["face"] = new

    _failed_at(run_verify(forged, tmp_path, capsys), event["version"])  # its hash no longer matches
    # A forger who rehashes the whole chain is caught by the revealed seed.
    result = run_verify(rechain(forged), tmp_path, capsys)
    _failed_at(result, event["version"])
    assert "revealed seed gives" in result.err


def test_changing_a_table_die_and_rehashing_is_caught_by_a_kept_chain_head(exported, tmp_path, capsys):
    kept = exported["events"][-1]["hash"]  # X-Chain-Head, kept by a player
    forged = copy.deepcopy(exported)
    event = event_named(forged, "SpeedRolled")
    roll = event["data"]["roll"]
    roll["units"] = 1
    # A careful forger keeps the result and level in step with the faces.
    read = percentile.resolve(roll["target"], [t["face"] for t in roll["tens"]] + [1], roll["bonus_dice"], roll["penalty_dice"])
    roll.update(result=read["result"], level=read["level"], success=percentile.meets(read["level"], roll["difficulty"]))
    rechain(forged)

    assert run_verify(forged, tmp_path, capsys).returncode == 0  # table dice cannot be recomputed ...
    result = run_verify(forged, tmp_path, capsys, "--head", kept)  # ... but the chain was rewritten
    assert result.returncode != 0 and kept in result.err
    # The untouched log holds the kept head, and any earlier one.
    assert run_verify(exported, tmp_path, capsys, "--head", kept).returncode == 0
    assert run_verify(exported, tmp_path, capsys, "--head", exported["events"][4]["hash"]).returncode == 0


def test_a_kept_head_that_is_not_in_the_log_fails(exported, tmp_path, capsys):
    result = run_verify(exported, tmp_path, capsys, "--head", "ab" * 32)
    assert result.returncode != 0 and "ab" * 32 in result.err


def test_deleting_an_event_is_caught(exported, tmp_path, capsys):
    forged = copy.deepcopy(exported)
    removed = forged["events"].pop(5)

    _failed_at(run_verify(forged, tmp_path, capsys), removed["version"] + 1)


def test_reordering_two_events_is_caught(exported, tmp_path, capsys):
    forged = copy.deepcopy(exported)
    events = forged["events"]
    events[6], events[7] = events[7], events[6]

    _failed_at(run_verify(forged, tmp_path, capsys), events[6]["version"])
    # Renumbered and relinked, the chain checks out, but the roll numbers do not.
    forged = copy.deepcopy(exported)
    events = forged["events"]
    first, second = (i for i, e in enumerate(events) if e["name"] in ("SpeedRolled",))
    events[first], events[second] = events[second], events[first]
    _failed_at(run_verify(rechain(forged), tmp_path, capsys), first + 1)


def test_changing_the_revealed_seed_is_caught(exported, tmp_path, capsys):
    forged = copy.deepcopy(exported)
    event = event_named(forged, "SeedRevealed")
    event["data"]["seed"] = "00" * 32

    _failed_at(run_verify(forged, tmp_path, capsys), event["version"])
    result = run_verify(rechain(forged), tmp_path, capsys)
    _failed_at(result, event["version"])
    assert "does not match the commitment" in result.err


def test_removing_an_undone_roll_is_caught(exported, tmp_path, capsys):
    undone = next(e for e in exported["events"] if e["name"] == "DiceRolled" and e["data"]["roll"]["purpose"] == "hazard")
    forged = copy.deepcopy(exported)
    forged["events"] = [e for e in forged["events"] if e["version"] != undone["version"]]

    _failed_at(run_verify(forged, tmp_path, capsys), undone["version"] + 1)
    # Renumbered and rehashed, the gap in the roll numbers gives it away at the next roll.
    result = run_verify(rechain(forged), tmp_path, capsys)
    next_roll = next(e for e in exported["events"] if e["version"] > undone["version"] and "roll" in e["data"])
    _failed_at(result, next_roll["version"] - 1)
    assert f"roll number {undone['data']['roll']['sequence'] + 1} where {undone['data']['roll']['sequence']} was due" in result.err


def test_an_unreadable_export_is_refused(tmp_path, capsys):
    file = tmp_path / "broken.json"
    file.write_text("{not json")
    assert cli.main(["verify", str(file)]) == 2
    assert cli.main(["verify", str(tmp_path / "missing.json")]) == 2
    file.write_text(json.dumps({"chase_id": "x", "events": []}))
    assert cli.main(["verify", str(file)]) == 1


@pytest.mark.parametrize("read", ["/rolls", "/events", "/export"])
def test_reads_of_the_record_carry_the_chain_head(keeper, read):
    server_chase(keeper)
    head = keeper.track()["chain_head"]

    response = keeper.http.get(f"/chases/{keeper.chase_id}{read}")

    assert response.status_code == 200
    assert response.headers.get("X-Chain-Head") == head
