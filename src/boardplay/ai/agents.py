"""The ``Agent`` protocol (docs/design.md §4), the uniform-random agent and the greedy agent.

An agent is asked for an action only at decision nodes of its own seat; chance nodes are
resolved by the driver. Agents are deterministic for a given seed (search agents with an
iteration budget; a time budget depends on the machine's speed)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from boardplay.ai.evaluation import heuristics_for
from boardplay.core.game import Game, State
from boardplay.core.heuristics import Heuristics


@runtime_checkable
class Agent(Protocol):
    """Chooses actions. ``inform`` tells the agent every action applied (its own, the other
    seats' and chance outcomes) so a search can reuse its tree; ``reset`` starts a new game."""

    name: str

    def step(self, state: State) -> int: ...

    def reset(self) -> None: ...

    def inform(self, action: int) -> None: ...


@dataclass
class Analysis:
    """What an agent thought of its last decision, for interfaces to show.

    ``win_probability`` is the agent's estimate for the seat that moved; ``line`` the expected
    continuation in notation (chance outcomes included) starting with the chosen move;
    ``candidates`` the considered moves with their visit counts / values."""

    agent: str
    seat: int
    move: str
    win_probability: float | None
    line: list[str] = field(default_factory=list)
    iterations: int = 0
    seconds: float = 0.0
    candidates: list[dict[str, Any]] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        """The short form ``boardplay play`` prints after an agent's move."""
        out: dict[str, Any] = {}
        if self.win_probability is not None:
            out["win_probability"] = self.win_probability
        out["line"] = list(self.line)
        if self.iterations:
            out["iterations"] = self.iterations
        if self.seconds:
            out["seconds"] = self.seconds
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "seat": self.seat,
            "move": self.move,
            "win_probability": self.win_probability,
            "line": list(self.line),
            "iterations": self.iterations,
            "seconds": self.seconds,
            "candidates": list(self.candidates),
        }


def candidate(state: State, action: int, visits: int, value: float) -> dict[str, Any]:
    """One of an ``Analysis``'s candidates: the move, its visits and its value for the mover."""
    return {"move": state.action_to_string(action), "visits": visits, "value": round(value, 4)}


def agent_analysis(agent: object) -> Analysis | None:
    """The agent's full analysis of its last move, or None for agents that do not report one."""
    method = getattr(agent, "last_search", None)
    if method is None:
        return None
    result = method()
    return result if isinstance(result, Analysis) else None


def _check_can_move(state: State) -> list[int]:
    legal = state.legal_actions()
    if not legal or state.is_chance_node():
        raise ValueError("there is no decision to take here (the game is over or chance acts)")
    return legal


class RandomAgent:
    """Picks uniformly among the legal actions with its own seeded generator."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.name = "random"
        self._rng = random.Random(seed)

    def step(self, state: State) -> int:
        legal = _check_can_move(state)
        return legal[self._rng.randrange(len(legal))]

    def reset(self) -> None:
        self._rng = random.Random(self.seed)

    def inform(self, action: int) -> None:
        return None


def expected_value(
    state: State, seat: int, heuristics: Heuristics, rng: random.Random, samples: int = 6
) -> float:
    """The evaluation of ``state`` for ``seat``, averaged over chance: outcomes are enumerated
    when there are at most ``samples`` of them (weighted by probability) and sampled otherwise,
    so the greedy agent judges a roll by what it can bring, not by the die it happens to see."""
    if not state.is_chance_node():
        return heuristics.evaluate(state)[seat]
    outcomes = state.chance_outcomes()
    if len(outcomes) <= samples:
        total = 0.0
        for outcome, probability in outcomes:
            child = state.clone()
            child.apply_action(outcome)
            total += probability * expected_value(child, seat, heuristics, rng, 1)
        return total
    actions = [a for a, _ in outcomes]
    weights = [p for _, p in outcomes]
    picks = rng.choices(actions, weights=weights, k=samples)
    value = 0.0
    for outcome in picks:
        child = state.clone()
        child.apply_action(outcome)
        value += expected_value(child, seat, heuristics, rng, 1)
    return value / samples


class GreedyAgent:
    """One ply: tries every legal action, evaluates the position it leads to with the game's
    evaluation (``boardplay.ai.evaluation``) from the mover's point of view and plays the best;
    ties are broken at random with the agent's seeded generator. In a multi-action turn each
    action is judged on its own, which is why the per-game evaluations value partial turns
    (e.g. a pending chip increase) sensibly. ``weights`` names the evaluation's weight set
    (default: the game's)."""

    def __init__(self, game: Game, seed: int | None = None, weights: str | None = None) -> None:
        self.game = game
        self.seed = seed
        self.name = "greedy"
        self.heuristics = heuristics_for(game, weights)
        self._rng = random.Random(seed)
        self._last: Analysis | None = None

    def step(self, state: State) -> int:
        legal = _check_can_move(state)
        seat = state.current_player()
        if len(legal) == 1:
            self._last = None
            return legal[0]
        scored: list[tuple[float, int]] = []
        for action in legal:
            child = state.clone()
            child.apply_action(action)
            scored.append((expected_value(child, seat, self.heuristics, self._rng), action))
        best = max(value for value, _ in scored)
        choices = [action for value, action in scored if value >= best - 1e-12]
        choice = choices[self._rng.randrange(len(choices))]
        ranked = sorted(scored, key=lambda item: -item[0])[:8]
        self._last = Analysis(
            agent=self.name,
            seat=seat,
            move=state.action_to_string(choice),
            win_probability=best,
            line=[state.action_to_string(choice)],
            candidates=[
                {"move": state.action_to_string(a), "value": round(v, 4)} for v, a in ranked
            ],
        )
        return choice

    def analysis(self) -> dict[str, Any] | None:
        """Estimated win chance and expected line of the last move (for ``play``)."""
        return None if self._last is None else self._last.summary()

    def last_search(self) -> Analysis | None:
        """Everything known about the last decision, candidates included."""
        return self._last

    def reset(self) -> None:
        self._rng = random.Random(self.seed)
        self._last = None

    def inform(self, action: int) -> None:
        return None
