"""``PotlatchGame``: options, starting layouts (as data) and the factories of the contract."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from boardplay.core.game import Game
from boardplay.core.options import OptionSet, OptionSpec
from boardplay.games._legacy.potlatch.notation import NUM_ACTIONS, pack
from boardplay.games._legacy.potlatch.observation import OBSERVATION_SHAPE
from boardplay.games._legacy.potlatch.state import PotlatchState

TILES_IN_PLAY = {2: 9, 3: 12}
"""Base tiles used by the 2-action and the 3-action game (spec §3.1 step 4)."""

LAYOUTS: dict[str, dict[str, Any]] = {
    # Spec §3.3 [P]: PROPOSED reconstructions; replace the data once the official figures
    # are checked. Each is symmetric under a 180° rotation that swaps the players
    # (``centre`` is the rotation: (q, r) -> (cq - q, -r)).
    "L3": {"tiles": [(-1, 0), (0, 0), (1, 0)], "pawns": [(-1, 0), (1, 0)], "centre": 0},
    "L4": {
        "tiles": [(1, -1), (0, 0), (1, 0), (0, 1)],
        "pawns": [(1, -1), (0, 1)],
        "centre": 1,
    },
}

DEFAULT_TURN_LIMIT = 1000


class PotlatchGame(Game):
    """Potlatch Klone for two players (Red = seat 0, Blue = seat 1)."""

    name: ClassVar[str] = "potlatch"
    title: ClassVar[str] = "Potlatch Klone"
    seat_names: ClassVar[tuple[str, ...]] = ("Red", "Blue")
    num_distinct_actions: ClassVar[int] = NUM_ACTIONS
    option_set: ClassVar[OptionSet] = OptionSet(
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
    bench_option_sets: ClassVar[tuple[dict[str, Any], ...]] = (
        {"actions": 2, "layout": "L3"},
        {"actions": 2, "layout": "L4"},
        {"actions": 3, "layout": "L3"},
        {"actions": 3, "layout": "L4"},
    )

    @property
    def actions(self) -> int:
        value = self.options["actions"]
        assert isinstance(value, int)
        return value

    @property
    def layout(self) -> str:
        return str(self.options["layout"])

    @property
    def max_game_length(self) -> int:
        """Sound: the ``turn_limit`` guard ends every game after that many turns of
        ``actions`` actions each (without it the rules allow endless games, see rules.md)."""
        limit = self.options["turn_limit"]
        assert isinstance(limit, int)
        return limit * self.actions

    def new_initial_state(self) -> PotlatchState:
        layout = LAYOUTS[self.layout]
        tiles = {pack(q, r): 0 for q, r in layout["tiles"]}
        pawns = [pack(q, r) for q, r in layout["pawns"]]
        stock = TILES_IN_PLAY[self.actions] - len(tiles)
        first = self.options["first_player"]
        assert isinstance(first, int)
        state = PotlatchState(self, tiles, stock, pawns, first, self.actions)
        state.begin_turn()
        return state

    def state_from_json(self, position: Mapping[str, Any]) -> PotlatchState:
        from boardplay.games._legacy.potlatch.position import load_position

        return load_position(self, position)

    def observation_shape(self) -> tuple[int, ...]:
        return OBSERVATION_SHAPE
