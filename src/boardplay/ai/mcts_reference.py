"""Monte Carlo tree search (UCT) in Python, for every game of the contract: the search for games
without a compiled kernel, and the reference the compiled search (``boardplay.ai.search``,
driven by ``boardplay.ai.mcts.MCTSAgent``) is measured against in ``make bench``.

* N players: each node keeps the summed returns vector; at a decision node the seat to act picks
  the child that maximises its own mean return plus the UCT bonus (max-n style), so 2–4 players
  and multi-action turns (the same seat acting several times in a row) need no special case.
* Chance nodes are sampled by their probabilities on the way down; their children accumulate
  visits in proportion to those probabilities, so the backed-up value is the expectation.
* Rollouts use the game's rollout policy (``boardplay.ai.evaluation``) when it has one, else
  uniform moves; with ``cutoff`` a rollout stops after that many actions and backs up the game's
  evaluation instead of a result, which trades noise for bias in long games. By default each game
  uses its measured cutoff (``Heuristics.cutoff``, or its table's, ``table_cutoffs``);
  ``cutoff=none`` always plays to the end.
* Budgets: ``iterations`` and/or ``time`` (seconds per move); whichever runs out first. The
  search also stops as soon as the rest of the budget could not change the most visited move
  (``early_stop``, on by default), so obvious moves are quick.
* ``decisive``: every rollout step (the cut-off's included) first looks for a move that wins
  the game at once for the seat to act and plays it when there is one ("decisive moves",
  Teytaud & Teytaud 2010), so a leaf whose mover can win on the spot backs up that win instead
  of the evaluation's guess. Default: the game's measured ``Heuristics.decisive``.
* ``finish_turn``: a rollout that reaches its cut-off in the middle of a seat's turn (the seat
  to act made the last action too, as after the first of a Potlatch player's two actions) is
  not evaluated there: the seat first completes its turn, each remaining action the one whose
  result the evaluation rates best for it. Every evaluated position then stands at a turn
  boundary, so an evaluation whose terms mean different things mid-turn and at a turn start
  (the side to move's tempo, a pending Chip Increase) gives values that compare across depths.
* ``opening_cutoff``: the cutoff of a search rooted in the game's opening
  (``Heuristics.opening``, e.g. Proteus's placement); ``none`` plays those rollouts to the end.
  From the middle of Proteus's placement a short cutoff evaluates placements that decide
  nothing yet, while longer rollouts reach the first moves, where the placements are won or
  lost. Default: the ``cutoff``.
* ``weights``: the weight set the evaluation uses (``boardplay.ai.evaluation.weightsets``;
  default: the game's), e.g. ``hand`` to play exactly as before a fitted set became a default.
* ``contempt``: a drawn end is worth that much less than a draw to the searching seat (as in
  chess engines), so against weaker opponents it avoids repetition draws.
* ``repetition``: a simulation whose path through the tree returns to a position already met,
  earlier in the game or earlier on the path, stops there and backs up a draw (with contempt):
  what endless back-and-forth is worth under a turn cap (``boardplay.ai.repetition``; positions
  are compared by their kernel's repetition key). Default: the game's ``Heuristics.repetition``.
* ``normalize``: selection rescales a node's children's mean returns (for the seat to act
  there) to [0, 1] by their least and greatest before adding the UCT bonus, so that moves
  differing by thousandths of a seat's win chance still draw different visits (off by default:
  in Montana with three and four seats it made ten times the simulations pay more at 300
  against 3,000, not at 2,000 against 20,000, nor in Passtally on a second seed;
  docs/journal/ai.md, "Three players: the exploration term's scale").
* ``spread``: the UCT bonus at a node is scaled by the spread of its mover's returns there
  (their standard deviation over the children's simulations, with one pseudo-return at the
  widest spread, 1/2, so a young node stays near plain UCT), in units of 1/2: a confidence bound
  on means whose returns scatter by hundredths, not over all of [0, 1]. Default: the table's
  (``Heuristics.table_spread``; Montana with three and four players).
* Tree reuse: ``inform(action)`` descends the kept tree along every applied action (own moves,
  other seats' moves and chance outcomes), so the next search starts with the statistics of the
  subtree actually reached.
"""

from __future__ import annotations

import json
import math
import random
import time
from typing import Any, Literal

from boardplay.ai.agents import Analysis, _check_can_move, candidate
from boardplay.ai.evaluation import default_cutoff, default_spread, heuristics_for
from boardplay.ai.playout import playout
from boardplay.ai.repetition import PositionHistory, has_position_keys, position_key
from boardplay.core.game import CHANCE, TERMINAL, Game, State, sample_chance
from boardplay.core.heuristics import Heuristics

