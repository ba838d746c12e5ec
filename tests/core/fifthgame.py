"""A tiny fifth game for the registration test: "Race to ten". Two players take turns adding 1
to ``step`` to a shared count; whoever reaches ``target`` wins. Everything the rest of boardplay
needs to know about it (AI evaluation and levels, balance-study variants, move words) is on its
``Game`` class, so registering it is one line (``registry.register``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from boardplay.ai.evaluation import Heuristics
from boardplay.core.errors import IllegalActionError
from boardplay.core.fields import read
from boardplay.core.game import TERMINAL, Game, State
from boardplay.core.options import OptionSet, OptionSpec, OptionValue


class RaceState(State):
    def __init__(self, game: RaceGame, count: int = 0, to_move: int = 0) -> None:
        self.game = game
        self.count = count
        self.to_move = to_move
        self._history = []

    @property
    def target(self) -> int:
        return int(self.game.options["target"])  # type: ignore[arg-type]

    def current_player(self) -> int:
        return TERMINAL if self.count >= self.target else self.to_move

    def legal_actions(self) -> list[int]:
        if self.count >= self.target:
            return []
        most = int(self.game.options["step"])  # type: ignore[arg-type]
        return list(range(min(most, self.target - self.count)))

    def apply_action(self, action: int) -> None:
        if action not in self.legal_actions():
            raise IllegalActionError(f"{action!r} is not legal; legal: {self.legal_actions()}")
        self._history.append(action)
        self.count += action + 1
        if self.count < self.target:
            self.to_move = 1 - self.to_move

    def clone(self) -> RaceState:
        other = RaceState(self.game, self.count, self.to_move)
        other._history = list(self._history)
        return other

    def action_to_string(self, action: int) -> str:
        return f"+{action + 1}"

    def returns(self) -> list[float]:
        if self.count < self.target:
            return [0.0, 0.0]
        return [1.0, 0.0] if self.to_move == 0 else [0.0, 1.0]

    def to_json(self) -> dict[str, Any]:
        return {"count": self.count, "to_move": self.to_move}

    def render(self, detail: bool = False) -> str:
        return f"count {self.count} of {self.target}, seat {self.to_move} to move"


class RaceGame(Game):
    name: ClassVar[str] = "race"
    can_draw: ClassVar[bool] = False
    title: ClassVar[str] = "Race to ten"
    option_set: ClassVar[OptionSet] = OptionSet(
        "race",
        (
            OptionSpec("target", 10, "The count that wins.", int, (10, 15)),
            OptionSpec("step", 2, "The largest addition.", int, (2, 3)),
        ),
    )
    num_distinct_actions: ClassVar[int] = 3
    heuristics: ClassVar[str | None] = "fifthgame:HEURISTICS"
    describer: ClassVar[str | None] = "fifthgame:describe"
    study_axes: ClassVar[tuple[tuple[str, tuple[OptionValue, ...] | None], ...] | None] = (
        ("target", None),
    )
    levels: ClassVar[Mapping[str, str] | None] = {
        "easy": "random",
        "medium": "greedy",
        "hard": "mcts(iterations=20)",
        "expert": "mcts(iterations=50)",
    }

    @property
    def max_game_length(self) -> int:
        return int(self.options["target"])  # type: ignore[arg-type]

    def new_initial_state(self) -> RaceState:
        return RaceState(self)

    def state_from_json(self, position: Mapping[str, Any]) -> RaceState:
        top = read(position)
        top.keys(("count", "to_move"), required=("count", "to_move"))
        count = top.member("count").integer(0, self.max_game_length)
        return RaceState(self, count, top.member("to_move").choice((0, 1)))

    def rules_text(self) -> str:
        return "# Race to ten\n\nAdd **1 or 2** to the count; reaching ten wins.\n"


def evaluate(state: State) -> list[float]:
    """The seat to move wins when the distance left is not a multiple of (step + 1)."""
    if state.is_terminal():
        return state.returns()
    assert isinstance(state, RaceState)
    step = int(state.game.options["step"])  # type: ignore[arg-type]
    winning = (state.target - state.count) % (step + 1) != 0
    mover = 0.9 if winning else 0.1
    return [mover, 1 - mover] if state.to_move == 0 else [1 - mover, mover]


HEURISTICS = Heuristics(evaluate, None, "race: the distance left modulo step + 1")


def describe(
    before: Mapping[str, Any],
    move: str,
    after: Mapping[str, Any] | None,
    seat: int,
    names: Sequence[str],
) -> tuple[dict[str, Any], str]:
    return {"add": int(move)}, f"{names[seat]} adds {move.lstrip('+')} to {before['count']}."
