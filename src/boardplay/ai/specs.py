"""Agent spec strings, used everywhere an agent is chosen: ``random``, ``greedy``,
``mcts(iterations=400)``, ``mcts(time=1.0)``, ``mcts(time=2,cutoff=40,c=0.7)``,
``mcts(iterations=100,weights=hand)`` (the evaluation's weight set), ``policy(potlatch-ppo)``
(a learned policy shipped with boardplay, ``boardplay.ai.policy``),
``az(weights=proteus,time=0.1)`` (PUCT search steered by a shipped network, ``boardplay.ai.az``)
and the named
levels ``easy`` .. ``expert``, which resolve per game to a concrete spec (the game's
``Game.levels``): think time per move with an iteration cap, chosen from measured arena
results (docs/ai.md)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal

from boardplay.ai.agents import Agent, GreedyAgent, RandomAgent
from boardplay.ai.az import make_az
from boardplay.ai.mcts import MCTSAgent
from boardplay.ai.placement_book import guard
from boardplay.ai.policy import PolicyAgent, available_policies, find_policy, learned_policy
from boardplay.core.errors import OptionError
from boardplay.core.game import Game
from boardplay.core.options import parse_game_string

AgentFactory = Callable[[Game, dict[str, str], int | None], Agent]


def _no_params(kind: str, params: dict[str, str]) -> None:
    if params:
        raise OptionError(f"agent {kind!r} takes no parameters, got {', '.join(params)}")


def _random(game: Game, params: dict[str, str], seed: int | None) -> Agent:
    _no_params("random", params)
    return RandomAgent(seed)


def _greedy(game: Game, params: dict[str, str], seed: int | None) -> Agent:
    unknown = sorted(set(params) - {"weights"})
    if unknown:
        raise OptionError(f"greedy has no parameter {unknown[0]!r}; its parameter is weights")
    agent = GreedyAgent(game, seed, weights=params.get("weights"))
    if params:
        agent.name = f"greedy(weights={params['weights']})"
    return agent


_MCTS_PARAMS = (
    "iterations, time, c, cutoff, rollout, reuse, early, contempt, decisive, finish_turn, "
    "repetition, opening_cutoff, weights, normalize, spread"
)


def _number(name: str, raw: str, kind: type[int] | type[float]) -> float:
    try:
        return kind(raw)
    except ValueError:
        what = "an integer" if kind is int else "a number"
        raise OptionError(f"mcts parameter {name!r} must be {what}, got {raw!r}") from None


def _flag(name: str, params: dict[str, str]) -> bool:
    raw = params.get(name, "true").lower()
    if raw not in ("true", "false"):
        raise OptionError(f"mcts parameter {name!r} must be true or false, got {raw!r}")
    return raw == "true"


def _mcts(game: Game, params: dict[str, str], seed: int | None) -> Agent:
    unknown = sorted(set(params) - set(_MCTS_PARAMS.split(", ")))
    if unknown:
        raise OptionError(
            f"mcts has no parameter {unknown[0]!r}; its parameters are {_MCTS_PARAMS}"
        )
    iterations = (
        int(_number("iterations", params["iterations"], int)) if "iterations" in params else None
    )
    time_limit = _number("time", params["time"], float) if "time" in params else None
    c = _number("c", params["c"], float) if "c" in params else None
    contempt = _number("contempt", params["contempt"], float) if "contempt" in params else 0.0
    cutoff: int | Literal["game"] | None = "game"
    if "cutoff" in params:
        raw = params["cutoff"].lower()
        cutoff = None if raw in ("none", "null") else int(_number("cutoff", raw, int))
    opening_cutoff: int | Literal["cutoff"] | None = "cutoff"
    if "opening_cutoff" in params:
        raw = params["opening_cutoff"].lower()
        opening_cutoff = (
            None if raw in ("none", "null") else int(_number("opening_cutoff", raw, int))
        )
    reuse, early = (_flag(name, params) for name in ("reuse", "early"))
    decisive = _flag("decisive", params) if "decisive" in params else None
    repetition = _flag("repetition", params) if "repetition" in params else None
    finish_turn = _flag("finish_turn", params) if "finish_turn" in params else False
    normalize = _flag("normalize", params) if "normalize" in params else False
    spread = _flag("spread", params) if "spread" in params else None
    shown = ",".join(f"{k}={v}" for k, v in params.items())
    try:
        return MCTSAgent(
            game,
            iterations=iterations,
            time_limit=time_limit,
            c=c,
            cutoff=cutoff,
            rollout=params.get("rollout", "policy").lower(),
            reuse=reuse,
            early_stop=early,
            contempt=contempt,
            decisive=decisive,
            repetition=repetition,
            finish_turn=finish_turn,
            opening_cutoff=opening_cutoff,
            weights=params.get("weights"),
            seed=seed,
            name=f"mcts({shown})" if shown else "mcts",
            normalize=normalize,
            spread=spread,
        )
    except ValueError as exc:
        raise OptionError(str(exc)) from None


def _policy(game: Game, params: dict[str, str], seed: int | None) -> Agent:
    unknown = sorted(set(params) - {"name"})
    if unknown or "name" not in params:
        known = ", ".join(available_policies()) or "none shipped"
        raise OptionError(f"policy takes one parameter, the policy's name (known: {known})")
    name = params["name"]
    return PolicyAgent(game, find_policy(name), f"policy({name})")


AGENTS: dict[str, AgentFactory] = {
    "random": _random,
    "greedy": _greedy,
    "mcts": _mcts,
    "policy": _policy,
    "az": make_az,
}
"""Agent kinds by name. Further kinds register themselves here."""

LEVEL_NAMES = ("easy", "medium", "hard", "expert")

GUARDED_LEVELS = ("hard", "expert")
"""The levels kept out of placement traps where a game has a placement book (Proteus:
``boardplay.ai.placement_book``); the lower ones stay as weak as their budgets make them."""

LEARNED = "learned"
"""The level played by the game's shipped learned policy (no search; ``learned_policy``)."""

