"""What an operator sees (issue 66, item 4): ``/metrics`` in Prometheus's text format behind a
token, with the series docs/deploy.md lists, counting what happened; the readiness and liveness
probes; JSON log lines carrying the id each answer's ``X-Request-ID`` has; several processes'
counts summed in prometheus_client's multiprocess mode."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpcalls
import httpx
import pytest
import sqlalchemy as sa
from browsing import free_port
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from tournamentcalls import RAPID, START, HandClock, Process, players
from webcalls import HUMANS, auth, create
from websettings import start_migrated, tiny_settings

from boardplay.cli.serve import share_metrics, uvicorn_access_log
from boardplay.web import observe
from boardplay.web.app import create_app
from boardplay.web.config import Settings
from boardplay.web.logs import JsonLines, RequestIds
from boardplay.web.tournaments import Plan

TOKEN = "metrics-token-for-tests-0123456789"
SCRAPE = {"Authorization": f"Bearer {TOKEN}"}
ROOT = Path(__file__).resolve().parents[3]

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


@pytest.fixture
def watched(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tiny_settings(tmp_path, metrics_token=TOKEN))) as client:
        yield client


def scrape(client: TestClient) -> Samples:
    """Every sample of ``/metrics``, read by prometheus_client's own parser."""
    answer = client.get("/metrics", headers=SCRAPE)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain; version=0.0.4")
    return parsed(answer.text)


def parsed(text: str) -> Samples:
    """Every sample of a text exposition, by name and labels."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_metrics_count_requests_moves_games_and_sockets(watched: TestClient) -> None:
    before = scrape(watched)
    game = create(watched)
    url, seat = f"/api/games/{game['id']}", auth(game["token"])
    assert watched.post(f"{url}/actions", json={"action": "t1"}, headers=seat).status_code == 200
    assert watched.get("/api/games/nope").status_code == 404
    with watched.websocket_connect(f"{url}/ws") as socket:
        assert socket.receive_json()["type"] == "state"
        during = scrape(watched)
    after = scrape(watched)

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    # Requests by route template (never the game's id) and status, and their latency.
    actions = {"route": "/api/games/{game_id}/actions", "method": "POST"}
    assert moved("boardplay_http_requests_total", **actions, status="200") == 1
    assert moved("boardplay_http_request_duration_seconds_count", **actions) == 1
    assert value(after, "boardplay_http_request_duration_seconds_sum", **actions) > 0
    created = {"route": "/api/games", "method": "POST", "status": "201"}
    assert moved("boardplay_http_requests_total", **created) == 1
    missing = {"route": "/api/games/{game_id}", "method": "GET", "status": "404"}
    assert moved("boardplay_http_requests_total", **missing) == 1
    assert not any(game["id"] in str(labels) for _, labels in after)
    # Moves stored and games made, by game; the socket while it was open.
    assert moved("boardplay_moves_total", game="tiny") == 1
    assert moved("boardplay_games_created_total", game="tiny") == 1
    sockets = {"route": "/api/games/{game_id}/ws"}
    assert value(during, "boardplay_websockets_open", **sockets) == 1
    assert value(after, "boardplay_websockets_open", **sockets) == 0
    # Read from the database when scraped: nothing waits here.
    assert value(after, "boardplay_ai_jobs_waiting") == 0
    for channel in ("mail", "push"):
        assert ("boardplay_outbox_depth", (("channel", channel),)) in after
        assert value(after, "boardplay_outbox_oldest_age_seconds", channel=channel) == 0

    resigned = watched.post(f"{url}/resign", json={"seat": 0}, headers=seat)
    assert resigned.status_code == 200, resigned.text
    assert value(scrape(watched), "boardplay_games_finished_total", game="tiny") == 1


def test_bot_streams_are_counted_once_each(watched: TestClient) -> None:
    bots = watched.app.state.hub.bots  # type: ignore[attr-defined]
    forget = bots.opened("a-token's-hash", lambda: None, "event")
    assert value(scrape(watched), "boardplay_bot_streams_open", kind="event") == 1
    forget()
    forget()  # the stream's end and its finalizer both forget it: counted down once
    assert value(scrape(watched), "boardplay_bot_streams_open", kind="event") == 0


def test_the_ai_backlog_is_read_from_the_games(watched: TestClient) -> None:
    """A game whose AI seat is to move is a job waiting (its wait since its last change)."""
    hub = watched.app.state.hub  # type: ignore[attr-defined]
    game = create(watched)
    with hub.engine.begin() as conn:
        conn.execute(sa.text("UPDATE games SET ai_seat = 1 WHERE id = :id"), {"id": game["id"]})
    backlog = hub.storage.ai_backlog()
    assert backlog.depth == 1 and backlog.oldest is not None
    samples = scrape(watched)
    assert value(samples, "boardplay_ai_jobs_waiting") == 1
    assert 0 <= value(samples, "boardplay_ai_oldest_wait_seconds") < 60


def test_a_tournaments_pairing_is_timed(tmp_path: Path) -> None:
    """A Swiss's first round paired at its start is one sample of the pairing time."""
    clock = HandClock()

    async def body() -> None:
        process = Process(f"sqlite:///{tmp_path / 'swiss.sqlite3'}", clock)
        service = process.tournaments
        people = players(process, ["Ana", "Bo", "Cy", "Dee"])
        plan = Plan(
            name="Tiny Swiss",
            kind="swiss",
            game="tiny",
            options={},
            sizes=[2],
            clock=RAPID,
            rated=False,
            starts=START,
            rounds=2,
        )
        made = await service.create(people[0], plan)
        for person in people:
            await service.join(made.id, person)
        clock.t = START
        await service.tick()
        samples = parsed(process.hub.metrics.exposition().decode())
        await process.close()
        assert value(samples, "boardplay_tournament_pairing_seconds_count", format="swiss") == 1
        assert value(samples, "boardplay_tournament_pairing_seconds_sum", format="swiss") > 0

    asyncio.run(body())


