"""Where and why a game of Montana ended, for the final board and the result line.

``describe_end`` (``Game.end_describer``) reads the finished state and asks the engine, not a
second copy of the rules: who placed their last settlement (``trigger_by``), who placed every
settlement (``finishers``), the winners, and the tie-break steps the winner rule took
(``tiebreaks``, the values ``decided_by`` compares). It returns ``(mark, sentence)``: ``mark``
is JSON the board draws (``kind``: the end's code; ``trigger``, the seat that placed its last
settlement, or None; ``winners``; ``decided``: ``decided_by``; ``settlements``: every hex
settled by a player who placed every settlement (the trigger among them), with its owner,
ringed on the map; ``tiebreak``,
when several players placed every settlement: the deciding step and each compared player's
value, ringed on the player boards) and the sentence its words, in phrases the browser
translates.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boardplay.games.montana.state import MontanaState
from boardplay.i18n.phrase import Phrase, SeatName, Sentence, say


def describe_end(
    before: Mapping[str, Any], after: MontanaState, seat: int, names: Sequence[str]
) -> tuple[dict[str, Any], Sentence]:
    """The mark and the words of the end of ``after`` (a finished game)."""
    code = after.end_code()
    winners = after.winners()
    trigger = after.trigger_by if after.trigger_by >= 0 else None
    finished = after.finishers()
    position = after.to_json()
    settlements = [
        {"hex": st["hex"], "seat": int(st["owner"])}
        for st in position["landscape"]["settlements"]
        if int(st["owner"]) in finished
    ]
    decided = after.decided_by()
    mark: dict[str, Any] = {
        "kind": code,
        "trigger": trigger,
        "winners": winners,
        "decided": decided,
        "settlements": settlements,
    }
    parts: list[Phrase] = []
    if code == "final_round" and trigger is not None:
        parts.append(
            say(
                "{who} placed their last settlement, so the round was played out.",
                who=_name(names, trigger),
            )
        )
    else:
        parts.append(say("The game reached its limit of {n} turns.", n=after.game.max_turns))
    steps = after.tiebreaks()
    if not finished:
        parts.append(say(" Nobody placed every settlement, so nobody wins."))
    elif len(finished) == 1:
        parts.append(
            say(
                " Only {who} placed every settlement (ringed on the map), so {who} wins.",
                who=_name(names, finished[0]),
            )
        )
    else:
        parts.append(
            say(
                " {names} placed every settlement (ringed on the map): a tie.",
                names=_names(names, finished),
            )
        )
        for i, (step, values) in enumerate(steps):
            deciding = i == len(steps) - 1
            parts.append(_step(step, values, deciding, names, decided))
        step, values = steps[-1]
        mark["tiebreak"] = {
            "by": step,
            "values": [{"seat": p, "value": v} for p, v in values.items()],
        }
    return mark, Sentence(parts)


def _step(
    step: str, values: Mapping[int, int], deciding: bool, names: Sequence[str], decided: str | None
) -> Phrase:
    """One tie-break step: what it compares, each player's value and what it settled."""
    counted = _values(values, names)
    if not deciding:
        if step == "cattle":
            return say(
                " Tie-break 1, cattle plus unused canteens: {values}, still a tie.", values=counted
            )
        return say(
            " Tie-break 2, silver, workers and goods: {values}, still a tie.", values=counted
        )
    best = max(values.values())
    top = [p for p, v in values.items() if v == best]
    if decided == "shared":
        return say(
            " Tie-break 2, silver, workers and goods (ringed on the player boards): {values},"
            " still a tie, so {names} share the win.",
            values=counted,
            names=_names(names, top),
        )
    who = _name(names, top[0])
    if step == "cattle":
        return say(
            " Tie-break 1, cattle plus unused canteens (ringed on the player boards): {values},"
            " so {who} wins.",
            values=counted,
            who=who,
        )
    return say(
        " Tie-break 2, silver, workers and goods (ringed on the player boards): {values},"
        " so {who} wins.",
        values=counted,
        who=who,
    )


def _values(values: Mapping[int, int], names: Sequence[str]) -> Phrase:
    """``"Blue: 3, Yellow: 2"``: each compared player's value."""
    items = [say("{who}: {n}", who=_name(names, p), n=v) for p, v in values.items()]
    out = items[0]
    for item in items[1:]:
        out = say("{a}, {b}", a=out, b=item)
    return out


def _names(names: Sequence[str], seats: Sequence[int]) -> Phrase | SeatName:
    """``"Blue and Yellow"``, ``"Blue, Yellow and Green"``."""
    said: list[Phrase | SeatName] = [_name(names, p) for p in seats]
    if len(said) == 1:
        return said[0]
    out = said[0]
    for item in said[1:-1]:
        out = say("{a}, {b}", a=out, b=item)
    return say("{a} and {b}", a=out, b=said[-1])


def _name(names: Sequence[str], seat: int) -> SeatName | Phrase:
    return SeatName(names[seat]) if 0 <= seat < len(names) else say("Seat {n}", n=seat + 1)
