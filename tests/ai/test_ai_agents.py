"""Agents on the small test games: legality, determinism, forced wins, chance, multi-action
turns, 3–4 players, tree reuse and the analysis they report."""

from __future__ import annotations

import random

import pytest
from ai_testgames import GAMBLE, HOLD, ROLL, DuelGame, NimGame, PigGame

from boardplay.ai import GreedyAgent, MCTSAgent, RandomAgent, agent_analysis, make_agent
from boardplay.ai.agents import Agent
from boardplay.ai.az import AZAgent
from boardplay.ai.specs import DEFAULT_LEVELS, LEVEL_NAMES, level_spec
from boardplay.core.errors import IllegalActionError, OptionError
from boardplay.core.game import Game, State, sample_chance
from boardplay.core.registry import available, game_class, load
from boardplay.games.montana.game import SEARCH_EXPERT

SPECS = ["random", "greedy", "mcts(iterations=40)", "mcts(iterations=30,cutoff=4)", "easy"]


def play(game: Game, specs: list[str], seed: int) -> tuple[State, list[int]]:
    """Play a whole game, checking every chosen action is legal; returns the end and history."""
    state = game.new_initial_state()
    agents: list[Agent] = [make_agent(s, game, seed * 10 + i) for i, s in enumerate(specs)]
    rng = random.Random(seed)
    while not state.is_terminal():
        seat = state.current_player()
        if seat < 0:
            action = sample_chance(state, rng)
        else:
            action = agents[seat].step(state)
            assert action in state.legal_actions()
        state.apply_action(action)
        for agent in agents:
            agent.inform(action)
    return state, state.history()


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("spec", SPECS)
def test_agents_choose_legal_actions_with_chance_and_multi_action_turns(
    spec: str, players: int
) -> None:
    game = PigGame({"players": players, "target": 12})
    end, history = play(game, [spec] * players, seed=players)
    assert end.is_terminal()
    assert abs(sum(end.returns()) - 1.0) < 1e-9
    assert len(history) > players


@pytest.mark.parametrize("spec", SPECS)
def test_agents_are_deterministic_for_a_seed(spec: str) -> None:
    game = PigGame({"players": 3, "target": 12})
    assert play(game, [spec, "random", spec], 7)[1] == play(game, [spec, "random", spec], 7)[1]


def test_different_seeds_give_different_random_games() -> None:
    game = PigGame({"players": 2, "target": 30})
    histories = {tuple(play(game, ["random", "random"], seed)[1]) for seed in range(5)}
    assert len(histories) > 1


@pytest.mark.parametrize(("heap", "take"), [(5, 1), (6, 2), (7, 3), (9, 1), (10, 2)])
def test_mcts_finds_the_forced_win_in_nim(heap: int, take: int) -> None:
    game = NimGame({"heap": heap})
    agent = MCTSAgent(game, iterations=3000, seed=1)
    action = agent.step(game.new_initial_state())
    assert action + 1 == take
    info = agent.last_search()
    assert info is not None and info.win_probability is not None
    assert info.win_probability > 0.8
    assert info.line[0] == f"take {take}"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_mcts_holds_to_win_rather_than_risk_the_die(players: int) -> None:
    # Seat 0 has 15 banked and 6 on the turn: holding wins at once; rolling risks a one while
    # every opponent is a point from winning.
    game = PigGame({"players": players, "target": 20})
    position = {
        "scores": [15] + [19] * (players - 1),
        "turn_total": 6,
        "seat": 0,
        "rolling": False,
        "turns": 8,
    }
    state = game.state_from_json(position)
    agent = MCTSAgent(game, iterations=600, seed=3)
    assert agent.step(state) == HOLD
    info = agent.last_search()
    assert info is not None and info.win_probability == 1.0


def test_mcts_rolls_when_holding_cannot_matter() -> None:
    # Nothing banked this turn: holding only passes the turn; rolling can only help.
    game = PigGame({"players": 2, "target": 20})
    state = game.state_from_json(
        {"scores": [0, 18], "turn_total": 0, "seat": 0, "rolling": False, "turns": 3}
    )
    assert MCTSAgent(game, iterations=600, seed=5).step(state) == ROLL


def test_greedy_takes_an_immediate_win() -> None:
    game = PigGame({"players": 3, "target": 20})
    state = game.state_from_json(
        {"scores": [15, 19, 19], "turn_total": 6, "seat": 0, "rolling": False, "turns": 8}
    )
    agent = GreedyAgent(game, seed=0)
    assert agent.step(state) == HOLD
    summary = agent.analysis()
    assert summary is not None and summary["win_probability"] == 1.0