_CHECK_EVERY = 32
"""Simulations between two checks whether the search can stop early (``_settled``)."""


class Node:
    """One position in the tree. ``value[i]`` is the summed return of seat ``i`` over the
    ``visits`` simulations that passed through this node. ``untried`` (the legal actions not yet
    expanded) is filled on the node's second visit: most leaves are visited once, and their legal
    actions are never needed."""

    __slots__ = ("children", "player", "squares", "untried", "value", "visits")

    def __init__(self, state: State, players: int, spread: bool = False) -> None:
        self.player = state.current_player()
        self.children: dict[int, Node] = {}
        self.untried: list[int] | None = None if self.player >= 0 else []
        self.visits = 0
        self.value = [0.0] * players
        self.squares = [0.0] * players if spread else None
        """With ``spread``: seat ``i``'s summed squared return (else None)."""

    def mean(self, seat: int) -> float:
        return self.value[seat] / self.visits if self.visits else 0.0


def _spread(node: Node, seat: int) -> float:
    """``seat``'s returns' spread over ``node``'s children's simulations in units of 1/2, with
    one pseudo-return at that widest spread (``spread``; the compiled ``Search.spread_at``)."""
    total = squared = count = 0.0
    for child in node.children.values():
        assert child.squares is not None
        total += child.value[seat]
        squared += child.squares[seat]
        count += child.visits
    return 2.0 * math.sqrt(max(0.0, squared - total * total / count + 0.25) / (count + 1.0))


