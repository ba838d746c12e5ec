"""Montana's episode bound from its rules, near the lengths games reach, and a lower cap in the
OpenSpiel adapter (research review 2026-11c, friction 7: 38,058 actions was 31 times the
longest of 2,000 random games, and OpenSpiel could not be given a cap).

The bound (``MontanaGame.max_game_length``, which every adapter's ``episode_limit`` follows) is
sound: the setup, at most ``max_turns`` turns of at most the longest main action's decisions and
the END decision, and every cattle trade (each costs a cattle; the cattle players ever get are
counted). The tests hold it to measured lengths (random games, a player that makes games as long
as it can, every auction from one position searched to its longest) and to its formula."""

from __future__ import annotations

import functools
import json
import pickle
import random

import pyspiel
import pytest

import boardplay
from boardplay.adapters import openspiel
from boardplay.core.game import State, sample_chance
from boardplay.core.playout import random_playouts


def longest_random_game(game: boardplay.Game, games: int) -> int:
    return max(random_playouts(game, 1, seed, 0).actions for seed in range(games))


@pytest.mark.parametrize(("players", "bound"), [(2, 9_658), (3, 10_462), (4, 11_266)])
def test_the_bound_follows_the_rules_and_is_near_the_measured_lengths(
    players: int, bound: int
) -> None:
    game = boardplay.load("montana", players=players)
    # 2 + 2 x players x 2 (setup) + 400 x (2 + 16 + 2 x players) (turns) + 2 x (24 + 400 x 1)
    assert game.max_game_length == game.episode_limit == bound
    longest = longest_random_game(game, 2_000)
    assert longest < bound <= 10 * longest  # was 38,058: 31 times the longest


def long_game_action(state: State, rng: random.Random) -> int:
    """What makes a game longest: trades (a worker's may bring an overflow decision), canteens,
    the City with every placement a player can make, never a build (so the game runs to the
    turn cap)."""

    def rank(action: int) -> float:
        text = state.action_to_string(action)
        for order, start in enumerate(("trade:cattle>worker", "trade", "canteen", "work:city")):
            if text.startswith(start):
                return 10.0 - order
        if text.startswith("place"):
            return 5.0 + rng.random()
        return -1.0 if text.startswith("build") or text == "pass" else rng.random()

    return max(state.legal_actions(), key=rank)


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 4, "max_turns": 60}])
def test_a_game_played_to_be_long_stays_within_the_bound(options: dict[str, int]) -> None:
    game = boardplay.load("montana", **options)
    rng = random.Random(7)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(long_game_action(state, rng))
    assert state.end_reason() == f"turn cap of {game.max_turns} reached"
    assert len(state.history()) <= game.max_game_length


def test_no_auction_outlasts_its_share_of_the_bound() -> None:
    """Every order of placements, passes and reward choices of one City action, searched to the
    longest, with every player holding pumpkins enough for any spot: within rows x columns
    placements, a pass each and a reward each (2 players)."""
    game = boardplay.load("montana", players=2, board_seed=1, start_player=0)
    rng = random.Random(0)
    state = game.new_initial_state()
    while state.is_chance_node() or "work:city" not in map(
        state.action_to_string, state.legal_actions()
    ):
        state.apply_action(
            sample_chance(state, rng)
            if state.is_chance_node()
            else rng.choice(state.legal_actions())
        )
    position = state.to_json()
    total = position["supply"]["goods"]["p"] + sum(p["goods"]["p"] for p in position["players"])
    for player in position["players"]:  # pumpkins for every column; no cattle, so no trades
        player["goods"]["p"] = total // 2
        position["supply"]["cattle"] += player["cattle"]
        player["cattle"] = 0
    position["supply"]["goods"]["p"] = total - 2 * (total // 2)
    state = game.state_from_json(position)
    state.apply_action(
        next(a for a in state.legal_actions() if state.action_to_string(a) == "work:city")
    )
    seen: dict[str, State] = {}

    @functools.cache
    def longest(key: str) -> int:
        here, best = seen[key], 0
        for action in here.legal_actions():
            text = here.action_to_string(action)
            if text.startswith(("place", "reward")) or text == "pass":
                child = here.clone()
                child.apply_action(action)
                child_key = json.dumps(child.to_json(), sort_keys=True)
                seen[child_key] = child
                best = max(best, 1 + longest(child_key))
        return best

    key = json.dumps(state.to_json(), sort_keys=True)
    seen[key] = state
    rows, columns = len(game.data.rows), len(game.data.column_cost)
    assert 0 < longest(key) <= rows * columns + 2 + 2


def test_openspiel_takes_a_lower_cap() -> None:
    openspiel.register(["montana"])
    default = pyspiel.load_game("boardplay_montana")
    assert default.max_game_length() == boardplay.load("montana").episode_limit
    game = pyspiel.load_game("boardplay_montana(max_actions=300)")
    assert game.max_game_length() == 300
    rng = random.Random(2)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert state.move_number() == 300 and state.returns() == [0.0, 0.0]  # cut there, a draw
    assert not state.boardplay_state.is_terminal()
    # the boardplay spellings, pickling and OpenSpiel's own serialization keep the cap
    assert openspiel.load("montana", max_actions=500).max_game_length() == 500
    assert openspiel.load("montana(players=3,max_actions=500)").max_game_length() == 500
    assert pickle.loads(pickle.dumps(game)).max_game_length() == 300
    again, _ = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert again.max_game_length() == 300
    # never above the rules' own bound; a bad cap is refused in boardplay's words
    assert openspiel.load("potlatch", max_actions=10**6).max_game_length() == 2000
    with pytest.raises(boardplay.OptionError, match="max_actions must be a positive integer"):
        openspiel.load("montana", max_actions=-1)
