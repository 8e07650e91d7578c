"""Each participant's row of a track view, kept from the chase's last render while that
participant's inputs stand (application/participant_steps.py): a command on a chase of 1,000
participants renders the rows it changed, not 1,000 (issue 12 part 6). A row is shared by the
views rendered from states in which it is the same, so no one changes a rendered view in place.
"""
from __future__ import annotations

from typing import Any, Callable

from application.participant_steps import ParticipantSteps

_rows = ParticipantSteps()


def participant_rows(chase: Any, row: Callable[[Any, str], dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """``{pid: row(chase, pid)}`` for every participant, in order."""
    return _rows.each(chase, row)
