"""AI work in worker processes: shared fairly between games, and never outliving the server."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path
from typing import Any

import httpcalls
import pytest
from fastapi.testclient import TestClient
from test_web_live import free_port, start_server, wait_for

from boardplay.ai.specs import make_agent
from boardplay.core.registry import load
from boardplay.web.app import create_app
from boardplay.web.config import Settings
from boardplay.web.workers.ai_worker import cap_think_time, warm_up


def descendants_of(pid: int) -> list[int]:
    """The processes below ``pid``: the AI workers are the fork server's children."""
    found: list[int] = []
    for child in children_of(pid):
        found += [child, *descendants_of(child)]
    return found


def children_of(pid: int) -> list[int]:
    found: list[int] = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid:
            found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def survivors(pids: list[int], within: float = 10) -> list[int]:
    """The processes of ``pids`` still alive after ``within`` seconds. A process closes its
    files before it becomes a zombie, so one whose end is under way may still look alive
    just after the server's stderr has closed."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline and any(alive(pid) for pid in pids):
        time.sleep(0.1)
    return [pid for pid in pids if alive(pid)]


def play_an_ai_move(server_pid: int, port: int) -> list[int]:
    """A game whose AI seat moves first, once it has moved; the processes below the server."""
    base = f"http://127.0.0.1:{port}"
    created = httpcalls.post(
        f"{base}/api/games",
        json={"game": "tiny", "seats": [{"kind": "ai", "spec": "random"}, {"kind": "me"}]},
    ).json()
    wait_for(f"{base}/api/games/{created['id']}", lambda g: g["current_player"] == 1)
    return descendants_of(server_pid)


def test_ai_workers_end_when_the_server_is_killed(tmp_path: Path) -> None:
    port = free_port()
    server = start_server(tmp_path / "kill.sqlite3", port)
    workers: list[int] = []
    try:
        workers = play_an_ai_move(server.pid, port)
        assert len(workers) > 2, "the AI move ran in no worker process"
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=30)
    try:
        assert not survivors(workers), "AI workers outlived the server"
    finally:
        for pid in workers:
            if alive(pid):
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)


def test_a_stopped_server_leaves_no_worker_and_no_leaked_semaphore(tmp_path: Path) -> None:
    """A stop (SIGTERM) waits for an idle pool, so its workers end with the server and the
    semaphores of its queues are released: uvicorn ends the process by raising the signal
    again, and multiprocessing's resource tracker used to warn of leaked ones at every stop."""
    port = free_port()
    server = start_server(tmp_path / "stop.sqlite3", port)
    below = play_an_ai_move(server.pid, port)
    server.send_signal(signal.SIGTERM)
    # Read to the end: the workers and the resource tracker hold the server's stderr too.
    _, stderr = server.communicate(timeout=30)
    assert not survivors(below), "processes outlived the stopped server"
    assert b"leaked" not in stderr, stderr.decode()[-2000:]


def wait_for_two_workers(client: TestClient) -> None:
    """Until two worker processes answer at once (a server up for a while has its pool ready;
    a test just started must wait for the processes to finish importing)."""
    executor = client.app.state.hub.ai.executor  # type: ignore[attr-defined]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        jobs = [executor.submit(warm_up, "webtiny:CATALOGUE", None) for _ in range(2)]
        if len({job.result(timeout=60) for job in jobs}) == 2:
            return
    raise AssertionError("the worker pool never ran two jobs at once")


def ai_turn_done(client: TestClient, gid: str, token: str) -> dict[str, Any]:
    game: dict[str, Any] = client.get(
        f"/api/games/{gid}", headers={"Authorization": f"Bearer {token}"}
    ).json()
    return game


def test_one_games_long_ai_turn_does_not_delay_another_games_ai(tmp_path: Path) -> None:
    """Game A's AI thinks for 3 s; game B's random AI, asked meanwhile, answers within its own
    (tiny) budget plus a small margin, while A is still thinking. The server's default worker
    settings are used: that is what a visitor meets."""
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'fair.sqlite3'}", catalogue="webtiny:CATALOGUE"
    )
    with TestClient(create_app(settings)) as client:
        games = {}
        for name, spec in (("a", "mcts(time=3,early=false)"), ("b", "random")):
            body = {"game": "tiny", "seats": [{"kind": "me"}, {"kind": "ai", "spec": spec}]}
            created = client.post("/api/games", json=body).json()
            games[name] = (created["id"], created["token"])
        wait_for_two_workers(client)
        for name in ("a", "b"):
            gid, token = games[name]
            for ply in (1, 2):
                answer = client.post(
                    f"/api/games/{gid}/actions",
                    json={"action": "t1", "ply": ply},
                    headers={"Authorization": f"Bearer {token}"},
                )
                assert answer.status_code == 200
            if name == "b":
                asked = time.monotonic()
        assert ai_turn_done(client, *games["a"])["thinking"] == 1
        while True:
            game_b = ai_turn_done(client, *games["b"])
            if game_b["thinking"] is None and game_b["ply"] > 3:
                break
            assert time.monotonic() - asked < 10, "game B's AI never moved"
            time.sleep(0.02)
        delay = time.monotonic() - asked
        still_thinking = ai_turn_done(client, *games["a"])["thinking"] == 1
        print(f"game B's AI answered after {delay:.2f} s (A still thinking: {still_thinking})")
        assert still_thinking and delay < 1.5, delay


@pytest.mark.parametrize(
    ("spec", "limit"),
    [
        ("az(weights=proteus,iterations=10000000)", 0.05),
        ("az(weights=proteus,time=1)", 0.05),
        ("az(weights=proteus,time=0.01)", 0.01),
        ("mcts(iterations=10000000)", 0.05),
    ],
)
def test_a_worker_holds_every_search_to_its_think_time(spec: str, limit: float) -> None:
    """The worker caps every agent's think time; ``az`` kept 0.0 for "no time", which the cap
    read as a limit of 0 (none), so ``az(iterations=N)`` thought for all its N simulations."""
    agent = make_agent(spec, load("proteus"), 1)
    cap_think_time(agent, 0.05)
    assert agent.time_limit == limit
