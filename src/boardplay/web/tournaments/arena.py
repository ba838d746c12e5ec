"""The arena (lichess's): a fixed duration in which every free player is paired again as soon as
possible, with the nearest score and never with the opponent of their last game; players join,
pause and leave at any time, and their points stay on the board.

**Points** (lichess's ``ArenaSheet``): a win is 2, a draw 1, a loss 0. A player who won their
last two games is *on fire*: each further win is 4 and a draw 2, until a game that is not a win
puts the fire out (a draw on fire still scores 2, and ends the streak). Berserk is not kept, nor
are lichess's draws that score nothing (a draw in a quick game, or one after a draw with no
win since, in a game that is not long): every draw scores 1 here, since a game of Potlatch or
Proteus has no move count that says "quick".

**Pairing a wave**: the players free and not paused are paired by one maximum-weight matching
(``matching.py``, as lichess's ``AntmaPairing``): as many pairs as possible, never two who met
in either's last game nor two who must both take the same seat (``records.must_both_take``, the
Swiss's criterion 2), then the least difference of points, then the least distance in the
standings. A player left out waits for the next wave. A wave of more than ``PIECE`` free
players is matched a piece of neighbours in the standings at a time, by the same rules and
weights (``matching.matching_by_pieces``; docs/tournaments.md, "Large fields"). So the seat
bounds (a balance of first moves within two, no seat three games running) hold after every
game, as in the Swiss: pairing by points alone would let a player who must start meet another
who must, and one of them break them. Seats follow the Swiss's rules (``records.seat_pair``,
FIDE C.04.3 E.1-E.5): both preferences granted when they differ, else the stronger one, else
each alternates from the latest game in which their seats differed, else the higher ranked
starts.

**Standings**: points, then the share of games won, then seed (lichess breaks ties by
performance rating; a share of games won needs no ratings)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from boardplay.web.tournaments.matching import best_matching, matching_by_pieces
from boardplay.web.tournaments.model import Settled
from boardplay.web.tournaments.records import (
    Table,
    must_both_take,
    preference,
    seat_history,
    seat_pair,
    tables_by_player,
)

WIN, DRAW, LOSS = 2, 1, 0
"""An arena game's points off fire; on fire a win and a draw count double."""
FIRE_AFTER = 2
"""Wins in a row that set a player on fire."""
PIECE = 32
"""Free players, by rank, in one piece of a wave (``matching.matching_by_pieces``): a wave of
at most this many is one matching over all of them, the best by every criterion exactly; a
larger one is matched a piece of neighbours in the standings at a time (about 10 ms each),
as lichess pairs a large arena in groups, and the pieces are widened when more than one player
is left over (so a wave pairs as many players as a whole-field matching would)."""
WIDEST = 64
"""The widest pieces of a wave: a wave of more players that still leaves two or more over with
pieces of 64 (players ruled out against each other gathered at the bottom) pairs what those
pieces pair, and those left wait for the next wave, rather than spend seconds of the whole
field's matching on them."""


@dataclass(frozen=True)
class Line:
    """A player's line of an arena's standings: their points, games, wins, the results in order
    (``W``, ``D``, ``L``; doubled ones in lower case: ``w``, ``d``), and whether they are on
    fire now."""

    player: int
    rank: int
    points: int
    games: int
    wins: int
    sheet: str
    fire: bool

    def to_json(self) -> dict[str, object]:
        return {
            "player": self.player,
            "rank": self.rank,
            "points": self.points,
            "games": self.games,
            "wins": self.wins,
            "sheet": self.sheet,
            "fire": self.fire,
        }


def finished_games(tables: Sequence[Table], player: int) -> list[Table]:
    """``player``'s finished games in the order they ended."""
    mine = [t for t in tables if player in t.players and t.places is not None]
    return sorted(mine, key=_ended)


def _ended(table: Table) -> tuple[float, int]:
    return (table.ended, table.round)


@dataclass(frozen=True)
class Sheet:
    """A player's results so far: points, letters (``Line.sheet``), wins in a row, and the order
    (``_ended``) of the last game counted."""

    points: int = 0
    letters: str = ""
    streak: int = 0
    last: tuple[float, int] = (float("-inf"), 0)

    def then(self, table: Table, player: int) -> Sheet:
        """This sheet with ``player``'s finished ``table`` counted next."""
        halves, fire = table.halves(player), self.streak >= FIRE_AFTER
        if halves == 2:
            won = 2 * WIN if fire else WIN
            return Sheet(
                self.points + won, self.letters + "wW"[not fire], self.streak + 1, _ended(table)
            )
        if halves == 1:
            drawn = 2 * DRAW if fire else DRAW
            return Sheet(self.points + drawn, self.letters + "dD"[not fire], 0, _ended(table))
        return Sheet(self.points, self.letters + "L", 0, _ended(table))

    def after(self, tables: Sequence[Table], player: int) -> Sheet:
        """This sheet with ``player``'s finished games among ``tables`` counted next, in the
        order they ended."""
        sheet = self
        for table in finished_games(tables, player):
            sheet = sheet.then(table, player)
        return sheet


def sheet(tables: Sequence[Table], player: int) -> tuple[int, str, bool]:
    """``player``'s points, results and whether they are on fire now."""
    counted = Sheet().after(tables, player)
    return counted.points, counted.letters, counted.streak >= FIRE_AFTER


