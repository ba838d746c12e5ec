"""Fair shares (issue 26): what one visitor can make the server do for it is bounded, so it
cannot slow everyone else. Games made any way count against the creation quota; AI-only games
have their own cap; the AI pool serves visitors in turn; replays are built once, linearly, within
a ply ceiling, and heavy reads are charged to a per-address budget; a row no process can load is
quarantined without stopping the lobby or the AI sweeper."""

from __future__ import annotations

import asyncio
import time
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from upload_probe import endless_record
from websettings import tiny_settings

from boardplay.core.registry import load
from boardplay.web.app import create_app
from boardplay.web.catalogue import REGISTRY, WebCatalogue
from boardplay.web.replays.records import frames_of
from boardplay.web.table import storage as st
from boardplay.web.workers.aiqueue import FairQueue

HUMANS = [{"kind": "me"}, {"kind": "hotseat"}]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def finish(c: TestClient, gid: str, token: str) -> None:
    """Play a tiny game to its end (taking one counter at a time)."""
    while not (game := c.get(f"/api/games/{gid}").json())["terminal"]:
        move = {"action": "t1", "ply": game["ply"]}
        assert (
            c.post(f"/api/games/{gid}/actions", json=move, headers=auth(token)).status_code == 200
        )


# ----- games made, by any route ---------------------------------------------------------------
def test_rematches_count_against_the_creation_quota(tmp_path: Path) -> None:
    """The review made 100 games by resign + rematch after the quota had refused the 31st."""
    with TestClient(create_app(tiny_settings(tmp_path, limits={"games_per_visitor": 3}))) as c:
        created = c.post("/api/games", json={"game": "tiny", "seats": HUMANS}).json()
        gid, token = created["id"], created["token"]
        for _ in range(2):  # games 2 and 3: rematches
            assert (
                c.post(
                    f"/api/games/{gid}/resign", json={"seat": 0}, headers=auth(token)
                ).status_code
                == 200
            )
            answer = c.post(f"/api/games/{gid}/rematch", headers=auth(token))
            assert answer.status_code == 200, answer.text
            gid = answer.json()["id"]
        c.post(f"/api/games/{gid}/resign", json={"seat": 0}, headers=auth(token))
        refused = c.post(f"/api/games/{gid}/rematch", headers=auth(token))
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "too_many_games"
        assert c.post("/api/games", json={"game": "tiny", "seats": HUMANS}).status_code == 429
        assert c.get(f"/api/games/{gid}").json()["rematch"] is None  # refused: nothing changed
        assert len(c.app.state.hub.storage.game_ids()) == 3


def test_the_quota_is_the_databases_so_a_restart_does_not_reset_it(tmp_path: Path) -> None:
    for expected in (201, 201, 429):
        with TestClient(create_app(tiny_settings(tmp_path, limits={"games_per_visitor": 2}))) as c:
            answer = c.post("/api/games", json={"game": "tiny", "seats": HUMANS})
            assert answer.status_code == expected, answer.text


def test_ai_only_games_have_a_cap_per_visitor(tmp_path: Path) -> None:
    ais = [{"kind": "ai", "spec": "mcts(time=0.5)"}] * 2
    limits = {"ai_games_per_visitor": 1}
    with TestClient(create_app(tiny_settings(tmp_path, limits=limits))) as c:
        assert c.post("/api/games", json={"game": "tiny", "seats": ais}).status_code == 201
        refused = c.post("/api/games", json={"game": "tiny", "seats": ais})
        assert refused.status_code == 429, refused.text
        assert refused.json()["error"]["code"] == "too_many_ai_games"
        assert "BOARDPLAY_WEB_AI_GAMES_PER_VISITOR" in refused.json()["error"]["message"]
        # Games with a person in them are not AI-only: still allowed.
        mixed = [{"kind": "me"}, {"kind": "ai", "spec": "random"}]
        assert c.post("/api/games", json={"game": "tiny", "seats": mixed}).status_code == 201


