"""Race to ten's rules and facade: a pure-Python game (no compiled kernel) on the framework's
checked path (``State.apply_action`` checks legality and keeps the history; ``_apply`` is the
step), with the class attributes through which the rest of boardplay finds its parts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from boardplay.core.fields import read
from boardplay.core.game import TERMINAL, Game, State
from boardplay.core.options import OptionSet, OptionSpec


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
        """Action ``a`` adds ``a + 1``; never past the target."""
        if self.count >= self.target:
            return []
        most = int(self.game.options["step"])  # type: ignore[arg-type]
        return list(range(min(most, self.target - self.count)))

    def _apply(self, action: int) -> None:
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

    def end_code(self) -> str | None:
        return "target" if self.is_terminal() else None


class RaceGame(Game):
    name = "race"
    title = "Race to ten"
    option_set = OptionSet(
        "race",
        (
            OptionSpec("target", 10, "The count that wins.", int, (10, 15)),
            OptionSpec("step", 2, "The largest addition.", int, (2, 3)),
        ),
    )
    num_distinct_actions = 3
    can_draw = False
    seat_colours = ("#d33c3c", "#2f6fd6")
    heuristics = "boardplay.games.race.evaluation:HEURISTICS"
    describer = "boardplay.games.race.describe:describe"
    end_describer = "boardplay.games.race.ending:describe_end"
    study_axes = (("target", None),)
    levels: ClassVar[Mapping[str, str] | None] = {
        "easy": "mcts(iterations=5)",
        "medium": "mcts(iterations=10)",
        "hard": "mcts(time=0.05,iterations=20)",
        "expert": "mcts(time=0.1,iterations=200)",
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

    def export_position(self, state: State) -> dict[str, Any]:
        assert isinstance(state, RaceState)
        return {"count": state.count, "to_move": state.to_move}

    def render_state(self, state: State, detail: bool) -> str:
        assert isinstance(state, RaceState)
        return f"count {state.count} of {state.target}, {self.seat_name(state.to_move)} to move"

    def observation_shape(self) -> tuple[int, ...]:
        return (2,)

    def observe(self, state: State, player: int) -> list[float]:
        """The share of the target reached, and whether ``player`` is to move."""
        assert isinstance(state, RaceState)
        return [state.count / state.target, float(state.current_player() == player)]
