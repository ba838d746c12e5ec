"""Measure what one large record upload costs everyone else (issue 26, docs/web.md "Security":
heavy reads have their own budget).

Starts ``boardplay serve`` on loopback (a fresh SQLite file, the real games, the request rate
lifted so the poller is never the one refused), then for each record size: uploads a legal
Proteus record that never ends the game (a hostile uploader's) to ``POST /api/replay`` while a
second client polls ``GET /api/games`` every 20 ms, and prints the upload's answer and time, the
poller's longest and 99th-percentile wait, and the server's memory before and after.

    .venv/bin/python tools/upload_probe.py 1000 5000 20000
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

import devservices as ds
import httpcalls
import httpx

from boardplay.core.game import Game
from boardplay.core.records import Move, Record
from boardplay.core.registry import load


def endless_record(game: Game, plies: int, seed: int = 1) -> Record:
    """A legal record of ``plies`` moves that never ends the game (a hostile uploader's): each
    move is a random one among those that do not end it. The tests use it too."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    moves: list[Move] = []
    while len(moves) < plies:
        legal = state.legal_actions()
        rng.shuffle(legal)
        for action in legal:
            after = state.clone()
            after.apply_action(action)
            if not after.is_terminal():
                break
        moves.append(Move(action, state.action_to_string(action), state.current_player()))
        state.apply_action(action)
    return Record(game=game.name, options=dict(game.options), moves=moves)


def record(plies: int, seed: int = 1) -> dict[str, object]:
    return endless_record(load("proteus"), plies, seed).to_json()


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def probe(base: str, pid: int, plies: int) -> None:
    body = json.dumps(record(plies)).encode()
    before = rss_mb(pid)
    waits: list[float] = []
    running = True

    def poll() -> None:
        with httpx.Client(timeout=30) as client:
            while running:
                start = time.perf_counter()
                client.get(f"{base}/api/games")
                waits.append(time.perf_counter() - start)
                time.sleep(0.02)

    poller = threading.Thread(target=poll)
    poller.start()
    time.sleep(0.5)
    start = time.perf_counter()
    answer = httpcalls.post(
        f"{base}/api/replay",
        content=body,
        headers={"content-type": "application/json"},
        timeout=120,
    )
    spent = time.perf_counter() - start
    time.sleep(0.5)
    running = False
    poller.join()
    time.sleep(1.0)
    waits.sort()
    p99 = waits[int(len(waits) * 0.99)]
    print(
        f"{plies:>6} plies  {len(body) / 1000:>5.0f} kB  -> {answer.status_code} "
        f"({len(answer.content) / 1e6:.1f} MB) in {spent:.2f} s;  other visitor: "
        f"{len(waits)} requests, longest {waits[-1] * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms;  "
        f"server RSS {before:.0f} -> {rss_mb(pid):.0f} MB"
    )


def main(sizes: list[int]) -> None:
    port = ds.free_port()
    with tempfile.TemporaryDirectory() as folder:
        env = {
            "BOARDPLAY_DATABASE_URL": f"sqlite:///{folder}/probe.sqlite3",
            "BOARDPLAY_WEB_AI_WORKERS": "1",
            "BOARDPLAY_WEB_RATE_PER_SECOND": "100000",
            "BOARDPLAY_WEB_RATE_BURST": "100000",
        }
        server = ds.start_server(port, env)
        try:
            for plies in sizes:
                probe(f"http://127.0.0.1:{port}", server.pid, plies)
        finally:
            ds.stop_server(server)


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [1000, 5000, 20000])
