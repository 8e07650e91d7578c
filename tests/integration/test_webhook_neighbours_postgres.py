"""What a hostile neighbour could do with a webhook, on PostgreSQL, and with RQ workers: the
stories of tests/e2e/test_webhook_neighbours.py on the PostgreSQL store, and a slow receiver
that holds up no other job on a real `chase worker`."""
from __future__ import annotations

from typing import Any

import pytest

from api import create_app
from tests.conftest import ChaseClient
from tests.e2e.test_webhook_neighbours import (  # noqa: F401  (run here on PostgreSQL)
    HostileReceiver,
    shipped,
    table,
    test_a_gzip_bomb_answer_is_never_inflated,
    test_a_name_that_resolves_to_the_server_at_delivery_gets_nothing,
    test_a_slow_receiver_is_cut_off_at_the_deadline_and_holds_up_no_other_job,
    test_the_webhook_url_is_in_no_job_a_player_reads_nor_in_any_log_line,
    test_webhooks_reach_no_address_of_the_servers_own_network,
)
from tests.e2e.test_webhooks import RECEIVERS_ALLOWED, roll, start, wait_for
from tests.integration.workers_support import (  # noqa: F401 - fixtures
    clean_jobs,
    ledgers,
    processes,
    redis_url,
    wait_for_job,
    worker_env,
)


@pytest.fixture
def store(postgres_env: dict[str, str]) -> dict[str, str]:
    return postgres_env


@pytest.mark.redis
def test_on_rq_a_slow_receiver_holds_up_no_random_hazards(postgres_env, redis_url, clean_jobs, processes, ledgers):
    env = worker_env(postgres_env, redis_url, CHASE_LEDGER_WEBHOOK_TIMEOUT="3", **RECEIVERS_ALLOWED)
    ledger = ledgers(env)
    processes.chase(env, "worker")  # one worker, as shipped: every lane, webhooks in a thread of their own
    client = create_app(lambda: ledger).test_client()
    receiver = HostileReceiver("slow")
    try:
        # Step 1: a neighbour's webhook points at the slow receiver, and an event starts a delivery.
        chase_id, keeper = start(client)
        hook = client.post(f"/chases/{chase_id}/webhooks", json={"url": receiver.url}, headers=keeper).get_json()
        roll(ledger, chase_id, 1)
        assert wait_for(lambda: receiver.posts >= 1, timeout=30)

        # Step 2: another Keeper's random hazards are done while the receiver still drips.
        other = ChaseClient(client)
        other.create("Rush hour in Arkham", dice="server")
        job = other.ok(other.post("/random-hazards", {"locations": 2}), 202)["job"]
        assert wait_for_job(ledger, job["job_id"], timeout=30)["status"] == "done"
        assert not receiver.stop.is_set()

        # Step 3: the delivery was given up at its deadline.
        listed = lambda: client.get(f"/chases/{chase_id}/webhooks/{hook['webhook_id']}/deliveries", headers=keeper).get_json()  # noqa: E731
        assert wait_for(lambda: len(listed()["deliveries"]) >= 1, timeout=30)
        assert listed()["deliveries"][-1]["error"] == "no answer within the 3 s deadline"
    finally:
        receiver.close()
