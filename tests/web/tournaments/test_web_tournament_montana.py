"""A Montana round-robin of four bots (issue 49's acceptance) on the tournaments' service with
the real games (``tournamentcalls.Process(real_games=True)``): four bot accounts in a pods
tournament of four rounds at tables of four, each game a real Montana game of four played to
its end by the bots, each taking a random legal move in turn through the game's room (as the
Bot API's move does). Checked against this file's own reckoning: one table meets every round;
its seats are rotated as a Latin square, so each bot takes the first seat (the seat the
tournament counts as starting; Montana decides its first player in play) exactly once; points
by place (1 for each player placed below, ½ for each level: Montana's result keeps no scores,
so its three losers share second place, 3, 1, 1, 1) from each game's result; Buchholz and
Sonneborn–Berger counting each opponent at a table as a game of its own."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from tournamentcalls import RAPID, START, HandClock, Process, play_out, players

from boardplay.web.tournaments import Plan

ROUNDS = 4


def places_of(result: dict[str, Any]) -> list[int]:
    """Each seat's place (1 best, equals sharing) as docs/tournaments.md says a result counts:
    the winners first, then the others by score (Montana's result keeps none: its losers share
    second place)."""
    winners = set(result.get("winners") or [])
    scores = result.get("scores") or [0] * len(result["returns"])
    keys = [(seat not in winners, -scores[seat]) for seat in range(len(scores))]
    return [1 + sum(1 for other in keys if other < mine) for mine in keys]


def test_a_montana_round_robin_of_four_bots(tmp_path: Path) -> None:
    clock = HandClock()
    rng = random.Random(4)

    async def body() -> None:
        process = Process(f"sqlite:///{tmp_path / 'montana.sqlite3'}", clock, real_games=True)
        service = process.tournaments
        owner, *bots = players(process, ["Owner", "Ada", "Bix", "Cog", "Dot"])
        for bot in bots:
            await process.hub.bots.upgrade(bot)
        found = [process.hub.accounts.store.by_id(bot.id) for bot in bots]
        bots = [bot for bot in found if bot is not None and bot.bot]
        assert len(bots) == 4
        plan = Plan(
            name="Montana bots",
            kind="pods",
            game="montana",
            options={"players": 4},
            sizes=[4],
            clock=RAPID,
            rated=False,
            starts=START,
            rounds=ROUNDS,
            bots=True,
        )
        made = await service.create(owner, plan)
        for bot in bots:
            await service.join(made.id, bot)
        clock.t = START
        await service.tick()
        names = {bot.id: bot.name for bot in bots}
        played: list[tuple[list[str], list[int], list[int]]] = []
        for number in range(1, ROUNDS + 1):
            view = await service.view(made.id)
            assert [r["round"] for r in view["rounds"]] == list(range(1, number + 1))
            (table,) = view["rounds"][-1]["tables"]  # one table: a round-robin
            assert view["rounds"][-1]["byes"] == []
            room = await process.hub.room(table["game"])
            assert room.row.game == "montana" and room.row.options["players"] == 4
            seated = [names[s.account] for s in room.row.seats if s.account is not None]
            assert seated == table["players"]
            movers = await play_out(process, table["game"], rng)
            result = (await process.hub.room(table["game"])).row.result
            assert result is not None
            played.append((seated, places_of(result), movers))
            clock.t += 60
            await service.tick()
        view = await service.view(made.id)
        assert view["tournament"]["status"] == "finished"
        await process.close()
        check(view, played, [bot.name for bot in bots])

    asyncio.run(body())


def check(
    view: dict[str, Any], played: list[tuple[list[str], list[int], list[int]]], seeds: list[str]
) -> None:
    # Seats rotated: every bot in every seat once over the four rounds (a Latin square), so
    # each started exactly one game.
    for seat in range(4):
        assert sorted(seated[seat] for seated, _, _ in played) == sorted(seeds)
    # Points by place, 1 for every player placed below and ½ for every one level.
    halves = dict.fromkeys(seeds, 0)
    for seated, places, _ in played:
        for me, mine in zip(seated, places, strict=True):
            halves[me] += (
                sum(2 for p in places if p > mine) + sum(1 for p in places if p == mine) - 1
            )
    assert sum(halves.values()) == ROUNDS * 12  # 3 + 2 + 1 + 0 points a table
    buchholz = dict.fromkeys(seeds, 0)
    berger = dict.fromkeys(seeds, 0.0)
    for seated, places, _ in played:
        for me, mine in zip(seated, places, strict=True):
            for other, theirs in zip(seated, places, strict=True):
                if other == me:
                    continue
                buchholz[me] += halves[other]
                berger[me] += halves[other] * (
                    1.0 if mine < theirs else 0.5 if mine == theirs else 0
                )
    mine = sorted(
        (
            {
                "name": name,
                "points": halves[name] / 2,
                "buchholz": buchholz[name] / 2,
                "sonneborn_berger": berger[name] / 2,
                "games": ROUNDS,
                "byes": 0,
            }
            for name in seeds
        ),
        key=lambda x: (
            -x["points"],
            -x["buchholz"],
            -x["sonneborn_berger"],
            seeds.index(x["name"]),
        ),
    )
    keys = ("name", "points", "buchholz", "sonneborn_berger", "games", "byes")
    assert [{k: line[k] for k in keys} for line in view["standings"]] == mine
    for (seated, places, _), entry in zip(played, view["rounds"], strict=True):
        (table,) = entry["tables"]
        assert table["places"] == places and table["players"] == seated