def test_tree_reuse_keeps_statistics_across_moves() -> None:
    game = NimGame({"heap": 12})
    results = {}
    for reuse in (True, False):
        agent = MCTSAgent(game, iterations=200, reuse=reuse, early_stop=False, seed=2)
        state = game.new_initial_state()
        first = agent.step(state)
        state.apply_action(first)
        agent.inform(first)
        reply = state.legal_actions()[0]
        state.apply_action(reply)
        agent.inform(reply)
        agent.step(state)
        info = agent.last_search()
        assert info is not None and info.iterations == 200
        results[reuse] = sum(c["visits"] for c in info.candidates)
    assert results[False] == 200
    assert results[True] > 200


@pytest.mark.parametrize("heap", [5, 9, 12, 17])
def test_early_stop_saves_simulations_without_changing_the_move(heap: int) -> None:
    game = NimGame({"heap": heap})
    state = game.new_initial_state()
    full = MCTSAgent(game, iterations=3000, early_stop=False, seed=4)
    early = MCTSAgent(game, iterations=3000, seed=4)
    assert early.step(state) == full.step(state)
    info = early.last_search()
    assert info is not None and 0 < info.iterations < 3000


def test_contempt_turns_an_even_gamble_into_the_better_choice() -> None:
    game = DuelGame({})
    state = game.new_initial_state()
    # Without contempt a sure draw and a fair coin are worth the same; with it, the coin wins.
    plain = MCTSAgent(game, iterations=2000, early_stop=False, seed=1)
    plain.step(state)
    values = {c["move"]: c["value"] for c in plain.last_search().candidates}  # type: ignore[union-attr]
    assert values["settle"] == 0.5 and abs(values["gamble"] - 0.5) < 0.1
    bold = make_agent("mcts(iterations=2000,contempt=0.2)", game, seed=1)
    assert bold.step(state) == GAMBLE
    with pytest.raises(OptionError, match=r"contempt must be between 0 and 0\.5"):
        make_agent("mcts(contempt=0.9)", game, seed=1)


def test_tree_is_not_reused_for_an_unrelated_position() -> None:
    game = NimGame({"heap": 12})
    agent = MCTSAgent(game, iterations=100, seed=2)
    agent.step(game.new_initial_state())
    other = game.state_from_json({"heap": 9, "seat": 0})
    agent.step(other)
    info = agent.last_search()
    assert info is not None
    assert sum(c["visits"] for c in info.candidates) == 100


def test_time_budget_and_analysis_summary() -> None:
    game = PigGame({"players": 2})
    agent = make_agent("mcts(time=0.05)", game, seed=1)
    state = game.new_initial_state()
    assert agent.step(state) in state.legal_actions()
    info = agent_analysis(agent)
    assert info is not None and info.iterations >= 1 and info.seconds > 0
    summary = info.summary()
    assert 0.0 <= summary["win_probability"] <= 1.0
    assert summary["line"][0] == info.move


def test_cutoff_zero_backs_up_the_evaluation() -> None:
    # With cutoff=0 no rollout is played: the root value is the mean of evaluations, which
    # for Pig (generic: softmax over scores) is strictly between 0 and 1 early in the game.
    game = PigGame({"players": 2})
    agent = MCTSAgent(game, iterations=50, cutoff=0, seed=1)
    agent.step(game.new_initial_state())
    info = agent.last_search()
    assert info is not None and info.win_probability is not None
    assert 0.0 < info.win_probability < 1.0


