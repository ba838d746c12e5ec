"""Visitors' text at the edge of the server: what is refused before any route runs, and how the
text people choose for others to read is tidied. Decided here once, for every route.

**Refused** (400 ``bad_text``, naming where and which character): control characters. PostgreSQL
cannot store U+0000 in text (psycopg refuses the statement, where SQLite stores or looks the value
up quietly: the two would answer one request differently), and no field of this API carries a
control character as data. So the front door (``guard.py``, ``safejson.py``) refuses

- in an address's path and query and in a form body, percent-decoded: every C0 control
  (U+0000-U+001F) and DEL (``ADDRESS_REFUSED``): no id, name, token or option written there
  holds one;
- in JSON text, values and keys alike, in request bodies and socket messages: the C0 controls
  but tab, line feed and carriage return (``JSON_REFUSED``), the white space of typed and
  pasted text (a pasted password, a record or position written by hand);
- except in a chat message's ``text`` (``LOOSE_FIELDS``): whatever is pasted into a chat is
  taken, and every control character in it becomes a space (``tidy``) before it is stored.

**Tidied** (``tidy``): text a person chooses for other people to read (chat messages,
tournament names, seat names, token and passkey labels) keeps no character that breaks a line
or reorders it when shown: controls (C0, DEL and C1 with U+0085), line and paragraph
separators and the direction controls become spaces, zero-width spaces go, runs of white space
become one space and the ends are trimmed. A right-to-left override in a tournament's name
would otherwise turn the rest of the list around it."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from urllib.parse import unquote_to_bytes

from boardplay.web.errors import ApiError, quote

ADDRESS_REFUSED = re.compile("[\x00-\x1f\x7f]")
"""Characters no path, query or form value may hold (percent-decoded)."""
ADDRESS_BYTES = re.compile(b"[\x00-\x1f\x7f]")
"""The same, in percent-decoded bytes (UTF-8 never uses a byte below 0x80 in a longer
character, so a byte here is the character itself)."""
JSON_REFUSED = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")
"""Characters no JSON text or key may hold: the C0 controls but tab, line feed and carriage
return."""
LOOSE_FIELDS = frozenset({"text"})
"""Fields of a body or socket message (at its top level) whose text may hold any control
character: a chat message's, which the chat tidies (``tidy``) before it stores it. No other
body names a field so (``tests/web/server/test_web_text_edge.py`` holds that)."""

BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
"""Direction marks, embeddings, overrides and isolates: shown, they can make a line read as other
words than it holds (the Arabic letter mark U+061C included)."""
INVISIBLE = str.maketrans("", "", "\u200b\u2060\ufeff")
"""Zero-width spaces and the byte-order mark: dropped, so a text of nothing but them is empty
(the joiners that build emoji stay)."""
_SPACES = re.compile(r"\s+")
C0_NAMES = (
    *("NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HT", "LF", "VT", "FF"),
    *("CR", "SO", "SI", "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM"),
    *("SUB", "ESC", "FS", "GS", "RS", "US"),
)
"""The C0 controls' abbreviations, by code, for a refusal to name the character."""


def tidy(text: str) -> str:
    """``text`` on one plain line, as it may be shown to other people: every control character
    (line breaks and tabs included), line or paragraph separator and direction control a space,
    zero-width spaces gone, runs of white space one space, the ends trimmed. May be empty."""
    spaced = "".join(
        " " if unicodedata.category(c) in ("Cc", "Zl", "Zp") or c in BIDI_CONTROLS else c
        for c in text.translate(INVISIBLE)
    )
    return _SPACES.sub(" ", spaced).strip()


def character(char: str) -> str:
    """A character as a refusal names it: ``U+0000 (NUL)``."""
    code = ord(char)
    name = C0_NAMES[code] if code < 32 else "DEL" if code == 127 else ""
    return f"U+{code:04X}" + (f" ({name})" if name else "")


def bad_text(where: str, char: str, rule: str) -> ApiError:
    return ApiError(
        400, "bad_text", f"{where} holds the control character {character(char)}; {rule}"
    )


ADDRESS_RULE = "no address sent to this server may hold one"
JSON_RULE = "text sent to this server may hold no control character but tab and line breaks"


def _name(raw: bytes | str) -> str:
    """A visitor's field name, as a refusal may repeat it (quoted, cut, escaped)."""
    name = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    return quote(name)


def check_path(path: str) -> None:
    """Refuse a percent-decoded path holding a control character (``ADDRESS_REFUSED``)."""
    found = ADDRESS_REFUSED.search(path)
    if found:
        raise bad_text("the address's path", found.group(), ADDRESS_RULE)


def check_form(raw: bytes, what: str) -> None:
    """Refuse a query string or a ``application/x-www-form-urlencoded`` body whose names or
    values, percent-decoded, hold a control character; ``what`` says which (``the query``).
    Cheap when there is nothing to refuse: only a ``%``-escape or a raw control byte can put one
    there."""
    if b"%" not in raw and not ADDRESS_BYTES.search(raw):
        return
    for part in raw.split(b"&"):
        name, _, value = part.partition(b"=")
        for piece, where in ((name, "name"), (value, "value")):
            found = ADDRESS_BYTES.search(_unquote(piece))
            if found:
                label = f"{what}'s parameter {_name(_unquote(name))}"
                raise bad_text(
                    label if where == "value" else f"the name of {label}",
                    found.group().decode("latin-1"),
                    ADDRESS_RULE,
                )


def _unquote(raw: bytes) -> bytes:
    return unquote_to_bytes(raw.replace(b"+", b" "))


def json_location(value: object, target: object, what: str) -> str:
    """Where in the parsed JSON ``value`` the string ``target`` (a value or a key) is, as a
    refusal names it: ``the body's field seats[1].name``. Only asked once something is
    refused, so the walk that checks every string need not carry paths."""
    stack: list[tuple[object, str]] = [(value, "")]
    while stack:
        item, path = stack.pop()
        if item is target:
            return f"{what}'s field {path}" if path else what
        children: Iterable[tuple[object, str]] = ()
        if isinstance(item, dict):
            for key in item:
                if key is target:
                    return f"a name of a field of {what}" + (f" (in {path})" if path else "")
            children = ((child, _step(path, key)) for key, child in item.items())
        elif isinstance(item, list):
            children = ((child, f"{path}[{i}]") for i, child in enumerate(item))
        stack.extend(children)
    return what


def _step(path: str, key: str) -> str:
    plain = key.isascii() and key.isprintable() and len(key) <= 40
    name = key if plain else quote(key)
    return f"{path}.{name}" if path else name