def test_metrics_need_the_operators_token(watched: TestClient, tmp_path: Path) -> None:
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN}):
        answer = watched.get("/metrics", headers=headers)
        assert answer.status_code == 401
        assert answer.headers["www-authenticate"] == "Bearer"
        assert answer.json()["error"]["code"] == "unauthorized"
    with TestClient(create_app(tiny_settings(tmp_path / "off"))) as unset:
        assert unset.get("/metrics", headers=SCRAPE).status_code == 404


def test_a_short_token_or_an_unknown_log_format_is_refused() -> None:
    with pytest.raises(ValueError, match="BOARDPLAY_WEB_METRICS_TOKEN must be at least 16"):
        Settings(database_url="sqlite://", metrics_token="short")
    with pytest.raises(ValueError, match="BOARDPLAY_WEB_LOG_FORMAT must be one of text, json"):
        Settings(database_url="sqlite://", log_format="xml")


def test_probes_answer_and_a_lost_database_is_not_ready(
    watched: TestClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(observe, "READY_SECONDS", 0.0)
    assert watched.get("/healthz/live").json() == {"live": True}
    ready = watched.get("/healthz/ready")
    assert ready.status_code == 200
    checks = {"database": "ok", "migrations": "ok", "redis": "not configured"}
    assert ready.json() == {"ready": True, "checks": checks}
    hub = watched.app.state.hub  # type: ignore[attr-defined]
    engine = hub.engine
    hub.engine = sa.create_engine(f"sqlite:///{tmp_path / 'no' / 'such' / 'folder.sqlite3'}")
    try:
        lost = watched.get("/healthz/ready")
    finally:
        hub.engine.dispose()
        hub.engine = engine
    assert lost.status_code == 503
    assert lost.json() == {
        "ready": False,
        "checks": {"database": "unreachable", "redis": "not configured"},
    }
    assert str(tmp_path) not in lost.text  # no address of the database in the answer
    assert watched.get("/healthz/ready").status_code == 200


def test_json_log_lines_carry_the_answers_request_id(watched: TestClient) -> None:
    lines = io.StringIO()
    handler = logging.StreamHandler(lines)
    handler.setFormatter(JsonLines())
    handler.addFilter(RequestIds())
    access = logging.getLogger("boardplay.access")
    access.addHandler(handler)
    access.setLevel(logging.INFO)
    try:
        given = watched.get("/api/catalogue", headers={"X-Request-ID": "trace-42.a:b"})
        fresh = watched.get("/api/games/nope")
        forged = watched.get("/api/catalogue", headers={"X-Request-ID": "a\tb" + "x" * 80})
    finally:
        access.removeHandler(handler)
        access.setLevel(logging.NOTSET)
    assert given.headers["x-request-id"] == "trace-42.a:b"
    assert len(fresh.headers["x-request-id"]) == 16
    assert forged.headers["x-request-id"] != forged.request.headers["x-request-id"]
    records = [json.loads(line) for line in lines.getvalue().splitlines()]
    assert [r["request_id"] for r in records] == [
        a.headers["x-request-id"] for a in (given, fresh, forged)
    ]
    second = records[1]
    assert second["route"] == "/api/games/{game_id}" and second["path"] == "/api/games/nope"
    assert second["status"] == 404 and second["method"] == "GET"
    assert second["level"] == "INFO" and second["logger"] == "boardplay.access"
    assert second["duration_ms"] >= 0 and second["time"].endswith("+00:00")


def test_the_json_log_config_writes_one_object_a_line() -> None:
    """``serve --log-format json``'s configuration, applied as uvicorn applies it, in a process
    of its own (it takes over the logging of the process it runs in)."""
    script = (
        "import logging, logging.config\n"
        "from boardplay.web.logs import REQUEST_ID, log_config\n"
        "logging.config.dictConfig(log_config('json', 'info'))\n"
        "REQUEST_ID.set('r-1')\n"
        "logging.getLogger('boardplay.web').warning('a %s line', 'logged')\n"
        "logging.getLogger('uvicorn.error').info('Started server process')\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    first, second = (json.loads(line) for line in done.stderr.splitlines())
    assert first["message"] == "a logged line" and first["request_id"] == "r-1"
    assert first["level"] == "WARNING" and first["logger"] == "boardplay.web"
    assert second["logger"] == "uvicorn.error" and second["message"] == "Started server process"


def test_several_processes_are_summed_in_multiprocess_mode(tmp_path: Path) -> None:
    """Two processes count into the shared folder; a third's scrape sums them, and the open
    sockets of a process that stopped (``Metrics.close``) leave the sum."""
    counting = (
        "import sys\n"
        "from boardplay.web.metrics import Metrics\n"
        "metrics = Metrics()\n"
        "metrics.game('tiny').moves.inc(3)\n"
        "metrics.sockets('/api/games/{game_id}/ws').inc()\n"
        "if sys.argv[1] == 'stop':\n"
        "    metrics.close()\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)}
    for how in ("stay", "stop"):
        subprocess.run([sys.executable, "-c", counting, how], env=env, check=True)
    reading = (
        "import sys\n"
        "from boardplay.web.metrics import Metrics\n"
        "sys.stdout.write(Metrics().exposition().decode())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", reading], env=env, capture_output=True, text=True, check=True
    )
    samples = parsed(done.stdout)
    assert value(samples, "boardplay_moves_total", game="tiny") == 6
    assert value(samples, "boardplay_websockets_open", route="/api/games/{game_id}/ws") == 1


def test_serve_shares_the_metrics_of_several_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", "")  # unset, and restored after
    assert share_metrics(1, TOKEN) is None and share_metrics(4, None) is None
    made = share_metrics(4, TOKEN)
    assert made is not None and os.environ["PROMETHEUS_MULTIPROC_DIR"] == made
    os.rmdir(made)
    stale = tmp_path / "counter_123.db"
    stale.write_bytes(b"old")
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    assert share_metrics(1, None) is None and not stale.exists()  # an earlier run's counts go


def test_uvicorn_writes_access_lines_only_in_text_logs_at_a_level_that_shows_them() -> None:
    """Above ``info`` uvicorn would build every line's arguments only for its logger to drop
    them; JSON logs have their own access lines."""
    assert uvicorn_access_log(False, "info") and uvicorn_access_log(False, "debug")
    assert uvicorn_access_log(False, "trace")
    assert not uvicorn_access_log(False, "warning") and not uvicorn_access_log(False, "error")
    assert not uvicorn_access_log(True, "info")


def test_two_workers_answer_one_sum_and_log_json_lines(tmp_path: Path) -> None:
    """``boardplay serve --workers 2 --log-format json`` with a metrics token: whichever process
    answers a scrape counts every game both made, and every line on its standard error is a
    JSON object, the access lines carrying the ids the answers had."""
    database = tmp_path / "two.sqlite3"
    start_migrated(database)
    port = free_port()
    env = {
        **os.environ,
        "BOARDPLAY_DATABASE_URL": f"sqlite:///{database}",
        "BOARDPLAY_WEB_CATALOGUE": "webtiny:CATALOGUE",
        "BOARDPLAY_WEB_AI_WORKERS": "0",
        "BOARDPLAY_WEB_METRICS_TOKEN": TOKEN,
        "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT / "tests" / "web")]),
    }
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    command = [str(Path(sys.executable).parent / "boardplay"), "serve", "--port", str(port)]
    log = tmp_path / "server.log"
    with log.open("wb") as stderr:
        server = subprocess.Popen(
            [*command, "--workers", "2", "--log-format", "json"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_ready(f"{base}/healthz/ready")
        ids = []
        for _ in range(10):  # a connection each: the two processes share them out
            made = httpcalls.post(f"{base}/api/games", json={"game": "tiny", "seats": HUMANS})
            assert made.status_code == 201, made.text
            ids.append(made.headers["x-request-id"])
        for _ in range(6):
            samples = parsed(httpcalls.get(f"{base}/metrics", headers=SCRAPE).text)
            assert value(samples, "boardplay_games_created_total", game="tiny") == 10
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    records = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    access = [r for r in records if r["logger"] == "boardplay.access"]
    assert [r["request_id"] for r in access] == ids
    assert {r["route"] for r in access} == {"/api/games"}


def wait_until_ready(url: str) -> None:
    for _ in range(300):
        try:
            if httpcalls.get(url, timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"{url} never answered 200")