class ReferenceMCTSAgent:
    """UCT search in Python; see the module docstring. ``c`` is the exploration constant
    (returns lie in [0, 1]; default: the game's measured ``Heuristics.exploration``);
    ``cutoff`` defaults to the game's ``Heuristics.cutoff``; ``rollout`` is ``"policy"`` (the
    game's policy if any) or ``"random"``."""

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
        if iterations is None and time_limit is None:
            iterations = 400
        if iterations is not None and iterations < 1:
            raise ValueError(f"mcts iterations must be at least 1, got {iterations}")
        if time_limit is not None and time_limit <= 0:
            raise ValueError(f"mcts time must be positive, got {time_limit}")
        heuristics = heuristics_for(game, weights)
        if cutoff == "game":
            cutoff = default_cutoff(heuristics, game.num_players)
        if cutoff is not None and cutoff < 0:
            raise ValueError(f"mcts cutoff must be 0 or more, got {cutoff}")
        if opening_cutoff == "cutoff":
            opening_cutoff = cutoff
        elif heuristics.opening is None:
            raise ValueError(
                f"mcts opening_cutoff needs a game with an opening (Proteus's placement); "
                f"{game.name} has none"
            )
        elif opening_cutoff is not None and opening_cutoff < 0:
            raise ValueError(f"mcts opening_cutoff must be 0 or more, got {opening_cutoff}")
        if not 0.0 <= contempt <= 0.5:
            raise ValueError(f"mcts contempt must be between 0 and 0.5, got {contempt}")
        if rollout not in ("policy", "random"):
            raise ValueError(f"mcts rollout must be 'policy' or 'random', got {rollout!r}")
        self.game = game
        self.players = game.num_players
        self.iterations = iterations
        self.time_limit = time_limit
        self.c = heuristics.exploration if c is None else c
        self.cutoff = cutoff
        self.opening_cutoff = opening_cutoff
        self._limit = cutoff
        """The cutoff of the search under way (``cutoff_at`` its root)."""
        self.reuse = reuse
        self.early_stop = early_stop
        self.contempt = contempt
        self.decisive = heuristics.decisive if decisive is None else decisive
        self.repetition = heuristics.repetition if repetition is None else repetition
        if self.repetition and not has_position_keys(game):
            raise ValueError(
                f"mcts repetition needs a game whose positions have repetition keys; "
                f"{game.name} has none"
            )
        self._positions = PositionHistory()
        self._met: frozenset[int] = frozenset()
        """Repetition keys of the positions met in the game so far (``repetition`` only)."""
        self.finish_turn = finish_turn
        self.normalize = normalize
        self.spread = default_spread(heuristics, game.num_players) if spread is None else spread
        self.weights = weights
        self._seat = 0
        self.seed = seed
        self.heuristics: Heuristics = heuristics
        self.rollout = rollout
        self.policy = self.heuristics.rollout if rollout == "policy" else None
        self.name = name or "mcts"
        self._rng = random.Random(seed)
        self._root: Node | None = None
        self._root_key: str | None = None
        self._last: Analysis | None = None

    # ----- Agent protocol -------------------------------------------------------------------
    def reset(self) -> None:
        self._rng = random.Random(self.seed)
        self._positions.reset()
        self._met = frozenset()
        self._root = None
        self._root_key = None
        self._last = None

    def inform(self, action: int) -> None:
        """Follow ``action`` in the kept tree (or forget the tree if it was never explored)."""
        if self._root is None or not self.reuse:
            return
        child = self._root.children.get(action)
        if child is None:
            self._root = None
            self._root_key = None
            return
        self._root = child
        self._root_key = None  # checked against the next state's position in step()

    def analysis(self) -> dict[str, Any] | None:
        """Estimated win chance, expected line and effort of the last search (for ``play``)."""
        return None if self._last is None else self._last.summary()

    def last_search(self) -> Analysis | None:
        """Everything known about the last search, candidate moves with visits included."""
        return self._last

    def cutoff_at(self, state: State) -> int | None:
        """The rollout cutoff of a search rooted at ``state``: ``opening_cutoff`` in the game's
        opening, else ``cutoff``."""
        opening = self.heuristics.opening
        return self.opening_cutoff if opening is not None and opening(state) else self.cutoff

    def step(self, state: State) -> int:
        legal = _check_can_move(state)
        root = self._root_for(state)
        seat = state.current_player()
        if len(legal) == 1:
            # A forced move (common in Montana's multi-step turns): no search is needed, and the
            # kept tree, if any, stays valid for inform().
            if self.reuse:
                self._root = root
                self._root_key = self._key(state)
            return self._forced(state, seat, legal[0])
        self._seat = seat
        self._limit = self.cutoff_at(state)
        self._met = self.positions_met(state)
        start = time.perf_counter()
        deadline = None if self.time_limit is None else start + self.time_limit
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                break
            if (
                self.early_stop
                and done % _CHECK_EVERY == 0
                and done
                and self._settled(root, done, start)
            ):
                break
            self._simulate(root, state)
            done += 1
        elapsed = time.perf_counter() - start
        choice = max(root.children.items(), key=lambda item: (item[1].visits, item[1].mean(seat)))[
            0
        ]
        self._last = self._analysis(state, root, seat, choice, done, elapsed)
        if self.reuse:
            self._root = root
            self._root_key = self._key(state)
        return choice

    def _forced(self, state: State, seat: int, action: int) -> int:
        """Play ``action``, the only legal one, without a search: the analysis is the
        evaluation's."""
        self._last = Analysis(
            agent=self.name,
            seat=seat,
            move=state.action_to_string(action),
            win_probability=round(self.heuristics.evaluate(state)[seat], 4),
            line=[state.action_to_string(action)],
        )
        return action

    def _settled(self, root: Node, done: int, start: float) -> bool:
        """True when the rest of the budget cannot change the move: even if every remaining
        simulation went to the runner-up, its visits could not reach the leader's (the move
        played is the most visited child). With a time budget the remaining simulations are
        estimated from the rate so far. Saves the budget on obvious moves without changing
        which move a full search would choose."""
        remaining = math.inf if self.iterations is None else float(self.iterations - done)
        if self.time_limit is not None:
            elapsed = time.perf_counter() - start
            rate = done / elapsed if elapsed > 0 else math.inf
            remaining = min(remaining, rate * max(0.0, self.time_limit - elapsed))
        first = second = 0
        for child in root.children.values():
            if child.visits > first:
                first, second = child.visits, first
            elif child.visits > second:
                second = child.visits
        return first - second > remaining

    # ----- search ---------------------------------------------------------------------------
    def search(self, state: State, iterations: int) -> Node:
        """Run ``iterations`` simulations from ``state`` on a fresh tree and return its root
        (used by the benchmark and by tests that inspect the statistics)."""
        root = Node(state, self.players, self.spread)
        self._seat = max(0, state.current_player())
        self._met = self.positions_met(state)
        for _ in range(iterations):
            self._simulate(root, state)
        return root

    def positions_met(self, state: State) -> frozenset[int]:
        """The repetition keys of the positions ``state``'s game has met (empty unless the
        search checks repetitions)."""
        return self._positions.keys(state) if self.repetition else frozenset()

    def _repeats(self, state: State, keys: list[int]) -> bool:
        """Whether ``state`` (just reached on the path whose keys are ``keys``) was met before
        in the game or on the path; its key is added to ``keys``."""
        if state.is_terminal():
            return False
        key = position_key(state)
        keys.append(key)
        return key != 0 and (key in self._met or key in keys[:-1])

    def _key(self, state: State) -> str:
        return json.dumps([state.history(), state.to_json()], sort_keys=True, default=str)

    def _root_for(self, state: State) -> Node:
        root = self._root
        if self.reuse and root is not None and root.player == state.current_player():
            if self._root_key is None:
                # Reached by inform(): trust the path, but remember the position for next time.
                return root
            if self._root_key == self._key(state):
                return root
        return Node(state, self.players, self.spread)

    def _simulate(self, root: Node, root_state: State) -> None:
        rng = self._rng
        state = root_state.clone()
        node = root
        path = [root]
        keys = [position_key(state)] if self.repetition else []
        repeated = False
        c = self.c
        last = CHANCE  # the seat that made the last action (CHANCE: none yet, or chance)
        while True:
            player = node.player
            if player == TERMINAL:
                break
            if player == CHANCE:
                outcome = sample_chance(state, rng)
                state.apply_action(outcome)
                last = CHANCE
                child = node.children.get(outcome)
                if child is None:
                    child = Node(state, self.players, self.spread)
                    node.children[outcome] = child
                node = child
                path.append(node)
                if self.repetition and self._repeats(state, keys):
                    repeated = True
                    break
                continue
            untried = node.untried
            if untried is None:
                untried = node.untried = state.legal_actions()
            if untried:
                # A uniformly random untried action, removed by swapping it to the end.
                pick = rng.randrange(len(untried))
                untried[pick], untried[-1] = untried[-1], untried[pick]
                action = untried.pop()
                state.apply_action(action)
                last = player
                child = Node(state, self.players, self.spread)
                node.children[action] = child
                path.append(child)
                repeated = self.repetition and self._repeats(state, keys)
                break
            log_n = math.log(node.visits) if node.visits > 0 else 0.0
            best_score = -math.inf
            best: tuple[int, Node] | None = None
            shift, scale = 0.0, 1.0
            if self.normalize:
                means = [child.value[player] / child.visits for child in node.children.values()]
                if means and max(means) - min(means) > 1e-9:
                    shift, scale = min(means), 1.0 / (max(means) - min(means))
            bonus = c * (_spread(node, player) if self.spread else 1.0)
            for action, child in node.children.items():
                score = (child.value[player] / child.visits - shift) * scale
                score += bonus * math.sqrt(log_n / child.visits)
                if score > best_score:
                    best_score = score
                    best = (action, child)
            if best is None:  # a decision node without actions cannot occur in the contract
                break
            state.apply_action(best[0])
            last = player
            node = best[1]
            path.append(node)
            if self.repetition and self._repeats(state, keys):
                repeated = True
                break
        if repeated:
            # Back to a position met before: scored as the draw a cycle is worth under a cap.
            reward = [1.0 / self.players] * self.players
            reward[self._seat] -= self.contempt
        else:
            reward = playout(
                state,
                last,
                self.heuristics,
                policy=self.policy,
                limit=self._limit,
                decisive=self.decisive,
                finish_turn=self.finish_turn,
                rng=rng,
            )
        if (
            self.contempt
            and not repeated
            and state.is_terminal()
            and max(reward) - min(reward) < 1e-9
        ):
            # A drawn end counts as a little less than a draw for the searching seat only, so it
            # plays on for a win instead of settling for a draw it cannot tell from a win
            # chance of one half (the opponents are modelled without contempt).
            reward = list(reward)
            reward[self._seat] -= self.contempt
        for visited in path:
            visited.visits += 1
            value = visited.value
            for seat in range(len(value)):
                value[seat] += reward[seat]
            if visited.squares is not None:
                for seat in range(len(value)):
                    visited.squares[seat] += reward[seat] * reward[seat]

    # ----- reporting ------------------------------------------------------------------------
    def _analysis(
        self, state: State, root: Node, seat: int, choice: int, done: int, elapsed: float
    ) -> Analysis:
        ranked = sorted(root.children.items(), key=lambda item: -item[1].visits)
        candidates = [
            candidate(state, action, child.visits, child.mean(seat)) for action, child in ranked[:8]
        ]
        line: list[str] = []
        walker = state.clone()
        node: Node | None = root
        action: int | None = choice
        while node is not None and action is not None and len(line) < 12:
            line.append(walker.action_to_string(action))
            walker.apply_action(action)
            node = node.children.get(action)
            if node is None or node.visits < 2 or not node.children:
                break
            action = max(node.children.items(), key=lambda item: item[1].visits)[0]
        chosen = root.children[choice]
        return Analysis(
            agent=self.name,
            seat=seat,
            move=state.action_to_string(choice),
            win_probability=round(chosen.mean(seat), 4),
            line=line,
            iterations=done,
            seconds=round(elapsed, 3),
            candidates=candidates,
        )
