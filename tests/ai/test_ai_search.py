"""The compiled search (``boardplay.ai.search``) on the real engines: its evaluations equal the
Python ones, it finds forced wins, samples chance by its probabilities, keeps its budgets, is
reproducible for a seed, reuses its tree only for the position it stands for, and agrees with the
Python reference search."""

from __future__ import annotations

import json
import random
from importlib import resources
from pathlib import Path

import pytest
from ai_testgames import NimGame
from typer.testing import CliRunner

import boardplay
from boardplay.ai import MCTSAgent
from boardplay.ai.evaluation import heuristics_for
from boardplay.ai.evaluation.montana import phase_left
from boardplay.ai.evaluation.montana_leaf import MontanaEvaluation
from boardplay.ai.evaluation.proteus_leaf import ProteusEvaluation
from boardplay.ai.mcts import compiled_evaluation
from boardplay.ai.mcts_reference import ReferenceMCTSAgent
from boardplay.ai.playout import playout
from boardplay.ai.search import Search
from boardplay.cli.common import console
from boardplay.cli.main import app
from boardplay.core.errors import OptionError
from boardplay.core.game import CHANCE, Game, State, sample_chance
from boardplay.games.montana.layout import FEATURE_NAMES
from option_sets import KERNEL_GAMES

F_SETTLEMENTS = FEATURE_NAMES.index("settlements")

TABLES = [
    "potlatch",
    "potlatch(actions=3,layout=L4)",
    "proteus",
    "proteus(rules=kadon)",
    "passtally",
    "passtally(players=3)",
    "montana",
    "montana(players=3)",
    "montana(players=4)",
]


def _positions(game: Game, seed: int, count: int) -> list[State]:
    """Decision and chance positions along random games (a new game when one ends)."""
    rng = random.Random(seed)
    out: list[State] = []
    state = game.new_initial_state()
    while len(out) < count:
        if state.is_terminal():
            state = game.new_initial_state()
            continue
        out.append(state.clone())
        legal = state.legal_actions()
        action = sample_chance(state, rng) if state.is_chance_node() else rng.choice(legal)
        state.apply_action(action)
    return out


def _first_decision(game: Game, seed: int = 0) -> State:
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    return state


@pytest.mark.parametrize("text", TABLES)
def test_compiled_evaluation_equals_the_python_one(text: str) -> None:
    game = boardplay.load(text)
    compiled = compiled_evaluation(game)
    python = heuristics_for(game).evaluate
    for state in _positions(game, seed=3, count=400):
        assert state.kernel is not None
        assert compiled.values(state.kernel) == pytest.approx(python(state), abs=1e-12)


def test_montanas_evaluation_takes_the_settlement_count_from_the_data_file(
    tmp_path: Path,
) -> None:
    """The phase of a Montana game is the settlements left out of those each player starts with,
    and that count comes from the game's data file, not from a copy in the evaluation."""
    raw = json.loads(
        resources.files("boardplay.games.montana").joinpath("data/components.json").read_text()
    )
    raw["settlements"]["2"] = 6
    path = tmp_path / "six.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    game = boardplay.load("montana", data=str(path))
    state = _first_decision(game)
    assert state.kernel is not None
    features = state.kernel.features()
    assert features[F_SETTLEMENTS] == 6 and features[0] == 6
    assert phase_left(features, 2) == 1.0
    compiled = compiled_evaluation(game)
    python = heuristics_for(game).evaluate
    for position in _positions(game, seed=5, count=150):
        assert position.kernel is not None
        assert compiled.values(position.kernel) == pytest.approx(python(position), abs=1e-12)


def test_compiled_evaluation_refuses_unknown_games_and_tables() -> None:
    assert compiled_evaluation(NimGame()) is None  # its heuristics name no evaluation in C
    with pytest.raises(ValueError, match="2 to 4 players"):
        MontanaEvaluation(5)
    game = boardplay.load("montana(players=3)")
    with pytest.raises(ValueError, match="another table"):
        MontanaEvaluation(2).values(game.new_initial_state().kernel)  # type: ignore[arg-type]


