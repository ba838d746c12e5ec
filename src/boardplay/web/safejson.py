"""JSON from visitors, parsed within the server's ceilings.

Python's parser accepts what a server must not: nesting deep enough to exhaust the recursion
limit (a body of 100,000 ``[``), integers of thousands of digits (slow to convert, and refused
with a ``ValueError`` past 4,300), ``NaN``/``Infinity`` (not JSON) and lone surrogates such as
``"\\ud800"`` (valid JSON escapes that are not Unicode text: they break hashing, storage and the
JSON answer), and control characters such as ``"\\u0000"`` (PostgreSQL cannot store a NUL: the
rule is ``text.py``'s). Every body and WebSocket message goes through ``parse`` first, so nothing
after it meets such input; a refusal is an ``ApiError`` 400 whose message never quotes the
input (a field's name at most, cut short)."""

from __future__ import annotations

import json
import re
from typing import Any

from boardplay.web.config import Limits
from boardplay.web.errors import ApiError, bad_request
from boardplay.web.text import JSON_REFUSED, JSON_RULE, LOOSE_FIELDS, bad_text, json_location

_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")
"""A JSON escape of a UTF-16 surrogate (a lone one is not Unicode text)."""
_CONTROL = re.compile(r"\\(?:[bf]|u00[01][0-9a-fA-F])")
"""A JSON escape that may stand for a refused control character (``text.JSON_REFUSED``): the
only way one gets into parsed text, since JSON refuses them raw inside a string (and ``\\n``,
``\\r``, ``\\t`` are allowed)."""


class _Refused(Exception):
    """Raised from inside the parser's hooks; turned into a 400 by ``parse``."""


def parse(raw: bytes | str, limits: Limits, what: str = "the body") -> Any:
    """The JSON value of ``raw`` or ``ApiError`` 400 saying which ceiling or rule it breaks."""
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise bad_request(f"{what} is not UTF-8 text") from None
    else:
        text = raw
    digits = limits.max_int_digits
    # Fast paths: without a run of more than ``digits`` digits anywhere, no integer can be too
    # long, without a \\uD800-\\uDFFF escape no text can hold a lone surrogate (UTF-8
    # itself cannot encode one), and without a \\b, \\f or \\u0000-\\u001F escape none can
    # hold a refused control character, so the per-value hooks and checks are skipped (a 2 MB
    # record took 0.19 s with them, 0.08 s without).
    long_numbers = re.search(rf"[0-9]{{{digits + 1}}}", text) is not None
    surrogates = _SURROGATE.search(text) is not None
    controls = _CONTROL.search(text) is not None

    def parse_int(number: str) -> int:
        if len(number) - number.startswith("-") > digits:
            raise _Refused(f"{what} has an integer of more than {digits} digits")
        return int(number)

    def parse_constant(name: str) -> Any:
        raise _Refused(f"{what} contains {name}, which is not JSON")

    try:
        value = json.loads(
            text, parse_int=parse_int if long_numbers else int, parse_constant=parse_constant
        )
    except json.JSONDecodeError as exc:
        raise bad_request(f"{what} is not valid JSON: {exc.msg} at position {exc.pos}") from None
    except RecursionError:
        raise _too_deep(what, limits) from None
    except _Refused as exc:
        raise bad_request(str(exc)) from None
    check(value, limits, what, surrogates, controls)
    return value


def _too_deep(what: str, limits: Limits) -> ApiError:
    return bad_request(f"{what} nests arrays and objects deeper than {limits.max_json_depth}")


def check(value: Any, limits: Limits, what: str, texts: bool = True, controls: bool = True) -> None:
    """Refuse nesting deeper than the ceiling, (when ``texts``) text that is not Unicode (lone
    surrogates) and (when ``controls``) text or a key holding a control character the edge
    refuses (``text.py``; the top-level ``LOOSE_FIELDS`` aside), walking the parsed value
    without recursion; with neither only arrays and objects are visited."""
    strings = texts or controls
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            _check_text(item, what, texts, controls, value)
        elif isinstance(item, dict | list):
            if depth >= limits.max_json_depth:
                raise _too_deep(what, limits)
            children = item.values() if isinstance(item, dict) else item
            if strings:
                if isinstance(item, dict):
                    for key in item:
                        _check_text(key, what, texts, controls, value)
                    if depth == 0 and controls:
                        loose = [k for k in LOOSE_FIELDS if isinstance(item.get(k), str)]
                        if loose:  # checked here for surrogates only
                            for key in loose:
                                _check_text(item[key], what, texts, False, value)
                            children = [c for k, c in item.items() if k not in loose]
                stack.extend((child, depth + 1) for child in children)
            else:
                stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list))


def _check_text(text: str, what: str, texts: bool, controls: bool, whole: Any) -> None:
    if controls:
        found = JSON_REFUSED.search(text)
        if found:
            raise bad_text(json_location(whole, text, what), found.group(), JSON_RULE)
    if not texts or text.isascii():
        return
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise bad_request(
            f"{what} contains text that is not valid Unicode (a lone surrogate such as \\ud800)"
        ) from None