def test_the_ai_pool_serves_visitors_in_turn() -> None:
    """One visitor with many AI moves waiting cannot hold every slot, and a second visitor is
    served before the first one's later moves."""

    async def scenario(slots: int, first: int) -> list[str]:
        queue = FairQueue(slots)
        served: list[str] = []
        release = asyncio.Event()

        async def move(visitor: str) -> None:
            async with queue.slot(visitor):
                served.append(visitor)
                await release.wait()

        tasks = [asyncio.create_task(move("many")) for _ in range(first)]
        await asyncio.sleep(0)
        tasks.append(asyncio.create_task(move("other")))
        await asyncio.sleep(0.01)
        started = list(served)
        release.set()
        await asyncio.gather(*tasks)
        return [*started, "|", *served[len(started) :]]

    # Four slots: "many" holds at most three, so "other" starts at once.
    started = asyncio.run(scenario(4, 8)).index("|")
    assert asyncio.run(scenario(4, 8))[:started].count("many") == 3
    assert "other" in asyncio.run(scenario(4, 8))[:started]
    # One slot: "other" is next in line after the move already running.
    order = asyncio.run(scenario(1, 3))
    assert order == ["many", "|", "other", "many", "many"], order


def test_a_cancelled_wait_gives_its_place_up() -> None:
    async def scenario() -> list[str]:
        queue = FairQueue(1)
        served: list[str] = []
        gate = asyncio.Event()

        async def move(visitor: str) -> None:
            async with queue.slot(visitor):
                served.append(visitor)
                await gate.wait()

        holder = asyncio.create_task(move("a"))
        await asyncio.sleep(0)
        waiting = asyncio.create_task(move("b"))
        await asyncio.sleep(0)
        waiting.cancel()
        last = asyncio.create_task(move("c"))
        await asyncio.sleep(0)
        gate.set()
        await asyncio.gather(holder, last, return_exceptions=True)
        assert queue.in_use == 0 and not queue.held and not queue.waiting
        return served

    assert asyncio.run(scenario()) == ["a", "c"]


