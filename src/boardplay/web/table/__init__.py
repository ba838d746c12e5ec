"""A game in play: rooms (the server's copy of a game and the one way its state changes), moves and
their words, views, clocks and flags, offers (resign, draw, rematch), seating, endings, making a
game within the ceilings, the game's storage and AI seats, and the game socket."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardplay.web.table.aijobs import AiWorkers
from boardplay.web.table.appended import Appended
from boardplay.web.table.checks import Checks, ThreadChecks, postgres_parts
from boardplay.web.table.clocks import DAYS, PRESETS, Clock, TimeControl, control_of
from boardplay.web.table.creation import GameMaker
from boardplay.web.table.endings import ENDINGS, check_agreed, final_result
from boardplay.web.table.hints import hints_for
from boardplay.web.table.host import Database, Notifier, RoomHost
from boardplay.web.table.house import House
from boardplay.web.table.offers import abort, draw, resign, resign_account
from boardplay.web.table.rooms import Room
from boardplay.web.table.schemas import Clock as ClockBody
from boardplay.web.table.schemas import ClockRequest
from boardplay.web.table.seating import join
from boardplay.web.table.storage import AI, GameRow, SeatRow, Storage
from boardplay.web.table.timeouts import flag, late
from boardplay.web.table.views import summary

if TYPE_CHECKING:
    from boardplay.web.table.pgwrite import LoopConnections, MovesWriter
from boardplay.web.table.live import serve_socket
from boardplay.web.table.schemas import (
    ActionRequest,
    ClaimRequest,
    CreateRequest,
    DrawRequest,
    InvitationRequest,
    JoinRequest,
    PreviewRequest,
    RematchRequest,
    ResignRequest,
    UndoRequest,
)
from boardplay.web.table.seating import invited_seat
from boardplay.web.table.timeouts import claim, note_visit

__all__ = [
    "AI",
    "DAYS",
    "ENDINGS",
    "PRESETS",
    "ActionRequest",
    "AiWorkers",
    "Appended",
    "Checks",
    "ClaimRequest",
    "Clock",
    "ClockBody",
    "ClockRequest",
    "CreateRequest",
    "Database",
    "DrawRequest",
    "GameMaker",
    "GameRow",
    "House",
    "InvitationRequest",
    "JoinRequest",
    "LoopConnections",
    "MovesWriter",
    "Notifier",
    "PreviewRequest",
    "RematchRequest",
    "ResignRequest",
    "Room",
    "RoomHost",
    "SeatRow",
    "Storage",
    "ThreadChecks",
    "TimeControl",
    "UndoRequest",
    "abort",
    "check_agreed",
    "claim",
    "control_of",
    "draw",
    "final_result",
    "flag",
    "hints_for",
    "invited_seat",
    "join",
    "late",
    "note_visit",
    "postgres_parts",
    "resign",
    "resign_account",
    "serve_socket",
    "summary",
]
