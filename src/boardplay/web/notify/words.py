"""The words the server itself sends a player away from the table, in the player's language: the
pushes (``pusher.py``) and the e-mails (``mailer.py``).

The texts are entries of the notifications' string table (``static/notifications/strings.js``, keys
``notice.*``, ``push.*`` and ``mail.*``), so they are in the ``web`` message catalogue with the
page's words (``make i18n`` extracts them; docs/i18n.md) and a translator sees them beside the
words of the pages that show the same things. A game's title and a seat's name are the page's own
words for them (``title.<game>``, ``name.<seat>``). An account's language is the one it chose on
the page (``accounts.language``); none chosen, English."""

from __future__ import annotations

import functools
import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from boardplay.i18n import DEFAULT_LANGUAGE, LANGUAGES, messages

if TYPE_CHECKING:
    from boardplay.web.catalogue import WebCatalogue

CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")
FIELD = re.compile(r"\{(\w+)\}")
NAME_CHARS = 40
"""Characters of a player's name a notice repeats."""
Languages = Callable[[list[int]], Awaitable[dict[int, str | None]]]
"""The languages accounts chose on the page (the accounts domain's; None: never chose one)."""


async def no_languages(account_ids: list[int]) -> dict[int, str | None]:
    """No language known: every notice in English (a test's mailer or pusher)."""
    return {}


def language_of(code: str | None) -> str:
    """``code`` if it is a language the catalogues have, else English."""
    return code if code in LANGUAGES else DEFAULT_LANGUAGE


@functools.cache
def _table(lang: str) -> dict[str, str]:
    return messages("web", language_of(lang))


def clean(text: Any, limit: int) -> str:
    """``text`` on one line (no control characters: a name cannot start a header or fake a
    line), cut to ``limit`` characters."""
    line = CONTROL.sub(" ", str(text)).strip()
    return line if len(line) <= limit else line[: limit - 1] + "…"


def say(lang: str | None, key: str, **params: Any) -> str:
    """The entry ``key`` of the site's table in ``lang``, its ``{name}`` fields filled (as the
    page's ``t()`` does: a missing field is empty). An unknown key is a ``KeyError``: a typo
    must fail a test, not reach a player."""
    template = _table(language_of(lang))[key]
    return FIELD.sub(lambda m: str(params.get(m.group(1), "")), template)


def titles(catalogue: WebCatalogue) -> Callable[[str], str]:
    """A game's title as the server's catalogue gives it (the fallback of ``game_title``); a
    game no longer offered keeps its name."""

    def title_of(name: str) -> str:
        try:
            return str(getattr(catalogue.load(name, {}), "title", name))
        except Exception:
            return name

    return title_of


def game_title(lang: str | None, game: str, fallback: str) -> str:
    """A game's title as the pages write it in ``lang`` (``fallback``, the catalogue's, for a
    game the table does not name)."""
    return clean(_table(language_of(lang)).get(f"title.{game}", fallback), NAME_CHARS)


def seat_name(lang: str | None, name: str) -> str:
    """A seat's name: a colour or "Player 2" in ``lang``, a player's own name as it is."""
    numbered = re.fullmatch(r"Player (\d+)", name)
    table = _table(language_of(lang))
    if numbered:
        return say(lang, "name.player", n=numbered.group(1))
    return clean(table.get(f"name.{name}", name), NAME_CHARS)


def names(lang: str | None, seats: Iterable[tuple[str, int | None]], account: int) -> str:
    """The other players of a game, by name, joined as the language joins them."""
    found: list[str] = []
    for name, holder in seats:
        shown = seat_name(lang, name)
        if holder != account and shown not in found:
            found.append(shown)
    return say(lang, "notice.joiner").join(found) or say(lang, "notice.nobody")


def holder(seats: Sequence[Any], seat: int) -> int | None:
    """The account holding ``seat`` (a game's seats, each with its ``account``): whom a "your
    turn" is for (None: no such seat, or a guest's or the AI's, which nothing reaches)."""
    return seats[seat].account if 0 <= seat < len(seats) else None


def outcome(lang: str | None, result: dict[str, Any] | None, mine: set[int]) -> str:
    """How a finished game went for the reader, in their words ("You won.", "A draw.")."""
    winners = (result or {}).get("winners")
    winners = [w for w in winners if isinstance(w, int)] if isinstance(winners, list) else []
    if not winners:
        return say(lang, "notice.draw")
    if mine & set(winners):
        return say(lang, "notice.won" if len(winners) == 1 else "notice.shared")
    return say(lang, "notice.lost")


def deadline_text(deadline: Any) -> str | None:
    """When a move's time runs out, in UTC (the same in every language)."""
    if isinstance(deadline, int | float) and deadline > 0:
        return datetime.fromtimestamp(deadline, UTC).strftime("%Y-%m-%d %H:%M UTC")
    return None


@dataclass(frozen=True)
class Words:
    """A notice's title and lines: a push's title and body, a mail's subject and body."""

    title: str
    lines: tuple[str, ...]

    @property
    def body(self) -> str:
        return "\n".join(self.lines)
