"""The statements that write a chase's views in PostgreSQL (infrastructure/postgres_store.py)."""
from __future__ import annotations

ROLL_FILTERS = ("participant_id", "purpose", "round", "source", "undone")


# Views written only where they are at the version expected (0: none yet); roll rows only for
# the chases written. Written alone (the projector, a rebuild: {unsynced}), the commit does not
# wait for the WAL flush (synchronous_commit, local to the transaction): safe for views, which
# are rebuildable, and only for them; a command's views, in its events' transaction, wait with them. WAL records are
# flushed in order and the events' own commits still wait, flushing every record before them
# too; so a server crash can only lose view writes made after the last event commit: views
# behind their events, with a tracking position no further, which the projector (or the
# chase's next command) fills in.
WRITE_VIEWS = """
WITH t AS (
    SELECT * FROM unnest(%b::text[], %b::bigint[], %b::bigint[], %b::text[]) AS t(c, e, v, d)
    {unsynced}
), fresh AS (
    INSERT INTO {tracks} SELECT c, v, '', '', d::jsonb FROM t WHERE e = 0
    ON CONFLICT (chase_id) DO NOTHING RETURNING chase_id
), moved AS (
    UPDATE {tracks} AS w SET version = t.v, doc = t.d::jsonb FROM t
    WHERE t.e <> 0 AND w.chase_id = t.c AND w.version = t.e RETURNING w.chase_id
), written AS (
    SELECT chase_id FROM fresh UNION ALL SELECT chase_id FROM moved
), up AS (
    SELECT * FROM unnest(%b::text[], %b::text[], %b::integer[], %b::text[]) AS u(c, p, o, d)
), kept_rows AS (
    INSERT INTO {track_rows} SELECT c, p, o, d::jsonb FROM up WHERE c IN (SELECT chase_id FROM written)
    ON CONFLICT (chase_id, participant_id) DO UPDATE SET ord = excluded.ord, doc = excluded.doc
), gone_rows AS (
    -- the rows deleted, and on a chase written whole every row not written now: never a row
    -- upserted above (one statement must not touch a row twice)
    DELETE FROM {track_rows} AS r WHERE r.chase_id IN (SELECT chase_id FROM written) AND (
        (r.chase_id, r.participant_id) IN (SELECT * FROM unnest(%b::text[], %b::text[]))
        OR (r.chase_id = ANY(%b::text[]) AND (r.chase_id, r.participant_id) NOT IN (SELECT c, p FROM up))
    )
), rolls AS (
    INSERT INTO {rolls}
    SELECT c, s, v, a, p, pu, r, so, false, NULL, NULL, d::jsonb FROM unnest(
        %b::text[], %b::bigint[], %b::bigint[], %b::bigint[], %b::text[], %b::text[], %b::integer[], %b::text[], %b::text[]
    ) AS x(c, s, v, a, p, pu, r, so, d)
    WHERE x.c IN (SELECT chase_id FROM written)
    ORDER BY c, s
    ON CONFLICT DO NOTHING
), facts AS (
    INSERT INTO {facts}
    SELECT c, v, i, a, k, p, at, false, NULL, d::jsonb FROM unnest(
        %b::text[], %b::bigint[], %b::integer[], %b::bigint[], %b::text[], %b::text[], %b::text[], %b::text[]
    ) AS f(c, v, i, a, k, p, at, d)
    WHERE f.c IN (SELECT chase_id FROM written)
    ORDER BY c, v, i
    ON CONFLICT DO NOTHING
)
SELECT chase_id FROM written
"""


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
