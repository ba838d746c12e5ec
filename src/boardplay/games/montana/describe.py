"""Montana moves as structured data and in words (English here, Japanese in the browser).

Built only on the public contract: the position JSON before and after the move (rules spec §12.2)
and the move's notation (§12.1). What a move earned or cost is read from the difference of the
mover's player board before and after, so no rule is computed twice. Nothing here imports the
engine, and nothing in the engine imports this module.

``describe`` returns ``(struct, sentence)``, the sentence a ``boardplay.i18n.phrase.Sentence``
(English by ``str()``, translated part by part in the browser: the counts, lists and goods are
phrases too, so Japanese puts its counters after the noun). The struct is JSON-ready: ``kind``
(recruit, push, wild, return, work, right, city, place, pass, reward, build, stop, trade,
canteen, end, spin, start, board), ``seat``, the move's own fields (``space``, ``workers``,
``row``/``column``, ``hex``, ``goods``, ``n``, ``for``) and ``gains`` (what the mover's board
gained, negative for what it paid: silver, goods and worker letters, cattle, canteens,
settlements).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from boardplay.i18n.phrase import Phrase, SeatName, Sentence, say

Position = Mapping[str, Any]
Names = Sequence[str]
Said = tuple[dict[str, Any], Sentence]
Who = SeatName | Phrase

GOODS = {
    "c": say("small copper"),
    "C": say("large copper"),
    "s": say("small stone"),
    "S": say("large stone"),
    "g": say("grain"),
    "p": say("pumpkin"),
}
PLURAL_GOODS = {"p": say("pumpkins")}
"""The goods whose English name takes a plural s (copper, stone and grain do not)."""
WORKERS = {"Cu": say("copper"), "St": say("stone"), "Gr": say("grain"), "Pu": say("pumpkin")}
"""Worker colours by their letters, as the workers are named ("a copper worker")."""
AREAS = {
    "M": say("the Mine"),
    "Q": say("the Quarry"),
    "G": say("the Grain field"),
    "F": say("the Farm"),
}
"""Production areas by the first letter of their spaces' names (§2.6.2)."""

_WORK = re.compile(r"^work:([A-Z])(\d+):(.+)$")
_PLACE = re.compile(r"^place:([A-Z])(\d+)$")
_BUILD = re.compile(r"^build:(-?\d+),(-?\d+)$")
_UPGRADE = re.compile(r"^reward:up:(.+)$")


def _letters(text: str) -> dict[str, int]:
    """``Cu+Cu+St`` → {"Cu": 2, "St": 1}."""
    out: dict[str, int] = {}
    for part in text.split("+") if text and text != "none" else []:
        out[part] = out.get(part, 0) + 1
    return out


def listed(items: Sequence[Phrase]) -> Phrase:
    """ "a, b and c" as phrases (Japanese joins them with 、 and と)."""
    if not items:
        raise ValueError("a list of nothing cannot be said")
    head = items[0]
    for item in items[1:-1]:
        head = say("{a}, {b}", a=head, b=item)
    return head if len(items) == 1 else say("{a} and {b}", a=head, b=items[-1])


def worker_words(letter: str, n: int) -> Phrase:
    kind = WORKERS[letter]
    return (
        say("a {kind} worker", kind=kind) if n == 1 else say("{n} {kind} workers", n=n, kind=kind)
    )


def workers_words(counts: Mapping[str, int]) -> Phrase:
    return listed([worker_words(k, n) for k, n in counts.items()])


def goods_words(key: str, n: int) -> Phrase:
    good = PLURAL_GOODS[key] if n != 1 and key in PLURAL_GOODS else GOODS[key]
    return say("{n} {good}", n=n, good=good)


def counted(key: str, n: int) -> Phrase:
    """One line of a player board's difference in words: ``("silver", 8)`` → "8 silver"."""
    if key == "silver":
        return say("{n} silver", n=n)
    if key == "cattle":
        return say("{n} cattle", n=n)
    if key == "canteens":
        return say("1 canteen") if n == 1 else say("{n} canteens", n=n)
    if key in WORKERS:
        return worker_words(key, n)
    return goods_words(key, n)


