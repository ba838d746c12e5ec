"""Records and replays: a game's record, replays built in a worker process within the heavy-read
budget, and record uploads."""

from __future__ import annotations

from boardplay.web.replays.heavy import HeavyReads
from boardplay.web.replays.records import check_length, checked_states, record_of, steps, walk
from boardplay.web.replays.schemas import RecordUpload

__all__ = [
    "HeavyReads",
    "RecordUpload",
    "check_length",
    "checked_states",
    "record_of",
    "steps",
    "walk",
]
