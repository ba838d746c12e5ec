"""An agent named ``module:function`` for ``boardplay bot``'s tests: always the first legal move."""

from __future__ import annotations

from boardplay.ai.agents import Agent
from boardplay.core.game import Game, State


class FirstLegal:
    name = "first"

    def step(self, state: State) -> int:
        return state.legal_actions()[0]

    def reset(self) -> None:
        return None

    def inform(self, action: int) -> None:
        return None


def first_legal(game: Game, seed: int | None) -> Agent:
    return FirstLegal()
