"""Montana moves as structured data and in plain English.

Built only on the public contract: the position JSON before and after the move (rules spec §12.2)
and the move's notation (§12.1). What a move earned or cost is read from the difference of the
mover's player board before and after, so no rule is computed twice. Nothing here imports the
engine, and nothing in the engine imports this module.

``describe`` returns ``(struct, sentence)``. The struct is JSON-ready: ``kind`` (recruit, push,
wild, return, work, right, city, place, pass, reward, build, stop, trade, canteen, end, spin,
start, board), ``seat``, the move's own fields (``space``, ``workers``, ``row``/``column``,
``hex``, ``goods``, ``n``, ``for``) and ``gains`` (what the mover's board gained, negative for
what it paid: silver, goods and worker letters, cattle, canteens, settlements).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

Position = Mapping[str, Any]
Names = Sequence[str]
Said = tuple[dict[str, Any], str]

GOODS = {
    "c": "small copper",
    "C": "large copper",
    "s": "small stone",
    "S": "large stone",
    "g": "grain",
    "p": "pumpkin",
}
WORKERS = {"Cu": "copper", "St": "stone", "Gr": "grain", "Pu": "pumpkin"}
AREAS = {"M": "the Mine", "Q": "the Quarry", "G": "the Grain field", "F": "the Farm"}
"""Production areas by the first letter of their spaces' names (§2.6.2)."""

_WORK = re.compile(r"^work:([A-Z])(\d+):(.+)$")
_PLACE = re.compile(r"^place:([A-Z])(\d+)$")
_BUILD = re.compile(r"^build:(-?\d+),(-?\d+)$")
_UPGRADE = re.compile(r"^reward:up:(.+)$")


COUNTABLE = ("worker", "canteen", "pumpkin", "settlement")
"""Nouns that take a plural s; silver, copper, stone, grain and cattle do not."""


def _counted(words: str, n: int) -> str:
    return f"{n} {words}s" if n != 1 and words.endswith(COUNTABLE) else f"{n} {words}"


def _letters(text: str) -> dict[str, int]:
    """``Cu+Cu+St`` → {"Cu": 2, "St": 1}."""
    out: dict[str, int] = {}
    for part in text.split("+") if text and text != "none" else []:
        out[part] = out.get(part, 0) + 1
    return out


