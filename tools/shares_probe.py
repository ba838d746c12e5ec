"""Measure what one visitor's heavy use costs another (issue 26, docs/web.md "Security").

Starts ``boardplay serve`` on loopback with the default ceilings, then, with visitor A on
127.0.0.1 and visitor B on 127.0.0.2 (two addresses of the loopback range):

- replays: A fetches the replay of a long finished Montana game as fast as it is answered,
  while B plays a Potlatch game; prints A's answers by status and B's move times;
- AI: A keeps the AI workers busy (two AI-only Passtally games and six games whose AI seat
  moves first, all ``mcts(time=5)``), while B plays Proteus against the ``random`` AI; prints
  how long B waits for each AI reply.

    .venv/bin/python tools/shares_probe.py
"""

from __future__ import annotations

import random
import statistics
import tempfile
import threading
import time

import devservices as ds
import httpx


class Visitor(httpx.Client):
    """A client on one loopback address that waits out the rate limit (429 Retry-After), as a
    polite page would; the replay hammer below does not use it."""

    def __init__(self, address: str) -> None:
        super().__init__(transport=httpx.HTTPTransport(local_address=address), timeout=60)

    def polite(self, method: str, url: str, **kwargs: object) -> httpx.Response:
        while True:
            answer = self.request(method, url, **kwargs)  # type: ignore[arg-type]
            if answer.status_code != 429 or answer.json()["error"]["code"] != "rate_limited":
                return answer
            time.sleep(float(answer.headers.get("retry-after", "1")))


def client(address: str) -> Visitor:
    return Visitor(address)


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def play_to_end(c: Visitor, base: str, game: str, seed: int) -> str:
    rng = random.Random(seed)
    body = {"game": game, "seats": [{"kind": "me"}, {"kind": "hotseat"}]}
    created = c.polite("POST", f"{base}/api/games", json=body).json()
    gid, token = str(created["id"]), created["token"]
    while True:
        view = c.polite("GET", f"{base}/api/games/{gid}", headers=auth(token)).json()
        if view["terminal"]:
            return gid
        if not view["legal"]:
            time.sleep(0.05)
            continue
        move = rng.choice(view["legal"])["id"]
        c.polite(
            "POST",
            f"{base}/api/games/{gid}/actions",
            json={"action": move, "ply": view["ply"]},
            headers=auth(token),
        )


def replays(base: str) -> None:
    a, b = client("127.0.0.1"), client("127.0.0.2")
    gid = play_to_end(a, base, "montana", 1)
    plies = len(a.get(f"{base}/api/games/{gid}").json()["moves"])
    statuses: dict[int, int] = {}
    running = True

    def hammer() -> None:
        tag: str | None = None
        while running:
            headers: dict[str, str] = {}
            if tag and random.random() < 0.5:
                headers["If-None-Match"] = tag
            answer = a.get(f"{base}/api/games/{gid}/replay", headers=headers)
            statuses[answer.status_code] = statuses.get(answer.status_code, 0) + 1
            tag = answer.headers.get("etag", tag)
            if answer.status_code == 429:
                time.sleep(float(answer.headers.get("retry-after", "1")))

    body = {"game": "potlatch", "seats": [{"kind": "me"}, {"kind": "hotseat"}]}
    created = b.post(f"{base}/api/games", json=body).json()
    bid, token = created["id"], created["token"]
    times: list[float] = []
    thread = threading.Thread(target=hammer)
    thread.start()
    try:
        deadline = time.monotonic() + 15
        rng = random.Random(2)
        while time.monotonic() < deadline:
            view = b.get(f"{base}/api/games/{bid}", headers=auth(token)).json()
            if view["terminal"]:
                break
            start = time.perf_counter()
            b.post(
                f"{base}/api/games/{bid}/actions",
                json={"action": rng.choice(view["legal"])["id"], "ply": view["ply"]},
                headers=auth(token),
            )
            times.append(time.perf_counter() - start)
            time.sleep(0.2)
    finally:
        running = False
        thread.join()
    times.sort()
    print(
        f"replays: A fetched a {plies}-ply Montana replay: {dict(sorted(statuses.items()))}; "
        f"B's moves: {len(times)}, p50 {statistics.median(times) * 1000:.0f} ms, "
        f"longest {times[-1] * 1000:.0f} ms"
    )


def ai(base: str) -> None:
    a, b = client("127.0.0.1"), client("127.0.0.2")
    slow = {"kind": "ai", "spec": "mcts(time=5)"}
    for _ in range(2):
        a.post(f"{base}/api/games", json={"game": "passtally", "seats": [slow, slow]})
    for _ in range(6):
        a.post(f"{base}/api/games", json={"game": "passtally", "seats": [slow, {"kind": "me"}]})
    time.sleep(1)
    body = {"game": "proteus", "seats": [{"kind": "me"}, {"kind": "ai", "spec": "random"}]}
    created = b.post(f"{base}/api/games", json=body).json()
    gid, token = created["id"], created["token"]
    waits: list[float] = []
    rng = random.Random(3)
    while len(waits) < 8:
        view = b.get(f"{base}/api/games/{gid}", headers=auth(token)).json()
        if view["terminal"]:
            break
        move = rng.choice(view["legal"])["id"]
        b.post(
            f"{base}/api/games/{gid}/actions",
            json={"action": move, "ply": view["ply"]},
            headers=auth(token),
        )
        after = b.get(f"{base}/api/games/{gid}", headers=auth(token)).json()
        if after["terminal"] or after["your_turn"]:
            continue  # the turn goes on (a second action): no AI reply to wait for
        start = time.perf_counter()
        while (
            not (view := b.get(f"{base}/api/games/{gid}", headers=auth(token)).json())["your_turn"]
            and not view["terminal"]
        ):
            time.sleep(0.02)
        waits.append(time.perf_counter() - start)
    print(
        "AI: B's random AI replied in "
        + ", ".join(f"{w:.2f}" for w in waits)
        + " s while A kept 8 games' mcts(time=5) AIs thinking (4 workers)"
    )


def main() -> None:
    port = ds.free_port()
    with tempfile.TemporaryDirectory() as folder:
        env = {"BOARDPLAY_DATABASE_URL": f"sqlite:///{folder}/probe.sqlite3"}
        server = ds.start_server(port, env)
        try:
            base = f"http://127.0.0.1:{port}"
            replays(base)
            ai(base)
        finally:
            ds.stop_server(server)


if __name__ == "__main__":
    main()
