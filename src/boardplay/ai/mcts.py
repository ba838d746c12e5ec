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

Tree reuse follows the actions applied since the last search (``inform``), as
``boardplay.ai.kept`` says.
"""

from __future__ import annotations

import random
from functools import cached_property

from boardplay.ai.agents import _check_can_move
from boardplay.ai.evaluation import heuristics_for
from boardplay.ai.kept import KeptTree, analysis
from boardplay.ai.mcts_reference import ReferenceMCTSAgent
from boardplay.ai.search import Search
from boardplay.core.game import Game, State
from boardplay.core.kernel import Kernel
from boardplay.core.leaf import LeafEvaluation
from boardplay.core.registry import find


def compiled_evaluation(game: Game, weights: str | None = None) -> LeafEvaluation | None:
    """The game's evaluation in C (its heuristics' ``compiled`` class, with the weight set
    ``weights``), or None when the game has none or the table is not 2-4 players."""
    reference = heuristics_for(game).compiled
    if reference is None or not 2 <= game.num_players <= 4:
        return None
    evaluation: LeafEvaluation = find(reference)(game.num_players, weights)
    return evaluation


class MCTSAgent(ReferenceMCTSAgent):
    """UCT search (see the module docstring); parameters as ``ReferenceMCTSAgent``."""

    @cached_property
    def compiled(self) -> bool:
        """True when searches run in compiled code (else in the Python reference)."""
        return (
            isinstance(self.game.new_initial_state().kernel, Kernel)
            and self.policy is None
            and (self.cutoff is None or self._evaluation is not None)
            and (self.opening_cutoff is None or self._evaluation is not None)
        )

    @cached_property
    def _evaluation(self) -> LeafEvaluation | None:
        return compiled_evaluation(self.game, self.weights)

    @cached_property
    def _kept(self) -> KeptTree[Search]:
        return KeptTree(self._new_search, self.reuse)

    @property
    def kernel_playouts(self) -> bool:
        """Whether the compiled playouts take the kernel's playout policy."""
        return self.rollout == "policy" and self.heuristics.kernel_playouts

    @property
    def tree(self) -> Search | None:
        """The compiled tree of the last search (None before one, or on the Python path)."""
        return self._kept.search

    # ----- Agent protocol -------------------------------------------------------------------
    def reset(self) -> None:
        super().reset()
        self._kept.forget()

    def inform(self, action: int) -> None:
        """Follow ``action`` in the kept tree (or forget the tree if it was never explored)."""
        if self.compiled:
            self._kept.inform(action)
        else:
            super().inform(action)

    def step(self, state: State) -> int:
        if not self.compiled or state.kernel is None:
            return super().step(state)
        legal = _check_can_move(state)
        seat = state.current_player()
        search = self._kept.rooted(state)
        if len(legal) == 1:
            return self._forced(state, seat, legal[0])  # the kept tree stays valid for inform()
        search.seat = seat
        limit = self.cutoff_at(state)
        search.cutoff = -1 if limit is None else limit
        if self.repetition:
            search.set_history(self.positions_met(state))
        done, elapsed = search.run(self.iterations or 0, self.time_limit or 0.0, self.early_stop)
        ranked = search.children(search.root)
        choice, chosen, _ = max(ranked, key=lambda item: (item[2], search.node_value(item[1])))
        self._last = analysis(self.name, state, search, (choice, chosen), (done, elapsed))
        return int(choice)

    def _new_search(self, kernel: Kernel) -> Search:
        seed = self.seed if self.seed is not None else random.getrandbits(64)
        return Search(
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
