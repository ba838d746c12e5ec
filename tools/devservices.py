"""Throwaway PostgreSQL and Redis servers and boardplay server processes on loopback, for the
multi-process tests and ``make bench-web``.

Each server gets a fresh directory and a free port on 127.0.0.1, keeps nothing (Redis has no
persistence; the PostgreSQL cluster is deleted on exit) and is stopped when its context ends,
whatever happened inside. The server binaries come from Debian's packages (``make services``);
PostgreSQL's are looked up in ``/usr/lib/postgresql/*/bin`` too, where Debian keeps them off
the ``PATH``. As root, PostgreSQL runs as the ``postgres`` user (it refuses to run as root)."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO

import httpcalls
import httpx

LOOPBACK = "127.0.0.1"
_logs: dict[int, IO[bytes]] = {}


class ServiceUnavailable(RuntimeError):
    """A server binary is not installed (``make services`` installs them)."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((LOOPBACK, 0))
        port: int = sock.getsockname()[1]
        return port


def binary(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
        found = candidates[-1] if candidates else None
    if found is None:
        raise ServiceUnavailable(f"{name} is not installed (run: make services)")
    return found


def _as_postgres() -> list[str]:
    return ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []


@contextlib.contextmanager
def postgres(durable: bool = False) -> Iterator[str]:
    """A PostgreSQL cluster on a free loopback port; yields the URL of its ``postgres``
    database (user ``boardplay``, no password). ``durable`` keeps fsync on (the benchmark);
    tests turn it off, since the cluster is thrown away anyway."""
    initdb, pg_ctl = binary("initdb"), binary("pg_ctl")
    prefix = _as_postgres()
    base = Path(tempfile.mkdtemp(prefix="boardplay-pg-"))
    if prefix:
        shutil.chown(base, "postgres")
    data = base / "data"
    port = free_port()
    subprocess.run(
        [*prefix, initdb, "-D", str(data), "-A", "trust", "-U", "boardplay"],
        check=True,
        capture_output=True,
    )
    options = f"-c listen_addresses={LOOPBACK} -p {port} -c unix_socket_directories={base}"
    options += " -c max_connections=300"
    if not durable:
        options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    subprocess.run(
        [*prefix, pg_ctl, "-D", str(data), "-o", options, "-l", str(base / "log"), "-w", "start"],
        check=True,
        capture_output=True,
    )
    try:
        yield f"postgresql+psycopg://boardplay@{LOOPBACK}:{port}/postgres"
    finally:
        subprocess.run(
            [*prefix, pg_ctl, "-D", str(data), "-w", "stop", "-m", "immediate"],
            capture_output=True,
        )
        shutil.rmtree(base, ignore_errors=True)


def new_database(admin_url: str, name: str) -> str:
    """Create database ``name`` on the cluster of ``admin_url``; returns its URL."""
    import sqlalchemy as sa

    engine = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    finally:
        engine.dispose()
    return admin_url.rsplit("/", 1)[0] + f"/{name}"


@contextlib.contextmanager
def redis(port: int | None = None) -> Iterator[str]:
    """A Redis server on ``port`` (default: a free loopback port), without persistence; yields
    its URL. A test stops Redis by leaving the context and brings it back on the same URL by
    entering another with the same ``port``."""
    server = binary("redis-server")
    port = port or free_port()
    base = Path(tempfile.mkdtemp(prefix="boardplay-redis-"))
    process = subprocess.Popen(
        [
            *(server, "--bind", LOOPBACK, "--port", str(port), "--save", ""),
            *("--appendonly", "no", "--dir", str(base), "--protected-mode", "yes"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            with contextlib.suppress(OSError), socket.create_connection((LOOPBACK, port), 0.5):
                break
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)
        yield f"redis://{LOOPBACK}:{port}/0"
    finally:
        process.kill()
        process.wait(timeout=10)
        shutil.rmtree(base, ignore_errors=True)


def start_server(
    port: int,
    env: Mapping[str, str],
    workers: int = 1,
    timeout: float = 60,
    app: str | None = None,
) -> subprocess.Popen[bytes]:
    """``boardplay serve`` on ``port`` with ``env`` added to this process's environment, in its
    own process group (``stop_server`` ends it and its workers); returns once it answers.
    ``app``: a floor of the benches (``floorserver:app``, ``botfloor:app``: a uvicorn app of
    ``tools/``, one process) in its place."""
    # A file, not a pipe: a server must never block on its log. Closed by ``stop_server``.
    log = tempfile.TemporaryFile()  # noqa: SIM115
    if app is not None:
        command = [
            *(sys.executable, "-m", "uvicorn", app, "--host", LOOPBACK),
            *("--port", str(port), "--log-level", "warning", "--no-access-log"),
            *("--ws", "boardplay.web.wsprotocol:QuietWebSockets"),
        ]
    else:
        command = [
            *(sys.executable, "-m", "boardplay.cli.main", "serve", "--host", LOOPBACK),
            *("--port", str(port), "--workers", str(workers), "--log-level", "warning"),
        ]
    process = subprocess.Popen(
        command,
        cwd=Path(__file__).parent if app is not None else None,
        env={**os.environ, **env},
        stdout=subprocess.DEVNULL,
        stderr=log,
        start_new_session=True,
    )
    _logs[process.pid] = log
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited: {server_log(process)}")
        with contextlib.suppress(httpx.HTTPError):
            answer = httpcalls.get(f"http://{LOOPBACK}:{port}/api/catalogue", timeout=2)
            if answer.status_code == 200:
                return process
        time.sleep(0.1)
    stop_server(process, signal.SIGKILL)
    raise RuntimeError("server did not start")


def stop_server(process: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    """Send ``sig`` to the server's process group and wait for the server to end."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, sig)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
    log = _logs.pop(process.pid, None)
    if log is not None:
        log.close()


def server_log(process: subprocess.Popen[bytes]) -> str:
    """What the server wrote to its standard error so far."""
    log = _logs.get(process.pid)
    if log is None:
        return ""
    log.seek(0)
    return log.read().decode(errors="replace")


def cpu_seconds(process: subprocess.Popen[bytes]) -> float:
    """CPU time (user + system) used so far by the server and every process of its group (its
    workers), read from ``/proc`` (Linux; 0.0 where there is none)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # ended meanwhile
        # The command name (field 2) may hold spaces: count fields after its closing bracket.
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[2]) == process.pid:  # field 5, the process group
            total += int(fields[11]) + int(fields[12])  # fields 14 and 15, utime and stime
    return total / ticks
