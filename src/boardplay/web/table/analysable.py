"""Fair play's one rule about studying a game's position: who may have a position of a game
analysed by the engine, and when (issue 64). Every door that analyses a stored game asks it —
the analysis board (``analysis/``) when a study is made from a game and whenever that study is
read, moved in or searched while the game runs, and the review of a game (``advice/``) — so the
rule is written here, beside the game's status and rated flag, and nowhere else.

- A game that has ended may be analysed by anyone who can see it.
- A rated game still being played may be analysed by nobody, its players and spectators alike:
  a spectator could pass the engine's moves on, and the ratings are everyone's.
- Any other game still being played may not be analysed by its players (it would be outside
  help); a spectator may study it.

A player is whoever holds one of its seats: by the seat's token sent with the request, or by the
signed-in account the seat belongs to. A guest player who sends neither is not known as one;
that is why a rated game, whose players are all signed in, is closed to everybody.

Hints are not analysis in this sense: they are the table's own help, given only where no other
person plays (``GameRow.hints_allowed``), so a rated game never has them."""

from __future__ import annotations

from boardplay.web.errors import forbidden
from boardplay.web.played import FINISHED
from boardplay.web.table.rows import GameRow
from boardplay.web.tokens import hash_token

IN_PROGRESS = "game_in_progress"
"""The code of a refusal by this rule (403)."""


def is_player(row: GameRow, token: str | None, account: int | None) -> bool:
    """Whether the visitor with seat ``token`` (or None) and signed in as ``account`` (or None)
    holds a seat of the game."""
    digest = hash_token(token) if token else None
    return any(
        (digest is not None and s.held_by(digest)) or (account is not None and s.account == account)
        for s in row.seats
    )


def check_analysable(row: GameRow, token: str | None, account: int | None) -> None:
    """Refuse (403 ``game_in_progress``) an analysis of ``row``'s game that the rule above
    forbids to this visitor; return quietly otherwise."""
    if row.status == FINISHED:
        return
    if row.rated:
        raise forbidden(
            IN_PROGRESS,
            "this rated game is still being played: nobody may analyse its positions until it ends",
        )
    if is_player(row, token, account):
        raise forbidden(
            IN_PROGRESS,
            "you are playing this game: its positions may be analysed once it ends",
        )
