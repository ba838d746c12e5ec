"""Where and why a game of Proteus ended, for the final board and the result line.

``describe_end`` (``Game.end_describer``) reads the final state through the engine: who meets
the goal is the kernel's own goal test (``satisfies_goal``), which actions were possible is
its own candidate list (``movement_candidates``), and the position before the last turn is
loaded by the engine to see what that turn changed; nothing here restates the rules. It
returns ``(mark, sentence)``. ``mark`` is JSON the board draws:

* ``kind``: the end's code (``goal``, ``two_passes``, ``turn_limit``, ``no_action``);
* ``seat``: the winner (``goal``), the seat left without an action (``no_action``), else the
  seat that made the last turn; ``mover``: the seat that made the last turn;
* ``goal``: the active GOAL tile (``"Yc"``, ``"Ys"``, ``"Yt"``) or None;
* ``pieces``: the cells of the pieces that matter (the winner's three, both players' when both
  meet the goal at the turn limit, the stuck seat's when the MOVE rule boxes them in);
* ``lines``: for 3-IN-LINE, each line of three cells that meets it, end to end;
* ``tiles``: tiles to ring, ``{"at": cell, "why": …}``: ``goal`` (the goal in force),
  ``missing`` (a face-down tile of a colour with no face-up tile, so that kind of action is
  impossible) or ``blocked`` (the MOVE rule in force, which gives no piece a free cell).

The sentence says it in phrases the browser translates.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boardplay.games.proteus import describe
from boardplay.games.proteus.layout import BLUE, COLOR_GOAL, RED, THREE_IN_LINE, TRADE_BASE, YELLOW
from boardplay.games.proteus.state import ProteusState
from boardplay.games.proteus.tables import CELLS, COLOURS, LINES, SHAPES, TILES
from boardplay.i18n.phrase import Phrase, SeatName, Sentence, say

LINE_WORDS = (
    say("the bottom row"),
    say("the middle row"),
    say("the top row"),
    say("the left column"),
    say("the middle column"),
    say("the right column"),
    say("a diagonal"),
    say("a diagonal"),
)
"""How each of ``tables.LINES`` is called (the board draws the line, so no coordinates)."""


def describe_end(
    before: Mapping[str, Any], after: ProteusState, seat: int, names: Sequence[str]
) -> tuple[dict[str, Any], Sentence]:
    """The mark and the words of the end of ``after`` (a finished game); ``seat`` made the last
    turn, from the position JSON ``before``."""
    code = after.end_code()
    goal = after.active_tile(YELLOW)
    mark: dict[str, Any] = {
        "kind": code,
        "seat": seat,
        "mover": seat,
        "goal": TILES[goal] if goal >= 0 else None,
        "pieces": [],
        "lines": [],
        "tiles": [],
    }
    if code == "goal":
        return mark, _goal(before, after, seat, names, mark)
    if code == "turn_limit":
        return mark, _turn_limit(after, names, mark)
    if code == "no_action":
        stuck = after.to_move
        mark["seat"] = stuck
        who = _name(names, stuck)
        parts = [
            say(
                "{who} has no legal action, so the game is a draw: under the Kadon rules "
                "nobody passes once the pieces move.",
                who=who,
            )
        ]
        return mark, Sentence(parts + _why_stuck(after, (stuck,), mark, who))
    # two_passes: the board did not change over the two passes, so both seats face it.
    parts = [
        say("Neither player could move a piece or swap tiles, so both passed: the game is a draw.")
    ]
    return mark, Sentence(parts + _why_stuck(after, (0, 1), mark, None))


# ----- a goal met by one player ---------------------------------------------------------------
def _goal(
    before: Mapping[str, Any],
    after: ProteusState,
    mover: int,
    names: Sequence[str],
    mark: dict[str, Any],
) -> Sentence:
    winner = after.winners()[0]
    loser = 1 - winner
    goal = after.active_tile(YELLOW)
    who = _name(names, winner)
    mark["seat"] = winner
    mark["pieces"] = _pieces(after, winner)
    mark["lines"] = _lines(after, (winner,))
    mark["tiles"] = [{"at": CELLS[after.cell_of_tile(goal)], "why": "goal"}]
    previous = _load(after, before)
    changed = previous is not None and previous.active_tile(YELLOW) != goal
    met = [previous is not None and previous.satisfies_goal(p) for p in (0, 1)]
    parts = [
        _formation(after, winner, goal, who),
        say(
            ", which meets the goal in force, {rule} (the ringed yellow tile).",
            rule=describe.RULES[TILES[goal]],
        ),
        say(" {other} does not meet it, so {who} wins.", other=_name(names, loser), who=who),
    ]
    if changed:
        parts.append(
            say(" {mover} turned that goal tile face up this turn.", mover=_name(names, mover))
        )
    elif met[winner] and met[loser]:
        parts.append(
            say(" Before this turn both players met it, and a goal met by both wins for nobody.")
        )
    elif met[winner] and not after.kadon:
        parts.append(
            say(
                " {who} already met it when the board was complete: under the Japanese rules a "
                "goal counts only from the first turn of the movement phase.",
                who=who,
            )
        )
    if previous is not None and previous.in_placement and after.kadon:
        parts.append(
            say(
                " Under the Kadon rules a goal counts from the very first turn, even while the "
                "board is being built."
            )
        )
    if winner != mover:
        parts.append(
            say(
                " Both players are checked after every turn, so {mover}'s own turn gave {who} "
                "the win.",
                mover=_name(names, mover),
                who=who,
            )
        )
    return Sentence(parts)


def _formation(after: ProteusState, player: int, goal: int, who: SeatName | Phrase) -> Phrase:
    """What ``player``'s three pieces do that meets ``goal``."""
    if goal == THREE_IN_LINE:
        line = LINES.index(_line_of(after, player))
        return say(
            "{who} has three pieces in a line, {line} (ringed)", who=who, line=LINE_WORDS[line]
        )
    tile = after.tile_at(after.cell_of_piece(3 * player))
    if goal == COLOR_GOAL:
        return say(
            "{who} has all three pieces on {colour} tiles (ringed)",
            who=who,
            colour=describe.COLOURS[COLOURS[tile // 3]],
        )
    return say(
        "{who} has all three pieces on {shape} tiles (ringed)",
        who=who,
        shape=describe.SHAPES[SHAPES[tile % 3]],
    )


# ----- the turn limit -------------------------------------------------------------------------
def _turn_limit(after: ProteusState, names: Sequence[str], mark: dict[str, Any]) -> Sentence:
    parts = [
        say(
            "The game reached its limit of {n} turns without a winner, so it is a draw.",
            n=after.max_turns,
        )
    ]
    goal = after.active_tile(YELLOW)
    if goal < 0:
        parts.append(say(" No yellow tile is face up, so there was no goal to meet."))
        return Sentence(parts)
    mark["tiles"] = [{"at": CELLS[after.cell_of_tile(goal)], "why": "goal"}]
    rule = describe.RULES[TILES[goal]]
    meeting = [p for p in (0, 1) if after.satisfies_goal(p)]
    mark["pieces"] = [cell for p in meeting for cell in _pieces(after, p)]
    mark["lines"] = _lines(after, meeting) if goal == THREE_IN_LINE else []
    if len(meeting) == 2:
        parts.append(
            say(
                " Both players meet the goal in force, {rule} (ringed), and a goal met by both "
                "wins for nobody.",
                rule=rule,
            )
        )
    elif meeting:
        parts.append(
            say(
                " {who} meets the goal in force, {rule} (ringed), but under the Japanese rules a "
                "goal counts only from the first turn of the movement phase.",
                who=_name(names, meeting[0]),
                rule=rule,
            )
        )
    else:
        parts.append(
            say(
                " Neither player meets the goal in force, {rule} (the ringed yellow tile).",
                rule=rule,
            )
        )
    return Sentence(parts)


# ----- nothing left to do (two passes, or no legal action under kadon) --------------------------
def _why_stuck(
    after: ProteusState,
    seats: Sequence[int],
    mark: dict[str, Any],
    who: SeatName | Phrase | None,
) -> list[Phrase]:
    """Why ``seats`` had no legal action: a colour with no face-up tile (its tiles ringed), a
    MOVE rule that leaves no piece a free cell (ringed, and the stuck seat's pieces ringed when
    ``who`` names it), or, where the rules offered moves or swaps, the repetition rule that
    removed them all."""
    candidates = [a for s in seats for a in _candidates(after, s)]
    moves = [a for a in candidates if a < TRADE_BASE]
    trades = [a for a in candidates if a >= TRADE_BASE]
    parts: list[Phrase] = []
    move_tile = after.active_tile(RED)
    if move_tile < 0:
        mark["tiles"] += _colour_tiles(after, RED)
        parts.append(
            say(" No red tile is face up (the red tiles are ringed), so no piece can move.")
        )
    elif not moves:
        mark["tiles"].append({"at": CELLS[after.cell_of_tile(move_tile)], "why": "blocked"})
        rule = describe.RULES[TILES[move_tile]]
        if who is None:
            parts.append(
                say(
                    " The move rule in force, {rule} (ringed), gives no piece a free cell to "
                    "go to.",
                    rule=rule,
                )
            )
        else:
            mark["pieces"] = _pieces(after, seats[0])
            parts.append(
                say(
                    " The move rule in force, {rule} (ringed), gives {who}'s pieces (ringed) no "
                    "free cell to go to.",
                    rule=rule,
                    who=who,
                )
            )
    if after.active_tile(BLUE) < 0:
        mark["tiles"] += _colour_tiles(after, BLUE)
        parts.append(
            say(" No blue tile is face up (the blue tiles are ringed), so no tiles can swap.")
        )
    if moves and trades:
        parts.append(
            say(
                " Every move and every swap left would repeat an earlier position, which "
                "this game's options forbid."
            )
        )
    elif moves:
        parts.append(
            say(
                " Every move left would repeat an earlier position, which this game's options "
                "forbid."
            )
        )
    elif trades:
        parts.append(
            say(
                " Every swap left would repeat an earlier position, which this game's options "
                "forbid."
            )
        )
    return parts


def _candidates(after: ProteusState, seat: int) -> list[int]:
    """The moves and trades the rules in force offer ``seat`` on the final board, before the
    repetition filter (the engine's own list)."""
    if after.to_move == seat:
        return after.kernel.movement_candidates()
    other = _load(after, {**after.to_json(), "to_move": seat, "passes": 0})
    return other.kernel.movement_candidates() if other is not None else []


def _colour_tiles(after: ProteusState, colour: int) -> list[dict[str, str]]:
    """The tiles of ``colour`` on the board (all face down), to ring as the missing colour."""
    cells = (after.cell_of_tile(3 * colour + shape) for shape in range(3))
    return [{"at": CELLS[cell], "why": "missing"} for cell in sorted(cells) if cell >= 0]


# ----- reading the position -------------------------------------------------------------------
def _pieces(after: ProteusState, player: int) -> list[str]:
    """The cells of ``player``'s pieces on the board, in board order."""
    cells = (after.cell_of_piece(3 * player + shape) for shape in range(3))
    return [CELLS[cell] for cell in sorted(cells) if cell >= 0]


def _line_of(after: ProteusState, player: int) -> tuple[int, int, int]:
    """The line (``tables.LINES``) that ``player``'s three pieces fill."""
    cells = {after.cell_of_piece(3 * player + shape) for shape in range(3)}
    return next(line for line in LINES if set(line) == cells)


def _lines(after: ProteusState, players: Sequence[int]) -> list[list[str]]:
    """For 3-IN-LINE, the line of each of ``players`` (who meet it), as cells end to end."""
    if after.active_tile(YELLOW) != THREE_IN_LINE:
        return []
    return [[CELLS[cell] for cell in _line_of(after, p)] for p in players]


def _load(after: ProteusState, position: Mapping[str, Any]) -> ProteusState | None:
    """``position`` loaded by the engine with the game's options, or None if it cannot be."""
    try:
        return after.game.state_from_json(position)  # type: ignore[return-value]
    except Exception:  # a position the server sent is loadable; words never stop a game
        return None


def _name(names: Sequence[str], seat: int) -> SeatName | Phrase:
    return SeatName(names[seat]) if 0 <= seat < len(names) else say("Seat {n}", n=seat + 1)
