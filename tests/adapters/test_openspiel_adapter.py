"""OpenSpiel adapter: registration, GameType/GameInfo, parameters, OpenSpiel's own checks
(random_sim_test), OpenSpiel's Python MCTSBot playing whole games, and serialization through
records."""

from __future__ import annotations

import json
import pickle
import random

import numpy as np
import pyspiel
import pytest
from adapter_cases import GameFactory
from dicerace import DiceRaceGame
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import mcts

import boardplay
from boardplay.adapters import openspiel, openspiel_params
from boardplay.core.errors import IllegalActionError, OptionError, RecordError
from boardplay.core.game import Game
from boardplay.core.playout import random_playout
from boardplay.core.records import Record


def spiel_game(game: Game) -> pyspiel.Game:
    openspiel.register_class(type(game))
    return pyspiel.load_game(openspiel.short_name(game.name), openspiel.game_parameters(game))


def play_random(state: pyspiel.State, rng: np.random.RandomState, limit: int) -> None:
    for _ in range(limit):
        if state.is_terminal():
            return
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))


def test_register_names_every_available_game() -> None:
    names = openspiel.register()
    assert names == [f"boardplay_{g}" for g in boardplay.available()]
    assert openspiel.register() == names  # idempotent
    for name in names:
        assert name in pyspiel.registered_names()


def test_game_type_and_info(make_game: GameFactory) -> None:
    game = make_game()
    sg = spiel_game(game)
    gt = sg.get_type()
    assert gt.short_name == f"boardplay_{game.name}"
    assert gt.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert gt.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert gt.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert gt.utility == pyspiel.GameType.Utility.ZERO_SUM
    expected_chance = (
        pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        if game.max_chance_outcomes
        else pyspiel.GameType.ChanceMode.DETERMINISTIC
    )
    assert gt.chance_mode == expected_chance
    assert sg.num_distinct_actions() == game.num_distinct_actions
    assert sg.max_chance_outcomes() == game.max_chance_outcomes
    assert sg.num_players() == game.num_players
    assert sg.max_game_length() == game.episode_limit  # a true bound: the adapter cuts there
    assert sg.max_utility() == 1.0
    assert sg.min_utility() == pytest.approx(-1.0 / (game.num_players - 1))
    assert sg.utility_sum() == 0.0
    assert sg.observation_tensor_shape() == list(game.observation_shape())
    assert sg.get_parameters() == openspiel.game_parameters(game)


def test_random_sim_test(make_game: GameFactory) -> None:
    pyspiel.random_sim_test(spiel_game(make_game()), num_sims=3, serialize=True, verbose=False)


def test_state_mirrors_the_engine(make_game: GameFactory) -> None:
    game = make_game()
    sg = spiel_game(game)
    state = sg.new_initial_state()
    engine = game.new_initial_state()
    rng = random.Random(5)
    for _ in range(60):
        assert state.is_terminal() == engine.is_terminal()
        if engine.is_terminal():
            break
        assert state.legal_actions() == engine.legal_actions()
        assert state.is_chance_node() == engine.is_chance_node()
        if engine.is_chance_node():
            assert state.current_player() == pyspiel.PlayerId.CHANCE
            assert state.chance_outcomes() == engine.chance_outcomes()
        else:
            player = engine.current_player()
            assert state.current_player() == player
            for seat in range(game.num_players):
                assert state.observation_tensor(seat) == pytest.approx(
                    engine.observation_tensor(seat)
                )
            assert state.observation_string(player) == engine.render()
        action = engine.legal_actions()[rng.randrange(len(engine.legal_actions()))]
        assert state.action_to_string(state.current_player(), action) == engine.action_to_string(
            action
        )
        state.apply_action(action)
        engine.apply_action(action)
    assert str(state) == engine.render()
    assert state.history() == engine.history()


