"""The web side of the message catalogues: ``GET /api/i18n/{lang}`` and the rules' ``?lang=``.

The browser gets the ``web`` domain of the same ``.po`` files the command line uses
(:mod:`boardplay.i18n`), as one JSON object it can look keys up in (``t(key, params)`` in the
front end; the key is the English text, ``{name}`` placeholders are filled by ``t``). Languages
are a closed set checked by exact match before anything is looked up, so a request can neither
name a file nor make the server parse anything new: unknown languages are a 400.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Response

from boardplay.core.game import Game
from boardplay.i18n import DEFAULT_LANGUAGE, LANGUAGE_NAMES, LANGUAGES, catalog, messages
from boardplay.i18n.rules import rules_text
from boardplay.web.errors import bad_request, quote


def checked_language(lang: str) -> str:
    """``lang`` if it is exactly one of :data:`LANGUAGES`, else a 400 naming the choices."""
    if lang not in LANGUAGES:
        raise bad_request(f"unknown language {quote(lang)}; offered: {', '.join(LANGUAGES)}")
    return lang


def rules_language(lang: str) -> str:
    """The ``?lang=`` of ``GET /api/rules/{game}``, checked like the catalogue's."""
    return checked_language(lang)


def rules_text_or_english(game: Game, lang: str) -> tuple[str, str]:
    """The rules in ``lang`` and the language actually served: a game without rules in that
    language (a test game, a data-directory game) falls back to English rather than failing."""
    try:
        return rules_text(game, lang), lang
    except OSError:
        if lang == DEFAULT_LANGUAGE:
            raise
        return rules_text(game, DEFAULT_LANGUAGE), DEFAULT_LANGUAGE


def catalogue_json(lang: str) -> dict[str, Any]:
    """The ``web`` domain in ``lang``: every key with its text (English where a translation is
    missing), the plural rule, and the languages a switcher can offer, each in its own name."""
    lang = checked_language(lang)
    return {
        "lang": lang,
        "domain": "web",
        "plural_forms": catalog("web", lang).plural_forms,
        "languages": {code: LANGUAGE_NAMES[code] for code in LANGUAGES},
        "messages": messages("web", lang),
    }


def add_i18n_routes(app: FastAPI) -> None:
    @app.get("/api/i18n/{lang}")
    async def get_i18n(lang: str, response: Response) -> dict[str, Any]:
        body = catalogue_json(lang)
        # The catalogue only changes with a new release: let the browser keep it a while.
        response.headers["Cache-Control"] = "public, max-age=300"
        return body