def test_agents_refuse_to_move_at_chance_or_terminal_nodes() -> None:
    game = PigGame({"players": 2})
    state = game.new_initial_state()
    state.apply_action(ROLL)
    assert state.is_chance_node()
    for agent in (RandomAgent(0), GreedyAgent(game, 0), MCTSAgent(game, iterations=5)):
        with pytest.raises(ValueError, match="no decision"):
            agent.step(state)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("alphazero", "unknown agent 'alphazero'; known agents: az, greedy, mcts, policy, random"),
        ("mcts(depth=3)", "mcts has no parameter 'depth'"),
        ("mcts(iterations=lots)", "'iterations' must be an integer"),
        ("mcts(iterations=0)", "iterations must be at least 1"),
        ("mcts(time=-1)", "time must be positive"),
        ("mcts(rollout=smart)", "rollout must be 'policy' or 'random'"),
        ("mcts(reuse=maybe)", "'reuse' must be true or false"),
        ("greedy(depth=2)", "greedy has no parameter 'depth'; its parameter is weights"),
        (
            "greedy(weights=tuned)",
            "no weight set 'tuned' for pig; its evaluation has only the 'hand' set",
        ),
        ("mcts(weights=tuned)", "no weight set 'tuned' for pig"),
        ("hard(x=1)", "a level takes only a budget (time or iterations), got x"),
    ],
)
def test_bad_specs_name_the_problem(spec: str, message: str) -> None:
    with pytest.raises(OptionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make_agent(spec, PigGame({}), 0)


def test_levels_resolve_to_agents() -> None:
    game = PigGame({})
    kinds = [type(make_agent(level, game, 0)) for level in ("easy", "medium", "hard", "expert")]
    assert all(kind is MCTSAgent for kind in kinds)
    assert make_agent("hard", game, 0).name == "hard"
    agent = make_agent("mcts(iterations=10,c=0.5)", game, 0)
    assert (
        isinstance(agent, MCTSAgent)
        and agent.c == 0.5
        and agent.name == "mcts(iterations=10,c=0.5)"
    )


def test_levels_are_think_times_with_an_iteration_cap() -> None:
    """Every level of every game is a search (``mcts``, or ``az`` where a learned agent beat the
    expert) with an iteration cap (reproducible wherever the cap is reached first); hard and
    expert also have a time ceiling, no level's below the one under it in the same search (a
    learned expert's 0.04 s does more than plain hard's 0.5 s ceiling, which its cap ends
    first), expert's at most 2 s per move. (Which level is stronger is measured in the arena,
    docs/ai.md.)"""
    tables = [(load(name), game_class(name).levels) for name in available()]
    for name in available():  # and each table size with levels of its own
        for players in game_class(name).player_levels or {}:
            sized = load(f"{name}(players={players})")
            tables.append((sized, {level: level_spec(level, sized) for level in LEVEL_NAMES}))
    for game, game_levels in [(PigGame({}), DEFAULT_LEVELS), *(t for t in tables if t[1])]:
        budgets = []
        for level in LEVEL_NAMES:
            agent = make_agent(game_levels[level], game, 0)
            assert isinstance(agent, (MCTSAgent, AZAgent)) and agent.iterations
            budgets.append((type(agent), agent.time_limit or 0.0, agent.iterations))
        for kind in (MCTSAgent, AZAgent):
            same = [budget[1:] for budget in budgets if budget[0] is kind]
            assert same == sorted(same)
        assert [caps for *_, caps in budgets] == sorted(caps for *_, caps in budgets)
        assert budgets[-1][1] <= 2.0 and all(seconds > 0 for _, seconds, _ in budgets[2:])


def test_a_table_size_with_levels_of_its_own_changes_only_those() -> None:
    """Montana's hard searches 5,000 simulations with three players (its last step held with
    20,000 only at two) and its expert is learned with two (a network whose value has one
    output a seat); every other level of every size is the game's."""
    two, three, four = (load(f"montana(players={n})") for n in (2, 3, 4))
    assert level_spec("hard", three) == "mcts(time=0.5,iterations=5000)"
    assert level_spec("hard", two) == level_spec("hard", four) == "mcts(time=0.5,iterations=20000)"
    assert make_agent("hard", three, 0).iterations == 5000
    assert isinstance(make_agent("expert", two, 0), AZAgent)
    assert level_spec("expert", three) == level_spec("expert", four) == SEARCH_EXPERT
    for level in ("easy", "medium"):
        assert level_spec(level, two) == level_spec(level, three) == level_spec(level, four)


def test_forced_moves_are_played_without_search() -> None:
    game = NimGame({"heap": 1})
    agent = MCTSAgent(game, iterations=500, seed=0)
    assert agent.step(game.new_initial_state()) == 0
    info = agent.last_search()
    assert info is not None and info.iterations == 0 and info.move == "take 1"
    assert GreedyAgent(game, 0).step(game.new_initial_state()) == 0


@pytest.mark.parametrize(
    "game", [PigGame({"players": 2, "target": 12}), NimGame({"heap": 5}), DuelGame({})]
)
def test_the_toy_games_take_the_checked_path(game: Game) -> None:
    """The toys define only the unchecked ``_apply``: ``State.apply_action`` checks legality
    (chance outcomes included), refuses with the framework's message and records the history."""
    state = game.new_initial_state()
    assert type(state).apply_action is State.apply_action
    with pytest.raises(IllegalActionError, match="not a legal move"):
        state.apply_action(7)
    assert state.history() == []
    rng = random.Random(2)
    played = []
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        played.append(action)
    assert state.history() == played
