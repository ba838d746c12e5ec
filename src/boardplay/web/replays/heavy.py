"""Heavy reads: replays, records and reviews, the requests whose cost grows with a game's length.

Three defences, so that one visitor asking for them cannot slow everyone else:

- **Off the event loop.** A replay is built in a worker process of its own (one pass over the
  moves, ``records.frames_of``, then encoded once), so it never competes with the loop for the
  GIL and its memory peak is the worker's; a record download is encoded in a thread. The loop
  only hands the bytes out. A replay's length has a ceiling (``Limits.replay_max_plies``: 413
  beyond it).
- **Built once.** A game's replay is cached by (game, revision) in a cache bounded by bytes
  (``Limits.replay_cache_bytes``) and served with an ``ETag``, so a repeat costs nothing (304) or
  a copy of the bytes.
- **A budget per address** (``CostBudget``): each heavy read is charged the server time it
  took (plus its bytes' share of sending them) to the asking address, whose budget refills at
  ``Limits.heavy_share`` seconds a second up to ``Limits.heavy_burst``; an address in debt is
  answered 429 with ``Retry-After`` until it has paid it back.

After a build the worker gives freed memory back to the system (``release_memory``), so a peak
does not stay as its size."""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import functools
import math
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import BrokenExecutor, Executor, Future, ThreadPoolExecutor
from typing import Any

from boardplay.core.errors import BoardplayError
from boardplay.core.records import Record
from boardplay.web.catalogue import WebCatalogue, resolve
from boardplay.web.config import Settings
from boardplay.web.errors import ApiError, bad_request
from boardplay.web.guard import MAX_TRACKED, Clock
from boardplay.web.replays.records import frames_of
from boardplay.web.sockets import encode
from boardplay.web.workers import make_executor, run_job, stop_executor

SEND_RATE = 100_000_000
"""Bytes a second a cached answer is reckoned to cost to send (its share of the budget)."""
TRIM_AFTER = 4_000_000
"""Bytes of answer after which a build hands freed memory back to the system."""


class CostBudget:
    """Seconds of server work per address: a token bucket that may go into debt, so one request
    larger than the burst is still answered, and the address then waits until it is paid back."""

    def __init__(self, share: float, burst: float, clock: Clock = time.monotonic) -> None:
        self.share = share
        self.burst = burst
        self.clock = clock
        self.left: dict[str, tuple[float, float]] = {}
        """address -> (seconds left, when counted)"""

    def _now_left(self, address: str) -> float:
        now = self.clock()
        left, stamp = self.left.get(address, (self.burst, now))
        return min(self.burst, left + (now - stamp) * self.share)

    def check(self, address: str, what: str) -> None:
        """429 if ``address`` is in debt (naming the wait), else nothing."""
        left = self._now_left(address)
        if left < 0:
            wait = max(1, math.ceil(-left / self.share))
            raise ApiError(
                429,
                "heavy_reads",
                f"this address has used its share of the server for {what} (replays, records "
                f"and reviews: {self.share:g} s a second, BOARDPLAY_WEB_HEAVY_SHARE); "
                f"try again in {wait} s",
                {"Retry-After": str(wait)},
            )

    def charge(self, address: str, seconds: float) -> None:
        if address not in self.left and len(self.left) >= MAX_TRACKED:
            now = self.clock()
            for stale in [a for a, (_, t) in self.left.items() if now - t > 60][:MAX_TRACKED]:
                del self.left[stale]
        self.left[address] = (self._now_left(address) - seconds, self.clock())