# ----- a row no process can load ----------------------------------------------------------------
def test_a_row_no_process_can_load_leaves_the_lobby_and_the_sweeper_working(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Rows written by an older version or by hand, which the checks of today would refuse: an
    engine the server does not know (a ValueError from the catalogue, not a game error) and
    options the engine refuses. They are shown frozen, their AI jobs are ended, and the AI game
    stored after them (only the sweeper can start its AI) is played to its end."""
    settings = tiny_settings(tmp_path, sweep_interval=0.05)
    with TestClient(create_app(settings)) as c:
        storage = c.app.state.hub.storage
        ais = [st.SeatRow(0, st.AI, "A", spec="random"), st.SeatRow(1, st.AI, "B", spec="random")]
        for gid, name, options in (("poison1", "nosuch", {}), ("poison2", "tiny", {"bonus": 7})):
            storage.create_game(st.GameRow(gid, name, options, None, list(ais)))
        storage.create_game(st.GameRow("healthy", "tiny", {}, None, list(ais)))
        # A timed game nobody can load, its clock fallen: stopped, so no sweep looks again.
        people = [st.SeatRow(0, st.HUMAN, "A", token_hash="x"), st.SeatRow(1, st.HUMAN, "B")]
        timed = st.GameRow("poison3", "nosuch", {}, None, people, clock={"base": 60})
        timed.clock_state = {"left": [60, 60], "seat": 0, "since": 1.0, "flagged": []}
        timed.deadline = 61.0
        storage.create_game(timed)
        deadline = time.monotonic() + 30
        while (game := c.get("/api/games/healthy").json())["status"] != st.FINISHED:
            assert time.monotonic() < deadline, game
            time.sleep(0.05)
        lobby = c.get("/api/games")
        assert lobby.status_code == 200
        shown = {g["id"]: g for g in lobby.json()["games"]}
        assert {"poison1", "poison2", "healthy"} <= set(shown)
        for gid in ("poison1", "poison2"):
            view = c.get(f"/api/games/{gid}").json()
            assert view["broken"] and "cannot be resumed" in view["broken"]
            assert c.get(f"/api/games/{gid}/record").status_code == 200
            assert c.get(f"/api/games/{gid}/replay").status_code == 400
            assert storage.get_game(gid).ai_seat is None  # quarantined: no sweeper claims it
        assert c.get("/api/games?ids=poison1,healthy").status_code == 200
        assert "cannot be resumed" in c.get("/api/games/poison3").json()["broken"]
        assert storage.get_game("poison3").deadline is None
        assert "poison3" not in storage.due_clocks(time.time())
    assert not [r for r in caplog.records if "background check failed" in r.getMessage()]


# ----- replays: linear, bounded, cached ---------------------------------------------------------
def test_a_replay_costs_time_and_memory_in_proportion_to_its_length() -> None:
    """Four times the plies cost about four times the memory and time (the old replay kept a
    copy of every position with its whole history: sixteen times). Ratios of two sizes in the
    same run, not a wall clock."""
    catalogue = WebCatalogue(REGISTRY)
    game = load("proteus")
    costs: list[tuple[float, int]] = []
    for plies in (400, 1600):
        record = endless_record(game, plies, seed=3)
        tracemalloc.start()
        start = time.process_time()
        frames_of(catalogue, record, max_plies=10**6)
        spent = time.process_time() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        costs.append((spent, peak))
    (t1, m1), (t4, m4) = costs
    assert m4 / m1 < 6, (m1, m4)
    assert t4 / t1 < 8, (t1, t4)


def test_a_record_longer_than_the_ceiling_is_refused_before_it_is_replayed(
    tmp_path: Path,
) -> None:
    n = 50_001
    record = {
        "format": "boardplay-record",
        "version": 1,
        "game": "tiny",
        **{"actions": [0] * n, "moves": ["t1"] * n, "seats": [0] * n},
    }
    with TestClient(create_app(tiny_settings(tmp_path, limits={"replay_max_plies": 50_000}))) as c:
        start = time.monotonic()
        answer = c.post("/api/replay", json=record)
        assert answer.status_code == 413, answer.text
        assert "50,000" in answer.text and "BOARDPLAY_WEB_REPLAY_MAX_PLIES" in answer.text
        assert time.monotonic() - start < 5


def test_a_finished_games_replay_is_built_once_and_revalidated_by_etag(tmp_path: Path) -> None:
    with TestClient(create_app(tiny_settings(tmp_path))) as c:
        created = c.post("/api/games", json={"game": "tiny", "seats": HUMANS}).json()
        gid, token = created["id"], created["token"]
        early = c.get(f"/api/games/{gid}/replay")
        finish(c, gid, token)
        first = c.get(f"/api/games/{gid}/replay")
        assert first.status_code == 200 and first.headers["etag"] != early.headers["etag"]
        again = c.get(f"/api/games/{gid}/replay", headers={"If-None-Match": first.headers["etag"]})
        assert again.status_code == 304 and not again.content
        cache = c.app.state.heavy.cache
        assert cache.get((gid, c.app.state.hub.storage.get_game(gid).revision)) == first.content
        assert c.get(f"/api/games/{gid}/replay").content == first.content
        assert len(first.json()["frames"]) == first.json()["frames"][-1]["ply"] + 1


def test_heavy_reads_are_charged_to_the_address_that_asks(tmp_path: Path) -> None:
    """A tiny budget: the first replay is served (into debt), the next heavy read is a 429 with
    Retry-After naming the setting, while light requests go on."""
    limits: dict[str, Any] = {"heavy_share": 0.0001, "heavy_burst": 0.000001}
    with TestClient(create_app(tiny_settings(tmp_path, limits=limits))) as c:
        created = c.post("/api/games", json={"game": "tiny", "seats": HUMANS}).json()
        gid, token = created["id"], created["token"]
        finish(c, gid, token)
        assert c.get(f"/api/games/{gid}/replay").status_code == 200
        refused = c.get(f"/api/games/{gid}/record")
        assert refused.status_code == 429, refused.text
        assert refused.json()["error"]["code"] == "heavy_reads"
        assert int(refused.headers["retry-after"]) >= 1
        assert "BOARDPLAY_WEB_HEAVY_SHARE" in refused.json()["error"]["message"]
        assert c.get(f"/api/games/{gid}").status_code == 200
