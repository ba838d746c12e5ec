"""The player rules of a game in one of :data:`boardplay.i18n.LANGUAGES`.

English rules are ``rules.md`` in the game's package (``Game.rules_text``); every other language
is a sibling file ``rules.<lang>.md`` written for players of that language, not a machine
translation. The language is checked against the closed set before it is used in a file name,
so no caller can make this open a file of its choosing.
"""

from __future__ import annotations

import importlib.resources

from boardplay.core.game import Game
from boardplay.i18n import DEFAULT_LANGUAGE, check_language


def rules_file_name(game: Game, lang: str) -> str:
    """``rules.md`` for English, ``rules.ja.md`` for Japanese (after checking ``lang``)."""
    lang = check_language(lang)
    if lang == DEFAULT_LANGUAGE:
        return game.rules_file
    stem, dot, suffix = game.rules_file.rpartition(".")
    return f"{stem}.{lang}.{suffix}" if dot else f"{game.rules_file}.{lang}"


def rules_text(game: Game, lang: str = DEFAULT_LANGUAGE) -> str:
    """The rules of ``game`` for players, in ``lang``; ``OSError`` when that file is missing."""
    if check_language(lang) == DEFAULT_LANGUAGE:
        return game.rules_text()  # a game may override where its English rules come from
    package = type(game).__module__.rsplit(".", 1)[0]
    name = rules_file_name(game, lang)
    try:
        folder = importlib.resources.files(package)
    except (TypeError, ModuleNotFoundError):  # a game defined in a plain module (tests, data)
        raise FileNotFoundError(f"{game.name} has no rules in {lang}") from None
    return folder.joinpath(name).read_text("utf-8")
