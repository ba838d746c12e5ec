"""Where and why a game of Potlatch Klone ended, for the final board and the result line.

``describe_end`` (``Game.end_describer``) reads the final state: for condition 2 it asks the
engine (``explain.blocked``) which rule forbids each of the stuck seat's twelve actions, so the
words and the marks follow the rules the engine applied instead of a second copy of them. It
returns ``(mark, sentence)``: ``mark`` is JSON the board draws (``kind``: the end's code;
``seat``; ``pawn`` and ``blocked`` for a stuck seat; ``stacks``, each own stack with its owner,
for the ends that count them) and the sentence its words, in phrases the browser translates.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from boardplay.games.potlatch.explain import blocked
from boardplay.games.potlatch.layout import PAWN_MOVES
from boardplay.games.potlatch.notation import STEPS, hex_text, pack
from boardplay.games.potlatch.state import PotlatchState
from boardplay.i18n.phrase import Phrase, SeatName, Sentence, say

OWNERS = {"R": 0, "B": 1}
"""The colour chip on top of an own stack (always its 3rd chip, rules §2) and its seat."""

Tally = Mapping[str, Callable[[int], Phrase]]
"""Phrases that count the actions one rule blocks, in the order they are said."""

STEP_WORDS: Tally = {
    "height": lambda n: say("{n} too high or too low", n=n),
    "visited": lambda n: say("{n} already visited this turn", n=n),
    "no_stock": lambda n: say("{n} without a tile, and none left", n=n),
    "pawn": lambda n: say("{n} held by the other pawn", n=n),
    "dead_end": lambda n: say("{n} leading into a dead end", n=n),
}
"""A tally of the pawn's blocked steps, by the rule that blocks them."""

CHIP_WORDS: Tally = {
    "full": lambda n: say("{n} already 3 high", n=n),
    "no_stock": lambda n: say("{n} without a tile, and none left", n=n),
    "dead_end": lambda n: say("{n} leading into a dead end", n=n),
}
"""A tally of the blocked chip moves, by the rule that blocks them."""


def describe_end(
    before: Mapping[str, Any], after: PotlatchState, seat: int, names: Sequence[str]
) -> tuple[dict[str, Any], Sentence]:
    """The mark and the words of the end of ``after`` (a finished game)."""
    condition = (after.result or (None, 0))[1]
    position = after.to_json()
    stacks = [
        {"at": at, "seat": OWNERS[chips[-1]]}
        for at, chips in position["tiles"].items()
        if chips and chips[-1] in OWNERS
    ]
    if condition == 2:
        return _stuck(after, position, names)
    mover = int(position["to_move"])
    mark: dict[str, Any] = {"kind": after.end_code(), "seat": mover}
    if condition == 1:
        mark["stacks"] = [s for s in stacks if s["seat"] == mover]
        return mark, Sentence(
            [
                say(
                    "{who} begins the turn with {n} own stacks (ringed).",
                    who=_name(names, mover),
                    n=len(mark["stacks"]),
                )
            ]
        )
    mark["stacks"] = stacks
    counts = [sum(1 for s in stacks if s["seat"] == p) for p in (0, 1)]
    if condition == 3:
        opening = say(
            "Every stack stands exactly as at the start of {who}'s previous turn.",
            who=_name(names, mover),
        )
    else:
        opening = say("The game reached its limit of {n} turns.", n=int(position["turns_played"]))
    return mark, Sentence(
        [
            opening,
            say(
                " Own stacks (ringed): {a} {x}, {b} {y}.",
                a=_name(names, 0),
                x=counts[0],
                b=_name(names, 1),
                y=counts[1],
            ),
        ]
    )


def _stuck(
    after: PotlatchState, position: Mapping[str, Any], names: Sequence[str]
) -> tuple[dict[str, Any], Sentence]:
    """Condition 2: the seat to act has no action left. Each of its twelve actions is blocked
    by one rule; the board marks where, the words tally them."""
    kernel = after.kernel
    mover = int(position["to_move"])
    pawn = position["pawns"][mover]
    q, r = (int(v) for v in pawn.split(","))
    steps: Counter[str] = Counter()
    chips: Counter[str] = Counter()
    marks: list[dict[str, str]] = []
    for action in range(2 * PAWN_MOVES):
        why, _ = blocked(kernel, action)
        to = hex_text(pack(q, r) + STEPS[action % PAWN_MOVES])
        if action < PAWN_MOVES:
            steps[why] += 1
            marks.append({"to": to, "why": why, "kind": "pawn"})
        else:
            chips[why] += 1
    done = int(position.get("done", 0))
    who = _name(names, mover)
    if done == 0:
        opening = say("{who} is stuck: no action is left to begin the turn.", who=who)
    else:
        opening = say(
            "{who} is stuck after action {n} of the turn: no action is left.", who=who, n=done
        )
    parts = [opening, say(" The pawn (ringed) cannot step: ")]
    parts += _tally(STEP_WORDS, steps)
    if chips.get("no_chip"):
        parts.append(say(" No chip can move: the pawn stands on an empty tile."))
    else:
        parts.append(say(" No chip can move: "))
        parts += _tally(CHIP_WORDS, chips)
    mark = {"kind": "stuck", "seat": mover, "pawn": pawn, "step": done + 1, "blocked": marks}
    return mark, Sentence(parts)


def _tally(words: Tally, counts: Counter[str]) -> list[Phrase]:
    """``"3 too high or too low, 2 already visited this turn."``: the counts in the table's
    order, joined, closed by a full stop."""
    items = [words[why](counts[why]) for why in words if counts.get(why)]
    out: list[Phrase] = []
    for i, item in enumerate(items):
        if i:
            out.append(say(", "))
        out.append(item)
    out.append(say("."))
    return out


def _name(names: Sequence[str], seat: int) -> SeatName | Phrase:
    return SeatName(names[seat]) if 0 <= seat < len(names) else say("Seat {n}", n=seat + 1)
