"""The tournaments' service on SQLite and PostgreSQL (``web/tournaments/service.py``): a Swiss
run round by round to its end with real games (made seated, on the clock, ended by players'
resignations, settled by the ratings once) and standings equal to a crosstable of the games
computed here; two processes racing to pair the same round pair it exactly once, make each
game once and tell each player of it once; a process that dies after pairing and before (or
while) making the games is carried on by another with nothing lost or doubled; an arena that
never pairs a rematch at once, pauses a player and stops pairing at its end; pods of three
with byes; and what a new tournament is refused for."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from tournamentcalls import (
    RAPID,
    START,
    HandClock,
    Process,
    abort_as,
    database,
    games_stored,
    lose,
    play_out,
    players,
    swiss_plan,
)

from boardplay.web.admission import Door
from boardplay.web.errors import ApiError
from boardplay.web.ratings.tables import history_table
from boardplay.web.tournaments.schema import boards_table, tournaments_table

BACK_ENDS = ["sqlite", "postgresql"]


def run(body: Callable[[], Any]) -> None:
    asyncio.run(body())


def current_boards(process: Process, tournament_id: str) -> list[Any]:
    with process.hub.storage.engine.connect() as conn:
        return list(
            conn.execute(
                sa.select(boards_table)
                .where(boards_table.c.tournament_id == tournament_id)
                .order_by(boards_table.c.round, boards_table.c.board)
            ).all()
        )


def assert_crosstable(
    view: dict[str, Any], boards: list[Any], won: dict[str, int], people: list[Any]
) -> None:
    """The view's standings equal points, Buchholz and Sonneborn–Berger counted here from the
    games as played (``won``: each game's winner) and the byes shown."""
    ids = {p.name: p.id for p in people}
    points = {p.id: Fraction(0) for p in people}
    met: dict[int, list[tuple[int, Fraction]]] = {p.id: [] for p in people}
    for board in boards:
        a, b = board.players
        result = Fraction(1) if won[board.game_id] == a else Fraction(0)
        met[a].append((b, result))
        met[b].append((a, 1 - result))
        points[a] += result
        points[b] += 1 - result
    for r in view["rounds"]:
        for name in r["byes"]:
            points[ids[name]] += 1
    buchholz = {p: sum((points[o] for o, _ in met[p]), Fraction(0)) for p in points}
    berger = {p: sum((points[o] * r for o, r in met[p]), Fraction(0)) for p in points}
    for line in view["standings"]:
        player = ids[line["name"]]
        assert line["points"] == float(points[player])
        assert line["buchholz"] == float(buchholz[player])
        assert line["sonneborn_berger"] == float(berger[player])
    keys = [
        (points[p], buchholz[p], berger[p]) for p in (ids[x["name"]] for x in view["standings"])
    ]
    assert keys == sorted(keys, reverse=True)


@pytest.mark.parametrize("kind", BACK_ENDS)
def test_a_swiss_runs_to_its_end_and_its_standings_equal_a_crosstable(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = database(kind, tmp_path, request)
    clock = HandClock()

    async def body() -> None:
        process = Process(url, clock)
        service = process.tournaments
        people = players(process, ["Ana", "Bo", "Cy", "Dee", "Eli"])
        made = await service.create(people[0], swiss_plan())
        for person in people:
            await service.join(made.id, person)
        await service.tick()
        assert current_boards(process, made.id) == []  # not yet its start
        clock.t = START
        won: dict[str, int] = {}  # game id -> winning account
        for number in (1, 2, 3):
            await service.tick()
            boards = [b for b in current_boards(process, made.id) if b.round == number]
            assert len(boards) == 2 and all(b.made for b in boards)
            assert (await service.view(made.id))["winner"] is None  # not over yet
            stored = {g.id: g for g in games_stored(process)}
            for board in boards:
                game = stored[board.game_id]
                assert game.rated and game.clock == RAPID and game.status == "active"
                assert game.deadline is not None  # its clock runs at the latest by then
                first, second = board.players
                winner = first if number % 2 else second
                await lose(process, board.game_id, second if winner == first else first)
                won[board.game_id] = winner
        await service.tick()  # the last results in: the Swiss is over
        view = await service.view(made.id)
        assert view["tournament"]["status"] == "finished"
        # Its page names the winner: the first of the final standings.
        assert view["winner"] == view["standings"][0]["name"] and view["winner"]
        assert [r["round"] for r in view["rounds"]] == [1, 2, 3]
        assert all(len(r["byes"]) == 1 for r in view["rounds"])
        # Every game settled by the ratings exactly once (unrated: ended by a word too soon).
        for game_id in won:
            assert process.hub.ratings.store.is_settled(game_id)
        assert_crosstable(view, current_boards(process, made.id), won, people)
        await process.close()

    run(body)


@pytest.mark.parametrize("kind", BACK_ENDS)
def test_two_processes_racing_pair_each_round_once_and_make_each_game_once(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = database(kind, tmp_path, request)
    clock = HandClock()

    async def body() -> None:
        one, two = Process(url, clock), Process(url, clock)
        people = players(one, [f"P{i}" for i in range(8)])
        made = await one.tournaments.create(people[0], swiss_plan(rounds=3, rated=False))
        for person in people:
            await two.tournaments.join(made.id, person)
        clock.t = START
        for number in (1, 2, 3):
            # Both processes, several times each, at once.
            await asyncio.gather(
                *(p.tournaments.advance(made.id) for p in (one, two, one, two, one, two))
            )
            boards = current_boards(one, made.id)
            assert [b.round for b in boards].count(number) == 4
            assert len(boards) == 4 * number
            games = games_stored(one)
            assert sorted(g.id for g in games) == sorted(b.game_id for b in boards)
            everyone = [p for b in boards if b.round == number for p in b.players]
            assert sorted(everyone) == sorted(p.id for p in people)
            pairs = [frozenset(b.players) for b in boards]
            assert len(pairs) == len(set(pairs)), "a pair met twice"
            # Each player told of their game once, by whichever process made it.
            told = sorted((p, m["game"]) for p, m in one.told + two.told)
            assert told == sorted((p, b.game_id) for b in boards for p in b.players)
            for board in boards:
                if board.round == number:
                    await lose(one, board.game_id, board.players[1])
        await asyncio.gather(one.tournaments.advance(made.id), two.tournaments.advance(made.id))
        assert (await two.tournaments.view(made.id))["tournament"]["status"] == "finished"
        await one.close()
        await two.close()

    run(body)


@pytest.mark.parametrize("kind", BACK_ENDS)
def test_a_swiss_of_eight_on_two_processes_one_killed_in_round_two(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = database(kind, tmp_path, request)
    clock = HandClock()

    async def body() -> None:
        one, two = Process(url, clock), Process(url, clock)
        people = players(one, [f"Bot{i}" for i in range(8)])
        made = await two.tournaments.create(people[0], swiss_plan(rounds=3, rated=False))
        for person in people:
            await one.tournaments.join(made.id, person)
        clock.t = START
        await asyncio.gather(one.tournaments.tick(), two.tournaments.tick())
        won: dict[str, int] = {}
        for number in (1, 2, 3):
            boards = [b for b in current_boards(two, made.id) if b.round == number]
            assert len(boards) == 4
            for i, board in enumerate(boards):
                # Round 2: the first process ends two games, then dies (its tasks and rooms
                # with it, nothing closed); the second carries the tournament on alone.
                process = one if number == 1 or (number == 2 and i < 2) else two
                winner = board.players[(number + i) % 2]
                await lose(process, board.game_id, board.players[1 - (number + i) % 2])
                won[board.game_id] = winner
            await two.tournaments.tick()
        view = await two.tournaments.view(made.id)
        assert view["tournament"]["status"] == "finished"
        boards = current_boards(two, made.id)
        assert [(b.round, b.board) for b in boards] == [(r, t) for r in (1, 2, 3) for t in range(4)]
        pairs = [frozenset(b.players) for b in boards]
        assert len(set(pairs)) == 12, "a pair met twice"
        assert sorted(g.id for g in games_stored(two)) == sorted(b.game_id for b in boards)
        assert_crosstable(view, boards, won, people)
        await two.close()

    run(body)


@pytest.mark.parametrize("kind", BACK_ENDS)
def test_a_process_that_dies_mid_round_is_carried_on_by_another(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = database(kind, tmp_path, request)
    clock = HandClock()

    async def body() -> None:
        dying = Process(url, clock)
        people = players(dying, ["Ana", "Bo", "Cy", "Dee"])
        made = await dying.tournaments.create(people[0], swiss_plan(rounds=2, rated=False))
        for person in people:
            await dying.tournaments.join(made.id, person)
        clock.t = START
        # It pairs round 1 and makes one of its two games, then dies before noting it made.
        director = dying.tournaments.director
        stepped = await dying.hub.db(
            dying.store.step, made.id, lambda c, s: director.step(c, s, clock.t)
        )
        assert [(b.round, b.made) for b in stepped.boards] == [(1, False), (1, False)]
        first = current_boards(dying, made.id)[0]
        await dying.hub.maker.seat(
            Door.TOURNAMENT,
            "tiny",
            {"bonus": 0},
            list(first.players),
            rated=False,
            clock=_rapid(),
            game_id=first.game_id,
        )
        await dying.close()
        heir = Process(url, clock)
        await heir.tournaments.tick()
        boards = current_boards(heir, made.id)
        assert len(boards) == 2 and all(b.made for b in boards)
        assert sorted(g.id for g in games_stored(heir)) == sorted(b.game_id for b in boards)
        for board in boards:
            await lose(heir, board.game_id, board.players[0])
        await heir.tournaments.tick()
        boards = current_boards(heir, made.id)
        assert [b.round for b in boards] == [1, 1, 2, 2]
        assert len(games_stored(heir)) == 4
        await heir.close()

    run(body)


def test_a_view_sees_a_round_paired_meanwhile_whole_or_not_at_all(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """A view's rows are read by several statements; a round that another process commits
    between the one for the tables and the one for the byes is seen whole or not at all, never
    as its bye alone (which once showed a live Swiss's round 2 without its tables). PostgreSQL:
    SQLite serves one process, whose steps and views share its one database thread."""
    url = database("postgresql", tmp_path, request)
    clock = HandClock()

    async def body() -> None:
        one, two = Process(url, clock), Process(url, clock)
        people = players(one, [f"P{i}" for i in range(7)])  # odd: the round has a bye
        made = await one.tournaments.create(people[0], swiss_plan(rounds=2, rated=False))
        for person in people:
            await one.tournaments.join(made.id, person)
        clock.t = START
        paired: list[Any] = []

        def pair_meanwhile(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
            if "FROM tournament_tables" in statement and not paired:
                director = two.tournaments.director
                paired.append(two.store.step(made.id, lambda c, s: director.step(c, s, clock.t)))

        engine = one.store.engine
        sa.event.listen(engine, "after_cursor_execute", pair_meanwhile)
        try:
            view = await one.tournaments.view(made.id)
        finally:
            sa.event.remove(engine, "after_cursor_execute", pair_meanwhile)
        assert paired, "the round was paired between the view's statements"
        assert view["tournament"]["status"] == "created" and view["rounds"] == []
        (round_one,) = (await one.tournaments.view(made.id))["rounds"]
        assert len(round_one["tables"]) == 3 and len(round_one["byes"]) == 1
        await one.close()
        await two.close()

    run(body)


def _rapid() -> Any:
    from boardplay.web.table import control_of

    return control_of(RAPID)


@pytest.mark.parametrize("kind", BACK_ENDS)
def test_a_rated_tournament_game_played_out_moves_the_ratings_once(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = database(kind, tmp_path, request)
    clock = HandClock()

    async def body() -> None:
        one, two = Process(url, clock), Process(url, clock)
        people = players(one, ["Ana", "Bo"])
        made = await one.tournaments.create(people[0], swiss_plan(rounds=1))
        for person in people:
            await one.tournaments.join(made.id, person)
        clock.t = START
        await one.tournaments.tick()
        (board,) = current_boards(one, made.id)
        await play_out(one, board.game_id)
        # Both processes look again: the game is rated once, its result counted once.
        await two.hub.settle_ratings([board.game_id])
        await asyncio.gather(one.tournaments.tick(), two.tournaments.tick())
        with one.hub.storage.engine.connect() as conn:
            history = conn.execute(
                sa.select(history_table.c.account_id).where(
                    history_table.c.game_id == board.game_id
                )
            ).all()
        assert sorted(r.account_id for r in history) == sorted(p.id for p in people)
        view = await two.tournaments.view(made.id)
        assert view["tournament"]["status"] == "finished"
        (table,) = view["rounds"][0]["tables"]
        result = next(g for g in games_stored(one) if g.id == board.game_id).result
        winners = set(result.get("winners") or [])
        expected = [1 if seat in winners or not winners else 2 for seat in range(2)]
        assert table["places"] == expected
        points = {line["name"]: line["points"] for line in view["standings"]}
        assert sorted(points.values()) == ([0.5, 0.5] if not winners else [0.0, 1.0])
        await one.close()
        await two.close()

    run(body)


def test_an_aborted_game_is_lost_by_the_player_who_left(tmp_path: Path) -> None:
    clock = HandClock()

    async def body() -> None:
        process = Process(f"sqlite:///{tmp_path / 'abort.sqlite3'}", clock)
        service = process.tournaments
        people = players(process, ["Ana", "Bo"])
        made = await service.create(people[0], swiss_plan(rounds=1, rated=False))
        for person in people:
            await service.join(made.id, person)
        clock.t = START
        await service.tick()
        (board,) = current_boards(process, made.id)
        leaver, stayer = board.players
        await abort_as(process, board.game_id, leaver)
        view = await service.view(made.id)
        assert view["rounds"][0]["tables"][0]["places"] == [2, 1]
        points = {line["player"]: line["points"] for line in view["standings"]}
        assert points == {stayer: 1.0, leaver: 0.0}
        await process.close()

    run(body)


def test_the_end_of_a_rounds_last_game_pairs_the_next_at_once(tmp_path: Path) -> None:
    clock = HandClock()

    async def body() -> None:
        process = Process(f"sqlite:///{tmp_path / 'ends.sqlite3'}", clock)
        service = process.tournaments
        people = players(process, ["Ana", "Bo", "Cy", "Dee"])
        made = await service.create(people[0], swiss_plan(rounds=2))
        for person in people:
            await service.join(made.id, person)
        clock.t = START
        await service.tick()
        first, last = current_boards(process, made.id)
        await lose(process, first.game_id, first.players[0])
        assert len(current_boards(process, made.id)) == 2  # round 1 is not over
        # No tick: the process that saw the round's last game end pairs round 2 then.
        await lose(process, last.game_id, last.players[0])
        boards = current_boards(process, made.id)
        assert [b.round for b in boards] == [1, 1, 2, 2] and all(b.made for b in boards)
        await process.close()

    run(body)


def test_a_tick_with_nothing_to_do_writes_nothing(tmp_path: Path) -> None:
    clock = HandClock()

    async def body() -> None:
        process = Process(f"sqlite:///{tmp_path / 'idle.sqlite3'}", clock)
        service = process.tournaments
        people = players(process, ["Ana", "Bo", "Cy", "Dee"])
        swiss = await service.create(people[0], swiss_plan(rounds=2))
        arena = await service.create(
            people[0], swiss_plan(kind="arena", rounds=None, minutes=5, name="Arena")
        )
        for person in people:
            await service.join(swiss.id, person)
        await service.join(arena.id, people[0])
        clock.t = START
        await service.tick()  # the Swiss's round 1 paired, the arena started (one player)
        written: list[str] = []

        def note(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
            if statement.split()[0].upper() in ("INSERT", "UPDATE", "DELETE"):
                written.append(statement)

        engine = process.hub.storage.engine
        sa.event.listen(engine, "before_cursor_execute", note)
        for _ in range(3):
            clock.t += 2
            await service.tick()
        sa.event.remove(engine, "before_cursor_execute", note)
        assert written == []
        await process.close()

    run(body)


def test_an_arena_pairs_free_players_at_once_never_an_immediate_rematch(tmp_path: Path) -> None:
    clock = HandClock()

    async def body() -> None:
        process = Process(f"sqlite:///{tmp_path / 'arena.sqlite3'}", clock)
        service = process.tournaments
        people = players(process, ["Ana", "Bo", "Cy", "Dee", "Eli"])
        plan = swiss_plan(kind="arena", rounds=None, minutes=10, name="Arena")
        made = await service.create(people[0], plan)
        for person in people[:4]:
            await service.join(made.id, person)
        clock.t = START
        await service.tick()
        wave1 = current_boards(process, made.id)
        assert len(wave1) == 2
        # One game ends: its two players are free, but only have each other: they wait.
        a, b = wave1[0].players
        await lose(process, wave1[0].game_id, b)
        await service.tick()
        assert len(current_boards(process, made.id)) == 2
        # A latecomer joins: paired at once with one of them.
        await service.join(made.id, people[4])
        await service.tick()
        wave2 = [x for x in current_boards(process, made.id) if x.round == 2]
        assert len(wave2) == 1 and people[4].id in wave2[0].players
        # One of the other game's players pauses and the game ends: the other meets the one of
        # the first game left waiting.
        resting, back = wave1[1].players
        await service.pause(made.id, next(p for p in people if p.id == resting))
        await lose(process, wave1[1].game_id, back)
        await service.tick()
        newest = current_boards(process, made.id)[-1]
        waiting = ({a, b} - set(wave2[0].players)).pop()
        assert newest.round == 3 and set(newest.players) == {waiting, back}
        # Past its end nothing more is paired, even for a player back from a pause; it finishes
        # once its games have ended.
        clock.t = START + 10 * 60
        await service.join(made.id, next(p for p in people if p.id == resting))
        for board in current_boards(process, made.id):
            if board.places is None:
                await lose(process, board.game_id, board.players[1])
        await service.tick()
        view = await service.view(made.id)
        assert view["tournament"]["status"] == "finished"
        assert len(current_boards(process, made.id)) == 4
        value = {"W": 2, "w": 4, "D": 1, "d": 2, "L": 0}
        for line in view["standings"]:
            assert line["points"] == sum(value[x] for x in line["sheet"])
        assert sum(line["games"] for line in view["standings"]) == 2 * 4
        await process.close()

    run(body)


def test_pods_of_three_seat_four_players_with_a_bye_each_round(tmp_path: Path) -> None:
    clock = HandClock()

    async def body() -> None:
        process = Process(f"sqlite:///{tmp_path / 'pods.sqlite3'}", clock)
        service = process.tournaments
        people = players(process, ["Ana", "Bo", "Cy", "Dee"])
        plan = swiss_plan(kind="pods", game="trio", sizes=[3], rounds=4, name="Trio pods")
        made = await service.create(people[0], plan)
        for person in people:
            await service.join(made.id, person)
        clock.t = START
        for number in range(1, 5):
            await service.tick()
            board = current_boards(process, made.id)[-1]
            assert board.round == number and len(board.players) == 3
            # Seats 1 and 2 resign in turn: seat 0 wins.
            await lose(process, board.game_id, board.players[1])
            await lose(process, board.game_id, board.players[2])
        await service.tick()
        view = await service.view(made.id)
        assert view["tournament"]["status"] == "finished"
        byes = [r["byes"][0] for r in view["rounds"]]
        assert sorted(byes) == ["Ana", "Bo", "Cy", "Dee"]  # each sat out once
        total = sum(line["points"] for line in view["standings"])
        assert total == 4 * 3 + 4 * 1  # three points a table, a bye worth one
        await process.close()

    run(body)


def test_montana_and_passtally_pods_seat_their_tables_with_the_players_option(
    tmp_path: Path,
) -> None:
    clock = HandClock()

    async def body() -> None:
        process = Process(f"sqlite:///{tmp_path / 'real.sqlite3'}", clock, real_games=True)
        service = process.tournaments
        people = players(process, ["Ana", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus"])
        montana = await service.create(
            people[0],
            swiss_plan(kind="pods", game="montana", sizes=[3, 4], rounds=2, rated=False),
        )
        passtally = await service.create(
            people[0], swiss_plan(kind="pods", game="passtally", sizes=[3], rounds=1)
        )
        for person in people:
            await service.join(montana.id, person)
        for person in people[:4]:
            await service.join(passtally.id, person)
        clock.t = START
        await service.tick()
        stored = {g.id: g for g in games_stored(process)}
        seated = sorted(len(b.players) for b in current_boards(process, montana.id))
        assert seated == [3, 4]  # seven players: a four and a three
        for board in current_boards(process, montana.id):
            game = stored[board.game_id]
            assert game.game == "montana" and game.options["players"] == len(board.players)
            room = await process.hub.room(board.game_id)
            assert [s.account for s in room.row.seats] == list(board.players)
        (table,) = current_boards(process, passtally.id)
        assert stored[table.game_id].options["players"] == 3 and stored[table.game_id].rated
        view = await service.view(passtally.id)
        assert len(view["rounds"][0]["byes"]) == 1
        await process.close()

    run(body)


@pytest.mark.parametrize("kind", BACK_ENDS)
def test_ceilings_hold_against_a_burst_on_two_processes(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = database(kind, tmp_path, request)
    clock = HandClock()

    async def body() -> None:
        one, two = Process(url, clock), Process(url, clock)
        for process in (one, two):  # the operator's ceiling (Limits.tournament_players)
            service = process.tournaments
            service.limits = dataclasses.replace(service.limits, tournament_players=3)
        people = players(one, [f"P{i}" for i in range(6)])
        made = await one.tournaments.create(people[0], swiss_plan())
        joins = [(one, two)[i % 2].tournaments.join(made.id, p) for i, p in enumerate(people)]
        outcomes = await asyncio.gather(*joins, return_exceptions=True)
        refused = [o for o in outcomes if isinstance(o, ApiError)]
        assert len(refused) == 3 and {o.code for o in refused} == {"tournament_full"}
        entered = [p for p, o in zip(people, outcomes, strict=True) if o is None]
        # One who entered leaves and comes back: still their place.
        await two.tournaments.withdraw(made.id, entered[0])
        await one.tournaments.join(made.id, entered[0])
        # A creator holds three upcoming or running tournaments at most, however asked.
        more = [(one, two)[i % 2].tournaments.create(people[1], swiss_plan()) for i in range(5)]
        outcomes = await asyncio.gather(*more, return_exceptions=True)
        refused = [o for o in outcomes if isinstance(o, ApiError)]
        assert len(refused) == 2 and {o.code for o in refused} == {"too_many_tournaments"}
        await one.close()
        await two.close()

    run(body)


def test_what_a_tournament_is_refused_for(tmp_path: Path) -> None:
    clock = HandClock()

    async def body() -> None:
        process = Process(f"sqlite:///{tmp_path / 'refused.sqlite3'}", clock)
        service = process.tournaments
        (ana,) = players(process, ["Ana"])
        refusals = {
            "kind": swiss_plan(kind="knockout"),
            "sizes": swiss_plan(sizes=[3]),
            "clock": swiss_plan(clock={}),
            "rated": swiss_plan(clock={"base": 15, "increment": 0}),
            "rounds": swiss_plan(rounds=0),
            "minutes": swiss_plan(kind="arena", rounds=None),
            "starts": swiss_plan(starts=START + 90 * 86400),
            "trio": swiss_plan(kind="pods", sizes=[4], game="trio"),
        }
        for why, plan in refusals.items():
            with pytest.raises(ApiError) as refused:
                await service.create(ana, plan)
            assert refused.value.status == 400, why
        with process.hub.storage.engine.connect() as conn:
            count = sa.select(sa.func.count()).select_from(tournaments_table)
            assert conn.execute(count).scalar() == 0
        await process.close()

    run(body)
