"""What the two agents over a compiled tree share (``MCTSAgent`` over ``search.Search``,
``AZAgent`` over ``puct.Puct``, both ``tree.Tree``): the tree kept across moves, and the
analysis of a search's choice read from it (the line it expects, the candidates).

A kept tree follows the actions applied since the last search (``inform``); before a search it is
used only when the position is the one it stands for: the same game object, the same action
history and the same kernel features as when the tree was last rooted, and the same seat to act
at its root. Otherwise it is reset to the position.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from boardplay.ai.agents import Analysis, candidate
from boardplay.core.game import Game, State
from boardplay.core.kernel import Kernel

if TYPE_CHECKING:  # not imported to run: neither agent needs the other's search (nor NumPy)
    from boardplay.ai.puct import Puct
    from boardplay.ai.search import Search

Compiled = TypeVar("Compiled", bound="Search | Puct")
"""A compiled search: UCT's or PUCT's."""
TreeKey = tuple[Game, tuple[int, ...], tuple[float, ...]]
"""What a kept tree stands for: the game object, the action history, the kernel's features
(empty after ``inform``: then they are not compared)."""


def _tree_key(state: State) -> TreeKey:
    assert state.kernel is not None
    return (state.game, tuple(state.history()), tuple(state.kernel.features()))


class KeptTree(Generic[Compiled]):
    """An agent's compiled tree, built by ``make`` at its first search and kept across moves
    with ``reuse`` (else reset before every search)."""

    def __init__(self, make: Callable[[Kernel], Compiled], reuse: bool) -> None:
        self.make: Callable[[Kernel], Compiled] = make
        self.reuse = reuse
        self.search: Compiled | None = None
        self._key: TreeKey | None = None

    def forget(self) -> None:
        """Drop the tree (a new game)."""
        self.search = None
        self._key = None

    def inform(self, action: int) -> None:
        """Follow ``action`` in the kept tree (or forget the position if no simulation went
        there)."""
        if self.search is None or self._key is None or not self.reuse:
            return
        if self.search.advance(action):
            game, history, _ = self._key
            self._key = (game, (*history, action), ())
        else:
            self._key = None

    def rooted(self, state: State) -> Compiled:
        """The search rooted at ``state``: the kept tree when it stands for this position."""
        kernel = state.kernel
        assert isinstance(kernel, Kernel)
        key = _tree_key(state)
        search = self.search
        if search is None:
            search = self.search = self.make(kernel)
        elif self.reuse and self._matches(key, search, state):
            search.set_position(kernel)
        else:
            search.reset(kernel)
        self._key = key if self.reuse else None
        return search

    def _matches(self, key: TreeKey, search: Compiled, state: State) -> bool:
        kept = self._key
        if kept is None or kept[0] is not key[0] or kept[1] != key[1]:
            return False
        if kept[2] and kept[2] != key[2]:
            return False  # features are compared when the tree was rooted by a search here
        return bool(search.node_player(search.root) == state.current_player())


def expected_line(state: State, search: Search | Puct, action: int, node: int) -> list[str]:
    """The line the search expects: ``action`` (its ``node``), then the most visited child down
    the tree while the nodes have been searched twice (at most 12 moves)."""
    line: list[str] = []
    walker = state.clone()
    while len(line) < 12:
        line.append(walker.action_to_string(action))
        walker.apply_action(action)
        below = search.children(node)
        if search.node_visits(node) < 2 or not below or below[0][2] == 0:
            break
        action, node, _ = below[0]
    return line


def analysis(
    agent: str,
    state: State,
    search: Search | Puct,
    choice: tuple[int, int],
    effort: tuple[int, float],
    more: Callable[[int], dict[str, Any]] | None = None,
) -> Analysis:
    """What ``agent`` thought of ``state`` after ``search`` chose ``choice`` (the action and its
    node) with ``effort`` (simulations, seconds): the chosen node's value for the mover, the
    expected line and the eight most visited candidates (each with ``more(node)`` added)."""
    action, node = choice
    return Analysis(
        agent=agent,
        seat=state.current_player(),
        move=state.action_to_string(action),
        win_probability=round(search.node_value(node), 4),
        line=expected_line(state, search, action, node),
        iterations=effort[0],
        seconds=round(effort[1], 3),
        candidates=[
            {**candidate(state, a, visits, search.node_value(n)), **(more(n) if more else {})}
            for a, n, visits in search.children(search.root)[:8]
        ],
    )