def _winning_positions(text: str, wanted: int) -> list[tuple[State, set[int]]]:
    """Decisions where some but not all moves end the game at once with the mover winning."""
    game = boardplay.load(text)
    found: list[tuple[State, set[int]]] = []
    for state in _positions(game, seed=7, count=20000):
        if state.is_chance_node():
            continue
        seat = state.current_player()
        winners = set()
        legal = state.legal_actions()
        for action in legal:
            child = state.clone()
            child.apply_action(action)
            if child.is_terminal() and child.returns()[seat] == 1.0:
                winners.add(action)
        if winners and len(winners) < len(legal):
            found.append((state, winners))
            if len(found) == wanted:
                break
    return found


@pytest.mark.parametrize("text", ["potlatch", "proteus"])
def test_compiled_search_takes_a_win_in_one(text: str) -> None:
    positions = _winning_positions(text, 5)
    assert positions, "the random games should pass positions with a win in one"
    for state, winners in positions:
        # Backing up the evaluation, a win in one is worth more than any unfinished position.
        agent = boardplay.ai.make_agent("mcts(iterations=3000)", state.game, 1)
        assert isinstance(agent, MCTSAgent) and agent.compiled
        assert agent.step(state) in winners
        info = agent.last_search()
        assert info is not None and info.win_probability is not None
        assert info.win_probability > 0.95
        # With rollouts to the end, a move that forces a win later is as good: every one of
        # its simulations is won too.
        agent = boardplay.ai.make_agent("mcts(iterations=3000,cutoff=none)", state.game, 1)
        action = agent.step(state)
        info = agent.last_search()
        assert info is not None
        assert action in winners or info.win_probability == 1.0
        values = {c["move"]: c["value"] for c in info.candidates}
        assert all(values.get(state.action_to_string(w), 1.0) == 1.0 for w in winners)


@pytest.mark.parametrize("text", ["passtally", "montana"])
def test_chance_is_sampled_by_its_probabilities(text: str) -> None:
    game = boardplay.load(text)
    state = next(
        s
        for s in _positions(game, seed=2, count=2000)
        if s.is_chance_node() and len(s.chance_outcomes()) > 2 and s.history()
    )
    assert state.kernel is not None
    search = Search(state.kernel, compiled_evaluation(game), cutoff=0, seed=9)
    simulations = 40000
    search.run(simulations, 0.0, False)
    visits = {action: count for action, _, count in search.children(search.root)}
    for outcome, probability in state.chance_outcomes():
        assert visits.get(outcome, 0) / simulations == pytest.approx(probability, abs=0.01)
    # The root's value is the visit-weighted mean of its children's: the expectation over chance.
    total = sum(search.node_value(node) * count for _, node, count in search.children(0))
    assert search.node_value(0) == pytest.approx(total / simulations, abs=1e-9)


@pytest.mark.parametrize("text", KERNEL_GAMES)
def test_compiled_search_is_reproducible_and_keeps_its_iteration_budget(text: str) -> None:
    game = boardplay.load(text)
    state = _first_decision(game)

    def run(seed: int) -> tuple[int, list[dict[str, object]]]:
        agent = MCTSAgent(game, iterations=500, early_stop=False, seed=seed)
        action = agent.step(state)
        info = agent.last_search()
        assert info is not None and info.iterations == 500
        assert sum(int(c["visits"]) for c in info.candidates) <= 500
        return action, info.candidates

    assert run(4) == run(4)
    assert any(run(4) != run(seed) for seed in (5, 6, 7))


def test_time_budget_is_kept() -> None:
    game = boardplay.load("montana")
    state = _first_decision(game)
    agent = MCTSAgent(game, time_limit=0.2, early_stop=False, seed=1)
    agent.step(state)
    info = agent.last_search()
    assert info is not None
    # The clock is read every 8 simulations, each far below a millisecond; the generous upper
    # bound leaves room for a loaded machine that deschedules the process.
    assert 0.2 <= info.seconds < 1.0
    assert info.iterations > 100


def test_early_stop_keeps_the_move_and_saves_simulations() -> None:
    # One winning move: with two, the search splits its visits and cannot settle early.
    state = next(s for s, winners in _winning_positions("potlatch", 20) if len(winners) == 1)
    full = MCTSAgent(state.game, iterations=20000, early_stop=False, seed=3)
    early = MCTSAgent(state.game, iterations=20000, seed=3)
    assert full.step(state) == early.step(state)
    info = early.last_search()
    assert info is not None and info.iterations < 20000


