"""The pairing is computed outside the tournament's row (issue 66): the director plans on a
snapshot read without a lock and stores the step under the row only if it still holds there
(``steps.still_holds``); a player who entered while the round was being paired is in the round
stored; an arena's wave survives results coming in meanwhile, but not a paired player's pause."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path
from typing import Any

import pytest
from tournamentcalls import RAPID, START, HandClock, Process, database, players, swiss_plan

from boardplay.web.tournaments import director
from boardplay.web.tournaments.model import (
    ACTIVE,
    PAUSED,
    STARTED,
    Board,
    Entrant,
    Snapshot,
    Tournament,
)
from boardplay.web.tournaments.records import Table
from boardplay.web.tournaments.steps import Step, plan, still_holds


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_round_is_paired_outside_the_row_and_a_late_entrant_is_in_it(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = database(kind, tmp_path, request)
    clock = HandClock()

    async def body() -> None:
        process = Process(url, clock)
        people = players(process, ["Ana", "Bo", "Cy", "Dee", "Eve"])
        made = await process.tournaments.create(people[0], swiss_plan(rounds=2, rated=False))
        for person in people[:4]:
            await process.tournaments.join(made.id, person)
        store = process.store
        inside = False
        plans: list[bool] = []  # for each plan made: whether under the row
        locked_step = store.step

        def step(tournament_id: str, work: Any) -> Any:
            nonlocal inside
            inside = True
            try:
                return locked_step(tournament_id, work)
            finally:
                inside = False

        def planned(snap: Snapshot, now: float) -> Step:
            plans.append(inside)
            made_step = plan(snap, now)
            if len(plans) == 1:  # Eve enters while round 1 is paired without her
                late = Entrant(people[4].id, "Eve", 1500.0, clock.t, ACTIVE)
                store.enter(made.id, late, 128)
            return made_step

        monkeypatch.setattr(store, "step", step)
        monkeypatch.setattr(director, "plan", planned)
        clock.t = START
        await process.tournaments.tick()
        view = await process.tournaments.view(made.id)
        (first,) = view["rounds"]
        seated = [name for table in first["tables"] for name in table["players"]]
        assert sorted(seated + first["byes"]) == ["Ana", "Bo", "Cy", "Dee", "Eve"]
        assert len(plans) == 2 and not any(plans), "planned again, and never under the row"
        await process.close()

    asyncio.run(body())


def snapshot(kind: str, status: str = STARTED, round_: int = 1) -> Snapshot:
    tournament = Tournament(
        "t1", "T", kind, "tiny", {}, [2], dict(RAPID), False, START, 10, None, status, round_,
        None, START,
    )  # fmt: skip
    snap = Snapshot(tournament)
    snap.entrants = [Entrant(p, f"P{p}", 1500.0, float(p), ACTIVE) for p in range(1, 7)]
    snap.boards = [
        Board(1, 0, "g1", True, Table(1, (1, 2), (1, 2), 1.0)),
        Board(1, 1, "g2", True, Table(1, (3, 4))),
        Board(1, 2, "g3", True, Table(1, (5, 6))),
    ]
    return snap


def test_an_arena_wave_holds_while_results_come_in_but_not_past_a_pause_or_another_wave() -> None:
    planned_on = snapshot("arena")
    assert plan(planned_on, START + 1).idle  # 1 and 2 alone are free, and just met
    planned_on.boards[1] = dataclasses.replace(
        planned_on.boards[1], table=Table(1, (3, 4), (1, 2), 2.0)
    )
    wave = plan(planned_on, START + 1)
    assert wave.tables is not None and len(wave.tables) == 2  # never 1-2 nor 3-4 again
    later = snapshot("arena")
    later.boards = list(planned_on.boards)
    later.boards[2] = dataclasses.replace(later.boards[2], table=Table(1, (5, 6), (1, 1), 3.0))
    assert still_holds(wave, planned_on, later), "a result elsewhere does not undo the wave"
    paused = snapshot("arena")
    paused.boards = list(planned_on.boards)
    paired = wave.tables[0][0]
    paused.entrants = [
        dataclasses.replace(e, status=PAUSED) if e.account_id == paired else e
        for e in paused.entrants
    ]
    assert not still_holds(wave, planned_on, paused)
    moved = snapshot("arena", round_=2)
    moved.boards = list(planned_on.boards)
    assert not still_holds(wave, planned_on, moved)


def test_a_swiss_round_holds_only_on_what_it_read() -> None:
    planned_on = snapshot("swiss")
    for board in range(3):
        table = planned_on.boards[board].table
        planned_on.boards[board] = dataclasses.replace(
            planned_on.boards[board], table=Table(1, table.players, (1, 2))
        )
    planned_on.tournament.rounds = 3
    step = plan(planned_on, START + 1)
    assert step.tables is not None and len(step.tables) == 3
    same = dataclasses.replace(planned_on, boards=list(planned_on.boards))
    assert still_holds(step, planned_on, same)
    withdrawn = dataclasses.replace(planned_on, entrants=planned_on.entrants[:-1])
    assert not still_holds(step, planned_on, withdrawn)


def test_two_processes_making_one_wave_share_it_rather_than_race_through_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every process that ticks a tournament makes its games not made yet: two making a wave
    of 20 games at once, each from its own random place in it (``making_order``) and claiming
    each table before making its game (``TournamentStore.claim``), make each game once and
    never try one the other made, however close their starts (without the claim, one of them
    tried all 20 in one order, and 3 to 13 when their random starts were a few boards apart
    and they chased each other through the wave)."""
    url = f"sqlite:///{tmp_path / 'wave.sqlite3'}"
    clock = HandClock()

    async def body() -> None:
        one, two = Process(url, clock), Process(url, clock)
        people = players(one, [f"P{i}" for i in range(40)])
        plan = dataclasses.replace(
            swiss_plan(rounds=2, rated=False), kind="arena", rounds=None, minutes=60
        )
        made = await one.tournaments.create(people[0], plan)
        for person in people:
            await one.tournaments.join(made.id, person)
        clock.t = START
        lost: list[str] = []
        for process in (one, two):
            maker = process.hub.maker
            insert = maker._insert_once

            def counted(row: Any, insert: Any = insert) -> bool:
                won: bool = insert(row)
                if not won:
                    lost.append(row.id)
                return won

            monkeypatch.setattr(maker, "_insert_once", counted)
        store, first = one.store, one.tournaments.director
        await first.db(store.step, made.id, lambda c, s: first.step(c, s, START))
        snap = await first.db(store.snapshot, made.id)
        assert len(snap.boards) == 20 and not any(b.made for b in snap.boards)
        await asyncio.gather(*(p.tournaments.director._make_games(snap) for p in (one, two)))
        stored = await first.db(store.snapshot, made.id)
        assert all(b.made for b in stored.boards)
        told = sorted(m["game"] for _, m in one.told + two.told)
        assert told == sorted(b.game_id for b in stored.boards for _ in b.table.players)
        assert lost == [], f"{len(lost)} of 20 games tried by both processes"
        await one.close()
        await two.close()

    asyncio.run(body())
