"""History that outlives the code (issue 11, DESIGN.md 3): every stored shape has a version.

Each persisted event class, each chase's stored state (snapshots, and the state undo, rewind and
redo restore) and each value object stored in them has a stable name and a ``class_version``; a
changed shape is upcast on load, never rewritten in the store. tests/fixtures/schemas.json is the
shape of each as stored today: a change to a shape without a new version fails here.
After a deliberate change (README, "History that outlives the code"), write it anew with
``python -m tests.unit.test_history_schema > tests/fixtures/schemas.json``.
"""
from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest
from eventsourcing.domain import CanMutateAggregate, Snapshot
from eventsourcing.persistence import DatetimeAsISO, JSONTranscoder, Mapper, UUIDAsHex
from eventsourcing.utils import register_topic, resolve_topic

import infrastructure.bootstrap  # noqa: F401  (every game system's aggregate, as the application loads them)
from domain.chain import AS_RECORDED, GENESIS, JCS, SORTED_JSON, hash_event, hash_record, record_of
from domain.dice import TableDice
from domain.recorded_chase import RecordedChase
from domain.state_schema import StateStep, renamed_in_changes
from domain.rules.coc7e.chase import Chase
from infrastructure.systems import SYSTEMS
from infrastructure.transcodings import DataclassAsDict, RecordKeepingMapper, transcodings
from tests.unit.chase_log import ChaseLog

SCHEMAS = Path(__file__).parent.parent / "fixtures" / "schemas.json"
HOW = "bump its class_version, write its upcast_vN_vN+1 step (README, History that outlives the code), then write schemas.json anew"


def persisted_aggregates() -> list[type]:
    """Every chase aggregate class with a stable topic: the ones whose events are stored."""
    found, todo = [], [RecordedChase]
    while todo:
        cls = todo.pop()
        todo += cls.__subclasses__()
        if "TOPIC" in vars(cls):
            found.append(cls)
    return sorted(found, key=lambda c: c.TOPIC)


def event_classes(aggregate: type) -> list[type]:
    names = (n for n in dir(aggregate) if n != "Event" and n[0].isupper())
    return [c for c in (getattr(aggregate, n) for n in names) if isinstance(c, type) and issubclass(c, CanMutateAggregate)]


def shapes() -> dict[str, Any]:
    """The stored shape of every persisted class: its name, class_version and fields."""
    aggregates, events = {}, {}
    for aggregate in persisted_aggregates():
        fresh = aggregate.start(uuid4(), "a chase", "table", "0" * 64)
        aggregates[aggregate.TOPIC] = {
            "class_version": getattr(aggregate, "class_version", 1),
            "state": sorted(k for k in vars(fresh) if not k.startswith("_")),
        }
        for event in event_classes(aggregate):
            events[event.TOPIC] = {"class_version": getattr(event, "class_version", 1), "fields": [f.name for f in dataclasses.fields(event)]}
    values = {t.name: {"class_version": t.class_version, "fields": [f.name for f in dataclasses.fields(t.type)]} for t in transcodings(SYSTEMS)}
    return {"aggregates": aggregates, "events": events, "values": values}


def test_every_persisted_event_class_has_a_stable_topic_of_its_chase():
    # Every event a chase stores is named by a topic of its own (not its module path), under its
    # chase's topic, registered to that very class: moving code never breaks stored history.
    aggregates = persisted_aggregates()
    assert {a.TOPIC for a in aggregates} >= {"coc7e:Chase", "swade:Chase", "swd:Chase"}
    for aggregate in aggregates:
        events = event_classes(aggregate)
        assert len(events) > 9, aggregate  # the record's own nine events and the game's
        for event in events:
            assert "TOPIC" in vars(event), f"{event} has no topic of its own"
            assert event.TOPIC.startswith(aggregate.TOPIC + "."), event.TOPIC
            assert resolve_topic(event.TOPIC) is event


