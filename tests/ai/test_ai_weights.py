"""Evaluation weight sets (``boardplay.ai.evaluation.weightsets``): ``hand`` gives exactly the
values the hand-set evaluations gave, every shipped set agrees between Python and C, and the
``weights=`` spec parameter changes how the greedy agent, the compiled search and the Python
reference search play."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import boardplay
from boardplay.ai import MCTSAgent, make_agent
from boardplay.ai.evaluation import heuristics_for, montana, passtally, weightsets
from boardplay.ai.evaluation.passtally_leaf import PasstallyEvaluation
from boardplay.ai.evaluation.proteus_leaf import ProteusEvaluation
from boardplay.ai.mcts import compiled_evaluation
from boardplay.ai.mcts_reference import ReferenceMCTSAgent
from boardplay.core.errors import OptionError
from boardplay.core.game import Game, State, sample_chance
from boardplay.core.heuristics import softmax
from boardplay.games.montana.layout import Stage

MODELS = {"montana": montana, "passtally": passtally}

# Values the evaluations gave before their weights became data (computed with main at
# a04506a: every 23rd decision of random games, rng seed 11), per seat. Montana's are the
# values since issue 50 moved its tempo (the kernel's ``next_main_seat``): four of the six
# positions lie after a main action and before the turn's end, where no seat had the tempo
# before and the seat whose main action comes next has it now; MONTANA_BEFORE_ISSUE_50 keeps
# the values of before, which differ from these by that tempo alone.
BEFORE = {
    "montana": (
        [
            [0.6364525402815664, 0.36354745971843366],
            [0.9097018552970803, 0.0902981447029198],
            [0.9493096750687493, 0.05069032493125063],
            [0.9640841541172384, 0.035915845882761706],
            [0.9536908501514997, 0.04630914984850038],
            [0.9896462624689083, 0.010353737531091744],
        ],
        [
            [0.6364525402815664, 0.36354745971843366],
            [0.9097018552970803, 0.0902981447029198],
            [0.9493096750687493, 0.05069032493125063],
            [0.9640841541172384, 0.035915845882761685],
            [0.9536908501514997, 0.04630914984850038],
            [0.9896462624689083, 0.010353737531091744],
        ],
    ),
    "passtally": (
        [
            [0.5, 0.5],
            [0.9006808068112424, 0.09931919318875752],
            [0.5, 0.5],
            [0.5709465968834663, 0.4290534031165337],
            [0.6873980595621019, 0.3126019404378982],
            [0.5, 0.5],
        ],
    )
    * 2,
}


MONTANA_BEFORE_ISSUE_50 = [
    [0.7231218051243898, 0.2768781948756102],
    [0.8710191478537642, 0.12898085214623564],
    [0.9493096750687493, 0.05069032493125063],
    [0.9640841541172384, 0.035915845882761706],
    [0.9684767772459986, 0.031523222754001344],
    [0.9930359108222379, 0.0069640891777620825],
]


def _every_23rd_decision(game: Game) -> list[State]:
    rng = random.Random(11)
    state = game.new_initial_state()
    found: list[State] = []
    decisions = 0
    while len(found) < 6:
        if state.is_terminal():
            state = game.new_initial_state()
        if not state.is_chance_node():
            decisions += 1
            if decisions % 23 == 0:
                found.append(state.clone())
        legal = state.legal_actions()
        state.apply_action(
            sample_chance(state, rng) if state.is_chance_node() else rng.choice(legal)
        )
    return found


def _positions(game: Game, seed: int, count: int) -> list[State]:
    rng = random.Random(seed)
    state = game.new_initial_state()
    out: list[State] = []
    while len(out) < count:
        if state.is_terminal():
            state = game.new_initial_state()
            continue
        if not state.is_chance_node():
            out.append(state.clone())
        legal = state.legal_actions()
        state.apply_action(
            sample_chance(state, rng) if state.is_chance_node() else rng.choice(legal)
        )
    return out


@pytest.mark.parametrize("name", ["montana", "passtally"])
def test_the_hand_set_gives_exactly_the_values_of_before(name: str) -> None:
    game = boardplay.load(name)
    python_before, compiled_before = BEFORE[name]
    states = _every_23rd_decision(game)
    python = heuristics_for(game, "hand").evaluate
    compiled = compiled_evaluation(game, "hand")
    assert [python(s) for s in states] == python_before
    assert [compiled.values(s.kernel) for s in states] == compiled_before  # type: ignore[arg-type]
    # Without a set named, the game's default one.
    default = MODELS[name].DEFAULT_WEIGHTS
    assert [heuristics_for(game).evaluate(s) for s in states] == [
        heuristics_for(game, default).evaluate(s) for s in states
    ]
    assert [compiled_evaluation(game).values(s.kernel) for s in states] == [  # type: ignore[arg-type]
        compiled_evaluation(game, default).values(s.kernel)  # type: ignore[arg-type]
        for s in states
    ]


def test_montanas_values_moved_only_by_the_tempo_at_issue_50() -> None:
    """Where the tempo stayed (stage ``MAIN``: the seat to act has it, before and now) the hand
    set's values are those of before; after a main action, where no seat had it, the seat whose
    main action comes next now has 0.4 settlements more (temperature 1), and nothing else moved."""
    game = boardplay.load("montana")
    tempo = weightsets.load("montana", "hand").weights["tempo"]
    moved = 0
    for state, before in zip(_every_23rd_decision(game), MONTANA_BEFORE_ISSUE_50, strict=True):
        assert state.kernel is not None
        seat = int(state.kernel.features()[montana.NEXT_MAIN_SEAT])
        now = heuristics_for(game, "hand").evaluate(state)
        if state.stage == Stage.MAIN:
            assert seat == state.active and now == before
            continue
        moved += 1
        shifted = [math.log(v) + (tempo if p == seat else 0.0) for p, v in enumerate(before)]
        assert now == pytest.approx(softmax(shifted, 1.0), abs=1e-12)
    assert moved == 4


@pytest.mark.parametrize(
    ("text", "name"),
    [(t, n) for t in ("montana", "montana(players=3)", "passtally", "passtally(players=3)")
     for n in weightsets.names(t.split("(")[0])],
)  # fmt: skip
def test_every_shipped_set_is_the_same_in_python_and_c_and_is_its_terms(
    text: str, name: str
) -> None:
    game = boardplay.load(text)
    model = MODELS[game.name]
    weight_set = weightsets.load(game.name, name)
    vector = weight_set.vector(model.TERMS)
    python = heuristics_for(game, name).evaluate
    compiled = compiled_evaluation(game, name)
    for state in _positions(game, seed=4, count=300):
        assert state.kernel is not None
        expected = python(state)
        assert compiled.values(state.kernel) == pytest.approx(expected, abs=1e-12)
        # The fit's model (terms / temperature, weighted) is this evaluation.
        features = state.kernel.features()
        rows = model.terms(features, game.num_players, weight_set)
        strengths = [sum(w * x for w, x in zip(vector, row, strict=True)) for row in rows]
        scale = model.temperature(features, weight_set)
        assert softmax(strengths, scale) == pytest.approx(expected, abs=1e-9)


EXTRA = {
    "montana": weightsets.WeightSet(
        "montana", "workers", {"placed": 1.0, "workers": 3.0}, {"temperature": 1.0}
    ),
    "passtally": weightsets.WeightSet(
        "passtally",
        "lines",
        {"vp": 0.8, "line_vp_paid": 0.5, "line_vp": 0.7, "line_vp_turns": 0.3},
        {"line_turns": 3.0, "temperature": 2.0, "temperature_per_sqrt_turn": 1.5},
    ),
}


def _clear_caches() -> None:
    weightsets.names.cache_clear()
    weightsets.load.cache_clear()
    montana.evaluation.cache_clear()
    passtally.evaluation.cache_clear()


@pytest.fixture
def extra_sets(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """Extra sets beside the shipped ones (read from a copy of the package folder): Montana's
    ``workers`` weighs settlements and workers only, Passtally's ``lines`` moves every weight and
    shape number away from the hand set's."""
    for game, extra in EXTRA.items():
        folder = tmp_path / game
        folder.mkdir()
        for name in weightsets.names(game):
            shipped = weightsets.load(game, name)
            (folder / f"{name}.json").write_text(json.dumps(shipped.to_json()))
        (folder / f"{extra.name}.json").write_text(json.dumps(extra.to_json()))
    _clear_caches()
    monkeypatch.setattr(weightsets, "_folder", lambda game: tmp_path / game)
    yield
    _clear_caches()


