"""A tiny game for the web tests, independent of the real engines.

"Tiny take": a chance roll sets a pile of 8..10 counters; players take turns of two steps
(three with ``bonus=1``), each step takes 1..3 counters (never more than are left) and scores
them; the turn also ends when the pile is empty, which ends the game; the most counters win
(equals share). "Trio take" is the same for three players (``TRIO_CATALOGUE``, for the tests of
games whose seats outnumber two). It exercises what the
server must handle generically: an opening chance node, multi-step turns (undo), scores and a
result."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boardplay.core.errors import PositionError
from boardplay.core.game import CHANCE, TERMINAL, Game, State
from boardplay.core.options import OptionSet, OptionSpec


class TinyState(State):
    def __init__(self, game: TinyGame) -> None:
        self.game = game
        self.pile = -1  # -1: not rolled yet
        self.to_move = 0
        self.step = 0
        self.score = [0] * game.num_players
        self._history: list[int] = []

    def current_player(self) -> int:
        if self.pile < 0:
            return CHANCE
        if self.pile == 0:
            return TERMINAL
        return self.to_move

    def legal_actions(self) -> list[int]:
        if self.pile < 0:
            return [0, 1, 2]
        return list(range(min(3, self.pile)))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(a, 1 / 3) for a in range(3)] if self.pile < 0 else []

    def _apply(self, action: int) -> None:
        if self.pile < 0:
            self.pile = 8 + action
            return
        self.pile -= action + 1
        self.score[self.to_move] += action + 1
        self.step += 1
        if self.step == 2 + int(self.game.options["bonus"] or 0) or self.pile == 0:
            self.step = 0
            if self.pile:
                self.to_move = (self.to_move + 1) % len(self.score)

    def clone(self) -> TinyState:
        other = TinyState(self.game)
        other.pile, other.to_move, other.step = self.pile, self.to_move, self.step
        other.score = list(self.score)
        other._history = list(self._history)
        return other

    def history(self) -> list[int]:
        return list(self._history)

    def action_to_string(self, action: int) -> str:
        return f"roll{action}" if self.pile < 0 else f"t{action + 1}"

    def returns(self) -> list[float]:
        if self.pile != 0:
            return [0.0] * len(self.score)
        best = max(self.score)
        top = [s for s, x in enumerate(self.score) if x == best]
        return [1.0 / len(top) if s in top else 0.0 for s in range(len(self.score))]

    def scores(self) -> list[float]:
        return [float(s) for s in self.score]

    def to_json(self) -> dict[str, Any]:
        return {"pile": self.pile, "to_move": self.to_move, "step": self.step, "score": self.score}

    def render(self, detail: bool = False) -> str:
        return f"pile {self.pile}, scores {'-'.join(str(x) for x in self.score)}"


class TinyGame(Game):
    name = "tiny"
    title = "Tiny take"
    option_set = OptionSet(
        "tiny", (OptionSpec("bonus", 0, "1: turns of three steps", int, (0, 1)),)
    )
    num_distinct_actions = 3
    max_chance_outcomes = 3
    seat_names = ("North", "South", "East")
    can_draw = True  # equal takes split the result, so a draw may be agreed

    seats = 2

    @property
    def num_players(self) -> int:
        return self.seats

    @property
    def max_game_length(self) -> int:
        return 12

    def new_initial_state(self) -> TinyState:
        return TinyState(self)

    def state_from_json(self, position: Mapping[str, Any]) -> TinyState:
        state = TinyState(self)
        try:
            state.pile = int(position["pile"])
            state.to_move = int(position["to_move"])
            state.step = int(position["step"])
            state.score = [int(x) for x in position["score"]]
        except (KeyError, TypeError, ValueError) as exc:
            raise PositionError(f"bad tiny position: {exc}") from None
        return state

    def rules_text(self) -> str:
        return "# Tiny take\n\nTake **1 to 3** counters, twice per turn.\n"


class TinyCatalogue:
    def names(self) -> list[str]:
        return ["tiny"]

    def load(self, name: str, options: Mapping[str, Any]) -> Game:
        if name != "tiny":
            raise ValueError(f"unknown game {name!r}")
        return TinyGame(options)


class TrioGame(TinyGame):
    name = "trio"
    title = "Trio take"
    seats = 3


class TrioCatalogue(TinyCatalogue):
    def names(self) -> list[str]:
        return ["tiny", "trio"]

    def load(self, name: str, options: Mapping[str, Any]) -> Game:
        return TrioGame(options) if name == "trio" else super().load(name, options)


CATALOGUE = TinyCatalogue()
TRIO_CATALOGUE = TrioCatalogue()
