"""Commands on one chase in one process take turns on the chase the cache lends
(application/chase_cache.py): the second waits for the first to bring it back."""
from __future__ import annotations

import threading
from types import SimpleNamespace
from uuid import uuid4

from application.chase_cache import ChaseCache


def saved(chase_id, version):
    return SimpleNamespace(id=chase_id, version=version, pending_events=[])


def test_a_second_command_on_a_chase_out_waits_and_starts_from_the_chase_the_first_saved():
    cache, chase_id = ChaseCache(wait=5.0), uuid4()
    cache.check_in(saved(chase_id, 3))
    first = cache.check_out(chase_id)
    got = []
    second = threading.Thread(target=lambda: got.append(cache.check_out(chase_id)))
    second.start()
    second.join(0.05)
    assert second.is_alive(), "the second command did not wait for the chase to come back"

    cache.check_in(saved(chase_id, first.version + 1))
    second.join(5.0)
    assert [c.version for c in got] == [4]


def test_commands_waiting_on_one_chase_each_get_it_in_turn_and_one_past_the_wait_loads_its_own():
    cache, chase_id = ChaseCache(wait=5.0), uuid4()
    cache.check_in(saved(chase_id, 1))
    cache.check_out(chase_id)
    got, lock = [], threading.Lock()

    def command():
        chase = cache.check_out(chase_id)
        with lock:
            got.append(chase.version)
        cache.check_in(saved(chase_id, chase.version + 1))

    waiting = [threading.Thread(target=command) for _ in range(3)]
    for t in waiting:
        t.start()
    cache.check_in(saved(chase_id, 2))
    for t in waiting:
        t.join(5.0)
    assert sorted(got) == [2, 3, 4]  # each started from the one before's chase

    impatient = ChaseCache(wait=0.01)
    impatient.check_in(saved(chase_id, 1))
    impatient.check_out(chase_id)
    assert impatient.check_out(chase_id) is None  # out too long: loaded from the store
    impatient.release(chase_id)
    assert impatient.check_out(chase_id) is None  # released: not kept, loaded from the store
