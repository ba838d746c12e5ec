"""Puzzles over HTTP on the shipped sets (issue 64): an attempt judged move by move (the right
turn in either order, a wrong move ending it with the answer shown), one rated attempt per player
and puzzle, ratings that equal a Glicko-2 recomputation from the stored results (the server's
update and an independent one), the daily puzzle the same for two visitors, a streak that ends at
its first mistake and keeps the best, the solution hidden until the attempt ends, and the
ceiling on attempts held under a burst of parallel requests."""

from __future__ import annotations

import dataclasses
import datetime
import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from accountcalls import Player, sign_up
from fastapi.testclient import TestClient
from glickoref import period
from websettings import TEST_LIMITS, start_migrated

from boardplay.puzzles import Solving, read_puzzles
from boardplay.web.accounts.service import DEVICE_COOKIE
from boardplay.web.app import create_app
from boardplay.web.config import Settings
from boardplay.web.puzzles import NEWCOMER, daily_pick, rate, streak_pick
from boardplay.web.puzzles.store import PuzzleStore

DATA = Path(__file__).parents[3] / "src/boardplay/web/puzzles/data"
SETS = {p.id: p for path in sorted(DATA.glob("*.jsonl")) for p in read_puzzles(path)}


def settings(tmp_path: Path, **limits: Any) -> Settings:
    database = tmp_path / "web.sqlite3"
    start_migrated(database)
    return Settings(
        database_url=f"sqlite:///{database}",
        catalogue="boardplay.web.catalogue:REGISTRY",
        limits=dataclasses.replace(TEST_LIMITS, **limits),
        ai_workers=0,
    )


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(settings(tmp_path))) as c:
        yield c


class Guest:
    """A browser with its own device cookie, sent explicitly."""

    def __init__(self, client: TestClient, device: str) -> None:
        self.client, self.device = client, device

    def post(self, path: str, body: Any = None) -> Any:
        answer = self.client.post(
            path, json=body, headers={"Cookie": f"{DEVICE_COOKIE}={self.device}"}
        )
        self.client.cookies.clear()
        return answer

    def get(self, path: str) -> Any:
        answer = self.client.get(path, headers={"Cookie": f"{DEVICE_COOKIE}={self.device}"})
        self.client.cookies.clear()
        return answer


def play(who: Guest | Player, attempt: dict[str, Any], moves: list[str]) -> dict[str, Any]:
    for move in moves:
        answer = who.post(f"/api/puzzles/attempts/{attempt['id']}/moves", {"move": move})
        assert answer.status_code == 200, answer.text
        attempt = answer.json()
    return attempt


def solution(attempt: dict[str, Any]) -> list[str]:
    return SETS[attempt["puzzle"]["id"]].solution


def wrong_move(attempt: dict[str, Any]) -> str:
    """A first move that cannot start the solution's turn."""
    puzzle = SETS[attempt["puzzle"]["id"]]
    solving = Solving(puzzle)
    for legal in attempt["legal"]:
        state = solving.start.clone()
        if solving.step(state, legal["id"]).verdict == "wrong":
            return str(legal["move"])
    raise AssertionError("every first move can start the solution")


def test_the_right_turn_solves_and_shows_the_reply(client: TestClient) -> None:
    guest = Guest(client, "g" * 30)
    attempt = guest.post("/api/puzzles/next", {"game": "potlatch"}).json()
    assert attempt["status"] == "playing" and not attempt["rated"]
    moves = solution(attempt)
    done = play(guest, attempt, moves)
    assert done["status"] == "solved"
    assert [p["move"] for p in done["played"]][: len(moves)] == moves
    line = SETS[attempt["puzzle"]["id"]].line
    replies = [p["move"] for p in done["played"] if p["by"] == "reply"]
    assert replies and replies == line[: len(replies)]
    assert [s["move"] for s in done["solution"]] == moves and done["themes"] is not None


def test_a_turn_of_two_actions_is_judged_action_by_action(client: TestClient) -> None:
    guest = Guest(client, "o" * 30)
    puzzle = next(p for p in SETS.values() if p.game == "potlatch" and len(p.solution) == 2)
    attempt = guest.post(f"/api/puzzles/{puzzle.id}/attempts").json()
    halfway = play(guest, attempt, puzzle.solution[:1])
    assert halfway["status"] == "playing" and halfway["legal"]
    solving = Solving(puzzle)
    state = solving.start.clone()
    solving.step(state, halfway["played"][0]["id"])
    wrong = next(
        m["move"]
        for m in halfway["legal"]
        if solving.step(state.clone(), m["id"]).verdict == "wrong"
    )
    done = play(guest, halfway, [wrong])
    assert done["status"] == "failed"
    assert [s["move"] for s in done["solution"]] == puzzle.solution