def _list(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def workers_words(counts: Mapping[str, int]) -> str:
    parts = [
        _counted(f"{WORKERS.get(k, k)} worker", n) if n > 1 else f"a {WORKERS.get(k, k)} worker"
        for k, n in counts.items()
    ]
    return _list(parts)


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


def gains_words(gains: Mapping[str, int]) -> str:
    """{"silver": 8, "c": -1} → "gets 8 silver and pays 1 small copper"."""
    got: list[str] = []
    paid: list[str] = []
    for key, n in gains.items():
        if key == "settlements":
            continue
        word = GOODS.get(key) or (
            f"{WORKERS[key]} worker"
            if key in WORKERS
            else key[:-1]
            if key.endswith("s") and key != "silver"
            else key
        )
        (got if n > 0 else paid).append(_counted(word, abs(n)))
    parts = []
    if got:
        parts.append("receives " + _list(got))
    if paid:
        parts.append("pays " + _list(paid))
    return " and ".join(parts)


def _simple(move: str, who: str, names: Sequence[str]) -> tuple[dict[str, Any], str] | None:
    """Moves without arguments, and chance outcomes."""
    fixed = {
        "recruit": f"{who} recruits workers: the wheel spins",
        "work:city": f"{who} goes to the City to hire contractors",
        "pass": f"{who} passes (no contractor placed)",
        "stop": f"{who} stops building",
        "canteen": f"{who} uses a canteen for an extra turn",
        "end": f"{who} ends the turn",
        "right:none": f"{who} leaves the right part empty",
    }
    if move in fixed:
        kind = {"work:city": "city", "right:none": "right"}.get(move, move)
        return {"kind": kind}, fixed[move]
    head, _, arg = move.partition(":")
    if head == "spin" and arg.isdigit():
        return {"kind": "spin", "n": int(arg)}, f"The wheel stops on segment {arg}"
    if head == "start" and arg.isdigit():
        first = names[int(arg)] if int(arg) < len(names) else f"Seat {int(arg) + 1}"
        return {"kind": "start", "seat": int(arg)}, f"{first} starts the game"
    if head == "board" and arg.isdigit():
        return {"kind": "board", "n": int(arg)}, "The landscape is laid out"
    if head == "push" and arg.isdigit():
        n = int(arg)
        words = (
            f"{who} keeps the arrow where it stopped"
            if n == 0
            else f"{who} pushes the arrow {n} segment{'s' if n > 1 else ''} on with grain"
        )
        return {"kind": "push", "n": n}, words
    return None


def _main(move: str, who: str) -> tuple[dict[str, Any], str]:
    head, _, arg = move.partition(":")
    if match := _WORK.match(move):
        space = match.group(1) + match.group(2)
        workers = _letters(match.group(3))
        place = (
            f"bank space {space}"
            if match.group(1) == "B"
            else f"{AREAS.get(match.group(1), 'space')} ({space})"
        )
        return {"kind": "work", "space": space, "workers": workers}, (
            f"{who} puts {workers_words(workers)} on {place}"
        )
    if head in ("wild", "return", "right"):
        workers = _letters(arg)
        text = {
            "wild": f"{who} chooses {workers_words(workers)} for the wild symbols",
            "return": f"{who} returns {workers_words(workers)} (no more than 8 may be kept)",
            "right": f"{who} adds {workers_words(workers)} on the right part",
        }[head]
        return {"kind": head, "workers": workers}, text
    if match := _PLACE.match(move):
        row, column = match.group(1), int(match.group(2))
        return {"kind": "place", "row": row, "column": column}, (
            f"{who} places a contractor in the General Store, row {row}, column {column}"
        )
    if match := _UPGRADE.match(move):
        upgrades = {m[0]: int(m[1:]) for m in re.findall(r"[a-zA-Z]\d+", match.group(1))}
        shown = [_counted(GOODS.get(k, k), n) for k, n in upgrades.items() if n]
        text = f"{who} upgrades {_list(shown)}" if shown else f"{who} upgrades nothing"
        return {"kind": "reward", "upgrades": upgrades}, text
    if head == "reward" and arg.startswith("pick:"):
        goods = _letters(arg[5:])
        shown = [_counted(GOODS.get(k, k), n) for k, n in goods.items()]
        return {"kind": "reward", "goods": goods}, f"{who} picks {_list(shown)}"
    if match := _BUILD.match(move):
        hex_ = [int(match.group(1)), int(match.group(2))]
        return {"kind": "build", "hex": hex_}, f"{who} builds a settlement at {hex_[0]},{hex_[1]}"
    if head == "trade" and arg.startswith("cattle>"):
        target = arg[7:]
        item = target.split(":")[1] if ":" in target else "silver"
        word = "silver" if item == "silver" else f"a {GOODS.get(item) or WORKERS.get(item, item)}"
        if item in WORKERS:
            word += " worker"
        return {"kind": "trade", "for": item}, f"{who} trades a cattle for {word}"
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
    who = names[seat] if 0 <= seat < len(names) else "Chance"
    found = _simple(move, who, names)
    struct, sentence = found if found is not None else _main(move, who)
    struct.setdefault("seat", seat)
    _where(struct, before, seat)
    gains = _gains(before, after, seat)
    struct["gains"] = gains
    built = gains.get("settlements", 0)
    # The sentence already names what was placed or traded; the rest of the difference is news.
    named = (
        set(struct.get("workers", {})) if struct["kind"] in ("work", "right", "return") else set()
    )
    if struct["kind"] in ("trade", "canteen"):
        named = set(gains)
    paid = gains_words({k: n for k, n in gains.items() if not (k in named and n < 0)})
    if struct["kind"] == "build" and built > 1:
        sentence += f" ({built} settlement tiles)"
    if paid:
        sentence += f", and {paid}"
    return struct, sentence + "."
