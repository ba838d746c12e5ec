"""What an operator reads of a running server, as Prometheus series (``GET /metrics``,
``observe.py``): requests by route and status and their latency, moves, games made and
finished, open WebSockets and Bot API streams, tournament pairing time, and the backlogs read
from the database when scraped (AI turns waiting, the mail and push outboxes). docs/deploy.md
("Watching the server") lists the series, the dashboard's queries and the alerts.

**One registry per app**, never prometheus_client's global one: tests run several apps in one
process, and each app's counts must be its own.

**The domains report; this module knows none of them.** A domain is handed the app's
``Metrics`` by the wiring (``hub.py``) and calls it where the event happens (a move stored, a
game made, a stream opened); what is read of the database at a scrape is a callable the wiring
registers (``watch_ai``, ``watch_outbox``), so nothing here imports a domain.

**Cheap on the move's path.** A move costs one counter increment of a child bound once per game
(``game``): no label lookup, no string built, no I/O per move. The children of the requests'
series are kept in a dictionary of this module's own, so a request costs a dictionary lookup
rather than prometheus_client's locked ``labels()``.

**Several processes** (``boardplay serve --workers N``) each count their own. When
``PROMETHEUS_MULTIPROC_DIR`` names a directory before prometheus_client is first imported, it
keeps every process's values in files there (its multiprocess mode, which ``serve`` turns on for
``--workers`` above 1), and a scrape of any process answers the sum over all of them
(``exposition``); the open sockets and streams are summed over the live processes only."""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
    values,
)
from prometheus_client.core import GaugeMetricFamily, Metric

from boardplay.web.config import SHARED_METRICS_ENV

log = logging.getLogger("boardplay.web")

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""Seconds: a move's request takes a few milliseconds, a replay's build up to a second or two."""
PAIRING_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Seconds: a wave of a few dozen players pairs in milliseconds, a Swiss round of 1,000 in about
0.15 s (``Limits.tournament_players``)."""
SAMPLE_SECONDS = 5.0
"""How long a backlog read from the database is reused: however often the server is scraped
(several Prometheus servers, a visitor who found the token), each is one query per this long."""
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
"""Methods counted by name; any other a client makes up is counted as ``other``, so no client
can grow the series without bound."""
UNMATCHED = "unmatched"
"""The route of a request no route took (a 404): the raw path would let clients make series."""


@dataclass(frozen=True)
class Backlog:
    """Work waiting in a queue kept in the database: how many items, and since when the oldest
    waits (seconds since the epoch; None when nothing waits)."""

    depth: int
    oldest: float | None


BacklogRead = Callable[[], Backlog]
"""Reads a backlog from the database (synchronous: a scrape runs in a thread)."""


class GameSeries:
    """One game's counters, bound once (the first time the game is named) and kept by whoever
    counts its events, so a move costs an increment and nothing else."""

    __slots__ = ("created", "finished", "moves")

    def __init__(self, moves: Counter, created: Counter, finished: Counter, game: str) -> None:
        self.moves = moves.labels(game)
        """Moves stored: a player's or an AI's (the chance outcomes that follow are not)."""
        self.created = created.labels(game)
        self.finished = finished.labels(game)


