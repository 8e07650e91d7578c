"""Each participant's row of a track view, kept from the chase's last render while that
participant's inputs stand (application/participant_steps.py): a command on a chase of 1,000
participants renders the rows it changed, not 1,000 (issue 12 part 6). A row is shared by the
views rendered from states in which it is the same, so no one changes a rendered view in place.

When no row changed (a roll, which moves only the record's bookkeeping) the rows are the very
mapping of the last render, not a new one holding the same rows: what is worked out from the
rows downstream (the rows to store, infrastructure/track_rows.py; the places on the track; the
answer's participants, api/affordances.py) sees that they are the rows it last saw by identity,
without looking at 1,000 of them.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from operator import is_
from typing import Any, Callable

from application.participant_steps import KEPT, PARTICIPANTS_KEPT, ParticipantSteps

_rows = ParticipantSteps()
_last: OrderedDict[Any, dict[str, dict[str, Any]]] = OrderedDict()  # each chase's last rows, as one mapping
_lock = threading.Lock()
_kept = [0]  # rows in the mappings kept, over every chase


def participant_rows(chase: Any, row: Callable[[Any, str], dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """``{pid: row(chase, pid)}`` for every participant, in order; the last render's very mapping
    when it holds the very same rows."""
    now = _rows.each(chase, row)
    with _lock:
        last = _last.get(chase.id)
    # Compared in C, by identity (keys too): the rows worked out again are new objects.
    if last is not None and len(last) == len(now) and all(map(is_, now.values(), last.values())) and all(map(is_, now, last)):
        return last
    with _lock:
        replaced = _last.pop(chase.id, None)
        _kept[0] += len(now) - (len(replaced) if replaced is not None else 0)
        _last[chase.id] = now
        while len(_last) > 1 and (len(_last) > KEPT or _kept[0] > PARTICIPANTS_KEPT):
            _kept[0] -= len(_last.popitem(last=False)[1])
    return now
