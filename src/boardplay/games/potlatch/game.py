"""``PotlatchGame``: the options, the factories of the contract and the I/O hooks.

The top of the package's import graph: it wires ``State.to_json`` / ``render`` /
``observation_tensor`` to ``position``, ``render`` and ``observation``, so no module below
imports one of those."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any, ClassVar

from boardplay.core.game import Game, State
from boardplay.core.options import OptionSet, OptionSpec
from boardplay.core.palette import BLUE, VERMILLION
from boardplay.games.potlatch.kernel import PotlatchKernel
from boardplay.games.potlatch.layout import NUM_ACTIONS
from boardplay.games.potlatch.observation import OBSERVATION_SHAPE, observe
from boardplay.games.potlatch.position import export_position, load_position
from boardplay.games.potlatch.render import render_state
from boardplay.games.potlatch.state import PotlatchState, new_kernel
from boardplay.games.potlatch.tables import DEFAULT_TURN_LIMIT, LAYOUTS, TILES_IN_PLAY

__all__ = ["LAYOUTS", "TILES_IN_PLAY", "PotlatchGame"]


class PotlatchGame(Game):
    """Potlatch Klone for two players (Red = seat 0, Blue = seat 1)."""

    name = "potlatch"
    title = "Potlatch Klone"
    heuristics = "boardplay.ai.evaluation.potlatch:HEURISTICS"
    describer = "boardplay.games.potlatch.describe:describe"
    end_describer = "boardplay.games.potlatch.ending:describe_end"
    study_axes = (
        ("actions", (2, 3)),
        ("layout", None),
    )
    levels: ClassVar[Mapping[str, str] | None] = {
        # Each step won at least 60% of 200 games against the one below (docs/ai.md, "The
        # ladder"). Expert is the search that plays on against the repetition draw (end
        # condition 3) with contempt 0.3 and judges a leaf met mid-turn after the mover's
        # greedy completion of its turn, for 0.03 s a move, stopping early when the move is
        # settled. The learned agent that replaced it for a while (``az-expert`` below) failed
        # the judging rule at its own budget: 42.5% of 60 games at equal time, its whole
        # interval below 60% (docs/ai.md, "Judged across budgets").
        "easy": "mcts(iterations=30)",
        "medium": "mcts(iterations=200)",
        "hard": "mcts(time=0.03,iterations=1000)",
        "expert": "mcts(time=0.03,iterations=100000,contempt=0.3,finish_turn=true)",
    }
    agents: ClassVar[Mapping[str, str] | None] = {
        # The learned expert: PUCT with every legal move equally likely, each leaf judged 0.8
        # by the game's evaluation after the mover's greedy completion of its turn and 0.2 by
        # the value of a network trained on the search expert's games (docs/ai.md, "Learned
        # guidance").
        "az-expert": "az(weights=potlatch-value,time=0.03,iterations=100000,contempt=0.3,"
        "mix=0.8,finish_turn=true,uniform=true)",
    }
    level_simulations: ClassVar[Mapping[str, int] | None] = {
        # The simulations the expert's time buys on an idle core of the reference machine
        # (its search at 1,540,000 a CPU second, the median of nine positions:
        # tools/aibench.py --rates); the site plays the level as this many with a time cap
        # (boardplay.ai.budgets).
        "expert": 46000,
    }
    seat_names = ("Red", "Blue")
    seat_colours = (VERMILLION, BLUE)  # Red, Blue (§2.2)
    can_draw = True
    """§8.2 condition 3: a repetition with equal own-stack counts is a draw."""
    num_distinct_actions = NUM_ACTIONS
    option_set = OptionSet(
        "potlatch",
        (
            OptionSpec("actions", 2, "Actions per turn (9 tiles for 2, 12 for 3).", int, (2, 3)),
            OptionSpec("layout", "L3", "Starting layout: 3 or 4 tiles.", str, ("L3", "L4")),
            OptionSpec("first_player", 0, "Seat of the first turn: 0 Red, 1 Blue.", int, (0, 1)),
            OptionSpec(
                "blank_entry_ignores_height",
                False,
                "A pawn may enter a blank space from any height (only a stock tile needed).",
                bool,
                (False, True),
            ),
            OptionSpec(
                "repetition_compares_full_state",
                False,
                "Repetition (condition 3) also compares empty tiles and pawn positions.",
                bool,
                (False, True),
            ),
            OptionSpec(
                "filter_dead_ends",
                False,
                "Offer only actions after which the turn can be completed.",
                bool,
                (False, True),
            ),
            OptionSpec(
                "turn_limit",
                DEFAULT_TURN_LIMIT,
                "Engine guard: after this many turns the game ends, scored like a repetition "
                "(the rules alone allow endless games).",
                int,
                minimum=1,
                maximum=1_000_000,
            ),
        ),
    )
    bench_option_sets = (
        {"actions": 2, "layout": "L3"},
        {"actions": 2, "layout": "L4"},
        {"actions": 3, "layout": "L3"},
        {"actions": 3, "layout": "L4"},
    )

    @property
    def actions(self) -> int:
        return self.int_option("actions")

    @property
    def layout(self) -> str:
        return str(self.options["layout"])

    @property
    def max_game_length(self) -> int:
        """Sound: the ``turn_limit`` guard ends every game after that many turns of
        ``actions`` actions each (without it the rules allow endless games, see rules.md)."""
        return self.int_option("turn_limit") * self.actions

    @cached_property
    def _start(self) -> PotlatchKernel:
        """The kernel of the starting position, built once; each new game copies it (a
        C-level copy), which keeps new games cheap for playout loops and search."""
        layout = LAYOUTS[self.layout]
        first = self.int_option("first_player")
        kernel = new_kernel(self)
        kernel.setup(
            [(q, r, 0) for q, r in layout["tiles"]],
            TILES_IN_PLAY[self.actions] - len(layout["tiles"]),
            list(layout["pawns"]),
            first,
            0,
            [None, None],
        )
        return kernel

    def new_initial_state(self) -> PotlatchState:
        return PotlatchState(self, self._start.clone())

    def state_from_json(self, position: Mapping[str, Any]) -> PotlatchState:
        return load_position(self, position)

    def observation_shape(self) -> tuple[int, ...]:
        return OBSERVATION_SHAPE

    # ----- I/O hooks of the contract ------------------------------------------------------------
    def export_position(self, state: State) -> dict[str, Any]:
        assert isinstance(state, PotlatchState)
        return export_position(state)

    def render_state(self, state: State, detail: bool) -> str:
        assert isinstance(state, PotlatchState)
        return render_state(state, detail)

    def observe(self, state: State, player: int) -> list[float]:
        assert isinstance(state, PotlatchState)
        return observe(state, player)