class Metrics:
    """One app's series and the backlogs it reads when scraped."""

    def __init__(self, now: Callable[[], float] = time.time) -> None:
        self.registry = registry = CollectorRegistry()
        self.shared = values.ValueClass is not values.MutexValue
        """Whether prometheus_client keeps the values in files shared by the processes."""
        self._requests = Counter(
            "boardplay_http_requests",
            "HTTP requests answered, by route template, method and status code.",
            ["route", "method", "status"],
            registry=registry,
        )
        self._latency = Histogram(
            "boardplay_http_request_duration_seconds",
            "Time from a request's arrival to its answer's status line (a stream's first line, "
            "not its life), by route template and method.",
            ["route", "method"],
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self._sockets = Gauge(
            "boardplay_websockets_open",
            "WebSockets open now (game tables, the lobby), by route template.",
            ["route"],
            multiprocess_mode="livesum",
            registry=registry,
        )
        self._streams = Gauge(
            "boardplay_bot_streams_open",
            "Bot API streams open now, by kind (event, game).",
            ["kind"],
            multiprocess_mode="livesum",
            registry=registry,
        )
        self._moves = Counter(
            "boardplay_moves",
            "Moves stored (players' and AIs'; chance outcomes not), by game.",
            ["game"],
            registry=registry,
        )
        self._created = Counter(
            "boardplay_games_created", "Games made, by game.", ["game"], registry=registry
        )
        self._finished = Counter(
            "boardplay_games_finished",
            "Games ended (on the board, by a clock or by the players' word), by game.",
            ["game"],
            registry=registry,
        )
        self._pairing = Histogram(
            "boardplay_tournament_pairing_seconds",
            "Time to pair a tournament's round or arena wave, by format.",
            ["format"],
            buckets=PAIRING_BUCKETS,
            registry=registry,
        )
        self.backlogs = Backlogs(now)
        registry.register(self.backlogs)
        self._games: dict[str, GameSeries] = {}
        self._answers: dict[tuple[str, str, int], tuple[Counter, Histogram]] = {}
        self._socket_gauges: dict[str, Gauge] = {}

    # ----- what the domains report -----------------------------------------------------------
    def game(self, game: str) -> GameSeries:
        """The counters of ``game`` (a catalogue's name: a bounded set), bound on first use."""
        series = self._games.get(game)
        if series is None:
            series = GameSeries(self._moves, self._created, self._finished, game)
            self._games[game] = series
        return series

    def stream(self, kind: str) -> Gauge:
        """The gauge of open Bot API streams of ``kind`` (``event``, ``game``)."""
        return self._streams.labels(kind)

    def paired(self, tournament_format: str, seconds: float) -> None:
        """A tournament's round or wave was paired in ``seconds``."""
        self._pairing.labels(tournament_format).observe(seconds)

    def watch_ai(self, read: BacklogRead) -> None:
        """Read the AI turns waiting for their move with ``read`` when scraped."""
        self.backlogs.ai = read

    def watch_outbox(self, channel: str, read: BacklogRead) -> None:
        """Read ``channel``'s outbox (``mail``, ``push``) with ``read`` when scraped."""
        self.backlogs.outboxes[channel] = read

    # ----- what the front door reports (``observe.py``) ---------------------------------------
    def answered(self, route: str, method: str, status: int, seconds: float) -> None:
        """A request to ``route`` (its template) was answered ``status`` after ``seconds``."""
        key = (route, method, status)
        children = self._answers.get(key)
        if children is None:
            name = method if method in METHODS else "other"
            children = (
                self._requests.labels(route, name, str(status)),
                self._latency.labels(route, name),
            )
            self._answers[key] = children
        children[0].inc()
        children[1].observe(seconds)

    def sockets(self, route: str) -> Gauge:
        """The gauge of WebSockets open on ``route`` (its template)."""
        gauge = self._socket_gauges.get(route)
        if gauge is None:
            gauge = self._socket_gauges[route] = self._sockets.labels(route)
        return gauge

    # ----- the scrape -------------------------------------------------------------------------
    def exposition(self) -> bytes:
        """The series in Prometheus's text format: this app's, or, in multiprocess mode, every
        process's summed (read from their files) with the backlogs read by this one. It may
        query the database: run it off the event loop."""
        if not self.shared:
            return generate_latest(self.registry)
        everyone = CollectorRegistry()
        multiprocess.MultiProcessCollector(everyone, os.environ.get(SHARED_METRICS_ENV))  # type: ignore[no-untyped-call]
        everyone.register(self.backlogs)
        return generate_latest(everyone)

    def close(self) -> None:
        """This process stops: in multiprocess mode its open sockets and streams leave the
        sums (the counters stay, as Prometheus expects of counters)."""
        if self.shared:
            multiprocess.mark_process_dead(os.getpid())  # type: ignore[no-untyped-call]


class Backlogs:
    """The backlogs read from the database when scraped (a collector of the registry): the
    AI turns waiting for their move, and each outbox's notices waiting to be sent. Each read is
    kept ``SAMPLE_SECONDS``; one that fails is logged, and its series left out until a read
    succeeds."""

    def __init__(self, now: Callable[[], float]) -> None:
        self.now = now
        self.ai: BacklogRead | None = None
        self.outboxes: dict[str, BacklogRead] = {}
        self._kept: dict[str, tuple[float, Backlog | None]] = {}
        self._lock = threading.Lock()
        """Held while reading: two scrapes at once make one query."""

    def collect(self) -> Iterator[Metric]:
        now = self.now()
        if self.ai is not None and (ai := self._read("ai", self.ai)) is not None:
            yield GaugeMetricFamily(
                "boardplay_ai_jobs_waiting",
                "Games whose AI seat is to move (its job waiting for a worker or thinking).",
                value=ai.depth,
            )
            yield GaugeMetricFamily(
                "boardplay_ai_oldest_wait_seconds",
                "How long the longest-waiting AI turn has waited for its move.",
                value=_age(ai, now),
            )
        depth = GaugeMetricFamily(
            "boardplay_outbox_depth",
            "Notices waiting to be sent (due now or after a failure), by channel.",
            labels=["channel"],
        )
        age = GaugeMetricFamily(
            "boardplay_outbox_oldest_age_seconds",
            "Age of the oldest notice waiting to be sent, by channel.",
            labels=["channel"],
        )
        for channel, read in sorted(self.outboxes.items()):
            backlog = self._read(channel, read)
            if backlog is not None:
                depth.add_metric([channel], backlog.depth)
                age.add_metric([channel], _age(backlog, now))
        if self.outboxes:
            yield depth
            yield age

    def _read(self, name: str, read: BacklogRead) -> Backlog | None:
        with self._lock:
            taken, kept = self._kept.get(name, (float("-inf"), None))
            clock = time.monotonic()
            if clock - taken < SAMPLE_SECONDS:
                return kept
            try:
                kept = read()
            except Exception:
                log.warning("metrics: the %s backlog could not be read", name, exc_info=True)
                kept = None
            self._kept[name] = (clock, kept)
            return kept


def _age(backlog: Backlog, now: float) -> float:
    return 0.0 if backlog.oldest is None else max(0.0, now - backlog.oldest)