def test_mcts_bot_plays_complete_games(make_game: GameFactory) -> None:
    """OpenSpiel's own MCTSBot (tree, selection, chance handling) on our games; the rollouts run
    in the engine (EngineRolloutEvaluator) to keep long games such as Montana affordable."""
    game = make_game()
    sg = spiel_game(game)
    rs = np.random.RandomState(7)
    evaluator = openspiel.EngineRolloutEvaluator(1, seed=7)
    # every decision costs simulations x a random game: fewer for the long games (Montana)
    simulations = 2 if game.max_game_length > 10_000 else 6
    bot = mcts.MCTSBot(sg, 1.4, simulations, evaluator, random_state=rs)
    state = sg.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(outcomes, p=probs)))
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    returns = state.returns()
    assert sum(returns) == pytest.approx(0.0)
    assert returns == openspiel.utilities(state.boardplay_state)


def test_mcts_bot_with_openspiel_rollouts() -> None:
    """The stock RandomRolloutEvaluator works too (short game: it is slow on long ones)."""
    sg = spiel_game(DiceRaceGame())
    rs = np.random.RandomState(1)
    bot = mcts.MCTSBot(sg, 1.4, 20, mcts.RandomRolloutEvaluator(2, rs), random_state=rs)
    state = sg.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(outcomes, p=probs)))
        else:
            state.apply_action(bot.step(state))
    assert sorted(state.returns()) == [-1.0, 1.0]


def test_engine_rollouts_estimate_like_openspiel_rollouts() -> None:
    """Same statistics as RandomRolloutEvaluator: from the same position both estimate the
    first player's value alike (within sampling error of 400 rollouts each)."""
    sg = spiel_game(DiceRaceGame({"start_player": 0, "target": 9}))
    state = sg.new_initial_state()
    state.apply_action(1)
    ours = openspiel.EngineRolloutEvaluator(400, seed=3).evaluate(state)
    theirs = mcts.RandomRolloutEvaluator(400, np.random.RandomState(3)).evaluate(state)
    assert sum(ours) == pytest.approx(0.0)
    assert ours[0] == pytest.approx(theirs[0], abs=0.2)
    assert openspiel.EngineRolloutEvaluator().prior(state) == [(0, 0.5), (1, 0.5)]


def test_rl_environment_plays_whole_games(make_game: GameFactory) -> None:
    """OpenSpiel's RL environment (the usual entry point of its learners) drives our games,
    sampling chance itself, and reports our zero-sum utilities at the end."""
    env = rl_environment.Environment(spiel_game(make_game()), seed=1)
    rng = random.Random(1)
    step = env.reset()
    while not step.last():
        player = step.observations["current_player"]
        legal = step.observations["legal_actions"][player]
        engine = env.get_state.boardplay_state
        assert step.observations["info_state"][player] == pytest.approx(
            engine.observation_tensor(player)
        )
        step = env.step([legal[rng.randrange(len(legal))]])
    assert step.rewards == openspiel.utilities(env.get_state.boardplay_state)