@pytest.fixture
def workers_only(extra_sets: None) -> str:
    return "workers"


@pytest.mark.parametrize("text", ["montana", "passtally", "passtally(players=3)"])
def test_a_set_unlike_hand_is_the_same_in_python_and_c(extra_sets: None, text: str) -> None:
    game = boardplay.load(text)
    extra = EXTRA[game.name]
    model = MODELS[game.name]
    hand = heuristics_for(game, "hand").evaluate
    python = heuristics_for(game, extra.name).evaluate
    compiled = compiled_evaluation(game, extra.name)
    differ = 0
    for state in _positions(game, seed=6, count=300):
        assert state.kernel is not None
        expected = python(state)
        assert compiled.values(state.kernel) == pytest.approx(expected, abs=1e-12)
        differ += expected != pytest.approx(hand(state), abs=1e-6)
        # The fit's model with the set's own shape (Passtally: line cap, temperature) is it.
        features = state.kernel.features()
        rows = model.terms(features, game.num_players, extra)
        vector = extra.vector(model.TERMS)
        strengths = [sum(w * x for w, x in zip(vector, row, strict=True)) for row in rows]
        scale = model.temperature(features, extra)
        assert softmax(strengths, scale) == pytest.approx(expected, abs=1e-9)
    assert differ > 100


