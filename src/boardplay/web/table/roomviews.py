"""A room's views: the public view of its revision (built once, or taken from the process that
stored the change: ``relayview.py``), each reader's view (per set of seats, with or without the
legal moves' words) and the legal moves in words. What a view holds is ``views.py``; this is how
a ``Room`` builds and keeps them (it is one: ``class Room(..., RoomViews)``)."""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import Any, NamedTuple

from boardplay.core.game import Game, State
from boardplay.core.records import Move
from boardplay.web.table import relayview, views
from boardplay.web.table import storage as st
from boardplay.web.words import History, legal_said


class Glance(NamedTuple):
    """The position as the Bot API tells it (``RoomViews.glance``): who is to move (-1 or
    below: chance or nobody; None for a game shown frozen), whether it is over, the legal
    moves in the game's notation, and the position's JSON (None if it cannot be exported)."""

    current_player: int | None
    terminal: bool
    legal: list[str]
    position: Any


class RoomViews:
    """The views of the room it is part of (which provides these attributes)."""

    row: st.GameRow
    game: Game
    state: State
    moves: list[Move]
    history: History
    broken: str | None
    _view: dict[str, Any] | None
    _before: dict[str, Any] | None
    _views: dict[tuple[frozenset[int], bool], dict[str, Any]]
    _legal: list[dict[str, Any]] | None

    @property
    def settled(self) -> bool:
        raise NotImplementedError

    def seats_of(self, token: str | None) -> set[int]:
        raise NotImplementedError

    def undo_allowed(self, seats: AbstractSet[int]) -> bool:
        raise NotImplementedError

    def public_view(self) -> dict[str, Any]:
        if self._view is None:
            self._view = self._build_view()
        return self._view

    def glance(self) -> Glance:
        """What a program at the table needs of the position (the Bot API's ``gameState``),
        from the state itself: the public view's same members, without building the view (its
        words, text and hints are for pages; a game between bots may have none watching)."""
        if self.broken is not None:
            view = self.public_view()
            return Glance(None, False, [], view.get("position"))
        state = self.state
        terminal = state.is_terminal() or self.settled
        legal = (
            []
            if terminal or state.is_chance_node()
            else [state.action_to_string(a) for a in state.legal_actions()]
        )
        return Glance(state.current_player(), terminal, legal, views.safely(self._position))

    def relay_text(self) -> str:
        """The public view as relay text, for the other processes (``relayview.py``, see
        ``adopt_view``), if this process built it (for its own pages): empty otherwise, or for
        a game this process cannot rebuild. A process that needs a view and is sent none
        builds its own; one built only to be relayed was wasted wherever nobody watched a page
        (a view of a Montana game costs the mover's process more than the move itself)."""
        if self.broken is not None or self._view is None:
            return ""
        return relayview.encode(self._view, self._before)

    def adopt_view(self, revision: int, text: str) -> None:
        """Take the public view another process built of ``revision`` (its ``relay_text``) as
        this copy's, if this copy is at that very revision and has none yet: the view follows
        from the stored game alone, so it is the one this process would build."""
        before, self._before = self._before, None
        if revision != self.row.revision or self._view is not None or self.broken or not text:
            return
        self._view = relayview.decode(text, revision, before)

    def _build_view(self) -> dict[str, Any]:
        if self.broken is not None:
            return views.public_view(self.row, self.moves, None, broken=self.broken)
        return views.public_view(
            self.row,
            self.moves,
            views.Play(self.game, self.state, self.settled, self._history_words, self._position),
        )

    def _history_words(self) -> list[dict[str, Any]]:
        return self.history.describe(self.moves)

    def _position(self) -> Any:
        """The position's JSON: the one the history exported for the words of the last move
        when it has just walked there (a position is exported once per move, not twice)."""
        known = self.history.position_after(self.moves)
        return known if known is not None else self.state.to_json()

    def view_for(self, token: str | None, words: bool = True) -> dict[str, Any]:
        """The view of whoever holds ``token`` (None: a spectator), with the legal moves' structs
        and words when ``words``. Built once per revision for each set of seats and shared by
        everyone with that set: never change it."""
        seats = frozenset(self.seats_of(token))
        view = self._views.get((seats, words))
        if view is None:
            view = views.seat_view(
                self.public_view(),
                self.row,
                seats,
                self.broken is None,
                self.undo_allowed(seats),
                self.legal_words() if words else None,
            )
            self._views[(seats, words)] = view
        return view

    def legal_words(self) -> list[dict[str, Any]] | None:
        """The legal moves with their structs and words, built at most once per revision; None
        for a game shown frozen or with no move to make."""
        legal = self.public_view().get("legal")
        if self._legal is None and self.broken is None and legal:
            self._legal = legal_said(self.game, self.state, [m["id"] for m in legal])
        return self._legal
