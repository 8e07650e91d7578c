"""The SQLite event recorder: a command's views (and other writes along) in its events' transaction.

eventsourcing's recorder commits a command's events in a transaction of their own; the views
were then written in a second one, and on SQLite, where writers take turns on one lock, waiting
for that second turn was the largest cost of a command beyond the floor (bench/http_profile.py).
This recorder makes the writes handed to ``save(..., along=...)`` (application/ports.py
``AlongWrite``) in the transaction that inserts the events: one commit per command. An optional
write (the views) runs inside a savepoint: when the store refuses it, only it is rolled back, the
events still commit, and the write is told why (the read side then sets the chase aside).
"""
from __future__ import annotations

from typing import Any, Sequence

from eventsourcing.persistence import StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder


class SQLiteChaseRecorder(SQLiteApplicationRecorder):
    """Records events, and the writes that go along with them, in one transaction."""

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        along = tuple(kwargs.pop("along", None) or ())
        sent = []
        with self.datastore.transaction(commit=True) as c:
            notification_ids = self._insert_events(c, stored_events, **kwargs)
            for write in along:
                if not write.optional:
                    write.send(c)
                    sent.append(write)
                    continue
                c.execute("SAVEPOINT along")
                try:
                    write.send(c)
                except Exception as e:  # noqa: BLE001 - the store refused it: the events go on without it
                    c.execute("ROLLBACK TO along")
                    write.drop(e)
                else:
                    sent.append(write)
                c.execute("RELEASE along")
        for write in sent:  # committed
            write.receive()
        return notification_ids
