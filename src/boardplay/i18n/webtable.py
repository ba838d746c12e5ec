"""Babel extraction of the web app's string tables (``web/static/strings.js``, the site's words,
and the ``EN`` table of each game's board module, ``web/static/boards/<game>.js``, its game's
words) into the ``web`` domain.

The front end keeps every visible string in a JavaScript object, ``const EN = { "key":
"English text", … }`` (one per table; a key is in one of them), and shows them through
``t("key", params)``. Extracting the tables, rather than ``t("…")`` calls, means the pages keep
short stable keys (several people add strings at once without touching each other's English) and
a key built at run time (``t(`seat.${kind}`)``) is still in the catalogue. Each entry becomes a
message with the key as its context (``msgctxt``) and the English as its id, so a changed English
text marks its translations fuzzy on ``make i18n``.

Registered in ``babel-web.cfg`` for each table (``[boardplay.i18n.webtable.extract:
**/strings.js]``, and the same for ``**/boards/*.js`` with ``optional = true``: the boards'
helper modules, ``common.js`` and the like, have no table); a table is read with
Babel's own JavaScript tokenizer, so escapes and comments are handled as JavaScript does.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

from babel.messages.jslexer import Token, tokenize, unquote_string

TABLE_NAME = "EN"
"""The name of the table constant in each table's module."""


class TableError(ValueError):
    """A table's module has no readable ``const EN = { "key": "text", … }`` table."""


def _tokens(source: str) -> Iterator[Token]:
    for token in tokenize(source, jsx=False, dotted=False):
        if token.type not in ("linecomment", "multilinecomment"):
            yield token


def read_table(source: str, required: bool = True) -> list[tuple[int, str, str]]:
    """``(line, key, English)`` of every entry of the ``EN`` table in ``source``, in order (none
    when ``source`` has no table and none is ``required``).

    Only string keys and string values are allowed: a value built from an expression could not be
    translated, so it is an error rather than a silent gap in the catalogue."""
    tokens = list(_tokens(source))
    start = next(
        (
            i
            for i in range(len(tokens) - 2)
            if tokens[i].value == TABLE_NAME
            and tokens[i + 1].value == "="
            and tokens[i + 2].value == "{"
        ),
        None,
    )
    if start is None:
        if not required:
            return []
        raise TableError(f"no `{TABLE_NAME} = {{` table found")
    out: list[tuple[int, str, str]] = []
    i = start + 3
    while tokens[i].value != "}":
        key, colon, value = tokens[i], tokens[i + 1], tokens[i + 2]
        if key.type != "string" or colon.value != ":" or value.type != "string":
            raise TableError(f'line {key.lineno}: entries must read "key": "text"')
        out.append((key.lineno, unquote_string(key.value), unquote_string(value.value)))
        i += 3
        if tokens[i].value == ",":
            i += 1
    return out


def extract(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, str, tuple[str, str], list[str]]]:
    """Babel extraction method: each table entry as a ``pgettext(key, English)`` message, which
    Babel's default keywords turn into ``msgctxt key`` / ``msgid English`` (with the option
    ``optional = true``, a file without a table gives none)."""
    source = fileobj.read().decode(options.get("encoding", "utf-8"))
    required = options.get("optional", "false") != "true"
    for line, key, english in read_table(source, required):
        yield line, "pgettext", (key, english), []
