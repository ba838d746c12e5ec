"""Where and why a game of Passtally ended, for the final board and the result line.

``describe_end`` (``Game.end_describer``) reads the final state and asks the engine, not a
second copy of the rules: which piles are used up (``pile_exhausted``), whether any tile still
fits (``any_placement``), whose lines are complete and how many passes they cross
(``player_lines``) and what they are worth (``turn_score``, the points the last turn's mover
scored, since the board does not change after the turn is scored). Only the drawn path of each
line comes from the move describer (``describe.lines_of``), the same paths the moves' structs
carry.

It returns ``(mark, sentence)``. ``mark`` is JSON the board draws: ``kind`` (the end's code),
``seat`` (whose turn was the last), ``lines`` (that seat's lines scored in that turn, each with
its end slots, passes and path), ``scored`` (the points of that turn; 0 when the game ended
without scoring it), ``scored_turn`` (false then), ``piles`` (the used-up piles), ``reached``
(the seats with the 50 points that end the game), ``scores``, ``winner`` and ``tied`` (the
seats level on the top score, when the turn order broke the tie). The sentence says it in
phrases the browser translates.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boardplay.games.passtally.describe import lines_of
from boardplay.games.passtally.layout import FINAL_ROUND_SCORE, NUM_PILES
from boardplay.games.passtally.state import PasstallyState
from boardplay.games.passtally.tables import PILE_NAMES
from boardplay.i18n.phrase import Phrase, SeatName, Sentence, Value, say

Name = SeatName | Phrase


def describe_end(
    before: Mapping[str, Any], after: PasstallyState, seat: int, names: Sequence[str]
) -> tuple[dict[str, Any], Sentence]:
    """The mark and the words of the end of ``after`` (a finished game); ``before`` is the
    position before the last move, made by ``seat`` (-1: a pile's reveal, which closes the
    mover's turn)."""
    code = after.end_code()
    mover = seat if seat >= 0 else int(before.get("to_move") or 0)
    position = after.to_json()
    points = after.points
    piles = [PILE_NAMES[p] for p in range(NUM_PILES) if after.pile_exhausted(p)]
    # With finish_turn_on_immediate_end off, the tile that leaves no placement ends the game
    # at once, before the turn is scored (the kernel's after_action); every other end comes
    # after the turn's scoring.
    unscored = code == "no_placement" and not after.game.options["finish_turn_on_immediate_end"]
    paths = {(line["from"], line["to"]): line["path"] for line in lines_of(position, mover)}
    lines = (
        []
        if unscored
        else [
            {"seat": mover, "from": lo, "to": hi, "passes": passes, "path": paths.get((lo, hi), [])}
            for lo, hi, passes in after.player_lines(mover)
        ]
    )
    scored = 0 if unscored else after.turn_score(mover)
    top = max(points)
    tied = [s for s, v in enumerate(points) if v == top]
    winner = after.winner()
    mark: dict[str, Any] = {
        "kind": code,
        "seat": mover,
        "lines": lines,
        "scored": scored,
        "scored_turn": not unscored,
        "piles": piles,
        "scores": points,
        "winner": winner,
    }
    if len(tied) > 1:
        mark["tied"] = tied
    parts: list[Phrase] = []
    who = _name(names, mover)
    if code == "final_round":
        reached = [s for s, v in enumerate(points) if v >= FINAL_ROUND_SCORE]
        mark["reached"] = reached
        parts.append(
            say(
                "This was the final round, because {why}; the game ends when the round is "
                "complete.",
                why=_why_final(piles, [_name(names, s) for s in reached]),
            )
        )
    elif code == "no_placement":
        if len(piles) == NUM_PILES:
            parts.append(say("All three piles are used up, so the game ends at once."))
        else:
            parts.append(
                say(
                    "No tile fits anywhere any more (both halves must rest at the same height, "
                    "across two different tiles), so the game ends at once."
                )
            )
        if unscored:
            parts.append(
                say(" It ends right after that tile, without scoring {who}'s turn.", who=who)
            )
    else:
        parts.append(say("The game reached its limit of {n} turns.", n=after.turns))
    if not unscored:
        parts.append(_last_turn(who, lines, scored))
    scores = [say("{who} {n}", who=_name(names, s), n=v) for s, v in enumerate(points)]
    parts.append(say(" Final score: {scores}.", scores=_listed(scores)))
    if len(tied) > 1:
        parts.append(
            say(
                " {tied} are level on {points}; {who} wins as the earliest in turn order.",
                tied=_joined([_name(names, s) for s in tied]),
                points=_points(top),
                who=_name(names, winner),
            )
        )
    else:
        second = sorted(points)[-2]
        parts.append(
            say(" {who} wins by {points}.", who=_name(names, winner), points=_points(top - second))
        )
    return mark, Sentence(parts)


def _why_final(piles: Sequence[str], reached: Sequence[Name]) -> Phrase:
    """Why the round was the last: the used-up piles and the seats with 50 points."""
    reasons: list[Phrase] = []
    if len(piles) == 1:
        reasons.append(say("pile {pile} ran out of tiles", pile=piles[0]))
    elif piles:
        reasons.append(say("piles {piles} ran out of tiles", piles=_joined(list(piles))))
    if reached:
        reasons.append(
            say("{who} reached {n} points", who=_joined(list(reached)), n=FINAL_ROUND_SCORE)
        )
    if len(reasons) == 1:
        return reasons[0]
    return say("{a}, and {b}", a=reasons[0], b=reasons[1])


def _last_turn(who: Name, lines: Sequence[Mapping[str, Any]], scored: int) -> Phrase:
    """What the last turn's scoring gave, naming the lines the board traces."""
    passes = sum(int(line["passes"]) for line in lines)
    if not lines:
        return say(
            " {who}'s last turn scored nothing: no line joins two of their markers.", who=who
        )
    if not scored:
        if len(lines) == 1:
            return say(
                " {who}'s last turn scored nothing: the traced line crosses no tile.", who=who
            )
        return say(" {who}'s last turn scored nothing: the traced lines cross no tile.", who=who)
    if len(lines) == 1:
        return say(
            " {who}'s last turn scored {points} for the traced line ({passes}).",
            who=who,
            points=_points(scored),
            passes=_passes(passes),
        )
    return say(
        " {who}'s last turn scored {points} for the {n} traced lines ({passes} in all).",
        who=who,
        points=_points(scored),
        n=len(lines),
        passes=_passes(passes),
    )


def _points(n: int) -> Phrase:
    return say("1 point") if n == 1 else say("{n} points", n=n)


def _joined(items: Sequence[Value]) -> Value:
    """Names in a list: ``"A"``, ``"A and B"``, ``"A, B and C"`` (Japanese joins them its own
    way; the same phrases as Montana's lists)."""
    head = _listed(items[:-1]) if len(items) > 1 else items[0]
    return head if len(items) == 1 else say("{a} and {b}", a=head, b=items[-1])


def _listed(items: Sequence[Value]) -> Value:
    """``"A, B, C"``: items one after the other."""
    head = items[0]
    for item in items[1:]:
        head = say("{a}, {b}", a=head, b=item)
    return head


def _passes(n: int) -> Phrase:
    return say("1 pass") if n == 1 else say("{n} passes", n=n)


def _name(names: Sequence[str], seat: int) -> Name:
    return SeatName(names[seat]) if 0 <= seat < len(names) else say("Seat {n}", n=seat + 1)
