"""The tiny test game with a describer that always raises: a server serving it (catalogue
``brokenwords:CATALOGUE``) shows every game without move words and logs the failure, which the
browser tests' harness must report (test_web_serverlog.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from webtiny import TinyCatalogue, TinyGame

from boardplay.core.game import Game


class WordlessGame(TinyGame):
    describer = "brokenwords:describe"


def describe(*_args: Any) -> Any:
    raise RuntimeError("a describer bug")


class WordlessCatalogue(TinyCatalogue):
    def load(self, name: str, options: Mapping[str, Any]) -> Game:
        super().load(name, options)  # the same check of the name
        return WordlessGame(options)


CATALOGUE = WordlessCatalogue()
