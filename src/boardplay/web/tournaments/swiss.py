"""The Swiss system: a fixed number of rounds, each player meeting one opponent a round, pairings
within score groups, computed as one maximum-weight matching (``matching.py``) rather than the
Dutch system's bracket-by-bracket search, with the Dutch system's criteria (FIDE Handbook
C.04.3) as the matching's costs in their order of importance. A round of more than
``EXACT_FIELD`` players is matched a piece of its brackets at a time (``_by_brackets``):
criteria 1-3 exactly as the whole field's matching, 4-6 within each piece.

**Kept from the Dutch system**, most important first (docs/tournaments.md says why):

1. no two players meet twice (absolute criterion C1);
2. two players who must both take the same seat are not paired (C3): a player must follow
   who has started two games more than they followed, or started both of their last two (and
   the other way round), so nobody's balance leaves -2..+2 and nobody takes a seat three
   times running;
3. the bye goes to a player who has not had one (C2), in the lowest score group that can give
   it, and in that group to the lowest ranked (its own two terms, above the score differences,
   the seat preferences and the S1-S2 order, which then pair the others around it);
4. score differences of the pairs as small as possible: players meet their own score group,
   and a player who must float meets the nearest group (C6-C7, as a sum of squared differences);
5. colour preferences: two players who would rather take the same seat (one started more
   games than they followed, or level, started their last) are paired only when nothing
   else serves (C10-C11);
6. within a score group, the top half meets the bottom half in order (S1 against S2: the
   group's first against its middle), as far as the criteria above allow.

A player's pairing rank is score, then seed (A.2: the initial order, the players' ratings when
the tournament started). Seats (E.1-E.5, ``records.seat_pair``): both players' preferences are
granted when they differ; else the stronger one; else each alternates from the latest round in
which their seats differed; else the higher ranked starts in odd rounds.

**Standings** (``standings.py``) order players by points, then Buchholz, then
Sonneborn–Berger, then seed. **A bye** is a win, one point, and is shown as a bye; it adds
nothing to the player's Buchholz or Sonneborn–Berger, since no opponent was met (lichess's Swiss
and FIDE's tie-break rules count a virtual opponent instead: docs/tournaments.md), nor does
it count as a game for the seat balance."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from boardplay.web.tournaments.matching import Cost, best_matching, matching_by_pieces
from boardplay.web.tournaments.records import (
    Bye,
    Table,
    must_both_take,
    pairs_met,
    preference,
    seat_history,
    seat_pair,
    tables_by_player,
)
from boardplay.web.tournaments.standings import scores

BYE = -1
"""The bye's node in the matching: a player matched with it sits the round out."""
EXACT_FIELD = 64
"""Rounds of at most this many players are paired by one matching over the whole field, the
best pairing by every criterion exactly (about 0.05 s of one core at 64); larger ones by the
pieces of their score brackets (``_by_brackets``), whose cost grows with the field, not its
cube (a round of 1,000 players: see ``pairingbench.py``)."""
PIECE = 16
"""Players of each half of a score group in one piece of its bracket (``_pieces``): a piece of
32 is matched in about 10 ms."""
WIDEST = 64
"""The most players of each half in a piece when pieces are widened (a piece of 128: about
0.4 s)."""


@dataclass(frozen=True)
class Round:
    """A round's pairing: each pair as (first seat, second seat), and the bye if any."""

    number: int
    pairs: tuple[tuple[int, int], ...]
    bye: int | None


