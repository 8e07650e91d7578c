"""Undo and replay storage on PostgreSQL: the same stories as on SQLite
(tests/application/test_replay_storage.py), on the ``ledger`` of tests/integration/conftest.py,
with the job tables cleared first."""
from __future__ import annotations

import pytest

from tests.application.test_replay_storage import (  # noqa: F401  (collected again here)
    test_a_chase_has_a_bounded_number_of_replays_an_hour_then_a_429_with_retry_after,
    test_a_page_of_frames_stops_at_its_byte_bound_and_the_next_page_goes_on,
    test_a_replay_stores_its_views_whole_only_at_keyframes_and_reads_every_frame_whole,
    test_a_rewind_past_new_participants_drops_them_and_a_redo_brings_them_back_in_order,
    test_an_undo_and_a_redo_in_a_big_chase_store_what_changed_and_restore_it_exactly,
    test_old_replays_frames_are_removed_and_reading_them_says_to_replay_again,
    test_only_the_newest_finished_replays_of_a_chase_keep_their_frames,
    test_the_quota_frees_up_as_the_hour_goes_by,
)
from tests.integration.workers_support import clean_jobs  # noqa: F401  (a fixture)

pytestmark = [pytest.mark.postgres, pytest.mark.usefixtures("clean_jobs")]
