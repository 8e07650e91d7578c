"""How a replay's frames are stored and read back, and what bounds them (README "Jobs").

A frame is a step of the replay: the event and the views after it. Storing every frame's views
whole made a replay grow with the square of the chase (16.5 MB for one replay of 200
participants), so a frame stores its views whole only every ``KEYFRAME`` steps (and at the first
step); the frames between store the changes from the frame before (domain/state_changes.py).
Reading a page starts at the keyframe at or before it and applies the changes forward. Frames
stored before this way all hold their views whole: each is read as a keyframe.

A page of frames is bounded in bytes as well as in count (``PAGE_BYTES``): a client that asks
for a thousand frames of a big chase gets as many as fit, with ``next`` to read on.

A chase's replays are bounded (``JobSettings.replays_per_window`` in ``replay_window`` seconds:
``TooManyReplays``), and their frames are removed after ``replay_retention`` seconds, or once
the chase has ``replays_kept`` newer finished replays (``FramesRemoved`` when read after).
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from domain.state_changes import apply_change, changes_between

KEYFRAME = 50  # steps between frames that hold the views whole
PAGE_BYTES = 2_000_000  # a page of frames stops at the first frame past this many bytes of JSON
READ_BATCH = 100  # stored frames read per query

ReadFrames = Callable[[int, int], list[dict[str, Any]]]  # (after step, limit) -> stored frames, in order


class TooManyReplays(Exception):
    """The chase has had as many replays as its quota allows for now; retry after ``retry_after``."""

    def __init__(self, count: int, window: float, retry_after: float) -> None:
        super().__init__(f"this chase has had {count} replays in the last {window:g} seconds, its most: read one of them, or retry later")
        self.retry_after = retry_after


class FramesRemoved(LookupError):
    """The replay's frames were removed (README "Jobs": retention); replay the chase again."""


def stored_frame(step: int, version: int, event: dict[str, Any], views: dict[str, Any], before: dict[str, Any] | None) -> dict[str, Any]:
    """The frame as stored: its views whole at a keyframe (or with no frame before), else the changes."""
    frame = {"step": step, "version": version, "event": event}
    if before is None or (step - 1) % KEYFRAME == 0:
        return {**frame, "views": views}
    return {**frame, "changes": changes_between(before, views)}


def keyframe_at_or_before(step: int) -> int:
    return max(1, ((step - 1) // KEYFRAME) * KEYFRAME + 1)


def frames_after(read: ReadFrames, after: int, limit: int) -> tuple[list[dict[str, Any]], bool]:
    """Up to ``limit`` frames after step ``after``, their views whole, within PAGE_BYTES; and
    whether more follow. ``read(after, limit)`` gives the stored frames after a step, in order."""
    shown: list[dict[str, Any]] = []
    size = 0
    for frame in whole_frames(read, keyframe_at_or_before(after + 1) - 1):
        if frame["step"] <= after:
            continue
        if len(shown) == limit or (shown and size >= PAGE_BYTES):
            return shown, True
        shown.append(frame)
        size += len(json.dumps(frame["views"], separators=(",", ":")))
    return shown, False


def whole_frames(read: ReadFrames, after: int) -> Iterator[dict[str, Any]]:
    """The stored frames after step ``after`` (a step before a keyframe), views made whole."""
    views: dict[str, Any] | None = None
    while True:
        batch = read(after, READ_BATCH)
        for frame in batch:
            if "views" in frame:
                views = frame["views"]
            elif views is None:
                raise FramesRemoved(f"the frames before step {frame['step']} were removed: replay the chase again")
            else:
                views = apply_change(views, {"entries": frame["changes"]})
            after = frame["step"]
            yield {"step": frame["step"], "version": frame["version"], "event": frame["event"], "views": views}
        if len(batch) < READ_BATCH:
            return