def test_any_turn_of_the_answer_group_solves(client: TestClient) -> None:
    """A Montana answer group (turns that share the deciding build and trade): the other
    turn of the group solves as the solution does."""
    guest = Guest(client, "m" * 30)
    puzzle = next(p for p in SETS.values() if len(p.answer_turns()) > 1)
    other = next(turn for turn in puzzle.answer_turns() if turn != puzzle.solution)
    attempt = guest.post(f"/api/puzzles/{puzzle.id}/attempts").json()
    done = play(guest, attempt, other)
    assert done["status"] == "solved"
    assert [p["move"] for p in done["played"]][: len(other)] == other


def test_a_wrong_move_fails_with_the_answer_shown(client: TestClient) -> None:
    guest = Guest(client, "w" * 30)
    attempt = guest.post("/api/puzzles/next", {"game": "proteus"}).json()
    done = play(guest, attempt, [wrong_move(attempt)])
    assert done["status"] == "failed" and done["legal"] == []
    assert [s["move"] for s in done["solution"]] == solution(attempt)
    assert done["solution"][0]["words"]
    later = guest.post(f"/api/puzzles/attempts/{attempt['id']}/moves", {"move": "x"})
    assert later.status_code == 409 and later.json()["error"]["code"] == "attempt_over"


def test_the_solution_stays_on_the_server_until_the_attempt_ends(client: TestClient) -> None:
    guest = Guest(client, "h" * 30)
    for game in ("potlatch", "proteus"):
        attempt = guest.post("/api/puzzles/next", {"game": game}).json()
        puzzle = SETS[attempt["puzzle"]["id"]]
        again = guest.get(f"/api/puzzles/attempts/{attempt['id']}").json()
        for seen in (attempt, again):
            assert seen["solution"] is None and seen["themes"] is None
            text = json.dumps(seen)
            for secret in ("runner_up", "verified", '"line"', "source", "answer_position"):
                assert secret not in text
        if len(puzzle.solution) > 1:  # halfway through a turn: still nothing
            halfway = play(guest, attempt, puzzle.solution[:1])
            assert halfway["status"] == "playing" and halfway["solution"] is None
    other = Guest(client, "i" * 30)
    peek = other.get(f"/api/puzzles/attempts/{attempt['id']}")
    assert peek.status_code == 403


def test_one_rated_attempt_per_player_and_puzzle(client: TestClient) -> None:
    ann = sign_up(client, "ann")
    first = ann.post("/api/puzzles/next", {"game": "proteus"}).json()
    assert first["rated"] and first["mode"] == "rated"
    # A reload goes on with the same attempt, not a second one.
    again = ann.post(f"/api/puzzles/{first['puzzle']['id']}/attempts").json()
    assert again["id"] == first["id"]
    done = play(ann, first, [wrong_move(first)])
    assert done["rating"]["after"]["rating"] < done["rating"]["before"]["rating"]
    assert done["rating"]["change"] < 0
    retry = ann.post(f"/api/puzzles/{first['puzzle']['id']}/attempts").json()
    assert retry["id"] != first["id"] and not retry["rated"] and retry["mode"] == "practice"
    solved = play(ann, retry, solution(retry))
    assert solved["status"] == "solved" and solved["rating"] is None
    mine = ann.get("/api/puzzles").json()
    proteus = next(g for g in mine["games"] if g["game"] == "proteus")
    assert proteus["rating"]["plays"] == 1
    # The next puzzle is another one: a finished one is not offered again.
    following = ann.post("/api/puzzles/next", {"game": "proteus"}).json()
    assert following["puzzle"]["id"] != first["puzzle"]["id"]


def test_ratings_equal_a_glicko2_recomputation(client: TestClient, tmp_path: Path) -> None:
    players = [sign_up(client, name) for name in ("bob", "cyd", "dia")]
    for round_ in range(4):
        for i, player in enumerate(players):
            attempt = player.post("/api/puzzles/next", {"game": "potlatch"}).json()
            right = (round_ + i) % 3 != 0
            play(player, attempt, solution(attempt) if right else [wrong_move(attempt)])
    # Two players meet at the same puzzle too: its rating moves for both.
    shared = players[0].post("/api/puzzles/next", {"game": "proteus"}).json()
    play(players[0], shared, solution(shared))
    twin = players[1].post(f"/api/puzzles/{shared['puzzle']['id']}/attempts").json()
    play(players[1], twin, [wrong_move(twin)])

    store = PuzzleStore(client.app.state.hub.engine, NEWCOMER)  # type: ignore[attr-defined]
    results = store.results()
    assert len(results) == 14
    stored_puzzles, stored_players = store.ratings()
    exact: dict[Any, tuple[float, float, float]] = {}
    reference: dict[Any, tuple[float, float, float]] = {}
    for r in results:
        me, it = (r["account_id"], r["game"]), r["puzzle_id"]
        before_me, before_it = exact.get(me, NEWCOMER), exact.get(it, NEWCOMER)
        assert tuple(r["player_before"]) == before_me and tuple(r["puzzle_before"]) == before_it
        exact[me], exact[it] = rate(before_me, before_it, r["solved"])
        ref_me, ref_it = reference.get(me, NEWCOMER), reference.get(it, NEWCOMER)
        score = 1.0 if r["solved"] else 0.0
        reference[me] = period(ref_me, [(ref_it, score)])
        reference[it] = period(ref_it, [(ref_me, 1.0 - score)])
    for account, held in stored_players.items():
        assert held == exact[account]
        assert held == pytest.approx(reference[account], abs=1e-4)
    for puzzle, rated in stored_puzzles.items():
        assert rated == exact.get(puzzle, NEWCOMER)
        assert rated == pytest.approx(reference.get(puzzle, NEWCOMER), abs=1e-4)