def _gains(before: Mapping[str, Any], after: Mapping[str, Any] | None, seat: int) -> dict[str, int]:
    if after is None or not 0 <= seat < len(before.get("players", [])):
        return {}
    old, new = before["players"][seat], after["players"][seat]
    gains: dict[str, int] = {}
    for key in ("silver", "cattle", "canteens"):
        if new[key] != old[key]:
            gains[key] = int(new[key]) - int(old[key])
    built = int(old["settlements_left"]) - int(new["settlements_left"])
    if built:
        gains["settlements"] = built
    for group in ("goods", "workers"):
        for key, value in new[group].items():
            if value != old[group].get(key, 0):
                gains[key] = int(value) - int(old[group].get(key, 0))
    return gains


def gains_words(gains: Mapping[str, int]) -> Phrase | None:
    """{"silver": 8, "c": -1} → ", and receives 8 silver and pays 1 small copper" (None when
    nothing changed hands)."""
    got = [counted(k, n) for k, n in gains.items() if k != "settlements" and n > 0]
    paid = [counted(k, -n) for k, n in gains.items() if k != "settlements" and n < 0]
    if got and paid:
        return say(", and receives {got} and pays {paid}", got=listed(got), paid=listed(paid))
    if got:
        return say(", and receives {got}", got=listed(got))
    if paid:
        return say(", and pays {paid}", paid=listed(paid))
    return None


def _simple(move: str, who: Who, names: Sequence[str]) -> tuple[dict[str, Any], Phrase] | None:
    """Moves without arguments, and chance outcomes."""
    # Built only for the move asked about: a view describes every legal move.
    fixed: dict[str, tuple[str, Callable[[], Phrase]]] = {
        "recruit": ("recruit", lambda: say("{who} recruits workers: the wheel spins", who=who)),
        "work:city": ("city", lambda: say("{who} goes to the City to hire contractors", who=who)),
        "pass": ("pass", lambda: say("{who} passes (no contractor placed)", who=who)),
        "stop": ("stop", lambda: say("{who} stops building", who=who)),
        "canteen": ("canteen", lambda: say("{who} uses a canteen for an extra turn", who=who)),
        "end": ("end", lambda: say("{who} ends the turn", who=who)),
        "right:none": ("right", lambda: say("{who} leaves the right part empty", who=who)),
    }
    if move in fixed:
        kind, saying = fixed[move]
        return {"kind": kind}, saying()
    head, _, arg = move.partition(":")
    if head == "spin" and arg.isdigit():
        return {"kind": "spin", "n": int(arg)}, say("The wheel stops on segment {n}", n=int(arg))
    if head == "start" and arg.isdigit():
        seat = int(arg)
        first: Who = SeatName(names[seat]) if seat < len(names) else say("Seat {n}", n=seat + 1)
        return {"kind": "start", "seat": seat}, say("{first} starts the game", first=first)
    if head == "board" and arg.isdigit():
        return {"kind": "board", "n": int(arg)}, say("The landscape is laid out")
    if head == "push" and arg.isdigit():
        n = int(arg)
        words = (
            say("{who} keeps the arrow where it stopped", who=who)
            if n == 0
            else say("{who} pushes the arrow 1 segment on with grain", who=who)
            if n == 1
            else say("{who} pushes the arrow {n} segments on with grain", who=who, n=n)
        )
        return {"kind": "push", "n": n}, words
    return None


def _trade_words(item: str) -> Phrase:
    """What a cattle is traded for: silver, a good or a worker of a colour."""
    if item == "silver":
        return say("silver")
    if item in WORKERS:
        return worker_words(item, 1)
    return say("a {good}", good=GOODS[item])


