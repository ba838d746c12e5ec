"""Monte Carlo tree search for every game: the compiled search where the game has a kernel.

``MCTSAgent`` is the agent every spec and level builds. Its search behaves as described in
``boardplay.ai.mcts_reference`` (UCT with max-n backup for 2–4 seats, chance sampled by its
probabilities, random rollouts cut off by the game's evaluation, an opening's own cutoff,
iteration and time budgets, early stop, contempt, decisive moves, turn-end leaves,
repetitions scored as draws, the evaluation's weight set, selection on normalized means,
exploration scaled by the returns' spread, tree reuse), and its analysis has the same shape.
For a game with a compiled kernel and a compiled evaluation (all four shipped games) the search
runs in ``boardplay.ai.search`` at C speed; any other game (e.g. the pure-Python test games)
runs the Python reference search.

Tree reuse follows the actions applied since the last search (``inform``); before a search the
kept tree is used only when the position is the one it stands for: the same game object, the
same action history and the same kernel features as when the tree was last rooted.
"""

from __future__ import annotations

import random
from typing import Any, Literal

from boardplay.ai.agents import Analysis, _check_can_move
from boardplay.ai.evaluation import heuristics_for
from boardplay.ai.mcts_reference import ReferenceMCTSAgent
from boardplay.ai.search import Search
from boardplay.core.game import Game, State
from boardplay.core.kernel import Kernel
from boardplay.core.leaf import LeafEvaluation
from boardplay.core.registry import find

TreeKey = tuple[Game, tuple[int, ...], tuple[float, ...]]


def compiled_evaluation(game: Game, weights: str | None = None) -> LeafEvaluation | None:
    """The game's evaluation in C (its heuristics' ``compiled`` class, with the weight set
    ``weights``), or None when the game has none or the table is not 2-4 players."""
    reference = heuristics_for(game).compiled
    if reference is None or not 2 <= game.num_players <= 4:
        return None
    evaluation: LeafEvaluation = find(reference)(game.num_players, weights)
    return evaluation


def _tree_key(state: State) -> TreeKey:
    assert state.kernel is not None
    return (state.game, tuple(state.history()), tuple(state.kernel.features()))


