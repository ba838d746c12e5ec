"""Selection on normalized means (``mcts(normalize=true)``, issue 50): each node's children's
means rescaled to [0, 1] by their range before the UCT bonus.

Without it a seat's moves, which differ by a few thousandths of its win chance, draw almost the
same visits whatever their values: with three players, one ply below the root, the next seat's
most visited reply held about its even share, so the tree modelled the other seats as playing at
random (docs/journal/ai.md, "Three players: the exploration term's scale"). The option is off by
default: it made ten times the simulations pay more at 300 against 3,000 in Montana, not at the
scaling table's 2,000 against 20,000. The checks here read the trees of real searches: where
the visits go at the root and at the next seat's node below it."""

from __future__ import annotations

import random
import statistics

import pytest

import boardplay
from boardplay.ai.mcts import MCTSAgent, compiled_evaluation
from boardplay.ai.search import Search
from boardplay.ai.specs import make_agent
from boardplay.core.game import Game, State, sample_chance


def _mcts(spec: str, game: Game) -> MCTSAgent:
    agent = make_agent(spec, game, seed=3)
    assert isinstance(agent, MCTSAgent)
    return agent


def _positions(game: Game, count: int, seed: int) -> list[State]:
    """Positions of a seeded uniform game, one every ninth decision with five moves or more."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    out: list[State] = []
    decisions = 0
    while not state.is_terminal() and len(out) < count:
        if state.current_player() < 0:
            state.apply_action(sample_chance(state, rng))
            continue
        legal = state.legal_actions()
        if decisions % 9 == 4 and len(legal) >= 5:
            out.append(state.clone())
        state.apply_action(rng.choice(legal))
        decisions += 1
    return out


def _concentration(game: Game, state: State, normalize: bool) -> tuple[float, float]:
    """The most visited move's visits over an even share's, at the root and at the first
    decision below the root's most visited move (20,000 simulations, no early stop)."""
    flag = "true" if normalize else "false"
    agent = _mcts(f"mcts(iterations=20000,early=false,normalize={flag})", game)
    agent.step(state)
    tree = agent.tree
    assert tree is not None
    ranked = tree.children(tree.root)
    root = ranked[0][2] / sum(visits for _, _, visits in ranked) * len(ranked)
    node = ranked[0][1]
    while tree.node_player(node) < 0 and tree.children(node):
        node = tree.children(node)[0][1]  # through a chance node: its most sampled outcome
    below = tree.children(node)
    reply = below[0][2] / sum(visits for _, _, visits in below) * len(below) if below else 0.0
    return root, reply


def test_off_unless_asked() -> None:
    """Off by default at every table (the searches of before, seed for seed); ``normalize=true``
    in a spec, or the compiled search's argument, turns it on."""
    for text in ("passtally", "passtally(players=3)", "montana(players=4)"):
        game = boardplay.load(text)
        state = game.new_initial_state()
        assert state.kernel is not None
        evaluation = compiled_evaluation(game)
        assert not Search(state.kernel, evaluation, cutoff=0).normalize
        assert Search(state.kernel, evaluation, cutoff=0, normalize=True).normalize
        assert not _mcts("mcts(iterations=10)", game).normalize
        assert _mcts("mcts(iterations=10,normalize=true)", game).normalize


@pytest.mark.parametrize(
    ("text", "root_at_least", "reply_at_least"),
    [("passtally(players=3)", 20.0, 10.0), ("montana(players=3)", 6.0, 2.0)],
)
def test_visits_follow_values_with_three_players(
    text: str, root_at_least: float, reply_at_least: float
) -> None:
    """With ``normalize`` and three players the visits go to the moves the seat to act rates
    best: the median over six positions of the most visited move's visits, in even shares, is
    high at the root and at the next seat's reply. Without it Passtally's next seat got a median
    of 2.5 even shares (1.0 in two of the six: a uniform spread), Montana's 1.3."""
    game = boardplay.load(text)
    tried = [_concentration(game, state, True) for state in _positions(game, 6, 1)]
    before = [_concentration(game, state, False) for state in _positions(game, 6, 1)]
    assert statistics.median(r for r, _ in tried) >= root_at_least
    assert statistics.median(r for _, r in tried) >= reply_at_least
    assert statistics.median(r for _, r in before) < reply_at_least
