"""Dice Race: a tiny game that implements the boardplay contract, used to test the adapters
before (and independently of) the four real engines.

It exercises every feature the adapters must translate:

- a chance node at the start (``start_player="random"``) and after every turn (the bonus die,
  with unequal probabilities);
- turns made of two decisions by the same seat (each decision moves the runner 1 or 2/3);
- 2 or 3 players, wins, and draws (``max_turns``);
- every kind of option value: int choices (``players``), a bounded int (``target``), a bool
  (``bonus``), a string (``steps``: ``"short"`` / ``"long"``), an
  int-or-word (``start_player``: a seat or ``"random"``) and a nullable int (``max_turns``).

Rules: runners start at 0. On a turn the seat to move makes two decisions, ``+s`` (small) or
``+b`` (big): s is 1, b is 2 (``steps="short"``) or 3 (``"long"``). After the second decision
a bonus die (when ``bonus``) adds 0, 1 or 2 with probabilities 1/2, 1/4, 1/4. The first
runner to reach ``target`` wins at once (even mid-turn). When ``max_turns`` turns have been
completed without a winner the game is a draw.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from boardplay.core.errors import IllegalActionError
from boardplay.core.game import CHANCE, TERMINAL, Game, State, require
from boardplay.core.options import OptionSet, OptionSpec

DIE = ((0, 0.5), (1, 0.25), (2, 0.25))
STEPS = ("short", "long")
PHASES = ("start", "move", "die", "over")


class DiceRaceState(State):
    def __init__(self, game: DiceRaceGame) -> None:
        self.game = game
        n = game.num_players
        self.positions = [0] * n
        self.to_move = 0
        self.actions_left = 2
        self.turns = 0
        self.winner: int | None = None
        self._history: list[int] = []
        start = game.options["start_player"]
        if start == "random":
            self.phase = "start"
        else:
            assert isinstance(start, int)
            self.phase = "move"
            self.to_move = start

    # ----- who acts -------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if self.phase in ("start", "die"):
            return CHANCE
        return self.to_move

    def legal_actions(self) -> list[int]:
        if self.phase == "over":
            return []
        if self.phase == "start":
            return list(range(self.game.num_players))
        if self.phase == "die":
            return [outcome for outcome, _ in DIE]
        return [0, 1]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase == "start":
            n = self.game.num_players
            return [(seat, 1.0 / n) for seat in range(n)]
        if self.phase == "die":
            return list(DIE)
        return []

    def _apply(self, action: int) -> None:
        if self.phase == "start":
            self.to_move = action
            self.phase = "move"
            return
        if self.phase == "die":
            self._advance(action)
            if self.phase != "over":
                self._end_turn()
            return
        self._advance(self._step(action))
        if self.phase == "over":
            return
        self.actions_left -= 1
        if self.actions_left == 0:
            if self.game.options["bonus"]:
                self.phase = "die"
            else:
                self._end_turn()

    def _step(self, action: int) -> int:
        if action == 0:
            return 1
        return 3 if self.game.options["steps"] == "long" else 2

    def _advance(self, steps: int) -> None:
        self.positions[self.to_move] += steps
        target = self.game.options["target"]
        assert isinstance(target, int)
        if self.positions[self.to_move] >= target:
            self.winner = self.to_move
            self.phase = "over"

    def _end_turn(self) -> None:
        self.turns += 1
        limit = self.game.options["max_turns"]
        if isinstance(limit, int) and self.turns >= limit:
            self.phase = "over"
            return
        self.to_move = (self.to_move + 1) % self.game.num_players
        self.actions_left = 2
        self.phase = "move"

    def clone(self) -> DiceRaceState:
        other = object.__new__(DiceRaceState)
        other.__dict__.update(self.__dict__)
        other.positions = list(self.positions)
        other._history = list(self._history)
        return other

    def history(self) -> list[int]:
        return list(self._history)

    # ----- notation -------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        if self.phase == "start":
            return f"start {self.game.seat_name(action)}"
        if self.phase == "die":
            return f"die {action}"
        if action not in (0, 1):
            raise IllegalActionError(f"action {action} is not a move of dicerace (0 or 1)")
        return f"+{self._step(action)}"

    # ----- outcome --------------------------------------------------------------------------
    def returns(self) -> list[float]:
        n = self.game.num_players
        if self.phase != "over":
            return [0.0] * n
        if self.winner is None:
            return [1.0 / n] * n
        return [1.0 if seat == self.winner else 0.0 for seat in range(n)]

    def scores(self) -> list[float] | None:
        return [float(p) for p in self.positions]

    # ----- positions ------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "positions": list(self.positions),
            "to_move": self.to_move,
            "actions_left": self.actions_left,
            "turns": self.turns,
            "phase": self.phase,
            "winner": self.winner,
        }

    def render(self, detail: bool = False) -> str:
        runners = "  ".join(f"{self.game.seat_name(s)}: {p}" for s, p in enumerate(self.positions))
        line = f"{runners}  (target {self.game.options['target']}, turn {self.turns})"
        if self.phase == "over":
            return f"{line}\n{self.result_text()}"
        if self.phase == "start":
            return f"{line}\nchance: start player"
        if self.phase == "die":
            return f"{line}\nchance: bonus die for {self.game.seat_name(self.to_move)}"
        name = self.game.seat_name(self.to_move)
        return f"{line}\n{name} to move, {self.actions_left} action(s) left"

    def observation_tensor(self, player: int) -> list[float]:
        """Runner progress (target = 1), then one-hot seat to move, both rotated so the observer
        comes first; then actions left (one-hot 1/2) and a chance-node flag."""
        n = self.game.num_players
        target = self.game.options["target"]
        assert isinstance(target, int)
        order = [(player + i) % n for i in range(n)]
        out = [self.positions[s] / target for s in order]
        out += [1.0 if self.phase == "move" and self.to_move == s else 0.0 for s in order]
        out += [float(self.actions_left == 1), float(self.actions_left == 2)]
        out.append(float(self.is_chance_node()))
        return out


class DiceRaceGame(Game):
    name: ClassVar[str] = "dicerace"
    can_draw: ClassVar[bool] = True
    title: ClassVar[str] = "Dice Race"
    option_set: ClassVar[OptionSet] = OptionSet(
        "dicerace",
        (
            OptionSpec("players", 2, "Number of runners.", choices=(2, 3)),
            OptionSpec("target", 7, "Distance to win.", minimum=3, maximum=30),
            OptionSpec("bonus", True, "Roll the bonus die after each turn.", kind=bool),
            OptionSpec(
                "steps", "short", "Big step: 2 (short) or 3 (long).", kind=str, choices=STEPS
            ),
            OptionSpec(
                "start_player", "random", "Who starts.", minimum=0, maximum=2, specials=("random",)
            ),
            OptionSpec("max_turns", None, "Draw after this many turns.", minimum=1, nullable=True),
        ),
    )
    num_distinct_actions: ClassVar[int] = 2
    max_chance_outcomes: ClassVar[int] = 3
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 3
    seat_names: ClassVar[tuple[str, ...]] = ("Red", "Blue", "Green")

    @property
    def num_players(self) -> int:
        players = self.options["players"]
        assert isinstance(players, int)
        return players

    @property
    def max_game_length(self) -> int:
        target = self.options["target"]
        assert isinstance(target, int)
        turns = self.num_players * ((target + 1) // 2)
        limit = self.options["max_turns"]
        if isinstance(limit, int):
            turns = min(turns, limit)
        return 1 + 3 * turns

    def new_initial_state(self) -> DiceRaceState:
        return DiceRaceState(self)

    def state_from_json(self, position: Mapping[str, Any]) -> DiceRaceState:
        state = DiceRaceState(self)
        positions = position.get("positions")
        require(
            isinstance(positions, list) and len(positions) == self.num_players,
            f"field 'positions' must list {self.num_players} integers",
        )
        assert isinstance(positions, list)
        phase = position.get("phase")
        require(phase in PHASES, f"field 'phase' must be one of {', '.join(PHASES)}")
        state.positions = [int(p) for p in positions]
        state.to_move = int(position.get("to_move", 0))
        state.actions_left = int(position.get("actions_left", 2))
        state.turns = int(position.get("turns", 0))
        state.phase = str(phase)
        winner = position.get("winner")
        state.winner = None if winner is None else int(winner)
        return state

    def observation_shape(self) -> tuple[int, ...]:
        return (2 * self.num_players + 3,)
