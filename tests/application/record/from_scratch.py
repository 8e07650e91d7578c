"""What is kept from one command to the next for a big chase (issue 12 part 6) is what working it
out from scratch gives, after every step of play (RecordMachine's invariant):

* the digest each chase object kept (application/chase_digest.py: its fields' and
  participants' bytes, stepped from the last one by what the events say they changed) is what
  the chase holds: an event that changes a field or a participant it does not declare fails it;
* each participant's legal actions, kept while their inputs stand (application/participant_steps.py),
  and the chase's own, kept while the chase's inputs stand (application/affordances.py), equal
  every system's guards asked afresh (domain/affordances.py ``Judges`` called whole);
* the track view as stored, its rows kept the same way (application/projections/rows.py) and
  stored a row per participant, only the changed rows written (infrastructure/track_rows.py),
  its places on the track kept while no row's place changed, equals the view rendered from the
  chase folded afresh from its log, with nothing kept, its participants in the same order; and
  so does every other view (the vehicles, kept while no vehicle, occupant or Build lost changed);
* the track view as answered, each participant kept encoded (api/affordances.py) and their
  distances kept (api/distances.py), equals the answer worked out with nothing kept: for the
  Keeper, and for each player's token issued so far.
"""
from __future__ import annotations

import marshal
import pickle
from collections import OrderedDict
from contextlib import contextmanager
from typing import Any, Iterator
from unittest import mock
from uuid import UUID

import application.chase_digest as digests
import application.participant_steps as steps
from api import affordances as presented
from api import distances
from application.projections import rows
from application.systems.coc7e import track as coc7e_track
from application.systems.coc7e import vehicles as coc7e_vehicles
from domain.affordances import Judges
from infrastructure.track_rows import KeptRows
from tests.application.record.play import Play


@contextmanager
def nothing_kept(ledger: Any) -> Iterator[None]:
    """Everything kept between commands set aside for a while (and given back afterwards, so
    that play goes on with what was kept)."""
    with mock.patch.object(digests, "_digests", OrderedDict()), mock.patch.object(digests, "_latest", {}), \
            mock.patch.object(rows, "_rows", steps.ParticipantSteps()), mock.patch.object(rows, "_last", OrderedDict()), \
            mock.patch.object(coc7e_track, "_placements", coc7e_track._Placements()), \
            mock.patch.object(coc7e_vehicles, "_kept", coc7e_vehicles._Kept()), \
            mock.patch.object(ledger.affordances, "steps", steps.ParticipantSteps()), \
            mock.patch.object(ledger.affordances, "_kept", OrderedDict()), \
            mock.patch.object(ledger.affordances, "_chase_kept", OrderedDict()), \
            mock.patch.object(presented._Shown, "_kept", OrderedDict()), mock.patch.object(presented._Shown, "_size", 0), \
            mock.patch.object(distances, "_kept", OrderedDict()), \
            mock.patch.object(ledger.views, "kept_rows", KeptRows()):
        yield


def kept_is_from_scratch(ledger: Any, play: Play) -> None:
    chase_id = UUID(play.chase_id)
    chase = ledger.repository.get(chase_id, projector_func=ledger.runner.projector)  # folded afresh, a copy of its own
    kept_digest = digests._latest.get(chase_id)
    held = kept_digest and kept_digest[1]()
    if held is not None and digests.state_key(held) == kept_digest[0]:
        assert digest_holds(kept_digest[2], held), f"the digest kept at version {held.version} is not what the chase holds: an event changed what it did not declare"
    judges = ledger.affordances.by_system.get(chase.SYSTEM)
    if isinstance(judges, Judges):
        kept = ledger.affordances.legal_now(chase_id, chase.version)
        afresh = judges(chase)
        assert kept == afresh, f"the legal actions kept at version {chase.version} are not the guards' answer afresh"
        assert list(kept["chase"]) == list(afresh["chase"]), f"the chase's legal actions kept at version {chase.version} are not in the guards' order"
    with mock.patch.object(ledger.views, "kept_rows", KeptRows()):  # the rows as the store holds them, not as last written here
        stored_views = {name: ledger.read_side.view(chase_id, name) for name in ledger.renderers.names(chase.SYSTEM)}
    with nothing_kept(ledger):
        rendered_views = ledger.renderers.all(ledger.repository.get(chase_id, projector_func=ledger.runner.projector))
    for name, rendered in rendered_views.items():  # the track view, and the others (the vehicles) kept too
        stored = stored_views[name]
        differ = sorted(k for k in set(stored) | set(rendered) if stored.get(k) != rendered.get(k))
        assert not differ, f"the stored {name} view at version {chase.version} differs from one rendered afresh in {differ}"
    stored, rendered = stored_views["track"], rendered_views["track"]
    assert list(stored["participants"]) == list(rendered["participants"]), f"the stored participants at version {chase.version} are out of order"
    for token in (None, *play.tokens.values()):
        answers = []
        for scratch in (False, True):
            with nothing_kept(ledger) if scratch else _as_is():
                response = play.client.get(f"/chases/{play.chase_id}/track", headers=play.headers(token))
            assert response.status_code == 200, response.get_json()
            answers.append(response.get_json())
        assert answers[0] == answers[1], f"the track view answered at version {chase.version} is not the one worked out afresh"


def digest_holds(kept: digests.Digest, chase: Any) -> bool:
    """Whether a digest kept is what ``chase`` holds now: its fields and participants decode to
    the chase's, though their bytes may differ (a value equal but made another way)."""
    afresh = digests.Digest.of(chase)
    return (
        all(_same(a, b) for a, b in zip(kept.fields, afresh.fields))
        and list(kept.states) == list(afresh.states)
        and all(kept.states[pid][0] is kind and _same(kept.states[pid][1], state) for pid, (kind, state) in afresh.states.items())
    )


def _same(a: bytes, b: bytes) -> bool:
    return a == b or _decoded(a) == _decoded(b)


def _decoded(value: bytes) -> Any:
    return pickle.loads(value) if value[:2] == _PICKLED else marshal.loads(value)


_PICKLED = pickle.dumps(None, protocol=pickle.HIGHEST_PROTOCOL)[:2]


@contextmanager
def _as_is() -> Iterator[None]:
    yield