def test_tree_is_reused_along_played_actions_and_not_for_another_position() -> None:
    game = boardplay.load("proteus")
    state = _first_decision(game)
    agent = MCTSAgent(game, iterations=2000, early_stop=False, seed=2)
    action = agent.step(state)
    tree = agent.tree
    assert tree is not None and tree.node_visits(tree.root) == 2000
    state.apply_action(action)
    agent.inform(action)
    reply = max(tree.children(tree.root), key=lambda item: item[2])[0]
    inherited = tree.node_visits(tree.root)
    assert inherited > 1
    state.apply_action(reply)
    agent.inform(reply)
    assert tree.node_visits(tree.root) < inherited
    inherited = tree.node_visits(tree.root)
    agent.step(state)
    assert tree.node_visits(tree.root) == inherited + 2000
    # Another position of the same game (another history): a fresh tree.
    other = _first_decision(game)
    other.apply_action(other.legal_actions()[-1])
    other.apply_action(other.legal_actions()[-1])
    agent.step(other)
    assert tree.node_visits(tree.root) == 2000
    # Without reuse every search starts afresh.
    plain = MCTSAgent(game, iterations=300, early_stop=False, reuse=False, seed=2)
    plain.step(state)
    plain.inform(state.legal_actions()[0])
    plain.step(state)
    assert plain.tree is not None and plain.tree.node_visits(plain.tree.root) == 300


@pytest.mark.parametrize("text", ["potlatch", "montana"])
def test_compiled_and_reference_searches_agree_on_the_values(text: str) -> None:
    game = boardplay.load(text)
    state = _first_decision(game, seed=1)
    values = []
    for kind in (MCTSAgent, ReferenceMCTSAgent):
        agent = kind(game, iterations=4000, early_stop=False, seed=0)
        agent.step(state)
        info = agent.last_search()
        assert info is not None and info.win_probability is not None
        values.append(info.win_probability)
    assert values[0] == pytest.approx(values[1], abs=0.05)


def test_search_rejects_bad_use() -> None:
    game = boardplay.load("potlatch")
    kernel = game.new_initial_state().kernel
    assert kernel is not None
    with pytest.raises(ValueError, match="needs an evaluation"):
        Search(kernel, None, cutoff=0)
    search = Search(kernel, None, cutoff=-1)
    with pytest.raises(ValueError, match="budget"):
        search.run(0, 0.0, False)
    with pytest.raises(IndexError, match="no node 5"):
        search.node_visits(5)
    assert search.advance(12345) is False


@pytest.mark.parametrize("text", ["potlatch", "passtally", "montana"])
def test_expansion_tries_each_root_action_once_in_a_seeded_random_order(text: str) -> None:
    """A node's children are shuffled when they are listed: the first simulations from the root
    try every legal action exactly once, in an order that depends on the seed."""
    game = boardplay.load(text)
    state = _first_decision(game)
    kernel = state.kernel
    assert kernel is not None
    legal = state.legal_actions()
    orders = set()
    for seed in range(4):
        search = Search(kernel, None, cutoff=-1, seed=seed)
        tried: list[int] = []
        for _ in legal:
            search.run(1, 0.0, False)
            new = {action for action, _node, _visits in search.children(0)} - set(tried)
            assert len(new) == 1, "each simulation expands exactly one untried root action"
            tried.extend(new)
        assert sorted(tried) == sorted(legal)
        orders.add(tuple(tried))
    assert len(orders) > 1


def test_bench_compares_the_searches_in_one_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """``boardplay bench --mcts``: compiled and reference search at default settings, and
    random rollouts beside OpenSpiel's MCTSBot, each with its speed-up (numbers not asserted)."""
    monkeypatch.setattr(console, "width", 160)  # one line per row, headers unwrapped
    result = CliRunner().invoke(app, ["bench", "proteus", "--mcts", "--seconds", "0.05"])
    assert result.exit_code == 0, result.output
    for header in ("Python ref.", "MCTSBot", "MCTSBot engine", "speed-up"):
        assert header in result.stdout
    row = next(
        line for line in result.stdout.splitlines() if line.strip("│ ").startswith("proteus ")
    )
    assert row.count("×") == 3


