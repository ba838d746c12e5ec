"""Search speed: MCTS simulations per second per game, for ``make bench``.

A simulation is one selection–expansion–rollout–backup pass. Two measurements, both from the
first decision of a seeded game (so runs on one machine compare), each counted per second of
the measuring thread's CPU time (``time.thread_time``): on a machine shared with other work a
search gets the same CPU seconds whatever the load, so two searches measured minutes apart
still compare (wall seconds would hand the one run under load a smaller share of a core; with
the machine to itself the two clocks agree):

- ``mcts_speed``: ``MCTSAgent`` with its default settings (each game's cutoff and exploration),
  compiled (``boardplay.ai.search``) or, with ``reference=True``, the Python reference search
  (``boardplay.ai.mcts_reference``) that the compiled one replaced;
- ``mcts_speed(..., rollouts=True)``: uniformly random rollouts to the end of the game
  (``cutoff=none``, ``rollout=random``, c = 1.4), the setting OpenSpiel's MCTSBot plays.

OpenSpiel's Python ``MCTSBot`` on the same game and position, measured beside these, is
``boardplay.adapters.mctsbot`` (the adapters call the AI, never the other way).

``az_against_mcts`` sets a game's learned search (``az``, steered by a shipped network) beside
the plain compiled search at the same settings: the same positions (``spec_speed``'s nine),
the same budget and every option the two share, each search's own leaves otherwise
(``search_counterpart``); the network's pass alone, the floor of what it adds to a
simulation (issue 67 asks ``az`` for at least 1/1.5 of ``mcts``'s rate); and ``az`` with a
network of one hidden unit (``bare_spec``), the ceiling its own search work leaves any network.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from boardplay.ai.agents import agent_analysis
from boardplay.ai.az import AZAgent, network_path, read_arrays, save_arrays
from boardplay.ai.mcts import MCTSAgent
from boardplay.ai.mcts_reference import ReferenceMCTSAgent
from boardplay.ai.specs import LEVEL_NAMES, level_spec, make_agent
from boardplay.core.game import Game, State, sample_chance
from boardplay.core.options import parse_game_string
from boardplay.core.registry import load

ROLLOUT_C = 1.4
"""The exploration constant of the random-rollout comparison (OpenSpiel examples use 1.4-2)."""

PASS_REPEATS = 2000
"""Network passes timed per position (a pass takes microseconds; the clock ticks coarser)."""


def first_decision(game: Game, seed: int) -> State:
    """The position every measurement searches: ``game``'s first decision, chance sampled with
    ``seed``."""
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    return state


def mcts_speed(
    game: str | Game,
    seconds: float = 2.0,
    seed: int = 0,
    *,
    reference: bool = False,
    rollouts: bool = False,
) -> float:
    """Simulations per CPU second of a ``seconds``-long search (wall time, the agent's budget)
    from the first decision of ``game`` (a name, a game string such as ``"montana(players=4)"``
    or a ``Game``)."""
    loaded = load(game) if isinstance(game, str) else game
    state = first_decision(loaded, seed)
    kind = ReferenceMCTSAgent if reference else MCTSAgent
    if rollouts:
        agent = kind(
            loaded,
            time_limit=seconds,
            seed=seed,
            reuse=False,
            early_stop=False,
            cutoff=None,
            rollout="random",
            c=ROLLOUT_C,
        )
    else:
        agent = kind(loaded, time_limit=seconds, seed=seed, reuse=False, early_stop=False)
    began = time.process_time()
    agent.step(state)
    took = time.process_time() - began
    info = agent.last_search()
    assert info is not None
    return info.iterations / max(took, 1e-9)


def decisions(game: Game, positions: int = 9, seed: int = 0) -> list[State]:
    """``positions`` decisions spread evenly over one seeded game of ``game`` played by
    ``medium``, so the opening and the middle and end game count alike (Proteus's placement
    searches run faster than its movement's)."""
    state = first_decision(game, seed)
    mover = make_agent("medium", game, seed)
    rng = random.Random(seed)
    met: list[State] = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        if len(state.legal_actions()) > 1:
            met.append(state.clone())
        action = mover.step(state)
        state.apply_action(action)
        mover.inform(action)
    step = max(1, len(met) // positions)
    return met[::step][:positions]


def spec_speed(game: Game, spec: str, positions: int = 9, seed: int = 0) -> float:
    """Simulations per CPU second of ``spec`` (a search spec or level, at its own budget): the
    median over the ``decisions`` of ``game`` (``rate_on``)."""
    return rate_on(game, spec, decisions(game, positions, seed), seed)


def rate_on(game: Game, spec: str, states: list[State], seed: int = 0) -> float:
    """Simulations per CPU second of ``spec`` on ``states``, the median, one fresh agent each
    (no tree kept). A search that ended at its iteration cap is left out: it found the position
    settled (a forced win) and ran its simulations far faster than a search still choosing, so
    it would inflate the rate."""
    rates: list[float] = []
    for index, position in enumerate(states):
        agent = make_agent(spec, game, seed + index)
        began = time.process_time()
        agent.step(position)
        spent = time.process_time() - began
        info = agent_analysis(agent)
        cap = getattr(agent, "iterations", None)
        if info is not None and info.iterations and (cap is None or info.iterations < cap):
            rates.append(info.iterations / max(spent, 1e-9))
    return statistics.median(rates) if rates else 0.0


def learned_spec(game: Game) -> str | None:
    """The game's learned search: the first ``az`` spec among its levels at its table size, then
    among its named agents (None for a game without one)."""
    levels = [level_spec(level, game) for level in LEVEL_NAMES]
    for spec in (*levels, *(game.agents or {}).values()):
        if parse_game_string(spec)[0].lower() == "az":
            return spec
    return None


def search_counterpart(agent: AZAgent) -> str:
    """The plain search at the same settings as the learned ``agent``: ``mcts`` with its
    budget and the values (given or default) of the options the two searches share: contempt,
    repetition, decisive moves, the turn's completion before a leaf is judged; early stop off,
    as ``az`` has none. The rest, ``mcts``'s own defaults: its leaves are the game's compiled
    evaluation (cutoff and all) where ``az``'s are the network's, which is what the comparison
    measures. The network's own options (``weights``, ``mix``, ``uniform``, ``fpu``) have no
    counterpart, and ``c`` weighs PUCT's prior term, on another scale than UCT's constant."""
    budget = {"iterations": agent.iterations, "time": agent.time_limit}
    shared = {
        **{key: value for key, value in budget.items() if value},
        "contempt": agent.contempt,
        "repetition": agent.repetition,
        "decisive": agent.decisive,
        "finish_turn": agent.finish_turn,
        "early": False,
    }
    shown = {
        key: str(value).lower() if isinstance(value, bool) else value
        for key, value in shared.items()
    }
    return "mcts(" + ",".join(f"{key}={value}" for key, value in shown.items()) + ")"


@dataclass(frozen=True)
class LearnedSpeed:
    """A learned search's rate beside the plain search's at the same settings."""

    az_spec: str
    mcts_spec: str
    az_rate: float
    """``az``'s simulations per CPU second (``spec_speed``)."""
    mcts_rate: float
    """``mcts``'s, on the same positions."""
    pass_seconds: float
    """CPU seconds of one network pass as the search makes it (the median over the
    positions): what the network adds to each ``az`` simulation at the least."""
    bare_rate: float
    """``az``'s rate with a network of one hidden unit (``bare_spec``): what no network can
    beat, the search's own work per simulation."""

    @property
    def slowdown(self) -> float:
        """How many times slower ``az`` simulates than ``mcts`` (1.5 at the issue's bound)."""
        return self.mcts_rate / self.az_rate if self.az_rate > 0 else float("inf")

    @property
    def bare_slowdown(self) -> float:
        """``slowdown`` with a one-unit network: the least any network could give."""
        return self.mcts_rate / self.bare_rate if self.bare_rate > 0 else float("inf")


def bare_spec(spec: str, folder: Path) -> str:
    """``spec`` (an ``az`` spec) with its network replaced by one of a single hidden unit that
    reads the same input and writes the same logits and values (seeded random weights, written
    into ``folder``). Its pass costs next to nothing, so its rate is the most ``az`` could run
    at with any network: what PUCT itself costs a simulation (every child scored at each step
    down, each new leaf's legal actions laid out with priors)."""
    name, params = parse_game_string(spec)
    arrays, meta = read_arrays(network_path(params["weights"]))
    rng = np.random.default_rng(0)
    inputs, actions, seats = (
        arrays["trunk0_w"].shape[0],
        arrays["policy_w"].shape[1],
        arrays["value_w"].shape[1],
    )
    bare = {
        "trunk0_w": rng.normal(0.0, inputs**-0.5, (inputs, 1)),
        "trunk0_b": np.zeros(1),
        "policy_w": rng.normal(0.0, 1.0, (1, actions)),
        "policy_b": np.zeros(actions),
        "value_w": rng.normal(0.0, 1.0, (1, seats)),
        "value_b": np.zeros(seats),
    }
    path = folder / "bare.npz"
    save_arrays(path, bare, meta)
    shown = {**params, "weights": str(path)}
    return f"{name}(" + ",".join(f"{key}={value}" for key, value in shown.items()) + ")"


def az_against_mcts(game: Game, positions: int = 9, seed: int = 0) -> LearnedSpeed | None:
    """``game``'s learned search and its ``search_counterpart`` on the same ``positions``
    decisions, each at the learned spec's budget, and the network's pass timed on each of them
    (the value pass alone for a ``uniform`` search, else the legal actions' logits too), and
    the learned spec with a one-unit network (``bare_spec``); None for a game without a learned
    search."""
    spec = learned_spec(game)
    if spec is None:
        return None
    agent = make_agent(spec, game, seed)
    assert isinstance(agent, AZAgent)
    counterpart = search_counterpart(agent)
    states = decisions(game, positions, seed)
    passes = []
    for position in states:
        assert position.kernel is not None  # az refuses a game without a compiled kernel
        passes.append(
            agent.network.pass_seconds(
                position.kernel, position.current_player(), PASS_REPEATS, logits=not agent.uniform
            )
        )
    with tempfile.TemporaryDirectory() as folder:
        bare = rate_on(game, bare_spec(spec, Path(folder)), states, seed)
    return LearnedSpeed(
        spec,
        counterpart,
        rate_on(game, spec, states, seed),
        rate_on(game, counterpart, states, seed),
        statistics.median(passes),
        bare,
    )
