"""``PasstallyGame``: options, the fixed action space and the factories (spec §10, §11).

Action ids (552 in all, fixed for every option set):

* ``0-23``: setup marker placement ``@s``;
* ``24-455``: tile placement ``pile * 144 + anchor cell * 4 + orientation`` (+24), notation
  ``A:b3E``; the design is whatever the pile shows, so the id never names it;
* ``456-551``: marker move ``slot * 4 + j`` (+456), j = ``+1``, ``+2``, ``-1``, ``-2``.

Chance outcomes (reveals) are the design ids 0-5 (``max_chance_outcomes`` 6).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from boardplay.core.game import Game, State
from boardplay.core.options import OptionSet, OptionSpec
from boardplay.core.palette import BLUE, VERMILLION, YELLOW
from boardplay.games.passtally import observation, render
from boardplay.games.passtally.layout import NUM_ACTIONS, NUM_DESIGNS, NUM_SLOTS, TOTAL_TILES
from boardplay.games.passtally.position import export_position, load_position
from boardplay.games.passtally.state import PasstallyState, new_kernel

UNBOUNDED_LENGTH = 2**31 - 1
"""``max_game_length`` without ``max_turns``: the rules have no turn limit (spec §8.6), so no
finite bound exists; this is the largest value a C int holds, for callers that need a number."""

OPTIONS = OptionSet(
    "passtally",
    (
        OptionSpec("players", 2, "Number of players; seat 0 is the start player.", choices=(2, 3)),
        OptionSpec(
            "jump_counts_as_step",
            False,
            "true: every ring slot counts as a step (occupied ones too); false: occupied slots "
            "are jumped for free and a move ends on the 1st/2nd empty slot.",
            kind=bool,
            choices=(False, True),
        ),
        OptionSpec(
            "ring_corners_continuous",
            True,
            "true: markers move round the corners freely; false: only along their own side.",
            kind=bool,
            choices=(False, True),
        ),
        OptionSpec(
            "finish_turn_on_immediate_end",
            True,
            "true: when no placement is left mid-turn the player finishes the turn and scores; "
            "false: the game ends right after that placement, without scoring.",
            kind=bool,
            choices=(False, True),
        ),
        OptionSpec(
            "turn_time_limit_s",
            None,
            "Seconds per turn (the rulebook's variant is 60); stored only, clocks are the "
            "interface's job.",
            minimum=1,
            nullable=True,
        ),
        OptionSpec(
            "max_turns",
            None,
            "Engine guard, not a rule: end the game after this many completed turns and rank "
            "by score (ties to the earliest seat). For simulations and search.",
            minimum=1,
            nullable=True,
        ),
    ),
)


class PasstallyGame(Game):
    name = "passtally"
    title = "Passtally"
    heuristics = "boardplay.ai.evaluation.passtally:HEURISTICS"
    describer = "boardplay.games.passtally.describe:describe"
    end_describer = "boardplay.games.passtally.ending:describe_end"
    study_axes = (("players", (2, 3)),)
    levels: ClassVar[Mapping[str, str] | None] = {
        # Each step won at least 60% of 200 games against the one below (docs/ai.md, "The
        # ladder"), at the nominal budget and at a third and a tenth of it: 10, 50 and 1,000
        # simulations up to hard, whose evaluation stops gaining between 1,000 and 3,000 (with
        # medium at 100, hard won 55.5-63.5%: at the bar). Expert plays its games to
        # the end with the kernel's playout policy (a turn's last action scores its lines)
        # for 0.1 s a move, its cap far above what 0.1 s reaches: it beat plain UCT given the
        # same time and mcts(iterations=5000) in about four games of five
        # (docs/journal/ai.md, "Passtally: playouts that score their turns"). Hard's ceiling
        # matches expert's 0.1 s; its cap ends every search long before (its longest move
        # measured took 0.038 s). Easy and medium name cutoff 0, the two-player default: with
        # three players the default search plays to the end (``passtally.TABLE_CUTOFFS``),
        # which pays from about 1,000 simulations (hard) but lost 87% and 90.5% of 200 games
        # to cutoff 0 at 10 and 100 (docs/journal/ai.md, "Passtally: three players play to
        # the end").
        "easy": "mcts(iterations=10,cutoff=0)",
        "medium": "mcts(iterations=50,cutoff=0)",
        "hard": "mcts(time=0.1,iterations=1000)",
        "expert": "mcts(time=0.1,iterations=100000,cutoff=none,c=0.7)",
    }
    level_simulations: ClassVar[Mapping[str, int] | None] = {
        # The simulations the expert's time buys on an idle core of the reference machine
        # (its search at 133,000 a CPU second, the median of nine positions:
        # tools/aibench.py --rates); the site plays the level as this many with a time cap
        # (boardplay.ai.budgets).
        "expert": 13000,
    }
    option_set = OPTIONS
    num_distinct_actions = NUM_ACTIONS
    max_chance_outcomes = NUM_DESIGNS
    min_players = 2
    max_players = 3
    seat_colours = (VERMILLION, BLUE, YELLOW)
    can_draw = False
    """§6: ties go to the earliest seat, so every game has one winner."""
    bench_option_sets = ({"players": 2}, {"players": 3})

    @property
    def num_players(self) -> int:
        return self.int_option("players")

    @property
    def max_game_length(self) -> int:
        """With ``max_turns``: the 3 initial reveals, 4 markers per seat, 2 actions per turn
        and at most 39 later reveals. Without it the rules allow an endless game."""
        max_turns = self.options["max_turns"]
        if not isinstance(max_turns, int):
            return UNBOUNDED_LENGTH
        reveals = TOTAL_TILES
        setup = 4 * self.num_players
        return reveals + setup + 2 * max_turns

    @property
    def bounded(self) -> bool:
        return isinstance(self.options["max_turns"], int)

    def new_initial_state(self) -> PasstallyState:
        return PasstallyState(self, new_kernel(self))

    def state_from_json(self, position: Mapping[str, Any]) -> PasstallyState:
        return load_position(self, position)

    def observation_shape(self) -> tuple[int, ...]:
        return (observation.SIZE,)

    # ----- the I/O hooks the state reaches through its game -------------------------------------
    def export_position(self, state: State) -> dict[str, Any]:
        return export_position(_passtally(state))

    def render_state(self, state: State, detail: bool) -> str:
        return render.render_state(_passtally(state), detail)

    def observe(self, state: State, player: int) -> list[float]:
        return observation.observe(_passtally(state), player)


def _passtally(state: State) -> PasstallyState:
    if not isinstance(state, PasstallyState):
        raise TypeError(f"not a Passtally state: {type(state).__name__}")
    return state


__all__ = ["NUM_SLOTS", "OPTIONS", "PasstallyGame"]