class ReplayCache:
    """Encoded replays by key, least recently used dropped first, within ``capacity`` bytes."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.size = 0
        self.entries: OrderedDict[tuple[str, int], bytes] = OrderedDict()

    def get(self, key: tuple[str, int]) -> bytes | None:
        found = self.entries.get(key)
        if found is not None:
            self.entries.move_to_end(key)
        return found

    def put(self, key: tuple[str, int], data: bytes) -> None:
        if len(data) > self.capacity // 4:
            return  # one answer may not push out most of the others
        old = self.entries.pop(key, None)
        self.size -= len(old) if old is not None else 0
        self.entries[key] = data
        self.size += len(data)
        while self.size > self.capacity:
            _, dropped = self.entries.popitem(last=False)
            self.size -= len(dropped)


def release_memory() -> None:
    """Hand the memory freed by a large build back to the system (glibc keeps it otherwise;
    ctypes lets go of the GIL meanwhile). A replay holds no reference cycles, so reference
    counting has freed it already: no collection is needed, and none holds the GIL."""
    with contextlib.suppress(OSError, AttributeError):  # not glibc: it keeps what it keeps
        ctypes.CDLL("libc.so.6").malloc_trim(0)


class HeavyReads:
    """One process's heavy reads: where they are built, the cache and the budget."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.limits = settings.limits
        self.budget = CostBudget(self.limits.heavy_share, self.limits.heavy_burst)
        self.cache = ReplayCache(self.limits.replay_cache_bytes)
        self.threads = ThreadPoolExecutor(1, thread_name_prefix="boardplay-heavy")
        self.pool: Executor | None = None
        self.jobs: set[Future[Any]] = set()
        """Replays being built in the pool now."""

    def _new_pool(self) -> Executor:
        """A worker process of its own (a thread where processes are not used: ``ai_workers``
        0): a replay then never competes with the event loop for the GIL, and its memory peak
        is that process's, not the server's."""
        workers = 1 if self.settings.ai_workers > 0 else 0
        return make_executor(workers, self.settings.catalogue, self.settings.data_dir)

    def close(self) -> None:
        self.threads.shutdown(wait=False, cancel_futures=True)
        if self.pool is not None:
            stop_executor(self.pool, self.jobs)

    async def replay(
        self,
        address: str,
        record: dict[str, Any],
        keep_meta: bool = False,
        key: tuple[str, int] | None = None,
    ) -> bytes:
        """Every position of ``record`` (its JSON) as the replay page reads it, encoded, built
        in the worker and charged to ``address`` (429 while it is in debt). With ``key`` (a game
        and its revision) it is kept for the next visitor, who is charged only for the bytes."""
        cached = self.cache.get(key) if key is not None else None
        self.budget.check(address, "replays")
        if cached is not None:
            self.budget.charge(address, len(cached) / SEND_RATE)
            return cached
        job = functools.partial(
            build_replay,
            self.settings.catalogue,
            self.settings.data_dir,
            record,
            self.limits.replay_max_plies,
            keep_meta,
        )
        if self.pool is None:
            self.pool = self._new_pool()
        try:
            data: bytes
            data, seconds = await run_job(self.pool, self.jobs, job)
        except BrokenExecutor:  # the worker died (out of memory, killed): a new one next time
            broken, self.pool = self.pool, None
            broken.shutdown(wait=False, cancel_futures=True)
            raise ApiError(503, "unavailable", "the replay could not be built; try again") from None
        self.budget.charge(address, seconds + len(data) / SEND_RATE)
        if key is not None:
            self.cache.put(key, data)
        return data

    async def build(self, address: str, what: str, make: Callable[[], Any]) -> bytes:
        """``make()``'s answer encoded as JSON, built in a thread and charged to ``address``
        (refused with 429 while the address is in debt): for the lighter heavy reads (a
        record's download)."""
        self.budget.check(address, what)
        data, seconds = await asyncio.get_running_loop().run_in_executor(self.threads, _timed, make)
        self.budget.charge(address, seconds + len(data) / SEND_RATE)
        return data

    @contextlib.contextmanager
    def metered(self, address: str, what: str) -> Iterator[None]:
        """Charge ``address`` the time of the (synchronous) work in the ``with`` block, refusing
        it first if it is in debt: for heavy reads that run where they are asked (a review's
        check, which replays the game)."""
        self.budget.check(address, what)
        start = time.perf_counter()
        try:
            yield
        finally:
            self.budget.charge(address, time.perf_counter() - start)


_catalogues: dict[tuple[str, str | None], WebCatalogue] = {}


def build_replay(
    catalogue: str,
    data_dir: str | None,
    record: dict[str, Any],
    max_plies: int,
    keep_meta: bool,
) -> tuple[bytes, float]:
    """In the heavy-read worker: the replay of ``record`` (a record's JSON) encoded, and the CPU
    seconds it took. Refusals are ``ApiError`` (they cross the process boundary whole)."""
    start = time.thread_time()
    key = (catalogue, data_dir)
    if key not in _catalogues:
        _catalogues[key] = WebCatalogue(resolve(catalogue), data_dir)
    try:
        made = Record.from_json(record)
    except BoardplayError as exc:
        raise bad_request(f"not a boardplay record: {exc}") from None
    try:
        data = in_pieces(frames_of(_catalogues[key], made, max_plies, keep_meta)).encode()
    finally:
        release_memory()
    return data, time.thread_time() - start


def in_pieces(value: Any, depth: int = 2) -> str:
    """``sockets.encode(value)``, made of one encoding per member down to ``depth`` levels: the
    JSON encoder holds the GIL for as long as one call runs, so a replay of megabytes encoded
    at once would stop the event loop for that long; in pieces, it runs between them."""
    if depth and isinstance(value, dict):
        parts = (f"{encode(str(k))}:{in_pieces(v, depth - 1)}" for k, v in value.items())
        return "{" + ",".join(parts) + "}"
    if depth and isinstance(value, list):
        return "[" + ",".join(in_pieces(v, depth - 1) for v in value) + "]"
    return encode(value)


def _timed(make: Callable[[], Any]) -> tuple[bytes, float]:
    """In a pool thread: build, encode, and the CPU seconds this thread spent on both."""
    start = time.thread_time()
    try:
        data = in_pieces(make()).encode("utf-8")
    except BaseException:
        release_memory()
        raise
    seconds = time.thread_time() - start
    if len(data) >= TRIM_AFTER:
        release_memory()
    return data, seconds
