"""``ProteusGame``: the Proteus game object (options, action space, factories).

Options (spec §8): ``rules`` = ``seed`` (default, proteus.ja.txt) or ``kadon`` (the publisher
and Boardspace); ``repetition`` = ``none`` or ``forbid``; ``max_turns`` = none or an integer
>= 1. The rules themselves live in ``kernel.pyx``; this module sits on top of the package and
wires the I/O modules (position JSON, picture, tensor) into the contract's hooks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from boardplay.core.game import Game, State
from boardplay.core.options import OptionSet, OptionSpec
from boardplay.core.palette import BLACK, WHITE
from boardplay.games.proteus.layout import NUM_ACTIONS, OBSERVATION_SIZE
from boardplay.games.proteus.observation import observe
from boardplay.games.proteus.position import export_position, load_position
from boardplay.games.proteus.render import render_state
from boardplay.games.proteus.state import ProteusState, new_kernel

UNBOUNDED_LENGTH = 1_000_000
"""``max_game_length`` without ``max_turns``: the rules allow endless play (there is no draw
rule besides the double pass under seed), so no true bound exists; this is a stand-in."""


class ProteusGame(Game):
    """Proteus (Michael Waitsman, Kadon 1982): a 3x3 board built from nine rule tiles whose
    active tiles define how pieces move, which tiles trade and what wins."""

    name = "proteus"
    title = "Proteus"
    heuristics = "boardplay.ai.evaluation.proteus:HEURISTICS"
    describer = "boardplay.games.proteus.describe:describe"
    end_describer = "boardplay.games.proteus.ending:describe_end"
    study_axes = (("rules", None),)
    levels: ClassVar[Mapping[str, str] | None] = {
        # Tenfold simulations per step up to hard (docs/ai.md, "The ladder"). Hard plays with
        # contempt, so it plays on instead of running into the turn cap. Expert is the learned
        # agent: PUCT steered by the shipped self-play network, which scored 62.7%
        # (86-79-35) over 200 games at the same 0.1 s a move against the search
        # ``mcts(time=0.1,iterations=200000,contempt=0.3,cutoff=8,opening_cutoff=16,
        # decisive=true,repetition=true,c=0.7,early=false)``. It takes one-move wins and sees
        # the opponent's (decisive), scores a line back to a position met as a draw worth 0.3
        # less to it, and its cap does not bind: it thinks for its whole 0.1 s
        # (docs/journal/ai.md, "Proteus: the legal actions' logits only, and c = 1.0").
        "easy": "mcts(iterations=30)",
        "medium": "mcts(iterations=300)",
        "hard": "mcts(time=0.1,iterations=3000,contempt=0.15)",
        "expert": "az(weights=proteus,time=0.1,iterations=200000,repetition=true,contempt=0.3,"
        "c=1.0)",
    }
    level_simulations: ClassVar[Mapping[str, int] | None] = {
        # The simulations the expert's time buys on an idle core of the reference machine
        # (its search at 275,000 a CPU second, the median of nine positions:
        # tools/aibench.py --rates); the site plays the level as this many with a time cap
        # (boardplay.ai.budgets).
        "expert": 27500,
    }
    option_set = OptionSet(
        "proteus",
        (
            OptionSpec(
                "rules",
                "seed",
                "ruleset: seed (proteus.ja.txt: no placement win, no-flip placements, forcing "
                "rules, double-pass draw) or kadon (publisher/Boardspace: wins from turn one, "
                "exactly one activation per colour during placement)",
                kind=str,
                choices=("seed", "kadon"),
            ),
            OptionSpec(
                "repetition",
                "none",
                "none: no restriction; forbid: in the movement phase an action that recreates "
                "an earlier position is illegal (Boardspace)",
                kind=str,
                choices=("none", "forbid"),
            ),
            OptionSpec(
                "max_turns",
                None,
                "draw at the end of this turn unless it produced a winner; none = no cap",
                kind=int,
                minimum=1,
                nullable=True,
            ),
        ),
    )
    num_distinct_actions = NUM_ACTIONS
    seat_names = ("Black", "White")
    seat_colours = (BLACK, WHITE)  # §2
    can_draw = True
    """§7.5: a double pass, the turn limit or a movement dead end is a draw."""
    bench_option_sets = (
        {"rules": "seed", "max_turns": 200},
        {"rules": "kadon", "max_turns": 200},
    )

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        self.kadon: bool = self.options["rules"] == "kadon"
        self.forbid: bool = self.options["repetition"] == "forbid"
        max_turns = self.options["max_turns"]
        self.max_turns: int | None = max_turns if isinstance(max_turns, int) else None

    @property
    def max_game_length(self) -> int:
        """``max_turns`` when set. Without it Proteus can go on for ever (both rulesets allow
        endless movement), so ``UNBOUNDED_LENGTH`` stands in; set ``max_turns`` for a bound."""
        return self.max_turns if self.max_turns is not None else UNBOUNDED_LENGTH

    @property
    def bounded(self) -> bool:
        return self.max_turns is not None

    def new_initial_state(self) -> ProteusState:
        kernel = new_kernel(self)
        kernel.start()
        return ProteusState(self, kernel)

    def state_from_json(self, position: Mapping[str, Any]) -> ProteusState:
        return load_position(self, position)

    def observation_shape(self) -> tuple[int, ...]:
        return (OBSERVATION_SIZE,)

    def export_position(self, state: State) -> dict[str, Any]:
        return export_position(_proteus(state))

    def render_state(self, state: State, detail: bool) -> str:
        return render_state(_proteus(state), detail)

    def observe(self, state: State, player: int) -> list[float]:
        return observe(_proteus(state), player)


def _proteus(state: State) -> ProteusState:
    if not isinstance(state, ProteusState):
        raise TypeError(f"not a Proteus state: {type(state).__name__}")
    return state