def _worker_decision(game: Game) -> State:
    """A Montana decision where the hand and workers-only evaluations disagree on the best
    move, found along a seeded random game."""
    rng = random.Random(2)
    state = game.new_initial_state()
    hand = heuristics_for(game, "hand").evaluate
    workers = heuristics_for(game, "workers").evaluate
    while True:
        if not state.is_chance_node() and len(state.legal_actions()) > 3:
            seat = state.current_player()
            scored = []
            for action in state.legal_actions():
                child = state.clone()
                child.apply_action(action)
                if not child.is_chance_node():
                    scored.append((hand(child)[seat], workers(child)[seat], action))
            if len(scored) > 3:
                by_hand = max(scored)[2]
                by_workers = max(scored, key=lambda item: item[1])[2]
                if by_hand != by_workers:
                    return state
        legal = state.legal_actions()
        state.apply_action(
            sample_chance(state, rng) if state.is_chance_node() else rng.choice(legal)
        )
        assert not state.is_terminal()


def test_weights_choose_what_greedy_and_both_searches_play(workers_only: str) -> None:
    game = boardplay.load("montana")
    state = _worker_decision(game)
    seat = state.current_player()
    hand_value = heuristics_for(game, "hand").evaluate(state)[seat]
    workers_value = heuristics_for(game, workers_only).evaluate(state)[seat]
    assert hand_value != workers_value
    assert compiled_evaluation(game, workers_only).values(state.kernel) == pytest.approx(  # type: ignore[arg-type]
        heuristics_for(game, workers_only).evaluate(state), abs=1e-12
    )
    greedy_hand = make_agent("greedy(weights=hand)", game, 1)
    greedy_workers = make_agent(f"greedy(weights={workers_only})", game, 1)
    assert greedy_hand.step(state) != greedy_workers.step(state)
    # The searches back up the chosen set's values: a cut-off-0 search's root estimate for a
    # forced first simulation is the evaluation itself.
    spec = "mcts(iterations=1,early=false,weights={})"
    compiled = [make_agent(spec.format(w), game, 3) for w in ("hand", workers_only)]
    assert all(isinstance(a, MCTSAgent) and a.compiled for a in compiled)
    values = _root_estimates(compiled, state)
    assert values[0] != values[1]
    reference = [
        ReferenceMCTSAgent(game, iterations=1, early_stop=False, weights=w, seed=3)
        for w in ("hand", workers_only)
    ]
    ref_values = _root_estimates(reference, state)
    assert ref_values[0] != ref_values[1]


def _root_estimates(agents: list[Any], state: Any) -> list[float]:
    """Each agent's root win estimate after one search of ``state``."""
    estimates = []
    for agent in agents:
        agent.step(state)
        info = agent.last_search()
        assert info is not None
        estimates.append(info.win_probability)
    return estimates


def test_the_weights_steer_a_real_search(workers_only: str) -> None:
    """With 400 simulations, both the compiled and the reference search play another move in
    the same position when the weight set changes."""
    game = boardplay.load("montana")
    state = _worker_decision(game)
    moves = {}
    for weights in ("hand", workers_only):
        agent = make_agent(f"mcts(iterations=400,weights={weights})", game, 5)
        reference = ReferenceMCTSAgent(game, iterations=400, weights=weights, seed=5)
        moves[weights] = (agent.step(state), reference.step(state))
    assert moves["hand"][0] != moves[workers_only][0]
    assert moves["hand"][1] != moves[workers_only][1]


def test_unknown_weight_sets_are_clear_errors() -> None:
    game = boardplay.load("montana")
    known = ", ".join(weightsets.names("montana"))
    with pytest.raises(
        OptionError, match=f"no weight set 'tuned' for montana; its weight sets are {known}"
    ):
        make_agent("mcts(weights=tuned)", game, 0)
    with pytest.raises(OptionError, match="no weight set 'tuned' for montana"):
        make_agent("greedy(weights=tuned)", game, 0)
    with pytest.raises(
        OptionError, match="no weight set 'fitted' for potlatch; its evaluation has only"
    ):
        make_agent("mcts(weights=fitted)", boardplay.load("potlatch"), 0)
    assert (
        make_agent("mcts(weights=hand)", boardplay.load("potlatch"), 0).name == "mcts(weights=hand)"
    )
    with pytest.raises(ValueError, match="only the 'hand' weights"):
        ProteusEvaluation(2, "fitted")
    with pytest.raises(OptionError, match="no weight set 'tuned' for passtally"):
        PasstallyEvaluation(2, "tuned")


def test_a_weight_set_file_must_name_known_terms() -> None:
    typo = weightsets.WeightSet("montana", "typo", {"worker": 0.2}, {"temperature": 1.0})
    with pytest.raises(ValueError, match="names unknown terms worker; the terms are placed"):
        typo.vector(montana.TERMS)
    with pytest.raises(ValueError, match="not a weight set"):
        weightsets.from_json({"weights": {}})
    with pytest.raises(ValueError, match="malformed weight set"):
        weightsets.from_json({"format": weightsets.FORMAT, "game": "montana", "name": "x"})
    with pytest.raises(ValueError, match="has no shape value 'temperature'"):
        weightsets.WeightSet("montana", "x", {}, {}).shaped("temperature")
    loaded = weightsets.from_json(weightsets.load("montana", "hand").to_json())
    assert loaded == weightsets.load("montana", "hand")
