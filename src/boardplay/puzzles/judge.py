"""The puzzle test: score every turn the side to move can make, and keep a position only where
one answer wins (or saves the game) and every other turn falls short by a margin. The answer is
one turn, or in a game of several actions a turn the group of turns that share the deciding
action (``verdict``).

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
times and that ends the turn by itself comes within ``SCREEN_GAP`` of it: two such first
actions that both keep the win almost always mean two winning turns. A first action the mover
goes on from is no rival: the answer group's turns may pass through it (``verdict``).
Mining screens each turn's scores too: a turn worth less than ``SCREEN_FLOOR`` at a tenth of
the budget keeps that score; only the others are searched at the full budget. Verification
screens nothing: every turn gets the deeper budget, or the turns of a first action that loses
(worth at most ``LOST`` at the deeper budget) that value together (``score``).
"""

from __future__ import annotations

from dataclasses import dataclass

from boardplay.ai.agents import agent_analysis
from boardplay.ai.specs import make_agent
from boardplay.core.game import Game, State
from boardplay.puzzles.turns import Choice, turn_continues

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
"""A puzzle offers at least this many distinct turns, the answer group counted as one: between
two, a guess solves half."""
PREFIX_SHARE = 3
"""A first action is valued through its completions' best (``score``) when it has at least
this many: with fewer, searching them one by one costs no more."""
FEW = 20
"""Passing turns with no action in common are still one answer when at most one turn in this
many passes (``verdict``): a guess then solves at most one attempt in twenty, as rare as a
guess between twenty turns."""
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
    """A position that passed the test: the answer group (``group``, indices among the
    choices, best first; ``index`` is its best), the actions its turns share (``decisive``),
    the kind (``win`` or ``save``), the group's worst value and the best of the others
    (``runner_up``)."""

    group: tuple[int, ...]
    decisive: tuple[str, ...]
    kind: str
    value: float
    runner_up: float

    @property
    def index(self) -> int:
        return self.group[0]


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
            if c["move"] != analysis.move
            and int(c["visits"]) >= SCREEN_VISITS
            and completes(state, str(c["move"]))
        ]
        return all(value <= best - SCREEN_GAP for value in rivals)


def completes(state: State, move: str) -> bool:
    """Whether the first action ``move`` ends the turn by itself: only such a rival can be a
    second answer; one the mover goes on from may lead to the answer group's own turns (a
    Passtally marker move before the winning placement)."""
    after = state.clone()
    after.apply_move(move)
    return not turn_continues(state, after)


def score(
    judge: Judge,
    choices: list[Choice],
    seat: int,
    screen: Judge | None = None,
    start: State | None = None,
) -> list[Value]:
    """Every choice's value for ``seat``: by ``judge`` alone, or, with ``screen`` (a cheaper
    judge), by ``judge`` only where the screen's value reaches ``SCREEN_FLOOR``.

    With ``start`` (the position the choices are turns from), turns that begin with the same
    action and go on are valued through it first (``PREFIX_SHARE``): one search at the decision
    after that action, whose value is that of its best completion. Below the floor
    (``SCREEN_FLOOR`` with a screen, else ``LOST``) no completion can pass nor spoil a save, and
    each keeps that value, the value of the best of them; so a Passtally position's thousand
    turns cost about one search per first action, and only first actions that may matter are
    searched completion by completion."""
    floor = SCREEN_FLOOR if screen is not None else LOST
    bound: dict[int, Value] = {}
    if start is not None:
        followers: dict[int, list[int]] = {}
        for i, choice in enumerate(choices):
            if len(choice.actions) > 1:
                followers.setdefault(choice.actions[0], []).append(i)
        for first, indices in followers.items():
            if len(indices) < PREFIX_SHARE:
                continue
            after = start.clone()
            after.apply_action(first)
            value = (screen or judge).value(after, seat)
            if value.mean < floor:
                bound.update((i, value) for i in indices)
    values: list[Value] = []
    for i, choice in enumerate(choices):
        if i in bound:
            values.append(bound[i])
            continue
        if screen is not None:
            cheap = screen.value(choice.after, seat)
            if cheap.mean < SCREEN_FLOOR and cheap.worst < SCREEN_FLOOR:
                values.append(cheap)
                continue
        values.append(judge.value(choice.after, seat))
    return values


def verdict(values: list[Value], moves: list[tuple[str, ...]] | None = None) -> Verdict | None:
    """The puzzle test over the choices' values (``moves``: each choice's actions in notation,
    needed only where several turns pass): the answer group and its kind, else None.

    **The answer group.** In a game of several actions a turn, turns that differ only in an
    action that does not matter are one answer: in Passtally the tile that wins wins whichever
    marker the other action moves. So the answer is the *group* of every turn that passes (worst
    value at least ``WIN``, or ``HOLD`` for a save), and it is one answer when all its turns
    share an action, the *deciding* one (several if they share several): that is the choice the
    puzzle asks for. Passing turns with no action in common are accepted alike, as lichess
    accepts every mate of a mate-in-one, when they are few: at most one turn in ``FEW``. The
    near end of a Passtally game is such a puzzle: of a thousand turns a handful of placements
    join a line that overtakes, in different cells, and none of the others does. Every turn
    outside the group must fall short as before (mean at most ``EVEN``, or ``LOST``), so no turn
    sits between the classes. A group of one is the single winning turn of Proteus. At least
    ``MIN_CHOICES`` − 1 turns lie outside the group, so that a guess does not solve it."""
    if not values:
        return None
    for kind, passes, short in (("win", WIN, EVEN), ("save", HOLD, LOST)):
        group = [i for i, value in enumerate(values) if value.worst >= passes]
        if not group:
            continue
        members = set(group)
        others = [value.mean for i, value in enumerate(values) if i not in members]
        if len(others) < MIN_CHOICES - 1 or max(others) > short:
            return None
        group.sort(key=lambda i: (-values[i].worst, -values[i].mean, i))
        decisive: tuple[str, ...] = ()
        if len(group) > 1:
            if moves is None:
                return None
            shared = set(moves[group[0]]).intersection(*(moves[i] for i in group[1:]))
            if not shared and len(group) * FEW > len(values):
                return None
            decisive = tuple(m for m in moves[group[0]] if m in shared)
        elif moves is not None:
            decisive = moves[group[0]]
        value = min(values[i].worst for i in group)
        return Verdict(tuple(group), decisive, kind, value, max(others))
    return None
