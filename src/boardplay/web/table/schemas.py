"""Request bodies and WebSocket messages as Pydantic models: the OpenAPI schema declares every
body, and a body of the wrong shape is refused with a 400 naming the field before a route runs.

Models are strict (no ``"5"`` for 5, no ``true`` for 1) and bound every string and list, so no
field can carry more than its column or its use needs. An unknown field is refused with a 400
naming it, and the schema says so (``additionalProperties: false``), so a client's typo is
caught instead of silently ignored and fuzzers know which bodies are valid. (A record upload
keeps its extra fields: the record format has more than this outline declares.) The bodies
reaching these models have already passed ``safejson`` (depth, digits, Unicode), so validation
never meets pathological input."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter, ValidationError

from boardplay.web.chat import ChatRequest
from boardplay.web.models import Body, Options, Ping, Ply, Secret, Text
from boardplay.web.table.clocks import DAYS, MAX_BASE, MAX_INCREMENT, TimeControl, parse_control
from boardplay.web.table.schema import SPEC_LENGTH


class SeatRequest(Body):
    kind: Annotated[str, Field(max_length=16)] = Field(
        description="me (or human), hotseat, ai, invite or open"
    )
    spec: Annotated[str, Field(max_length=SPEC_LENGTH)] | None = Field(
        None, description="an AI seat's agent spec, e.g. hard or mcts(time=1.0)"
    )
    name: Text | None = None


class ClockRequest(Body):
    """A time control: real-time (``base`` and ``increment`` seconds) or ``days`` per move."""

    base: Annotated[int | float, Field(ge=0, le=MAX_BASE)] | None = Field(
        None, description="real-time: each player's time at the start, in seconds"
    )
    increment: Annotated[int | float, Field(ge=0, le=MAX_INCREMENT)] | None = Field(
        None, description="real-time: seconds added once per turn (Fischer)"
    )
    days: Annotated[int, Field(ge=1, le=max(DAYS))] | None = Field(
        None, description=f"correspondence: days per move, one of {', '.join(map(str, DAYS))}"
    )

    def control(self) -> TimeControl | None:
        """The control asked for (a 400 naming the field if it is not one offered)."""
        return parse_control(self.model_dump(exclude_none=True))


Clock = Annotated[
    ClockRequest | None,
    Field(description="the time control; absent or null: untimed (casual games only)"),
]


class PreviewRequest(Body):
    game: Annotated[str, Field(max_length=64)]
    options: Options | None = None


class CreateRequest(PreviewRequest):
    seats: Annotated[list[SeatRequest], Field(max_length=16)]
    reproducible: bool = Field(
        False,
        description="chance follows a seed (the given one or one drawn by the server) that is "
        "shown to every seat; each invited or open seat must accept this on joining",
    )
    seed: Annotated[int, Field(ge=0, lt=2**63)] | None = Field(
        None, description="only with reproducible: the seed chance follows"
    )
    private: bool = Field(
        False,
        description="left out of the lobby's lists: only those given the game's link can "
        "watch it or take its open seats",
    )
    rated: bool = Field(
        False,
        description="the result changes the players' ratings: signed in, your seat (me) and "
        "invite or open seats only, neither reproducible nor private, with a clock",
    )
    clock: Clock = None


class InvitationRequest(Body):
    invite: Secret = Field(description="the invitation code of the link")


class JoinRequest(Body):
    invite: Secret | None = None
    seat: Annotated[int, Field(ge=0, le=1000)] | None = None
    name: Text | None = None
    accept_reproducible: bool = Field(
        False, description="needed to join a reproducible game (its creator chose its luck)"
    )


class ActionRequest(Body):
    action: int | Text = Field(description="a move in the game's notation, or an action id")
    ply: Ply | None = Field(None, description="the ply the move is for; refused if stale")
    token: Secret | None = None


class UndoRequest(Body):
    ply: Ply | None = Field(None, description="the ply the undo is for; refused if stale")
    token: Secret | None = None


SeatNumber = Annotated[int, Field(ge=0, le=1000)]


class ResignRequest(Body):
    seat: SeatNumber | None = Field(
        None, description="the seat that resigns; needed only if the token holds several"
    )
    token: Secret | None = None


class ClaimRequest(Body):
    outcome: Literal["win", "draw"] = Field(
        "win", description="win, or draw (in games whose rules have draws)"
    )
    token: Secret | None = None


class DrawRequest(Body):
    answer: Literal["offer", "accept", "decline"] = Field(
        description="offer a draw, or accept or decline the one offered (the offerer's decline "
        "withdraws it)"
    )
    seat: SeatNumber | None = Field(
        None, description="the seat that answers; needed only if the token holds several"
    )
    token: Secret | None = None


class RematchRequest(Body):
    token: Secret | None = None
    answer: Literal["offer", "accept", "decline"] = Field(
        "offer",
        description="offer to play again (the default), accept the offer on the table, or "
        "decline it; the rematch starts once every player has agreed",
    )


# ----- WebSocket client messages -----------------------------------------------------------
class Hello(Body):
    """Identify a seat. The answer, the whole view for that seat, carries ``id`` back, so a
    client can tell it from the spectator's view a socket starts with."""

    type: Literal["hello"]
    token: Secret | None = None
    presence: bool = Field(
        False, description="also send this socket who is at the table (presence messages)"
    )
    chat: bool = Field(
        False, description="also send this socket the table chat it may read (chat messages)"
    )
    words: bool = Field(
        False,
        description="send the legal moves with each one's struct and words (what a page needs "
        "to make its board clickable); without it, legal moves carry their id and notation only",
    )
    id: Annotated[int, Field(ge=-(2**53), le=2**53)] | Text | None = None


class Act(ActionRequest):
    type: Literal["act"]
    id: Any = None


class Undo(UndoRequest):
    type: Literal["undo"]
    id: Any = None


class ChatSend(ChatRequest):
    """Write in the table chat; answered ``{"type": "done", "id", "chat": message id}``."""

    type: Literal["chat"]
    id: Any = None


ClientMessage = Annotated[Hello | Act | Undo | Ping | ChatSend, Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[Hello | Act | Undo | Ping | ChatSend] = TypeAdapter(ClientMessage)


__all__ = ["CLIENT_MESSAGE", "ValidationError"]
