"""What both channels hear, written once: a channel (mail, push) is told of a correspondence
game's turns and ends and of the accounts closed by the events the table and the accounts
publish (``events.py``), and reads the game they name through the table's ``Games``. What it
then queues, and for whom, is its own (``Mailer``, ``Pusher``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardplay.web.events import AccountClosed, Bus, GameFinished, YourTurn
from boardplay.web.notify.outbox import Sender

if TYPE_CHECKING:
    from boardplay.web.played import Game
    from boardplay.web.table import Games


class Channel(Sender):
    """A sender that hears the game's events: ``your_turn``, ``game_over`` and
    ``account_closed`` are the channel's own."""

    games: Games | None = None
    """Where the turns and ends it hears read their game (the table's; given by ``hear``)."""

    def hear(self, bus: Bus, games: Games) -> None:
        """Hear the turns and ends of correspondence games (read through ``games``) and the
        accounts closed, on ``bus``."""
        self.games = games
        bus.subscribe(YourTurn, self.turn_passed)
        bus.subscribe(GameFinished, self.game_finished)
        bus.subscribe(AccountClosed, self.account_closed)

    async def turn_passed(self, event: YourTurn) -> None:
        """``YourTurn``: each seat's account is told, if it wants to know."""
        row = await self.games.get(event.game_id) if self.games else None
        if row is not None:
            for seat in event.seats:
                await self.your_turn(row, seat)

    async def game_finished(self, event: GameFinished) -> None:
        """``GameFinished`` of a correspondence game: its players are told."""
        if event.correspondence and self.games is not None:
            row = await self.games.get(event.game_id)
            if row is not None:
                await self.game_over(row)

    async def your_turn(self, row: Game, seat: int) -> None:
        """The turn of a correspondence game passed to ``seat``; never raises."""
        raise NotImplementedError

    async def game_over(self, row: Game) -> None:
        """A correspondence game ended; never raises."""
        raise NotImplementedError

    async def account_closed(self, event: AccountClosed) -> None:
        """A deleted account hears no more (``AccountClosed``)."""
        raise NotImplementedError
