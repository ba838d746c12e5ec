"""Small contract-conforming games for testing the AI without the real engines.

``PigGame``: a 2–4 player dice race. A turn is a sequence of decisions by the same seat
(roll again or hold) separated by chance nodes (the die), so it exercises chance nodes,
multi-action turns and N-player returns. ``NimGame``: two players take 1–3 counters from one heap,
whoever takes the last counter wins; a position with a known forced win for MCTS to find.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from boardplay.core.game import CHANCE, TERMINAL, Game, State
from boardplay.core.options import OptionSet, OptionSpec

ROLL, HOLD = 0, 1


class PigState(State):
    """Scores, the running turn total, whose turn, whether a die roll is pending, turns used."""

    def __init__(self, game: PigGame) -> None:
        self.game = game
        self.scores_: list[int] = [0] * game.num_players
        self.turn_total = 0
        self.seat = 0
        self.rolling = False
        self.turns = 0
        self._history: list[int] = []

    def current_player(self) -> int:
        if self._over():
            return TERMINAL
        return CHANCE if self.rolling else self.seat

    def _over(self) -> bool:
        game = self.game
        assert isinstance(game, PigGame)
        return max(self.scores_) >= game.target or self.turns >= game.max_turns

    def legal_actions(self) -> list[int]:
        player = self.current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return list(range(6))
        return [ROLL, HOLD]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(face, 1 / 6) for face in range(6)] if self.current_player() == CHANCE else []

    def _apply(self, action: int) -> None:
        if self.rolling:
            self.rolling = False
            if action == 0:  # a one: the turn total is lost
                self._end_turn()
            else:
                self.turn_total += action + 1
        elif action == ROLL:
            self.rolling = True
        else:
            self.scores_[self.seat] += self.turn_total
            self._end_turn()

    def _end_turn(self) -> None:
        self.turn_total = 0
        self.turns += 1
        self.seat = (self.seat + 1) % len(self.scores_)

    def clone(self) -> PigState:
        other = PigState.__new__(PigState)
        other.game = self.game
        other.scores_ = list(self.scores_)
        other.turn_total = self.turn_total
        other.seat = self.seat
        other.rolling = self.rolling
        other.turns = self.turns
        other._history = list(self._history)
        return other

    def history(self) -> list[int]:
        return list(self._history)

    def action_to_string(self, action: int) -> str:
        if self.current_player() == CHANCE:
            return f"die {action + 1}"
        return "roll" if action == ROLL else "hold"

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * len(self.scores_)
        best = max(self.scores_)
        winners = [s for s, v in enumerate(self.scores_) if v == best]
        return [1 / len(winners) if s in winners else 0.0 for s in range(len(self.scores_))]

    def scores(self) -> list[float] | None:
        return [float(v) for v in self.scores_]

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores_),
            "turn_total": self.turn_total,
            "seat": self.seat,
            "rolling": self.rolling,
            "turns": self.turns,
        }

    def render(self, detail: bool = False) -> str:
        return f"scores {self.scores_} seat {self.seat} turn total {self.turn_total}"


class PigGame(Game):
    name: ClassVar[str] = "pig"
    can_draw: ClassVar[bool] = False
    title: ClassVar[str] = "Pig"
    option_set: ClassVar[OptionSet] = OptionSet(
        "pig",
        (
            OptionSpec("players", 2, "number of players", minimum=2, maximum=4),
            OptionSpec("target", 20, "points needed to win", minimum=1, maximum=100),
        ),
    )
    num_distinct_actions: ClassVar[int] = 2
    max_chance_outcomes: ClassVar[int] = 6
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    max_turns = 60

    @property
    def num_players(self) -> int:
        return int(self.options["players"])  # type: ignore[arg-type]

    @property
    def target(self) -> int:
        return int(self.options["target"])  # type: ignore[arg-type]

    @property
    def max_game_length(self) -> int:
        return self.max_turns * 2 * (self.target + 2)

    def new_initial_state(self) -> PigState:
        return PigState(self)

    def state_from_json(self, position: Mapping[str, Any]) -> PigState:
        state = PigState(self)
        state.scores_ = list(position["scores"])
        state.turn_total = int(position["turn_total"])
        state.seat = int(position["seat"])
        state.rolling = bool(position["rolling"])
        state.turns = int(position["turns"])
        return state


class NimState(State):
    """One heap; seat 0 and 1 alternate; taking the last counter wins."""

    def __init__(self, game: NimGame, heap: int) -> None:
        self.game = game
        self.heap = heap
        self.seat = 0
        self._history: list[int] = []

    def current_player(self) -> int:
        return TERMINAL if self.heap == 0 else self.seat

    def legal_actions(self) -> list[int]:
        return [take - 1 for take in range(1, min(3, self.heap) + 1)]

    def _apply(self, action: int) -> None:
        self.heap -= action + 1
        if self.heap:
            self.seat = 1 - self.seat

    def clone(self) -> NimState:
        other = NimState(self.game, self.heap)  # type: ignore[arg-type]
        other.seat = self.seat
        other._history = list(self._history)
        return other

    def history(self) -> list[int]:
        return list(self._history)

    def action_to_string(self, action: int) -> str:
        return f"take {action + 1}"

    def returns(self) -> list[float]:
        if self.heap:
            return [0.0, 0.0]
        return [1.0, 0.0] if self.seat == 0 else [0.0, 1.0]

    def to_json(self) -> dict[str, Any]:
        return {"heap": self.heap, "seat": self.seat}

    def render(self, detail: bool = False) -> str:
        return f"heap {self.heap}, seat {self.seat} to move"


class NimGame(Game):
    name: ClassVar[str] = "nim"
    can_draw: ClassVar[bool] = False
    title: ClassVar[str] = "Nim"
    option_set: ClassVar[OptionSet] = OptionSet(
        "nim", (OptionSpec("heap", 10, "counters at the start", minimum=1, maximum=50),)
    )
    num_distinct_actions: ClassVar[int] = 3

    @property
    def max_game_length(self) -> int:
        return int(self.options["heap"])  # type: ignore[arg-type]

    def new_initial_state(self) -> NimState:
        return NimState(self, int(self.options["heap"]))  # type: ignore[arg-type]

    def state_from_json(self, position: Mapping[str, Any]) -> NimState:
        state = NimState(self, int(position["heap"]))
        state.seat = int(position["seat"])
        return state


SETTLE, GAMBLE = 0, 1


class DuelState(State):
    """Seat 0 settles for a draw or gambles on a coin (win or loss); seat 1 never moves."""

    def __init__(self, game: DuelGame) -> None:
        self.game = game
        self.choice: int | None = None
        self.coin: int | None = None
        self._history: list[int] = []

    def current_player(self) -> int:
        if self.choice is None:
            return 0
        if self.choice == GAMBLE and self.coin is None:
            return CHANCE
        return TERMINAL

    def legal_actions(self) -> list[int]:
        if self.choice is None:
            return [SETTLE, GAMBLE]
        return [0, 1] if self.current_player() == CHANCE else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(0, 0.5), (1, 0.5)]

    def _apply(self, action: int) -> None:
        if self.choice is None:
            self.choice = action
        else:
            self.coin = action

    def clone(self) -> DuelState:
        other = DuelState(self.game)  # type: ignore[arg-type]
        other.choice, other.coin = self.choice, self.coin
        other._history = list(self._history)
        return other

    def action_to_string(self, action: int) -> str:
        return ("settle", "gamble")[action] if self.choice is None else ("lose", "win")[action]

    def returns(self) -> list[float]:
        if self.choice == SETTLE:
            return [0.5, 0.5]
        if self.coin is None:
            return [0.0, 0.0]
        return [1.0, 0.0] if self.coin == 1 else [0.0, 1.0]

    def to_json(self) -> dict[str, Any]:
        return {"choice": self.choice, "coin": self.coin}

    def render(self, detail: bool = False) -> str:
        return str(self.to_json())


class DuelGame(Game):
    name: ClassVar[str] = "duel"
    can_draw: ClassVar[bool] = True
    title: ClassVar[str] = "Duel"
    option_set: ClassVar[OptionSet] = OptionSet("duel", ())
    num_distinct_actions: ClassVar[int] = 2

    @property
    def max_game_length(self) -> int:
        return 2

    def new_initial_state(self) -> DuelState:
        return DuelState(self)

    def state_from_json(self, position: Mapping[str, Any]) -> DuelState:
        state = DuelState(self)
        state.choice, state.coin = position["choice"], position["coin"]
        return state