def test_every_stored_shape_is_the_one_of_its_version():
    stored = json.loads(SCHEMAS.read_text())
    now = shapes()
    for kind in ("aggregates", "events", "values"):
        for name, shape in stored[kind].items():
            # A name once stored must go on resolving: stored history names it.
            assert name in now[kind], f"{kind[:-1]} {name} is stored but no longer defined: keep its topic"
            changed = {k: v for k, v in now[kind][name].items() if k != "class_version"} != {k: v for k, v in shape.items() if k != "class_version"}
            assert not changed or now[kind][name]["class_version"] > shape["class_version"], f"{name} changed shape: {HOW}"
        assert now[kind] == stored[kind], f"the stored {kind} differ from tests/fixtures/schemas.json: {HOW}"


def test_every_upcaster_chain_is_whole_and_event_upcasters_keep_the_record():
    upcasting = [*persisted_aggregates(), *(e for a in persisted_aggregates() for e in event_classes(a)), *(t.type for t in transcodings(SYSTEMS))]
    for cls in upcasting:
        for version in range(1, getattr(cls, "class_version", 1)):
            step = getattr(cls, f"upcast_v{version}_v{version + 1}", None)
            assert callable(step), f"{cls} is at version {cls.class_version} without upcast_v{version}_v{version + 1}"
            if issubclass(cls, CanMutateAggregate):
                assert getattr(step, "keeps_record", False), f"{cls}: wrap its upcasters in domain.chain.keeps_record"


# -- the events: Undone, Rewound and Redone v1 -> v2 ------------------------------------------


def test_an_undo_stored_before_its_schema_was_recorded_is_read_as_schema_1_and_keeps_its_hash():
    # Step 1: an undo, as version 1 of the event stored it: no restored_schema.
    log = ChaseLog("table")
    log.running()
    log.undo()
    undone = log.events[-1]
    v1 = {k: v for k, v in vars(undone).items() if k != "restored_schema"}
    written = hash_record(dict(record_of(undone), data={k: v for k, v in record_of(undone)["data"].items() if k != "restored_schema"}))

    # Step 2: loading it runs the v1 -> v2 step: the state it restores is of schema 1.
    type(undone).upcast_v1_v2(v1)
    assert v1["restored_schema"] == 1

    # Step 3: its record, and so its hash, is the one it was written with.
    loaded = object.__new__(type(undone))
    object.__setattr__(loaded, "__dict__", v1)
    assert "restored_schema" not in record_of(loaded)["data"] and hash_event(loaded, JCS) == written


# -- the events: Created v1 -> v2, the chain's encoding -----------------------------------------


def created_as_v1(log: ChaseLog) -> Any:
    """The log's Created as version 1 of the event stored it (it named no chain encoding), loaded."""
    created = log.events[0]
    v1 = {k: v for k, v in vars(created).items() if k != "chain_encoding"}
    type(created).upcast_v1_v2(v1)
    loaded = object.__new__(type(created))
    object.__setattr__(loaded, "__dict__", v1)
    return loaded


def test_a_chase_created_before_jcs_keeps_its_sorted_json_chain():
    # Step 1: today a chase is created naming JCS as its chain's encoding, and is chained with it.
    log = ChaseLog("table")
    log.running()
    assert record_of(log.events[0])["data"]["chain_encoding"] == JCS == log.chase.chain_encoding

    # Step 2: a Created written by version 1 named none: loaded, it says sorted JSON, and its
    # record (and so its hash) is the one it was written with.
    loaded = created_as_v1(log)
    assert loaded.chain_encoding == SORTED_JSON
    assert "chain_encoding" not in record_of(loaded)["data"]

    # Step 3: the chase it creates hashes its events with sorted JSON, for good.
    chase = loaded.mutate(None)
    assert chase.chain_encoding == SORTED_JSON and chase.chain_head == hash_record(record_of(loaded), SORTED_JSON)
    for event in log.events[1:]:
        chase = event.mutate(chase)
    assert chase.chain_encoding == SORTED_JSON and chase.chain_head == hash_record(record_of(log.events[-1]), SORTED_JSON)


