"""A chase's stored track view as a head and a row per participant, so that a command writes
the rows it changed, not the whole view (issue 12 part 6).

At 1,000 participants the track view is some 1 MB of JSON; stored as one document, every
command rewrote all of it (SQLite's commit of those pages was most of a command's time). Now
the head (the views with the track's ``participants`` replaced by ``IN_ROWS``) is stored where
the whole document was, and each participant's row in a table of its own (``track_rows``,
keyed by chase and participant, ``ord`` its place in the view); a read puts them back together.

Which rows changed is known without reading the store: the rows this process last wrote for a
chase are kept with the version they were written at (after the commit, never before). A
chase's views at a version are a pure function of its state at that version, which only one
command ever recorded, so when the stored views are at the version kept (the compare-and-set
makes every write so), the stored rows are the rows kept; a write from a version this process
did not write (another process's, a rebuild's, the first after a start) rewrites every row.

The views are rebuildable: nothing here is an event or state shape. Views stored whole by an
earlier version (tests/fixtures/v1..v3) still read as they are, and the chase's next write
stores them in rows. The other way round does not hold: code before this stores no rows and
cannot read a head whose participants are in rows, so an upgrade stops every process of the old
code before the new one writes (no rolling deploy across this change).

A row is shared, not copied: the same object is the row rendered (application/projections/rows.py),
the row remembered here for the next diff, and the row a read of this process hands out. Nobody
may change a row in place: a changed row is a new object, which is how a write knows to store it.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from itertools import compress
from operator import is_not
from typing import Any, Iterable

from infrastructure import json_docs

IN_ROWS = "rows"  # the stored head's track "participants": kept in track_rows
KEPT = 256  # chases whose last written rows are kept
ROWS_KEPT = 20_000  # and rows in all: a dozen chases of 1,000 and many small ones


class RowsWrite:
    """One chase's track rows to write: ``upserts`` (participant id, place, JSON text),
    ``deleted`` participant ids; ``full``: every other row of the chase deleted too."""

    __slots__ = ("chase_id", "version", "rows", "upserts", "deleted", "full")

    def __init__(self, chase_id: str, version: int, rows: dict[str, Any], upserts: list[tuple[str, int, str]], deleted: list[str], full: bool) -> None:
        self.chase_id, self.version, self.rows = chase_id, version, rows
        self.upserts, self.deleted, self.full = upserts, deleted, full

    @property
    def kept_ids(self) -> list[str]:
        return [pid for pid, _, _ in self.upserts]


class KeptRows:
    """The rows one store last wrote for each chase, with the version written (a store's own:
    the same chase id in another database, a fixture copied twice, is another chase)."""

    def __init__(self, kept: int = KEPT, rows_kept: int = ROWS_KEPT) -> None:
        self.kept, self.rows_kept = kept, rows_kept
        self._rows = 0  # rows kept, over every chase
        self._last: OrderedDict[str, tuple[int, dict[str, Any], list[str]]] = OrderedDict()  # version, rows, their order
        self._lock = threading.Lock()

    def split(self, update: dict[str, Any]) -> tuple[dict[str, Any], RowsWrite | None]:
        """The head to store for ``update``'s views, and its track rows to write (None: a view
        with no participants to keep apart, stored whole)."""
        doc = update["doc"]
        track = doc.get("track") if type(doc) is dict else None
        rows = track.get("participants") if type(track) is dict else None
        if type(rows) is not dict:
            return doc, None
        chase_id, expected = update["chase_id"], update["expected"]
        with self._lock:
            last = self._last.get(chase_id)
        head = {**doc, "track": {**track, "participants": IN_ROWS}}
        if last is None or not expected or last[0] != expected:
            upserts = [(pid, place, json_docs.dumps(row)) for place, (pid, row) in enumerate(rows.items())]
            return head, RowsWrite(chase_id, update["version"], rows, upserts, [], True)
        _, before, order = last
        if rows is before:  # the very rows written last (application/projections/rows.py): none changed
            return head, RowsWrite(chase_id, update["version"], rows, [], [], False)
        now = list(rows)
        # A row is written when it is not the very row (or an equal one) at the same place.
        same_places = now[:len(order)] == order
        places = None if same_places else {pid: place for place, pid in enumerate(order)}
        upserts = []
        if same_places:
            # Compared in C first: the rows are mostly the very rows written last; those added
            # after them are found here too (no row written last stands beside them).
            for place, pid in compress(enumerate(now), map(is_not, rows.values(), map(before.get, now))):
                then, row = before.get(pid, _NONE), rows[pid]
                if then is _NONE or then != row:
                    upserts.append((pid, place, json_docs.dumps(row)))
        else:
            for place, (pid, row) in enumerate(rows.items()):
                then = before.get(pid, _NONE)
                if then is _NONE or places.get(pid) != place or (then is not row and then != row):
                    upserts.append((pid, place, json_docs.dumps(row)))
        deleted = [] if same_places else [pid for pid in before if pid not in rows]  # the same places: every one still there
        return head, RowsWrite(chase_id, update["version"], rows, upserts, deleted, False)

    def written(self, rows: RowsWrite | None) -> None:
        """The rows were committed at their version: the chase's next write diffs from them."""
        if rows is None:
            return
        with self._lock:
            before = self._last.pop(rows.chase_id, None)
            self._rows += len(rows.rows) - (len(before[1]) if before is not None else 0)
            order = before[2] if before is not None and before[1] is rows.rows else list(rows.rows)  # the very rows: their order stands
            self._last[rows.chase_id] = (rows.version, rows.rows, order)
            while len(self._last) > 1 and (len(self._last) > self.kept or self._rows > self.rows_kept):
                _, dropped = self._last.popitem(last=False)  # its next write rewrites every row
                self._rows -= len(dropped[1])

    def rows_at(self, chase_id: str, version: Any) -> dict[str, Any] | None:
        """The rows this store wrote for the chase at ``version``, if they are the last it wrote:
        what its stored rows hold at that version (a read takes them instead of decoding them)."""
        with self._lock:
            last = self._last.get(chase_id)
        return dict(last[1]) if last is not None and last[0] == version else None

    def last_version(self, chase_id: str) -> int | None:
        with self._lock:
            last = self._last.get(chase_id)
        return last[0] if last is not None else None

    def forget_all(self) -> None:
        """The views were cleared (a rebuild): no write diffs from rows written before."""
        with self._lock:
            self._last.clear()
            self._rows = 0


_NONE = object()


def _track(doc: Any, name: str | None) -> Any:
    return doc if name == "track" else doc.get("track") if name is None and type(doc) is dict else None


def in_rows(doc: Any, name: str | None) -> bool:
    """Whether the stored views' track keeps its participants in rows (not stored whole, as an
    earlier version did, nor a view without participants)."""
    track = _track(doc, name)
    return type(track) is dict and track.get("participants") == IN_ROWS


def assemble(doc: Any, name: str | None, rows: Iterable[tuple[str, Any]] | None) -> Any:
    """The stored views (``name``: one of them, or all) with the track's participants put back
    from their rows ((participant id, row) in order; rows given as JSON text are decoded)."""
    if not in_rows(doc, name):
        return doc  # stored whole (an earlier version's write), or a view without rows
    track = _track(doc, name)
    if type(rows) is dict:  # the rows this store wrote at that version (KeptRows.rows_at)
        track["participants"] = rows
    else:
        track["participants"] = {pid: json_docs.loads(row) if isinstance(row, (str, bytes)) else row for pid, row in rows or ()}
    return doc


def wants_rows(name: str | None) -> bool:
    return name is None or name == "track"
