"""A game in play: rooms (the server's copy of a game and the one way its state changes), views,
clocks and flags, offers (resign, draw, rematch), seating, endings, who is at a table, making a
game within the ceilings (``GameMaker``), what other domains read of the games and the accounts'
seats (``Games``), the game's storage and AI seats, and the game socket."""

from __future__ import annotations

from boardplay.web.table.aijobs import AiWorkers
from boardplay.web.table.analysable import IN_PROGRESS, check_analysable
from boardplay.web.table.chance import SERVER_CHANCE
from boardplay.web.table.clocks import (
    DAYS,
    MAX_BASE,
    MAX_INCREMENT,
    PRESETS,
    TimeControl,
    control_of,
)
from boardplay.web.table.creation import GameMaker
from boardplay.web.table.endings import ENDINGS, check_agreed, final_result
from boardplay.web.table.games import Games
from boardplay.web.table.hints import hints_for
from boardplay.web.table.house import House
from boardplay.web.table.live import serve_socket
from boardplay.web.table.offers import abort, draw, resign, resign_account
from boardplay.web.table.rooms import Room
from boardplay.web.table.rows import AI, InPlay, epoch_ms
from boardplay.web.table.schema import NAME_LENGTH, SPEC_LENGTH
from boardplay.web.table.schemas import (
    ActionRequest,
    ClaimRequest,
    ClockRequest,
    CreateRequest,
    DrawRequest,
    InvitationRequest,
    JoinRequest,
    PreviewRequest,
    RematchRequest,
    ResignRequest,
    UndoRequest,
)
from boardplay.web.table.schemas import Clock as ClockBody
from boardplay.web.table.seating import invited_seat
from boardplay.web.table.timeouts import (
    abandonment_applies,
    absent_for,
    claim,
    flag,
    late,
    note_visit,
)
from boardplay.web.table.views import summary

__all__ = [
    "AI",
    "DAYS",
    "ENDINGS",
    "IN_PROGRESS",
    "MAX_BASE",
    "MAX_INCREMENT",
    "NAME_LENGTH",
    "PRESETS",
    "SERVER_CHANCE",
    "SPEC_LENGTH",
    "ActionRequest",
    "AiWorkers",
    "ClaimRequest",
    "ClockBody",
    "ClockRequest",
    "CreateRequest",
    "DrawRequest",
    "GameMaker",
    "Games",
    "House",
    "InPlay",
    "InvitationRequest",
    "JoinRequest",
    "PreviewRequest",
    "RematchRequest",
    "ResignRequest",
    "Room",
    "TimeControl",
    "UndoRequest",
    "abandonment_applies",
    "abort",
    "absent_for",
    "check_agreed",
    "check_analysable",
    "claim",
    "control_of",
    "draw",
    "epoch_ms",
    "final_result",
    "flag",
    "hints_for",
    "invited_seat",
    "late",
    "note_visit",
    "resign",
    "resign_account",
    "serve_socket",
    "summary",
]