def test_a_snapshot_of_state_schema_1_is_of_a_sorted_json_chain_and_an_old_undo_keeps_the_encoding():
    # Step 1: a snapshot as state schema 1 stored it: no chain_encoding.
    log = ChaseLog("table")
    log.running()
    snapshot = Snapshot.take(log.chase)
    state = dict(snapshot.state, class_version=1)
    del state["chain_encoding"]
    object.__setattr__(snapshot, "state", state)  # a snapshot is a frozen event

    # Step 2: loaded, the chase is chained with sorted JSON, as every chase of that schema was.
    assert snapshot.mutate(None).chain_encoding == SORTED_JSON

    # Step 3: an undo's payload of schema 1 holds no TIMELESS keys: the chase keeps its encoding.
    log.chase.restore({"phase": {"set": "running"}}, 1)
    assert log.chase.chain_encoding == JCS


# -- the chase's state: snapshots and restored payloads, one upcaster chain ----------------------


def round_renamed(state: dict[str, Any]) -> None:
    if "round" in state:
        state["round_number"] = state.pop("round")


def round_renamed_in_changes(changes: dict[str, dict[str, Any]]) -> None:
    renamed_in_changes(changes, "round", "round_number")


@contextmanager
def next_schema() -> Iterator[None]:
    """The coc7e chase as a next version of the code might store it: ``round`` renamed
    ``round_number`` (the state schema after today's), with its upcaster."""
    today = Chase.class_version
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Chase, "class_version", today + 1)
        patch.setattr(Chase, f"upcast_v{today}_v{today + 1}", StateStep(state=round_renamed, changes=round_renamed_in_changes), raising=False)
        yield


def test_a_snapshot_of_the_previous_schema_is_upcast_when_loaded():
    # Step 1: a chase in round 1, snapshotted by today's code.
    log = ChaseLog("table")
    log.running()
    snapshot = Snapshot.take(log.chase)

    # Step 2: the next schema's code loads it: round is round_number now, the rest as it was.
    with next_schema():
        chase = snapshot.mutate(None)
    assert chase.round_number == 1 and "round" not in vars(chase)
    assert chase.participants == log.chase.participants and chase.chain_head == log.chase.chain_head


def test_an_undo_written_with_the_previous_schema_restores_through_the_same_upcaster():
    # Step 1: with today's code, the farmer's move ends round 1; the Keeper undoes it.
    log = ChaseLog("table")
    harvey, farmer = log.running()
    log.do(lambda c: c.move(harvey, 1))
    log.do(lambda c: c.move(farmer, 2))
    assert log.chase.round == 2
    log.undo()
    assert log.events[-1].restored_schema == Chase.class_version and log.events[-1].changes["round"] == {"set": 1}

    with next_schema():
        # Step 2: the next schema's code replays the log: the undo's payload is upcast as a snapshot is.
        chase = log.at(len(log.events))
        assert chase.round_number == 1

        # Step 3: a payload newer than the code is refused, not half understood.
        with pytest.raises(ValueError, match="newer"):
            chase.restore({"round_number": {"set": 1}}, Chase.class_version + 1)


# -- the value objects ---------------------------------------------------------------------------


@dataclasses.dataclass
class Lantern:
    """A value object whose version 2 renamed ``fuel`` to ``fuel_hours``."""

    class_version = 2
    name: str
    fuel_hours: int

    @staticmethod
    def upcast_v1_v2(data: dict[str, Any]) -> None:
        data["fuel_hours"] = data.pop("fuel")


class LanternLit(RecordedChase.Event):
    TOPIC = "test:LanternLit"
    lantern: Lantern


register_topic(LanternLit.TOPIC, LanternLit)