def test_serialize_round_trip_through_records(make_game: GameFactory) -> None:
    sg = spiel_game(make_game())
    state = sg.new_initial_state()
    play_random(state, np.random.RandomState(3), 40)
    # OpenSpiel's own serialization (pickles the held engine state as a record)
    text = pyspiel.serialize_game_and_state(sg, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(sg)
    assert state2.history() == state.history()
    assert str(state2) == str(state)
    assert state2.boardplay_state.to_json() == state.boardplay_state.to_json()
    assert sg.deserialize_state(state.serialize()).history() == state.history()
    # pickle (OpenSpiel routes it through the same serialization)
    assert pickle.loads(pickle.dumps(state)).history() == state.history()
    # our record form: readable by `boardplay replay`
    record_text = openspiel.serialize(state)
    record = Record.loads(record_text)
    assert [m.action for m in record.moves] == state.history()
    restored = openspiel.deserialize(record_text)
    assert restored.history() == state.history()
    assert restored.boardplay_state.to_json() == state.boardplay_state.to_json()


def test_deserialize_rejects_a_tampered_record() -> None:
    sg = spiel_game(DiceRaceGame())
    state = sg.new_initial_state()
    state.apply_action(0)  # Red starts
    state.apply_action(1)
    data = json.loads(openspiel.serialize(state))
    data["actions"][1] = 5
    with pytest.raises(RecordError, match="move 2"):
        openspiel.deserialize(json.dumps(data))


def test_illegal_action_raises_and_changes_nothing() -> None:
    sg = spiel_game(DiceRaceGame({"start_player": 0}))
    state = sg.new_initial_state()
    before = str(state)
    with pytest.raises(IllegalActionError, match="not a legal move"):
        state.apply_action(7)
    assert str(state) == before
    assert state.history() == []


def test_parameters_map_words_and_none_to_sentinels() -> None:
    spec = openspiel_params.parameter_specification(DiceRaceGame)
    assert spec == {
        "players": 2,
        "target": 7,
        "bonus": True,
        "steps": "short",
        "start_player": -1,  # "random" (minimum 0, first word)
        "max_turns": 0,  # None (minimum 1)
        "max_actions": 0,  # the adapter's cap: 0 is the game's episode_limit
    }
    game = pyspiel.load_game("boardplay_dicerace(start_player=1,max_turns=5,steps=long)")
    engine = game.boardplay_game
    assert engine.options["start_player"] == 1
    assert engine.options["max_turns"] == 5
    assert engine.options["steps"] == "long"
    again = pyspiel.load_game("boardplay_dicerace(start_player=-1,max_turns=0)").boardplay_game
    assert again.options["start_player"] == "random"
    assert again.options["max_turns"] is None
    with pytest.raises(OptionError, match=r"start_player.*-1 = random"):
        openspiel_params.from_param(DiceRaceGame.option_set.by_name()["start_player"], -3)


@pytest.mark.parametrize("name", boardplay.available())
def test_load_takes_boardplay_game_strings(name: str) -> None:
    for option_set in boardplay.load(name).bench_option_sets:
        game = boardplay.load(name, **option_set)
        sg = openspiel.load(str(game))
        assert sg.get_type().short_name == f"boardplay_{name}"
        assert sg.boardplay_game == game
        assert pyspiel.load_game(str(sg)).boardplay_game == game  # the game string round-trips


def test_from_record_maps_none_options() -> None:
    game = openspiel.from_record(Record.begin(DiceRaceGame({"max_turns": None}))).get_game()
    assert game.get_parameters()["max_turns"] == 0


def test_boardplay_random_playout_matches_openspiel_history() -> None:
    game = DiceRaceGame({"players": 3})
    engine = game.new_initial_state()
    random_playout(engine, random.Random(11))
    record = Record.begin(game)
    replay = game.new_initial_state()
    for action in engine.history():
        record.play(replay, action)
    state = openspiel.from_record(record)
    assert state.is_terminal()
    assert state.returns() == openspiel.utilities(engine)


def _legal_after(game: pyspiel.Game, actions: list[int]) -> list[int]:
    """In a worker process: the legal actions after ``actions`` (a picklable job)."""
    state = game.new_initial_state()
    for action in actions:
        state.apply_action(action)
    return list(state.legal_actions())


def test_games_pickle_and_reach_a_spawned_worker_pool() -> None:
    """The review: a pyspiel game of boardplay did not pickle, so no multiprocessing pool
    (spawn) or Ray could receive it. It now travels as its game string."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    game = openspiel.load("potlatch(actions=3,layout=L4)")
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game)
    state = game.new_initial_state()
    first = state.legal_actions()[0]
    state.apply_action(first)
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        assert pool.submit(_legal_after, game, [first]).result(timeout=120) == list(
            state.legal_actions()
        )


def test_information_state_tensor_is_refused_as_the_game_type_says() -> None:
    game = openspiel.load("proteus")
    assert not game.get_type().provides_information_state_tensor
    state = game.new_initial_state()
    with pytest.raises(pyspiel.SpielError, match="perfect information"):
        state.information_state_tensor()
    assert state.observation_tensor() and state.information_state_string() == ""
