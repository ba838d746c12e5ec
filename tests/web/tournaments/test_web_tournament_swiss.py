"""The Swiss engine (``web/tournaments/swiss.py``) against what the Swiss system promises: every
player paired or given the bye each round, nobody paired twice with one opponent, a bye at most
once each, first moves balanced within two and no seat three times running; each round's
pairing the best by the kept Dutch criteria, checked against every possible pairing of small
fields (enumerated here, no matching algorithm); and standings and tie-breaks equal to a
crosstable computed here with fractions."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from boardplay.web.tournaments.records import Bye, Table
from boardplay.web.tournaments.standings import standings
from boardplay.web.tournaments.swiss import Round, pair_round

RESULTS = [(1, 2), (2, 1), (1, 1)]
"""A game's places per seat: the first seat won, the second won, a draw."""


def play(
    players: int, rounds: int, seed: int, check: bool = False
) -> tuple[list[int], list[Table], list[Bye], list[Round]]:
    """A whole Swiss of ``players`` over ``rounds`` with random results (``check``: each round's
    pairing also held against every possible one)."""
    rng = random.Random(seed)
    seeds = list(range(100, 100 + players))
    tables: list[Table] = []
    byes: list[Bye] = []
    made = []
    for number in range(1, rounds + 1):
        paired = pair_round(seeds, set(seeds), tables, byes, number)
        if check:
            assert_best(seeds, tables, byes, paired)
        made.append(paired)
        for first, second in paired.pairs:
            tables.append(Table(number, (first, second), rng.choice(RESULTS)))
        if paired.bye is not None:
            byes.append(Bye(number, paired.bye))
    return seeds, tables, byes, made


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 12), st.data())
def test_every_round_pairs_everyone_once_never_twice_the_same_pair_or_bye(
    players: int, data: st.DataObject
) -> None:
    # Up to half the field as rounds: then a pairing with no pair repeated always exists
    # (each player has at least half the others still unmet: Dirac's theorem).
    rounds = data.draw(st.integers(1, max(1, players // 2)))
    seeds, tables, byes, made = play(players, rounds, data.draw(st.integers(0, 2**32)))
    met: set[frozenset[int]] = set()
    for paired in made:
        seen = [p for pair in paired.pairs for p in pair]
        if paired.bye is not None:
            seen.append(paired.bye)
        assert sorted(seen) == seeds
        assert (paired.bye is None) == (players % 2 == 0)
        for pair in paired.pairs:
            assert frozenset(pair) not in met, f"{pair} paired twice"
            met.add(frozenset(pair))
    bye_takers = [b.player for b in byes]
    assert len(bye_takers) == len(set(bye_takers))
    for player in seeds:
        seats = "".join("FS"[t.players.index(player)] for t in tables if player in t.players)
        assert abs(seats.count("F") - seats.count("S")) <= 2, f"player {player} sat {seats}"
        assert "FFF" not in seats and "SSS" not in seats, f"player {player} sat {seats}"


def pairings(players: Sequence[int]) -> Iterator[list[tuple[int, int]]]:
    """Every perfect matching of ``players`` (-1 is the bye)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        for more in pairings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *more]


def criteria(
    pairs: Sequence[tuple[int, int]], tables: Sequence[Table], byes: Sequence[Bye]
) -> tuple[int, int, int, int, int, int]:
    """A pairing's cost by the first kept criteria: second byes, pairs repeated, pairs of two
    players who must both take one seat, the bye's points above the lowest score, how many of
    the bye's score group are ranked below it (seeds are players' numbers, lowest first), and
    the sum of squared score differences (half-points)."""
    points: dict[int, int] = {}
    seats: dict[int, list[str]] = {}
    for t in tables:
        assert t.places is not None
        for player, place in zip(t.players, t.places, strict=True):
            points[player] = points.get(player, 0) + {1: 2, 2: 0}[place] - (t.places == (1, 1))
        seats.setdefault(t.players[0], []).append("F")
        seats.setdefault(t.players[1], []).append("S")
    for bye in byes:
        points[bye.player] = points.get(bye.player, 0) + 2

    def must(player: int) -> str:
        mine = "".join(seats.get(player, []))
        if mine.count("F") - mine.count("S") >= 2 or mine.endswith("FF"):
            return "S"
        if mine.count("S") - mine.count("F") >= 2 or mine.endswith("SS"):
            return "F"
        return ""

    met = {frozenset(t.players) for t in tables}
    everyone = {p for pair in pairs for p in pair if p != -1}
    lowest = min(points.get(p, 0) for p in everyone)
    second_byes = repeats = clashes = bye_cost = bye_rank = squares = 0
    for a, b in pairs:
        if -1 in (a, b):
            player = a if b == -1 else b
            bye_cost += points.get(player, 0) - lowest
            bye_rank += sum(
                1 for p in everyone if points.get(p, 0) == points.get(player, 0) and p > player
            )
            second_byes += any(x.player == player for x in byes)
            continue
        repeats += frozenset((a, b)) in met
        clashes += must(a) != "" and must(a) == must(b)
        squares += (points.get(a, 0) - points.get(b, 0)) ** 2
    return second_byes, repeats, clashes, bye_cost, bye_rank, squares


def assert_best(seeds: list[int], tables: list[Table], byes: list[Bye], paired: Round) -> None:
    nodes = list(seeds) + ([-1] if len(seeds) % 2 else [])
    best = min(criteria(option, tables, byes) for option in pairings(nodes))
    chosen = [*paired.pairs, *([(paired.bye, -1)] if paired.bye is not None else [])]
    assert criteria(chosen, tables, byes) == best


@settings(max_examples=25, deadline=None)
@given(st.integers(3, 8), st.integers(1, 6), st.integers(0, 2**32))
def test_each_round_is_the_best_pairing_by_the_kept_dutch_criteria(
    players: int, rounds: int, seed: int
) -> None:
    play(players, min(rounds, players - 1), seed, check=True)


def crosstable(
    seeds: list[int], tables: list[Table], byes: list[Bye]
) -> list[tuple[int, Fraction, Fraction, Fraction]]:
    """(player, points, Buchholz, Sonneborn–Berger) best first, by the textbook definitions."""
    games: dict[int, list[tuple[int, Fraction]]] = {p: [] for p in seeds}
    for t in tables:
        (a, b), places = t.players, t.places
        result = {(1, 2): Fraction(1), (2, 1): Fraction(0), (1, 1): Fraction(1, 2)}[places]  # type: ignore[index]
        games[a].append((b, result))
        games[b].append((a, 1 - result))
    points = {
        p: sum((r for _, r in games[p]), Fraction(0)) + sum(1 for b in byes if b.player == p)
        for p in seeds
    }
    buchholz = {p: sum((points[o] for o, _ in games[p]), Fraction(0)) for p in seeds}
    berger = {p: sum((points[o] * r for o, r in games[p]), Fraction(0)) for p in seeds}
    rows = [(p, points[p], buchholz[p], berger[p]) for p in seeds]
    rows.sort(key=lambda row: (row[1], row[2], row[3], -seeds.index(row[0])), reverse=True)
    return rows


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 11), st.integers(1, 5), st.integers(0, 2**32))
def test_standings_and_tie_breaks_equal_a_crosstable(players: int, rounds: int, seed: int) -> None:
    seeds, tables, byes, _ = play(players, min(rounds, players - 1), seed)
    lines = [line.to_json() for line in standings(seeds, tables, byes)]
    expected = crosstable(seeds, tables, byes)
    assert [line["player"] for line in lines] == [row[0] for row in expected]
    for line, (_, points, buchholz, berger) in zip(lines, expected, strict=True):
        assert (line["points"], line["buchholz"], line["sonneborn_berger"]) == (
            float(points),
            float(buchholz),
            float(berger),
        )
    assert [line["rank"] for line in lines] == list(range(1, players + 1))


def test_the_bye_goes_to_the_lowest_ranked_of_the_lowest_score_group() -> None:
    # Round 1 of seven: 1 beat 4, 5 beat 2, 6 beat 3, 7 had the bye. Round 2's lowest group is
    # 2, 3 and 4 (no points), ranked by seed: 4 is its lowest ranked and takes the bye, though
    # the 2-3 pair that leaves both started their first game (each would rather follow): the
    # bye comes before seat preferences (criterion 3 before 5), repeating no pair, clashing on
    # no seat, and keeping every other pair within its score group.
    seeds = [1, 2, 3, 4, 5, 6, 7]
    tables = [
        Table(1, (1, 4), (1, 2)),
        Table(1, (2, 5), (2, 1)),
        Table(1, (3, 6), (2, 1)),
    ]
    paired = pair_round(seeds, set(seeds), tables, [Bye(1, 7)], 2)
    assert paired.bye == 4
    assert sorted(tuple(sorted(p)) for p in paired.pairs) == [(1, 6), (2, 3), (5, 7)]


def test_a_bye_is_a_point_shown_and_adds_to_no_tie_break() -> None:
    seeds = [1, 2, 3]
    first = pair_round(seeds, set(seeds), [], [], 1)
    # The lowest seed of the one score group sits out; the top half meets the bottom half.
    assert first == Round(1, ((1, 2),), 3)
    tables = [Table(1, (1, 2), (1, 2))]
    byes = [Bye(1, 3)]
    lines = {line.player: line.to_json() for line in standings(seeds, tables, byes)}
    assert lines[3] == {
        "player": 3,
        "rank": 2,
        "points": 1.0,
        "buchholz": 0.0,
        "sonneborn_berger": 0.0,
        "byes": 1,
        "games": 0,
    }
    assert lines[1]["rank"] == 1 and lines[1]["buchholz"] == 0.0
    # Round 2: 3 (had the bye) cannot have it again; 2, alone at zero points, takes it.
    second = pair_round(seeds, set(seeds), tables, byes, 2)
    assert second.bye == 2
    assert set(second.pairs[0]) == {1, 3}
    # 1 started round 1, so 3 starts now.
    assert second.pairs[0] == (3, 1)


def test_score_groups_meet_top_half_against_bottom_half() -> None:
    seeds = list(range(1, 9))
    first = pair_round(seeds, set(seeds), [], [], 1)
    assert [frozenset(p) for p in first.pairs] == [
        frozenset(p) for p in ((1, 5), (2, 6), (3, 7), (4, 8))
    ]
    # Winners 1-4 form the top group and meet each other, top half against bottom half.
    tables = [Table(1, pair, (1, 2) if pair[0] < 5 else (2, 1)) for pair in first.pairs]
    second = pair_round(seeds, set(seeds), tables, [], 2)
    top = {frozenset(p) for p in second.pairs if min(p) <= 4 and max(p) <= 4}
    assert top == {frozenset((1, 3)), frozenset((2, 4))}


def test_a_withdrawn_player_is_not_paired_and_keeps_their_points() -> None:
    seeds = [1, 2, 3, 4]
    tables = [Table(1, (1, 3), (1, 2)), Table(1, (4, 2), (1, 1))]
    second = pair_round(seeds, {1, 2, 4}, tables, [], 2)
    assert 3 not in [p for pair in second.pairs for p in pair]
    assert second.bye is not None and second.bye != 3
    assert {line.player: line.halves for line in standings(seeds, tables, [])}[3] == 0