def _main(move: str, who: Who) -> tuple[dict[str, Any], Phrase]:
    head, _, arg = move.partition(":")
    if match := _WORK.match(move):
        space = match.group(1) + match.group(2)
        workers = _letters(match.group(3))
        place = (
            say("bank space {space}", space=space)
            if match.group(1) == "B"
            else say("{area} ({space})", area=AREAS[match.group(1)], space=space)
        )
        return {"kind": "work", "space": space, "workers": workers}, say(
            "{who} puts {workers} on {place}", who=who, workers=workers_words(workers), place=place
        )
    if head in ("wild", "return", "right"):
        workers = _letters(arg)
        said = workers_words(workers)
        if head == "wild":
            text = say("{who} chooses {workers} for the wild symbols", who=who, workers=said)
        elif head == "return":
            text = say(
                "{who} returns {workers} (no more than 8 may be kept)", who=who, workers=said
            )
        else:
            text = say("{who} adds {workers} on the right part", who=who, workers=said)
        return {"kind": head, "workers": workers}, text
    if match := _PLACE.match(move):
        row, column = match.group(1), int(match.group(2))
        return {"kind": "place", "row": row, "column": column}, say(
            "{who} places a contractor in the General Store, row {row}, column {column}",
            who=who,
            row=row,
            column=column,
        )
    if match := _UPGRADE.match(move):
        upgrades = {m[0]: int(m[1:]) for m in re.findall(r"[a-zA-Z]\d+", match.group(1))}
        shown = [goods_words(k, n) for k, n in upgrades.items() if n and k in GOODS]
        text = (
            say("{who} upgrades {goods}", who=who, goods=listed(shown))
            if shown
            else say("{who} upgrades nothing", who=who)
        )
        return {"kind": "reward", "upgrades": upgrades}, text
    if head == "reward" and arg.startswith("pick:"):
        goods = _letters(arg[5:])
        shown = [goods_words(k, n) for k, n in goods.items() if k in GOODS]
        return {"kind": "reward", "goods": goods}, say(
            "{who} picks {goods}", who=who, goods=listed(shown)
        )
    if match := _BUILD.match(move):
        hex_ = [int(match.group(1)), int(match.group(2))]
        # The map rings the hex (its coordinates are drawn nowhere, so the words leave them out).
        return {"kind": "build", "hex": hex_}, say("{who} builds a settlement", who=who)
    if head == "trade" and arg.startswith("cattle>"):
        target = arg[7:]
        item = target.split(":")[1] if ":" in target else "silver"
        if item != "silver" and item not in GOODS and item not in WORKERS:
            raise ValueError(f"{move!r} is not a Montana move")
        return {"kind": "trade", "for": item}, say(
            "{who} trades a cattle for {what}", who=who, what=_trade_words(item)
        )
    raise ValueError(f"{move!r} is not a Montana move")


def _where(struct: dict[str, Any], before: Position, seat: int) -> None:
    """Where on the table a decision happens when its notation does not say: the production
    space whose right part is being filled, and the store row whose reward is being taken (the
    board rings them, and the last turn's highlight finds them)."""
    stage = before.get("stage") or {}
    if struct["kind"] == "right" and stage.get("production_space"):
        struct["space"] = stage["production_space"]
    contractors = before.get("contractors") or []
    if struct["kind"] == "reward" and 0 <= seat < len(contractors) and contractors[seat] != "home":
        struct["row"] = str(contractors[seat])[0]


def describe(before: Position, move: str, after: Position | None, seat: int, names: Names) -> Said:
    """The words and struct of Montana move ``move`` (notation §12.1) by ``seat`` (or chance).
    ``after`` is the position it leads to (None when unknown); bad notation raises ValueError."""
    who: Who = SeatName(names[seat]) if 0 <= seat < len(names) else say("Chance")
    found = _simple(move, who, names)
    struct, words = found if found is not None else _main(move, who)
    struct.setdefault("seat", seat)
    _where(struct, before, seat)
    gains = _gains(before, after, seat)
    struct["gains"] = gains
    sentence = Sentence([words])
    built = gains.get("settlements", 0)
    if struct["kind"] == "build" and built > 1:
        sentence.add(say(" ({n} settlement tiles)", n=built))
    # The sentence already names what was placed or traded; the rest of the difference is news.
    named = (
        set(struct.get("workers", {})) if struct["kind"] in ("work", "right", "return") else set()
    )
    if struct["kind"] in ("trade", "canteen"):
        named = set(gains)
    news = gains_words({k: n for k, n in gains.items() if not (k in named and n < 0)})
    if news is not None:
        sentence.add(news)
    return struct, sentence.add(say("."))