def test_a_value_object_of_the_previous_shape_is_upcast_and_the_current_one_says_its_version():
    lanterns = DataclassAsDict(Lantern, "test.Lantern")
    assert lanterns.decode({"name": "storm lantern", "fuel": 6}) == Lantern("storm lantern", 6)  # no version: 1
    assert lanterns.encode(Lantern("storm lantern", 6)) == {"name": "storm lantern", "fuel_hours": 6, "class_version": 2}
    assert lanterns.decode(lanterns.encode(Lantern("storm lantern", 6))) == Lantern("storm lantern", 6)
    with pytest.raises(ValueError, match="newer"):
        lanterns.decode({"name": "storm lantern", "fuel_hours": 6, "class_version": 3})
    # coc7e.Participant is at version 3 (issue 14 added its combat state, then whether First Aid
    # succeeded): its stored form says so, and one stored before (version 1, no version written)
    # is read with that state's defaults, as is one of version 2.
    participant = next(t for t in transcodings(SYSTEMS) if t.name == "coc7e.Participant")
    log = ChaseLog("table")
    harvey, _ = log.running()
    stored = participant.encode(log.chase.participants[harvey])
    assert stored["class_version"] == 3
    version_2 = {k: v for k, v in stored.items() if k != "first_aid_succeeded"} | {"class_version": 2}
    assert participant.decode(version_2) == log.chase.participants[harvey]
    combat = ("first_aid_succeeded", "defended_round", "major_wound", "prone", "unconscious", "dying", "stabilised", "dead", "first_aid_tries",
              "medicine_given", "attacks_per_round", "weapons", "held_by", "disadvantage", "class_version")
    assert participant.decode({k: v for k, v in stored.items() if k not in combat}) == log.chase.participants[harvey]


def test_an_event_holding_a_value_object_of_the_previous_shape_keeps_its_hash():
    # Step 1: an event stored when a lantern's fuel was "fuel" (a lantern of version 1).
    transcoder = JSONTranscoder()
    for transcoding in (UUIDAsHex(), DatetimeAsISO(), DataclassAsDict(Lantern, "test.Lantern")):
        transcoder.register(transcoding)
    lit = LanternLit(originator_id=uuid4(), originator_version=2, timestamp=datetime.now(timezone.utc), action=2, previous_hash=GENESIS, lantern=Lantern("storm lantern", 6))
    stored = Mapper(transcoder=transcoder).to_stored_event(lit)
    state = json.loads(stored.state)
    state["lantern"]["_data_"] = {"name": "storm lantern", "fuel": 6}
    stored = dataclasses.replace(stored, state=json.dumps(state).encode())
    written = hash_record(dict(record_of(lit), data=dict(record_of(lit)["data"], lantern={"name": "storm lantern", "fuel": 6})))

    # Step 2: loaded by the ledger's mapper, it holds a lantern of today, and its record as written.
    loaded = RecordKeepingMapper(transcoder=transcoder).to_domain_event(stored)
    assert loaded.lantern == Lantern("storm lantern", 6)
    assert record_of(loaded)["data"]["lantern"] == {"name": "storm lantern", "fuel": 6}
    assert hash_event(loaded, JCS) == written

    # Step 3: eventsourcing's own mapper would have hashed today's shape: the chain would break.
    assert hash_event(Mapper(transcoder=transcoder).to_domain_event(stored), JCS) != written
    assert AS_RECORDED not in vars(RecordKeepingMapper(transcoder=transcoder).to_domain_event(Mapper(transcoder=transcoder).to_stored_event(lit)))


if __name__ == "__main__":
    print(json.dumps(shapes(), indent=1, sort_keys=True))


def test_no_event_takes_the_name_of_the_fields_every_event_carries():
    # A rule's event that declared its own ``action`` (the creation of a hazard did) overwrote
    # the number of the command it belongs to: undo then read a word for a version and failed.
    bookkeeping = set(vars(RecordedChase.Event).get("__annotations__", {}))
    for aggregate in persisted_aggregates():
        for event in event_classes(aggregate):
            for cls in event.__mro__:
                if cls is RecordedChase.Event or not issubclass(cls, RecordedChase.Event):
                    continue
                taken = bookkeeping & set(vars(cls).get("__annotations__", {}))
                assert not taken, f"{cls.__qualname__} redeclares {sorted(taken)}, the fields every recorded event carries"
