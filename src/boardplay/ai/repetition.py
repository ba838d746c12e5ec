"""The positions a game has passed through, for a search that scores a return to one of them
as a draw (``mcts(repetition=true)``).

Under Proteus's default rules nothing stops two players from moving the same pieces or trading
the same two tiles back and forth, and a search that only sees a few plies ahead cannot tell
such a cycle from progress: in arena games drawn at the turn cap both sides had several safe
moves every turn and shuffled through a handful of positions for hundreds of turns
(docs/journal/ai.md). Scoring a line that comes back to a position already met (in the game or
earlier on the line) as what a cycle is worth under a turn cap, a draw (less contempt), tells a
search that is not behind to look for progress, and one that is behind that repeating is its way
out.

A position's identity is its kernel's repetition key (``Kernel.repetition_key``; 0 for a
position that cannot recur); the game's positions are followed from the states the agent is
asked to move in, so the agent needs no other feed than ``step``.
"""

from __future__ import annotations

from boardplay.core.errors import IllegalActionError
from boardplay.core.game import Game, State


def position_key(state: State) -> int:
    """The state's repetition key, 0 when it cannot recur or the game has no keys."""
    kernel = state.kernel
    return 0 if kernel is None else kernel.repetition_key()


def has_position_keys(game: Game) -> bool:
    """Whether ``game``'s positions carry repetition keys (its kernel defines them)."""
    kernel = game.new_initial_state().kernel
    return kernel is not None and kernel.has_position_key


class PositionHistory:
    """Follows one game and knows the repetition keys of every position it went through.

    ``keys(state)`` is called before each search with the state to move in: when that state's
    action history extends the one followed so far, only the new actions are replayed;
    otherwise (a new game, or an agent joining mid-game) the history is replayed from the
    game's initial position, and if that does not lead to ``state`` (a game loaded from a
    position) only ``state`` itself is known."""

    def __init__(self) -> None:
        self._walker: State | None = None
        self._actions: list[int] = []
        self._keys: set[int] = set()

    def reset(self) -> None:
        self._walker = None
        self._actions = []
        self._keys = set()

    def keys(self, state: State) -> frozenset[int]:
        """The non-zero keys of the positions met in ``state``'s game, ``state``'s included."""
        actions = state.history()
        known = len(self._actions)
        walker = self._walker
        if walker is None or walker.game is not state.game or actions[:known] != self._actions:
            walker = self._replay(state, actions)
        else:
            for action in actions[known:]:
                walker.apply_action(action)
                self._keys.add(position_key(walker))
        self._walker = walker
        self._actions = list(actions)
        self._keys.add(position_key(state))
        self._keys.discard(0)
        return frozenset(self._keys)

    def _replay(self, state: State, actions: list[int]) -> State:
        walker = state.game.new_initial_state()
        keys = {position_key(walker)}
        try:
            for action in actions:
                walker.apply_action(action)
                keys.add(position_key(walker))
        except IllegalActionError:
            keys = set()
        if walker.history() != actions or walker.to_json() != state.to_json():
            keys = set()  # a game loaded from a position: its earlier positions are unknown
            walker = state.clone()
        self._keys = keys
        return walker
