"""Finding an opponent: seeks, quick games, challenges and the live lobby socket; and TV, the
best game of each game being played now."""

from __future__ import annotations

from boardplay.web.lobby.challenges import answer_challenge, my_challenges, send_challenge
from boardplay.web.lobby.quick import quick_game
from boardplay.web.lobby.schemas import (
    ApiChallengeRequest,
    ChallengeRequest,
    DeclineRequest,
    SeekRequest,
)
from boardplay.web.lobby.seeks import (
    Started,
    accept_seek,
    cancel_seek,
    for_people,
    list_seeks,
    post_seek,
)
from boardplay.web.lobby.sockets import Lobby
from boardplay.web.lobby.store import Seek
from boardplay.web.lobby.tables import leave, sit
from boardplay.web.lobby.tv import Channel, Tv

__all__ = [
    "ApiChallengeRequest",
    "ChallengeRequest",
    "Channel",
    "DeclineRequest",
    "Lobby",
    "Seek",
    "SeekRequest",
    "Started",
    "Tv",
    "accept_seek",
    "answer_challenge",
    "cancel_seek",
    "for_people",
    "leave",
    "list_seeks",
    "my_challenges",
    "post_seek",
    "quick_game",
    "send_challenge",
    "sit",
]