_BARE_POLICY = re.compile(r"policy\(\s*([A-Za-z0-9_.-]+)\s*\)", re.IGNORECASE)

DEFAULT_LEVELS: dict[str, str] = {
    "easy": "mcts(iterations=100)",
    "medium": "mcts(time=0.1,iterations=10000)",
    "hard": "mcts(time=0.5,iterations=50000)",
    "expert": "mcts(time=2,iterations=200000)",
}
"""Levels by think time: seconds per move, each with an iteration cap (about what this machine
searches in that time when idle), so a level never thinks longer than its time and plays the
same wherever the cap is reached first. ``easy`` is a small fixed budget (a few milliseconds
with the compiled search), so it replays exactly everywhere."""

# Per game, the level table is the game's ``levels`` (class attribute of its ``Game``): level
# name -> spec. The compiled search (boardplay.ai.search) makes a search step 20-50 times
# cheaper than the Python one, so every level is a search: easy a small one (a real but weak
# player, well above random), expert up to 2 s per move on one core. docs/ai.md has the
# measured steps and think times. A game without its own table uses DEFAULT_LEVELS.


def level_spec(level: str, game: Game) -> str:
    """The concrete spec behind a named level for ``game``."""
    by_players = (game.player_levels or {}).get(game.num_players, {})
    return by_players.get(level) or (game.levels or DEFAULT_LEVELS)[level]


def resolve_spec(spec: str, game: Game) -> str:
    """The concrete spec behind ``spec`` for ``game``: a level's or a named agent's
    (``Game.agents``) spec, any other spec itself."""
    key = spec.strip().lower()
    if key in LEVEL_NAMES:
        return level_spec(key, game)
    return (game.agents or {}).get(key, spec)


def with_budget(
    spec: str, game: Game, *, time: float | None = None, iterations: int | None = None
) -> str:
    """``spec`` (a level or agent name resolved for ``game`` first) with its budget replaced:
    ``time`` seconds and ``iterations`` simulations a move, each None to drop it. The one place
    a budget is rewritten, so an equal-time match, an equal-simulation match and a site level
    change only the budget and keep every other search option of the spec."""
    spec = resolve_spec(spec, game)
    name, params = parse_game_string(spec)
    kept = {k: v for k, v in params.items() if k not in ("time", "iterations")}
    budget = {
        **({"iterations": str(iterations)} if iterations is not None else {}),
        **({"time": f"{time:g}"} if time is not None else {}),
    }
    if not budget:
        raise OptionError(f"{spec!r} needs a budget: a time or a number of iterations")
    inner = ",".join(f"{k}={v}" for k, v in {**budget, **kept}.items())
    return f"{name}({inner})"


def as_level(level: str, agent: Agent, game: Game) -> Agent:
    """``agent`` as the level ``level`` plays it: guarded against placement traps where the
    level is one of ``GUARDED_LEVELS``. The one place that rule is applied, whether the level's
    search is its own spec (``make_agent``) or the site's budget for it (the AI worker)."""
    return guard(agent, game) if level.strip().lower() in GUARDED_LEVELS else agent


LEVEL_BUDGET = ("time", "iterations")
"""What a level's spec may change (``expert(time=0.01)``): its budget, never how it searches."""


def _level_with(level: str, params: dict[str, str], game: Game) -> str:
    """The spec of ``level`` for ``game`` with the budget ``params`` replaced: the level on a
    machine that gives it a tenth of the time is ``expert(time=0.01)``, searching as the level
    does (and guarded as it is, ``as_level``), only for less long."""
    other = sorted(set(params) - set(LEVEL_BUDGET))
    if other:
        raise OptionError(
            f"a level takes only a budget ({' or '.join(LEVEL_BUDGET)}), got {', '.join(other)}"
        )
    spec = level_spec(level, game)
    if not params:
        return spec
    name, own = parse_game_string(spec)
    inner = ",".join(f"{k}={v}" for k, v in {**own, **params}.items())
    return f"{name}({inner})"


def make_agent(spec: str, game: Game, seed: int | None = None) -> Agent:
    """Build the agent described by ``spec`` for ``game``; ``OptionError`` names the kinds."""
    bare = _BARE_POLICY.fullmatch(spec.strip())
    if bare:  # policy(potlatch-ppo): the name alone, as the docs write it
        spec = f"policy(name={bare.group(1)})"
    name, params = parse_game_string(spec)
    key = name.lower()
    if key == LEARNED:
        _no_params(key, params)
        agent = make_agent(f"policy(name={learned_policy(game)})", game, seed)
        agent.name = key
        return agent
    if key in LEVEL_NAMES:
        agent = make_agent(_level_with(key, params, game), game, seed)
        agent.name = spec.strip() if params else key
        return as_level(key, agent, game)
    named = game.agents or {}
    if key in named:
        _no_params(key, params)
        agent = make_agent(named[key], game, seed)
        agent.name = key
        return agent
    factory = AGENTS.get(key)
    if factory is None:
        known = ", ".join([*sorted(AGENTS), *LEVEL_NAMES, LEARNED, *sorted(named)])
        raise OptionError(f"unknown agent {spec!r}; known agents: {known}")
    return factory(game, params, seed)