class MCTSAgent(ReferenceMCTSAgent):
    """UCT search (see the module docstring); parameters as ``ReferenceMCTSAgent``."""

    def __init__(
        self,
        game: Game,
        *,
        iterations: int | None = None,
        time_limit: float | None = None,
        c: float | None = None,
        cutoff: int | Literal["game"] | None = "game",
        rollout: str = "policy",
        reuse: bool = True,
        early_stop: bool = True,
        contempt: float = 0.0,
        decisive: bool | None = None,
        repetition: bool | None = None,
        finish_turn: bool = False,
        opening_cutoff: int | Literal["cutoff"] | None = "cutoff",
        weights: str | None = None,
        seed: int | None = None,
        name: str | None = None,
        normalize: bool = False,
        spread: bool | None = None,
    ) -> None:
        super().__init__(
            game,
            iterations=iterations,
            time_limit=time_limit,
            c=c,
            cutoff=cutoff,
            rollout=rollout,
            reuse=reuse,
            early_stop=early_stop,
            contempt=contempt,
            decisive=decisive,
            repetition=repetition,
            finish_turn=finish_turn,
            opening_cutoff=opening_cutoff,
            weights=weights,
            seed=seed,
            name=name,
            normalize=normalize,
            spread=spread,
        )
        self._evaluation = compiled_evaluation(game, weights)
        self.compiled = (
            isinstance(game.new_initial_state().kernel, Kernel)
            and self.policy is None
            and (self.cutoff is None or self._evaluation is not None)
            and (self.opening_cutoff is None or self._evaluation is not None)
        )
        """True when searches run in compiled code (else in the Python reference)."""
        self.kernel_playouts = rollout == "policy" and self.heuristics.kernel_playouts
        """Whether the compiled playouts take the kernel's playout policy."""
        self._search: Search | None = None
        self._tree: TreeKey | None = None

    @property
    def tree(self) -> Search | None:
        """The compiled tree of the last search (None before one, or on the Python path)."""
        return self._search

    # ----- Agent protocol -------------------------------------------------------------------
    def reset(self) -> None:
        super().reset()
        self._search = None
        self._tree = None

    def inform(self, action: int) -> None:
        """Follow ``action`` in the kept tree (or forget the tree if it was never explored)."""
        if not self.compiled:
            super().inform(action)
            return
        if self._search is None or self._tree is None or not self.reuse:
            return
        if self._search.advance(action):
            game, history, _ = self._tree
            self._tree = (game, (*history, action), ())
        else:
            self._tree = None

    def step(self, state: State) -> int:
        if not self.compiled or state.kernel is None:
            return super().step(state)
        legal = _check_can_move(state)
        seat = state.current_player()
        search = self._tree_for(state)
        if len(legal) == 1:
            # A forced move: no search; the kept tree stays valid for inform().
            self._last = Analysis(
                agent=self.name,
                seat=seat,
                move=state.action_to_string(legal[0]),
                win_probability=round(self.heuristics.evaluate(state)[seat], 4),
                line=[state.action_to_string(legal[0])],
            )
            return legal[0]
        search.seat = seat
        limit = self.cutoff_at(state)
        search.cutoff = -1 if limit is None else limit
        if self.repetition:
            search.set_history(self.positions_met(state))
        done, elapsed = search.run(self.iterations or 0, self.time_limit or 0.0, self.early_stop)
        root = search.root
        choice = max(
            search.children(root),
            key=lambda item: (item[2], search.node_value(item[1])),
        )[0]
        self._last = self._compiled_analysis(state, search, seat, choice, done, elapsed)
        return int(choice)

    # ----- the compiled tree ----------------------------------------------------------------
    def _tree_for(self, state: State) -> Search:
        """The search rooted at ``state``: the kept tree when it stands for this position."""
        kernel = state.kernel
        assert kernel is not None
        key = _tree_key(state)
        search = self._search
        if search is None:
            seed = self.seed if self.seed is not None else random.getrandbits(64)
            search = self._search = Search(
                kernel,
                self._evaluation,
                c=self.c,
                cutoff=-1 if self.cutoff is None else self.cutoff,
                contempt=self.contempt,
                decisive=self.decisive,
                repetition=self.repetition,
                finish_turn=self.finish_turn,
                policy=self.kernel_playouts,
                normalize=self.normalize,
                spread=self.spread,
                seed=seed,
            )
        elif self.reuse and self._matches(key, search, state):
            search.set_position(kernel)
        else:
            search.reset(kernel)
        self._tree = key if self.reuse else None
        return search

    def _matches(self, key: TreeKey, search: Search, state: State) -> bool:
        kept = self._tree
        if kept is None or kept[0] is not key[0] or kept[1] != key[1]:
            return False
        if kept[2] and kept[2] != key[2]:
            return False  # features are compared when the tree was rooted by a search here
        return bool(search.node_player(search.root) == state.current_player())

    def _compiled_analysis(
        self, state: State, search: Search, seat: int, choice: int, done: int, elapsed: float
    ) -> Analysis:
        root = search.root
        ranked = search.children(root)
        candidates: list[dict[str, Any]] = [
            {
                "move": state.action_to_string(action),
                "visits": visits,
                "value": round(search.node_value(node), 4),
            }
            for action, node, visits in ranked[:8]
        ]
        chosen = next(node for action, node, _ in ranked if action == choice)
        line: list[str] = []
        walker = state.clone()
        node, action = chosen, choice
        while len(line) < 12:
            line.append(walker.action_to_string(action))
            walker.apply_action(action)
            below = search.children(node)
            if search.node_visits(node) < 2 or not below:
                break
            action, node, _ = below[0]
        return Analysis(
            agent=self.name,
            seat=seat,
            move=state.action_to_string(choice),
            win_probability=round(search.node_value(chosen), 4),
            line=line,
            iterations=done,
            seconds=round(elapsed, 3),
            candidates=candidates,
        )