def test_the_daily_puzzle_is_the_same_for_two_visitors(client: TestClient) -> None:
    one, two = Guest(client, "d" * 30), sign_up(client, "eve")
    daily = one.get("/api/puzzles/daily").json()
    assert two.get("/api/puzzles").json()["daily"] == daily
    assert daily["id"] in SETS
    attempt = one.post(f"/api/puzzles/{daily['id']}/attempts").json()
    assert play(one, attempt, solution(attempt))["status"] == "solved"
    ids = sorted(SETS)
    days = {daily_pick(ids, datetime.date(2026, 1, 1) + datetime.timedelta(d)) for d in range(30)}
    assert len(days) > 20  # a new puzzle most days


def test_a_streak_rises_and_ends_at_the_first_mistake(client: TestClient) -> None:
    fay = sign_up(client, "fay")
    attempt = fay.post("/api/puzzles/streaks", {"game": "proteus"}).json()
    streak = attempt["streak"]
    assert streak["solved"] == 0 and streak["alive"] and attempt["mode"] == "streak"
    seen = []
    for n in range(1, 4):
        seen.append(attempt["puzzle"]["id"])
        done = play(fay, attempt, solution(attempt))
        assert done["streak"]["solved"] == n and done["rating"] is None
        attempt = fay.post(f"/api/puzzles/streaks/{streak['id']}/next").json()
    assert attempt["puzzle"]["id"] not in seen
    over = play(fay, attempt, [wrong_move(attempt)])
    assert over["status"] == "failed" and not over["streak"]["alive"]
    assert over["streak"]["solved"] == 3 and over["streak"]["best"] == 3
    after = fay.post(f"/api/puzzles/streaks/{streak['id']}/next")
    assert after.status_code == 409 and after.json()["error"]["code"] == "streak_over"
    games = fay.get("/api/puzzles").json()["games"]
    assert next(g for g in games if g["game"] == "proteus")["best_streak"] == 3
    assert next(g for g in games if g["game"] == "proteus")["rating"] is None  # unrated


def test_streak_puzzles_climb_the_ladder() -> None:
    ladder = [f"p{i:03d}" for i in range(200)]
    used: set[str] = set()
    picks = []
    for step in range(25):
        pick = streak_pick(ladder, used, step, seed=5)
        assert pick is not None and pick not in used
        used.add(pick)
        picks.append(ladder.index(pick))
    assert picks[:20] == sorted(picks[:20])  # each from a harder band
    assert all(p >= 190 for p in picks[19:])  # past the last band: the top band
    assert streak_pick(ladder[:3], set(ladder[:3]), 0, 1) is None


def test_a_burst_of_attempts_holds_the_ceiling(tmp_path: Path) -> None:
    with TestClient(create_app(settings(tmp_path, puzzle_attempts_per_minute=5))) as c:
        ids = sorted(SETS)[:12]
        guest = Guest(c, "b" * 30)

        def start(puzzle: str) -> int:
            answer = c.post(
                f"/api/puzzles/{puzzle}/attempts",
                headers={"Cookie": f"{DEVICE_COOKIE}={guest.device}"},
            )
            return int(answer.status_code)

        with ThreadPoolExecutor(6) as pool:
            codes = sorted(pool.map(start, ids))
        assert codes.count(200) == 5 and codes.count(429) == 7, codes


def test_the_sets_load_once(tmp_path: Path) -> None:
    first = settings(tmp_path)
    with TestClient(create_app(first)) as c:
        counts = {g["game"]: g["count"] for g in c.get("/api/puzzles").json()["games"]}
    with TestClient(create_app(first)) as c:  # a restart: nothing added, ratings kept
        again = {g["game"]: g["count"] for g in c.get("/api/puzzles").json()["games"]}
    assert counts == again
    assert counts == {
        g: sum(1 for p in SETS.values() if p.game == g and (p.verified or {}).get("ok"))
        for g in counts
    }


def test_every_theme_has_words_in_its_games_board_module() -> None:
    from boardplay.puzzles import THEMES

    boards = Path(__file__).parents[3] / "src/boardplay/web/static/boards"
    for game, themes in THEMES.items():
        table = (boards / f"{game}.js").read_text(encoding="utf-8")
        for theme in themes:
            assert f'"theme.{game}.{theme}":' in table, (game, theme)