def pair_round(
    seeds: Sequence[int],
    active: Collection[int],
    tables: Sequence[Table],
    byes: Sequence[Bye],
    number: int,
) -> Round:
    """Round ``number``'s pairing of the ``active`` players (registered, not withdrawn), given
    every game and bye before it (see the module's docstring for the criteria). ``seeds`` is
    every player in seed order."""
    halves = scores(tables, byes)
    seed_of = {p: i for i, p in enumerate(seeds)}
    order = sorted(active, key=lambda p: (-halves.get(p, 0), seed_of[p]))
    if not order:
        return Round(number, (), None)
    rank = {p: i for i, p in enumerate(order)}
    met = pairs_met(tables)
    had_bye = {b.player for b in byes}
    mine = tables_by_player(tables)
    history = {p: seat_history(mine.get(p, []), p) for p in order}
    wants = {p: preference(history[p]) for p in order}
    groups: dict[int, list[int]] = {}
    for p in order:
        groups.setdefault(halves.get(p, 0), []).append(p)
    place = {p: (i, len(g)) for g in groups.values() for i, p in enumerate(g)}
    lowest = min(groups)
    span = max(groups) - lowest
    odd = len(order) % 2 == 1
    anyone_may_sit_out = odd and all(p in had_bye for p in order)

    def cost(a: int, b: int) -> tuple[int, ...] | None:
        if b == BYE:
            if a in had_bye and not anyone_may_sit_out:
                return None
            i, size = place[a]
            return (0, 0, halves.get(a, 0) - lowest, size - 1 - i, 0, 0, 0)
        (seat_a, _), (seat_b, _) = wants[a], wants[b]
        clash = int(must_both_take(wants[a], wants[b]))
        same = int(seat_a != -1 and seat_a == seat_b)
        repeat = int(frozenset((a, b)) in met)
        diff = halves.get(a, 0) - halves.get(b, 0)
        order_cost = 0
        if diff == 0:
            (i, size), (j, _) = place[a], place[b]
            order_cost = abs(abs(i - j) - size // 2)
        return (repeat, clash, 0, 0, diff * diff, same, order_cost)

    maxima = (1, 1, span, len(order), span * span, 1, len(order))
    found = None
    if len(order) > EXACT_FIELD:
        eligible = [p for p in order if anyone_may_sit_out or p not in had_bye]
        # Criterion 3's choice: the lowest score group that can give the bye, its lowest ranked.
        bye_to = max(eligible, key=lambda p: (-halves.get(p, 0), place[p][0])) if odd else None
        found = _by_brackets([p for p in order if p != bye_to], halves, cost, maxima)
        if found is not None and bye_to is not None:
            found.append((bye_to, BYE))
    if found is None:
        found = best_matching([*order, BYE] if odd else order, cost, maxima)
    bye = None
    seated: list[tuple[int, int]] = []
    for a, b in sorted(found, key=lambda pair: rank[pair[0]]):
        if b == BYE:
            bye = a
        else:
            higher_starts = (rank[a] < rank[b]) == (number % 2 == 1)
            seated.append(seat_pair(a, b, history[a], history[b], higher_starts))
    return Round(number, tuple(seated), bye)


def _by_brackets(
    order: Sequence[int], halves: Mapping[int, int], cost: Cost[int], maxima: Sequence[int]
) -> list[tuple[int, int]] | None:
    """The pairs of ``order`` (an even field, by rank, the bye already given) with no pair
    repeated and no two players who must both take one seat, paired piece by piece down the
    score brackets (``matching.matching_by_pieces``): the pieces widened while anyone is left
    over (up to ``WIDEST``), and None when the field fits one piece (then ``best_matching``
    pairs it whole).

    The bye is chosen before (the lowest ranked of the lowest score group that can give it):
    once the others are paired around it with no repeat and no seat clash, no pairing does
    better by criteria 1-3, so those hold exactly as in the whole field's matching. Criteria 4-6
    are the best within each piece, a player floating down from a piece meeting the next. Were
    someone still left over at the widest pieces (a field of hundreds, each player having met
    at most 19 of them, leaves every piece of 128 far more partners than it needs), the pieces
    would pair everyone with the fewest repeats and clashes they can, rather than spend
    minutes on the whole field."""

    def allowed(a: int, b: int) -> tuple[int, ...] | None:
        costs = cost(a, b)
        return None if costs is None or costs[0] or costs[1] else costs

    groups: dict[int, list[int]] = {}
    for p in order:
        groups.setdefault(halves.get(p, 0), []).append(p)
    piece = PIECE
    while 2 * piece < len(order):
        pieces = _pieces(list(groups.values()), piece)
        pairs, left = matching_by_pieces(pieces, allowed, maxima)
        if not left:
            return pairs
        if piece >= WIDEST:  # never seen: the fewest repeats and clashes within these pieces
            return matching_by_pieces(pieces, cost, maxima)[0]
        piece *= 2
    return None


def _pieces(groups: Sequence[Sequence[int]], piece: int) -> list[list[int]]:
    """The score groups (best first) cut in pieces of about ``2 * piece`` players. A large group
    is cut keeping the Dutch system's order: its top half's first ``piece`` beside the bottom
    half's first ``piece``, whom they would meet (S1 against S2), then the next of each. Small
    groups are gathered, several to a piece, until it holds ``2 * piece``: a group of three
    whose players have all met needs its neighbours, as a bracket needs its floaters, and a
    wider piece gathers more of them. A short last piece joins the one before it."""
    cut: list[list[int]] = []
    gathered: list[int] = []
    for group in groups:
        if len(group) < 2 * piece:
            gathered += group
            if len(gathered) >= 2 * piece:
                cut.append(gathered)
                gathered = []
            continue
        if gathered:
            cut.append(gathered)
            gathered = []
        half = len(group) // 2
        top, bottom = group[:half], group[half:]
        for start in range(0, len(bottom), piece):
            cut.append([*top[start : start + piece], *bottom[start : start + piece]])
    if gathered:
        cut.append(gathered)
    if len(cut) > 1 and len(cut[-1]) < piece:
        short = cut.pop()
        cut[-1] += short
    return cut
