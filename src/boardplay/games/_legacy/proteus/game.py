"""``ProteusGame``: the Proteus game object (options, action space, factories).

Options (spec §8): ``rules`` = ``seed`` (default, proteus.ja.txt) or ``kadon`` (the publisher
and Boardspace); ``repetition`` = ``none`` or ``forbid``; ``max_turns`` = none or an integer
>= 1. The rules themselves live in ``state.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from boardplay.core.game import Game
from boardplay.core.options import OptionSet, OptionSpec
from boardplay.games._legacy.proteus.board import NUM_ACTIONS
from boardplay.games._legacy.proteus.state import ProteusState

UNBOUNDED_LENGTH = 1_000_000
"""``max_game_length`` without ``max_turns``: the rules allow endless play (there is no draw
rule besides the double pass under seed), so no true bound exists; this is a stand-in."""

OBSERVATION_SIZE = 165


class ProteusGame(Game):
    """Proteus (Michael Waitsman, Kadon 1982): a 3x3 board built from nine rule tiles whose
    active tiles define how pieces move, which tiles trade and what wins."""

    name: ClassVar[str] = "proteus"
    title: ClassVar[str] = "Proteus"
    option_set: ClassVar[OptionSet] = OptionSet(
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
    num_distinct_actions: ClassVar[int] = NUM_ACTIONS
    seat_names: ClassVar[tuple[str, ...]] = ("Black", "White")
    bench_option_sets: ClassVar[tuple[dict[str, Any], ...]] = (
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
        state = ProteusState(self)
        state._start()
        return state

    def state_from_json(self, position: Mapping[str, Any]) -> ProteusState:
        from boardplay.games._legacy.proteus.position import load

        return load(self, position)

    def observation_shape(self) -> tuple[int, ...]:
        return (OBSERVATION_SIZE,)
