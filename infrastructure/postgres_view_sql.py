"""The statements that write a chase's views in PostgreSQL (infrastructure/postgres_store.py)."""
from __future__ import annotations

ROLL_FILTERS = ("participant_id", "purpose", "round", "source", "undone")
# The tables WRITE_VIEWS writes, by the names it gives them.
VIEW_TABLES = {"tracks": "chase_track_views", "track_rows": "chase_track_rows", "rolls": "chase_roll_history", "facts": "chase_analytics_facts"}


# Views written only where they are at the version expected (0: none yet); roll rows only for
# the chases written. Written alone (the projector, a rebuild: {unsynced}), the commit does not
# wait for the WAL flush (synchronous_commit, local to the transaction): safe for views, which
# are rebuildable, and only for them; a command's views, in its events' transaction, wait with them. WAL records are
# flushed in order and the events' own commits still wait, flushing every record before them
# too; so a server crash can only lose view writes made after the last event commit: views
# behind their events, with a tracking position no further, which the projector (or the
# chase's next command) fills in.
# (WRITE_VIEWS_WITH: the same, ended by whoever runs it; the function that records a command's
# events runs it too, infrastructure/postgres_recorder.py.)
# The parameter: one JSON array of six arrays of rows (PostgresChaseViews._params): the chases'
# heads, track rows upserted, track rows deleted, chases written whole, roll rows, facts.
WRITE_VIEWS_WITH = """
WITH given AS (
    SELECT {given}::jsonb AS j
), t AS (
    SELECT x->>0 AS c, (x->>1)::bigint AS e, (x->>2)::bigint AS v, x->>3 AS d FROM given, jsonb_array_elements(given.j->0) AS x
    {unsynced}
), fresh AS (
    INSERT INTO {tracks} SELECT c, v, '', '', d::jsonb FROM t WHERE e = 0
    ON CONFLICT (chase_id) DO NOTHING RETURNING chase_id
), moved AS (
    UPDATE {tracks} AS w SET version = t.v, doc = t.d::jsonb FROM t
    WHERE t.e <> 0 AND w.chase_id = t.c AND w.version = t.e AND w.chase_id = ANY (ARRAY(SELECT c FROM t WHERE e <> 0)) RETURNING w.chase_id
), written AS (
    SELECT chase_id FROM fresh UNION ALL SELECT chase_id FROM moved
), up AS (
    SELECT x->>0 AS c, x->>1 AS p, (x->>2)::integer AS o, x->>3 AS d FROM given, jsonb_array_elements(given.j->1) AS x
), kept_rows AS (
    INSERT INTO {track_rows} SELECT c, p, o, d::jsonb FROM up WHERE c IN (SELECT chase_id FROM written)
    ON CONFLICT (chase_id, participant_id) DO UPDATE SET ord = excluded.ord, doc = excluded.doc
), gone_rows AS (
    -- the rows deleted, and on a chase written whole every row not written now: never a row
    -- upserted above (one statement must not touch a row twice)
    DELETE FROM {track_rows} AS r WHERE r.chase_id = ANY (ARRAY(SELECT chase_id FROM written)) AND (
        (r.chase_id, r.participant_id) IN (SELECT x->>0, x->>1 FROM given, jsonb_array_elements(given.j->2) AS x)
        OR (r.chase_id IN (SELECT jsonb_array_elements_text(given.j->3) FROM given) AND (r.chase_id, r.participant_id) NOT IN (SELECT c, p FROM up))
    )
), rolls AS (
    INSERT INTO {rolls}
    SELECT x->>0, (x->>1)::bigint, (x->>2)::bigint, (x->>3)::bigint, x->>4, x->>5, (x->>6)::integer, x->>7, false, NULL, NULL, (x->>8)::jsonb
    FROM given, jsonb_array_elements(given.j->4) AS x
    WHERE x->>0 IN (SELECT chase_id FROM written)
    ORDER BY x->>0, (x->>1)::bigint
    ON CONFLICT DO NOTHING
), facts AS (
    INSERT INTO {facts}
    SELECT x->>0, (x->>1)::bigint, (x->>2)::integer, (x->>3)::bigint, x->>4, x->>5, x->>6, false, NULL, (x->>7)::jsonb
    FROM given, jsonb_array_elements(given.j->5) AS x
    WHERE x->>0 IN (SELECT chase_id FROM written)
    ORDER BY x->>0, (x->>1)::bigint, (x->>2)::integer
    ON CONFLICT DO NOTHING
)
"""
WRITE_VIEWS = WRITE_VIEWS_WITH.replace("{given}", "%s") + "SELECT chase_id FROM written\n"


UNSYNCED = "WHERE set_config('synchronous_commit', 'off', true) IS NOT NULL"
# An undo mark, applied only where this transaction wrote the chase's views at the version
# given (a command's write along with its events, whose result is read after the commit).
MARK_WRITTEN = (
    "UPDATE {rolls} SET undone = %s, undone_by = %s, undone_at = %s WHERE chase_id = %s AND action = ANY(%s) "
    "AND EXISTS (SELECT 1 FROM {tracks} WHERE chase_id = %s AND version = %s)"
)
MARK_FACTS_WRITTEN = (  # the same mark on the analytics facts of those actions
    "UPDATE {facts} SET undone = %s, undone_by = %s WHERE chase_id = %s AND action = ANY(%s) "
    "AND EXISTS (SELECT 1 FROM {tracks} WHERE chase_id = %s AND version = %s)"
)