@dataclass(frozen=True)
class Kept:
    """What a wave needs of an arena's first ``count`` tables, all ended (its settled rounds:
    ``model.Settled``): each player's tables among them, in order, and sheet over them. So a
    wave counts only the tables after, and its cost does not grow with the arena's length (an
    hour of a thousand players is tens of thousands of tables)."""

    count: int
    mine: Mapping[int, tuple[Table, ...]]
    sheets: Mapping[int, Sheet]

    def sheet_of(self, player: int, later: Sequence[Table]) -> Sheet:
        """``player``'s sheet over the kept tables and then their tables among ``later``. A
        later game that ended before a kept one (a player's games never overlap, but ended
        times are stamped by several processes) counts the player's games again from the
        first, so the sheet is always the one in the order they ended."""
        kept = self.sheets.get(player, Sheet())
        done = finished_games(later, player)
        if done and _ended(done[0]) < kept.last:
            return Sheet().after([*self.mine.get(player, ()), *later], player)
        for table in done:
            kept = kept.then(table, player)
        return kept


NOTHING_KEPT = Kept(0, {}, {})
"""No table kept: every table is counted (its maps are never written to)."""


def keep(tables: Sequence[Table], before: Kept | None = None) -> Kept:
    """``Kept`` of ``tables`` (every one ended), going on from ``before`` (of a prefix of them)
    when given."""
    base = before if before is not None and before.count <= len(tables) else NOTHING_KEPT
    later = tables_by_player(tables[base.count :])
    mine, sheets = dict(base.mine), dict(base.sheets)
    for player, theirs in later.items():
        sheets[player] = base.sheet_of(player, theirs)
        mine[player] = (*mine.get(player, ()), *theirs)
    return Kept(len(tables), mine, sheets)


def kept_of(settled: Settled | None) -> Kept | None:
    """The arena's ``Kept`` of its settled rounds, derived once for them (``Settled.derive``)."""
    if settled is None:
        return None
    return settled.derive("arena", lambda boards, before: keep([b.table for b in boards], before))


def standings(
    seeds: Sequence[int], tables: Sequence[Table], kept: Kept | None = None
) -> list[Line]:
    """Every player's line, best first; with ``kept`` (of the first tables), counting only the
    tables after them."""
    base = kept or NOTHING_KEPT
    return _standings(seeds, tables_by_player(tables[base.count :]), base)


def _standings(seeds: Sequence[int], later: Mapping[int, list[Table]], kept: Kept) -> list[Line]:
    lines = []
    for player in seeds:
        counted = kept.sheet_of(player, later.get(player, []))
        letters = counted.letters
        lines.append(
            (
                player,
                counted.points,
                len(letters),
                letters.upper().count("W"),
                letters,
                counted.streak >= FIRE_AFTER,
            )
        )
    seed_of = {p: i for i, p in enumerate(seeds)}
    lines.sort(key=lambda x: (-x[1], -(x[3] / x[2]) if x[2] else 0.0, seed_of[x[0]]))
    return [
        Line(player, i + 1, points, games, wins, letters, fire)
        for i, (player, points, games, wins, letters, fire) in enumerate(lines)
    ]


def last_opponent(tables: Sequence[Table], player: int) -> int | None:
    """The opponent of ``player``'s latest game (finished or not)."""
    mine = [t for t in tables if player in t.players]
    if not mine:
        return None
    latest = max(mine, key=lambda t: (t.places is None, t.ended, t.round))
    others = latest.opponents(player)
    return others[0] if others else None


def pair_wave(
    seeds: Sequence[int], free: Collection[int], tables: Sequence[Table], kept: Kept | None = None
) -> list[tuple[int, int]]:
    """The pairs (first seat, second seat) of a wave among the ``free`` players (in the arena,
    not paused, no game in play), given every game so far (``kept``: of the first of them)."""
    base = kept or NOTHING_KEPT
    later = tables_by_player(tables[base.count :])
    lines = _standings(seeds, later, base)
    rank_of = {line.player: i for i, line in enumerate(lines)}
    points = {line.player: line.points for line in lines}
    order = sorted(free, key=lambda p: rank_of[p])
    if len(order) < 2:
        return []
    mine = {p: [*base.mine.get(p, ()), *later.get(p, ())] for p in order}
    last = {p: last_opponent(mine[p], p) for p in order}
    history = {p: seat_history(mine[p], p) for p in order}
    wants = {p: preference(history[p]) for p in order}

    def cost(a: int, b: int) -> tuple[int, ...] | None:
        if last[a] == b or last[b] == a or must_both_take(wants[a], wants[b]):
            return None
        return (abs(points[a] - points[b]), abs(rank_of[a] - rank_of[b]))

    spread = max(points[p] for p in order) - min(points[p] for p in order)
    maxima = (spread, len(lines))
    piece = PIECE
    while piece < len(order):
        # At most one player left over: as many pairs as the whole field's matching makes.
        pairs, left = matching_by_pieces(_pieces(order, piece), cost, maxima)
        if len(left) <= 1 or piece >= WIDEST:
            break
        piece *= 2
    else:
        pairs = best_matching(order, cost, maxima)
    return [seat_pair(a, b, history[a], history[b], True) for a, b in pairs]


def _pieces(order: Sequence[int], piece: int) -> list[Sequence[int]]:
    """``order`` cut in runs of ``piece`` players (the last run takes up to half a piece more:
    no run of a handful at the bottom)."""
    starts = list(range(0, len(order), piece))
    if len(starts) > 1 and len(order) - starts[-1] < piece // 2:
        starts.pop()
    ends = [*starts[1:], len(order)]
    return [order[start:end] for start, end in zip(starts, ends, strict=True)]