def _threat_positions(text: str, wanted: int) -> list[tuple[State, set[int]]]:
    """Decisions where some but not all moves let the opponent win with its very next move:
    the moves that hand over such a win (or lose at once) are returned with the position."""
    game = boardplay.load(text)
    found: list[tuple[State, set[int]]] = []
    for state in _positions(game, seed=11, count=4000):
        if state.is_chance_node():
            continue
        seat = state.current_player()
        losing = set()
        legal = state.legal_actions()
        for action in legal:
            child = state.clone()
            child.apply_action(action)
            if child.is_terminal():
                if child.returns()[seat] == 0.0:
                    losing.add(action)
                continue
            for reply in child.legal_actions():
                after = child.clone()
                after.apply_action(reply)
                if after.is_terminal() and after.returns()[seat] == 0.0:
                    losing.add(action)
                    break
        if losing and len(losing) < len(legal):
            found.append((state, losing))
            if len(found) == wanted:
                break
    return found


def test_decisive_playouts_back_up_the_opponents_win_in_one() -> None:
    """With ``decisive`` a leaf whose mover can win at once is backed up as that win: after one
    simulation per root move, exactly the moves that let the opponent win next are worth 0 to
    the searching seat. Without it the evaluation's guess stands for some of those leaves."""
    positions = _threat_positions("proteus", 5)
    assert positions, "the random games should pass positions with a threat to parry"
    evaluation = ProteusEvaluation(2)
    guessed = 0
    for state, losing in positions:
        assert state.kernel is not None
        legal = state.legal_actions()
        values = {}
        for decisive in (True, False):
            search = Search(state.kernel, evaluation, cutoff=0, decisive=decisive, seed=5)
            search.seat = state.current_player()
            search.run(len(legal), 0.0, False)
            values[decisive] = {a: search.node_value(n) for a, n, _ in search.children(0)}
            assert set(values[decisive]) == set(legal)  # each move tried exactly once
        assert {a for a, v in values[True].items() if v == 0.0} == losing
        guessed += sum(values[False][a] > 0.0 for a in losing)
    assert guessed > 0


def test_decisive_is_a_spec_parameter_with_a_per_game_default() -> None:
    game = boardplay.load("proteus")
    default = heuristics_for(game).decisive
    assert boardplay.ai.make_agent("mcts", game, 1).decisive is default  # type: ignore[attr-defined]
    for raw, value in (("true", True), ("false", False)):
        agent = boardplay.ai.make_agent(f"mcts(decisive={raw})", game, 1)
        assert isinstance(agent, MCTSAgent) and agent.decisive is value
        assert agent.tree is None
    with pytest.raises(OptionError, match="'decisive' must be true or false"):
        boardplay.ai.make_agent("mcts(decisive=maybe)", game, 1)


def test_reference_search_plays_decisive_moves_in_its_rollouts() -> None:
    """The Python reference's playouts (the search of games without a kernel) follow the same
    rule: from a position with a win in one, a decisive playout always ends in the mover's
    win."""
    state, winners = _winning_positions("proteus", 1)[0]
    seat = state.current_player()
    heuristics = heuristics_for(state.game)
    rng = random.Random(1)

    def play(after: State, decisive: bool) -> list[float]:
        return playout(
            after,
            CHANCE,
            heuristics,
            policy=None,
            limit=0,
            decisive=decisive,
            finish_turn=False,
            rng=rng,
        )

    for _ in range(5):
        after = state.clone()
        assert play(after, True)[seat] == 1.0
        assert after.history()[:-1] == state.history() and after.history()[-1] in winners
    assert play(state.clone(), False)[seat] < 1.0


def test_passtally_playouts_follow_the_kernel_policy_unless_random() -> None:
    """``rollout=policy`` (the default) hands Passtally's playouts to the kernel's policy and
    ``rollout=random`` keeps them uniform; a game without a kernel policy keeps them uniform.
    The flag reaches the loop: from the same position and seed the two searches differ."""
    state = _positions(boardplay.load("passtally"), 3, 40)[-1]
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    visits: dict[str, list[int]] = {}
    for rollout, expected in (("policy", True), ("random", False)):
        agent = boardplay.ai.make_agent(
            f"mcts(iterations=2000,cutoff=none,rollout={rollout},early=false)", state.game, 5
        )
        assert isinstance(agent, MCTSAgent) and agent.kernel_playouts is expected
        agent.step(state)
        assert agent.tree is not None and agent.tree.policy is expected
        visits[rollout] = [count for _, _, count in agent.tree.children(agent.tree.root)]
    assert visits["policy"] != visits["random"]
    proteus = boardplay.ai.make_agent("mcts(cutoff=none)", boardplay.load("proteus"), 1)
    assert isinstance(proteus, MCTSAgent) and not proteus.kernel_playouts
