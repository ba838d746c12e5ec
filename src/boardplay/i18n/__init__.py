"""Message catalogues (gettext, maintained with Babel) for the command line and the web app.

The catalogues are the ``.po`` files under ``boardplay/i18n/locale/<lang>/LC_MESSAGES/``, one
per *domain*: ``cli`` (everything ``boardplay`` prints) and ``web`` (the browser's strings, served
as JSON by ``GET /api/i18n/{lang}``). A game's words of the ``web`` domain (its board module's
table, its moves and endings in words) are in its own folder, ``games/<game>/locale/``, laid out
the same way, so a new game brings them (``tools/catalogues.py``, which ``make i18n`` runs, writes
them there); ``catalog("web", lang)`` reads them with the site's, every registered game's. They
are read at run time, compiled in memory and cached: no compiled ``.mo`` file is built, installed
or kept in git, so an edited ``.po`` takes effect in an editable install at once and a fresh
clone needs no build step (why: ``docs/i18n.md``).

Languages are a closed set (:data:`LANGUAGES`): a language code never becomes part of a path
before it has been checked against that set. Message ids are the English text, with ``{name}``
placeholders filled by :meth:`str.format` (Python) or ``t(key, params)`` (browser).
"""

from __future__ import annotations

import functools
import gettext
import importlib.resources
import io
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from importlib.resources.abc import Traversable
from typing import Final

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LANGUAGES: Final = ("en", "ja")
"""Every language the catalogues and the player rules exist in (English is the source)."""

DEFAULT_LANGUAGE: Final = "en"
DOMAINS: Final = ("cli", "web")
LANGUAGE_NAMES: Final = {"en": "English", "ja": "日本語"}

_active = DEFAULT_LANGUAGE


class UnknownLanguageError(ValueError):
    """A language code outside :data:`LANGUAGES`."""

    def __init__(self, code: str) -> None:
        self.code = code
        super().__init__(f"unknown language {code[:20]!r}; choose one of {', '.join(LANGUAGES)}")


def check_language(code: str) -> str:
    """``code`` itself if it is one of :data:`LANGUAGES` (case and ``ja_JP``-style regions
    ignored), else :class:`UnknownLanguageError`."""
    base = code.strip().replace("-", "_").split("_")[0].split(".")[0].lower()
    if base not in LANGUAGES:
        raise UnknownLanguageError(code)
    return base


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for: ``BOARDPLAY_LANG`` first, then the POSIX locale
    variables in gettext's order (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``).

    A locale we have no catalogue for (``C``, ``fr_FR.UTF-8``) means English rather than an
    error: the environment is set for every program, not for us. ``BOARDPLAY_LANG`` is ours, so
    a wrong value there is reported."""
    env = os.environ if environ is None else environ
    ours = env.get("BOARDPLAY_LANG", "").strip()
    if ours:
        return check_language(ours)
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(variable, "").strip()
        if not value:
            continue
        for candidate in value.split(":"):  # LANGUAGE may list several, best first
            try:
                return check_language(candidate)
            except UnknownLanguageError:
                continue
        return DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def _locale_file(domain: str, lang: str, suffix: str) -> Traversable:
    if domain not in DOMAINS:
        raise ValueError(f"unknown message domain {domain!r}")
    lang = check_language(lang)
    root = importlib.resources.files(__name__).joinpath("locale")
    return root.joinpath(lang, "LC_MESSAGES", f"{domain}{suffix}")


def catalog(domain: str, lang: str) -> Catalog:
    """The parsed ``.po`` catalogue of ``domain`` in ``lang`` (Babel's object, cached): for
    ``web``, the site's with every registered game's from its folder, so a game brings its own
    words and a game that is not registered adds none."""
    return _catalog(domain, check_language(lang), _games_of(domain))


def _games_of(domain: str) -> tuple[str, ...]:
    """The packages of the registered games, whose folders hold their words of ``domain`` (only
    ``web``: what the command line prints is the site's)."""
    if domain != "web":
        return ()
    from boardplay.core.registry import available, package_of  # reads no game's rules

    return tuple(package_of(name) for name in available())


def _game_file(package: str, domain: str, lang: str) -> Traversable | None:
    """A game's catalogue (``<package>/locale/<lang>/LC_MESSAGES/<domain>.po``), if it has one."""
    try:
        root = importlib.resources.files(package)
    except TypeError:  # a game declared in a plain module (the tests' tiny games) has no folder
        return None
    found = root.joinpath("locale", lang, "LC_MESSAGES", f"{domain}.po")
    return found if found.is_file() else None


@functools.cache
def _catalog(domain: str, lang: str, games: tuple[str, ...]) -> Catalog:
    with _locale_file(domain, lang, ".po").open("rb") as handle:
        merged = read_po(handle, locale=lang, domain=domain)
    for package in games:
        source = _game_file(package, domain, lang)
        if source is None:
            continue
        with source.open("rb") as handle:
            for message in read_po(handle, locale=lang, domain=domain):
                # A phrase two games share ("{a} and {b}") is kept once, the first game's:
                # tests/i18n/test_i18n_web.py holds their translations equal.
                if message.id and merged.get(message.id, message.context) is None:
                    merged[message.id] = message
    return merged


def translations(domain: str, lang: str) -> gettext.NullTranslations:
    """A stdlib translations object for ``domain`` in ``lang``, compiled in memory from the
    ``.po`` files. Fuzzy entries are left out, as ``msgfmt`` would: they fall back to English."""
    return _translations(domain, check_language(lang), _games_of(domain))


@functools.cache
def _translations(domain: str, lang: str, games: tuple[str, ...]) -> gettext.NullTranslations:
    buffer = io.BytesIO()
    write_mo(buffer, _catalog(domain, lang, games), use_fuzzy=False)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def set_language(lang: str) -> str:
    """Make ``lang`` the language of :func:`_` from now on; returns the checked code."""
    global _active
    _active = check_language(lang)
    return _active


def get_language() -> str:
    return _active


@contextmanager
def language(lang: str) -> Iterator[str]:
    """Use ``lang`` inside the ``with`` block and restore the previous language after it."""
    previous = _active
    try:
        yield set_language(lang)
    finally:
        set_language(previous)


def _(message: str) -> str:
    """``message`` (an English msgid of the ``cli`` domain) in the active language."""
    return translations("cli", _active).gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The singular or plural form for ``count`` in the active language (``cli`` domain)."""
    return translations("cli", _active).ngettext(singular, plural, count)


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it yet (module-level constants are
    built before the language is known; translate them with :func:`_` where they are used)."""
    return message


def messages(domain: str, lang: str) -> dict[str, str]:
    """Every message of ``domain`` as ``{msgid: text}`` in ``lang``: the translation where there
    is one (and it is not fuzzy), else the English msgid, so a client never shows an empty
    string. Plural entries are keyed by their singular msgid and give the ``other`` form. An
    entry with a context (the web app's string table, whose keys are contexts) is keyed by its
    context, which is what the front end looks it up by."""
    out: dict[str, str] = {}
    for message in catalog(domain, lang):
        if not message.id:
            continue  # the header
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = (
            [message.string] if isinstance(message.string, str) else list(message.string or [])
        )
        text = strings[-1] if strings else ""
        out[message.context or ids[0]] = text if text and not message.fuzzy else ids[-1]
    return out
