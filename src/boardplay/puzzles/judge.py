"""The puzzle test: score every turn the side to move can make, and keep a position only where
exactly one of them wins (or saves the game) and every other falls short by a margin.

A turn's value is the mover's win chance in the position it leaves, by the engine's own search
(the game's MCTS with its evaluation, a fresh tree per position, a fixed iteration budget so a
run replays): from a decision of the opponent the search's estimate of the opponent's best
move, turned into the mover's as 1 − p (puzzles are for two seats); from a decision of the mover
(a turn that stopped at a chance outcome and goes on) the search's estimate itself; at the end
of the game the actual return. Forced actions are played out first: a position with one legal
action is no decision.

**Chance.** A turn that stops at a chance node (a Passtally reveal, a Montana spin) is scored
over every outcome: its *mean* (what the turn is worth on average) and its *worst* (what it is
worth whatever comes up). The solution is judged by its worst outcome, so a puzzle's answer
wins whatever is revealed; the other turns by their mean, so an alternative that only wins on
a lucky reveal does not spoil the puzzle.

**Thresholds** (win chances for the mover; why these numbers):

- a **win** puzzle: the solution is worth at least ``WIN`` (0.85) and every other turn at most
  ``EVEN`` (0.5). 0.85 is where the searches here stop being a guess: a search that found a
  forced win reports 0.95–1.0, and a merely good position rarely passes 0.8. Every other turn
  at most an even game means that missing the answer throws the win away, a margin of at
  least 0.35, seven times the standard error of a mean over 100 simulations.
- a **save** puzzle: the solution is worth at least ``HOLD`` (0.4: the game goes on about even,
  or a draw, whose return is 0.5) and every other turn at most ``LOST`` (0.1: lost, the
  opponent's win found). The margin is at least 0.3.

The cheap screen (``screen``) runs first: one search at the position itself, whose children
are the turn's first actions. A position goes to the full test only when the search's best
first action is worth at least ``HOLD`` and no other first action it visited ``SCREEN_VISITS``
times comes within ``SCREEN_GAP`` of it: two first actions that both keep the win almost
always mean two winning turns. Mining screens each turn's scores too: a turn worth less than
``SCREEN_FLOOR`` at a tenth of the budget keeps that score; only the others are searched at
the full budget. Verification screens nothing: every turn gets the deeper budget.
"""

from __future__ import annotations

from dataclasses import dataclass

from boardplay.ai.agents import agent_analysis
from boardplay.ai.specs import make_agent
from boardplay.core.game import Game, State
from boardplay.puzzles.turns import Choice

WIN = 0.85
"""A win puzzle's solution is worth at least this to the mover."""
EVEN = 0.5
"""... and every other turn of a win puzzle at most this."""
HOLD = 0.4
"""A save puzzle's solution is worth at least this."""
LOST = 0.1
"""... and every other turn of a save puzzle at most this."""
SCREEN_VISITS = 30
"""Visits a first action needs before the screen trusts its value."""
SCREEN_GAP = 0.2
"""The screen passes a position only if no well-visited rival first action comes this close to
the best."""
SCREEN_FLOOR = 0.3
"""A turn worth less than this at the screening budget is not searched again in mining."""
SCREEN_SHARE = 10
"""The screening budget is the full budget divided by this."""
MIN_CHOICES = 3
"""A puzzle offers at least this many distinct turns: between two, a guess solves half."""
MAX_FORCED = 64
"""Forced actions followed before a position is searched (a bound, not a rule)."""


def search_spec(iterations: int) -> str:
    """The agent a value comes from: the game's MCTS at a fixed budget, a fresh tree each
    time, the whole budget spent (no early stop), so the same seed gives the same values."""
    return f"mcts(iterations={iterations},reuse=false,early=false)"


@dataclass(frozen=True)
class Value:
    """A turn's worth to the mover: averaged over chance outcomes and at the worst of them
    (equal when no chance comes between), and the continuation the search expects."""

    mean: float
    worst: float
    line: tuple[str, ...] = ()


@dataclass(frozen=True)
class Verdict:
    """A position that passed the test: the solution's index among the choices, the kind
    (``win`` or ``save``), its value and the best of the others (``runner_up``)."""

    index: int
    kind: str
    value: float
    runner_up: float


class Judge:
    """Values of positions for one seat by searches of ``iterations`` simulations, seeded."""

    def __init__(self, game: Game, iterations: int, seed: int) -> None:
        if game.num_players != 2:
            raise ValueError("puzzles are for two players: a turn's value is 1 − the opponent's")
        self.game = game
        self.iterations = iterations
        self.agent = make_agent(search_spec(iterations), game, seed)

    def value(self, state: State, seat: int) -> Value:
        """What ``state`` is worth to ``seat`` (see the module docstring)."""
        state = state.clone()
        line: list[str] = []
        for _ in range(MAX_FORCED):
            if state.is_terminal() or state.is_chance_node() or len(state.legal_actions()) > 1:
                break
            action = state.legal_actions()[0]
            line.append(state.action_to_string(action))
            state.apply_action(action)
        if state.is_terminal():
            won = float(state.returns()[seat])
            return Value(won, won, tuple(line))
        if state.is_chance_node():
            mean, worst = 0.0, 1.0
            for outcome, probability in state.chance_outcomes():
                after = state.clone()
                after.apply_action(outcome)
                value = self.value(after, seat)
                mean += probability * value.mean
                worst = min(worst, value.worst)
            return Value(mean, worst, tuple(line))
        self.agent.step(state)
        analysis = agent_analysis(self.agent)
        assert analysis is not None and analysis.win_probability is not None
        win = float(analysis.win_probability)
        mine = win if state.current_player() == seat else 1.0 - win
        return Value(mine, mine, (*line, *analysis.line))

    def screen(self, state: State) -> bool:
        """Whether ``state`` is worth the full test (module docstring): one search at it."""
        legal = state.legal_actions()
        if len(legal) < 2:
            return False
        self.agent.step(state)
        analysis = agent_analysis(self.agent)
        assert analysis is not None and analysis.win_probability is not None
        best = float(analysis.win_probability)
        if best < HOLD:
            return False
        rivals = [
            float(c["value"])
            for c in analysis.candidates
            if c["move"] != analysis.move and int(c["visits"]) >= SCREEN_VISITS
        ]
        return all(value <= best - SCREEN_GAP for value in rivals)


def score(
    judge: Judge, choices: list[Choice], seat: int, screen: Judge | None = None
) -> list[Value]:
    """Every choice's value for ``seat``: by ``judge`` alone, or, with ``screen`` (a cheaper
    judge), by ``judge`` only where the screen's value reaches ``SCREEN_FLOOR``."""
    values: list[Value] = []
    for choice in choices:
        if screen is not None:
            cheap = screen.value(choice.after, seat)
            if cheap.mean < SCREEN_FLOOR and cheap.worst < SCREEN_FLOOR:
                values.append(cheap)
                continue
        values.append(judge.value(choice.after, seat))
    return values


def verdict(values: list[Value]) -> Verdict | None:
    """The puzzle test over the choices' values: the solution (the best worst case) and its
    kind when exactly one choice passes, else None."""
    if len(values) < MIN_CHOICES:
        return None
    index = max(range(len(values)), key=lambda i: (values[i].worst, values[i].mean))
    best = values[index].worst
    runner_up = max(v.mean for i, v in enumerate(values) if i != index)
    if best >= WIN and runner_up <= EVEN:
        return Verdict(index, "win", best, runner_up)
    if best >= HOLD and runner_up <= LOST:
        return Verdict(index, "save", best, runner_up)
    return None
