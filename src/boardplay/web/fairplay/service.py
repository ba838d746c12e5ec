"""Fair-play evidence on the site: every rated game, once rated (``RatingSettled``), is judged in
the background — each seat's agreement with the game's expert search and its loss of win chance,
forced decisions left out (``boardplay.ai.fairplay``; docs/analysis.md, "Fair play") — and stored
per account and rating pool. Moderators read an account's accuracy per pool with the games that
stand out (``evidence``); when an account's agreement over its judged games in a pool passes the
pool's measured flag rule, the system files a ``cheating`` report into the moderators' queue
(``SystemReports``), once while that report is undecided. The rule is met either at the pool's
threshold or, for an established rating, at its band's norm plus the pool's margin
(``boardplay.ai.fairplay.norms_of``): the norms are made here from the site's own evidence,
per band of the accounts' established ratings, and kept ``NORMS_TTL`` seconds.

Cost: the judging is the AI worker pool's, one position a job (as a review's), so a game being
judged never holds a worker for more than one position and the AI moves of games in play are
served in between; each position is searched at the game's judge budget (``judge_iterations``,
at which its flag rules were measured; ``Limits.judge_iterations`` if the operator sets one) and
stopped at ``ai_max_time``. One game is judged at a time per process, from a queue of at most
``Limits.fairplay_queue`` games; a rated game finished while the queue is full is not judged
(counted in ``dropped`` and logged), nor is one whose process stops before it is judged: the
evidence is a sample for moderators, not a ledger."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

from sqlalchemy.engine import Engine

from boardplay.ai.fairplay import (
    BAND,
    FlagRule,
    Norm,
    Tally,
    band_of,
    evidence_of,
    flag_rule,
    judge_iterations,
    norms_of,
    plies_of_evidence,
)
from boardplay.ai.review import Judgement
from boardplay.web.accounts import Accounts
from boardplay.web.config import Limits
from boardplay.web.database import Runner
from boardplay.web.errors import not_found
from boardplay.web.events import AccountClosed, Bus, RatingSettled
from boardplay.web.fairplay.store import FairPlayStore, GameEvidence
from boardplay.web.played import FINISHED
from boardplay.web.ratings import pool_of
from boardplay.web.replays import check_length, checked_states, record_of
from boardplay.web.table import AiWorkers, Room
from boardplay.web.tasks import cancel_and_wait
from boardplay.web.workers import judge_fairly

log = logging.getLogger("boardplay.web")

SEED = 0
"""Judgements are seeded, so a game's evidence repeats."""
STANDOUT = 10
"""Games of an account in one pool a moderator is shown, the highest agreement first."""
NORMS_TTL = 600.0
"""Seconds a pool's norms are kept before they are made again: a band's median moves slowly,
and making them sums the whole pool's evidence."""


class SystemReports(Protocol):
    """Where the system files its reports (the moderators' queue)."""

    async def system_report(
        self, account_id: int, reason: str, text: str, game_id: str | None
    ) -> int | None: ...


class EstablishedRatings(Protocol):
    """What the norms read of the ratings domain."""

    async def established(self, pool: str, account_ids: Sequence[int]) -> dict[int, float]: ...


class FairPlay:
    """The fair-play evidence one server process computes, and what moderators read of it."""

    def __init__(
        self,
        engine: Engine,
        run: Runner,
        limits: Limits,
        bus: Bus,
        accounts: Accounts,
        workers: AiWorkers,
        room: Callable[[str], Awaitable[Room]],
        reports: SystemReports,
        ratings: EstablishedRatings,
    ) -> None:
        self.store = FairPlayStore(engine)
        self.ratings = ratings
        self._norms: dict[str, tuple[float, dict[int, Norm]]] = {}
        """Each pool's norms per band, with when they were made (``norms``)."""
        self.run = run
        self.limits = limits
        self.accounts = accounts
        self.workers = workers
        self.room = room
        self.reports = reports
        self.queue: asyncio.Queue[str] = asyncio.Queue(maxsize=limits.fairplay_queue)
        self.dropped = 0
        """Rated games not judged because the queue was full."""
        self.unsettled = 0
        """Games queued or being judged whose evidence and report are not both done yet."""
        self._task: asyncio.Task[None] | None = None
        bus.subscribe(RatingSettled, self._settled)
        bus.subscribe(AccountClosed, self._closed)

    def start(self) -> None:
        """Judge the queued games in the background, one at a time."""
        self._task = asyncio.get_running_loop().create_task(self._work())

    async def close(self) -> None:
        if self._task is not None:
            await cancel_and_wait([self._task])

    async def _settled(self, event: RatingSettled) -> None:
        if not event.accounts:
            return
        try:
            self.queue.put_nowait(event.game_id)
        except asyncio.QueueFull:
            self.dropped += 1
            log.warning("fair-play queue full: game %s is not judged", event.game_id)
        else:
            self.unsettled += 1

    async def _closed(self, event: AccountClosed) -> None:
        await self.run(self.store.forget, event.account_id)

    async def _work(self) -> None:
        while True:
            game_id = await self.queue.get()
            try:
                await self.judge_game(game_id)
            except Exception:  # one game's trouble must not stop the others'
                log.exception("fair-play evidence of game %s failed", game_id)
            finally:
                self.unsettled -= 1

    def iterations(self, game: str) -> int:
        """The judge's budget a decision of ``game`` (``Limits.judge_iterations``)."""
        return self.limits.judge_iterations or judge_iterations(game)

    async def judge_game(self, game_id: str) -> bool:
        """Judge a finished rated game and store each account's evidence, then look whether
        the flag fires for its accounts; False when there is nothing to judge (not rated, not
        finished, no account at it, judged already)."""
        room = await self.room(game_id)
        row = room.row
        accounts = [(seat.seat, seat.account) for seat in row.seats if seat.account is not None]
        if room.broken is not None or not row.rated or row.status != FINISHED or not accounts:
            return False
        if await self.run(self.store.judged, game_id):
            return False
        record = record_of(room)
        check_length(len(record.moves), self.limits.replay_max_plies)
        game = room.game
        states = checked_states(game, record)
        actions = [m.action for m in record.moves]
        judgements: dict[int, Judgement] = {}
        for ply in plies_of_evidence(game, states):
            data = await self.workers.search(
                judge_fairly, row, actions[:ply], self.iterations(row.game), SEED
            )
            judgements[ply] = Judgement.from_json(data)
        evidence = evidence_of(game, states, record, judgements)
        pool = pool_of(row.game, row.options, len(row.seats))
        seats = [(account, evidence[seat]) for seat, account in accounts]
        if not await self.run(self.store.save, game_id, pool, seats):
            return False
        for _, account in accounts:
            await self._look(account, pool, game_id)
        return True

    async def norms(self, pool: str, rule: FlagRule) -> dict[int, Norm]:
        """The pool's norms per band (``norms_of``), made again after ``NORMS_TTL`` seconds."""
        made = self._norms.get(pool)
        if made is not None and time.monotonic() - made[0] < NORMS_TTL:
            return made[1]
        tallies: dict[int, Tally] = await self.run(self.store.tallies_in, pool)
        ratings = await self.ratings.established(pool, list(tallies))
        norms = norms_of(((ratings[a], tallies[a]) for a in ratings), rule.min_moves)
        self._norms[pool] = (time.monotonic(), norms)
        return norms

    async def _standing(
        self, account_id: int, pool: str, rule: FlagRule | None
    ) -> tuple[float | None, Norm | None]:
        """The account's established rating in ``pool`` and its band's norm (each None when
        there is none: a provisional rating; a pool without a measured margin, whose bands are
        not used; a band with too few players)."""
        rating = (await self.ratings.established(pool, [account_id])).get(account_id)
        if rating is None or rule is None or rule.margin is None:
            return rating, None
        return rating, (await self.norms(pool, rule)).get(band_of(rating))

    async def _look(self, account_id: int, pool: str, game_id: str) -> None:
        """File a report when the account's evidence in ``pool`` passes the pool's flag, at
        the pool's threshold or its rating band's."""
        rule = flag_rule(pool)
        if rule is None:
            return
        tally: Tally | None = (await self.run(self.store.tallies, account_id)).get(pool)
        if tally is None or tally.judged < rule.min_moves:
            return
        rating, norm = await self._standing(account_id, pool, rule)
        if not rule.fires(tally, norm):
            return
        text = (
            f"fair-play check: {tally.agreed} of {tally.judged} judged moves in {tally.games} "
            f"rated games of {pool} agreed with the expert (lower bound "
            f"{tally.lower_bound():.2f}, the flag is at {rule.threshold_for(norm):.2f}"
        )
        if norm is not None and rule.threshold_for(norm) < rule.threshold:
            text += (
                f": players rated {norm.band}-{norm.band + BAND} agree {norm.agreement:.2f}, "
                f"the account is rated {rating:.0f}"
            )
        await self.reports.system_report(account_id, "cheating", text + ")", game_id)

    async def evidence(self, name: str) -> dict[str, Any]:
        """An account's evidence per pool, with its flag and the games that stand out."""
        account = await self.accounts.by_name(name)
        if account is None:
            raise not_found(f"there is no player named {name!r} (or the account was closed)")
        tallies: dict[str, Tally] = await self.run(self.store.tallies, account.id)
        pools = []
        for pool in sorted(tallies):
            tally = tallies[pool]
            rule = flag_rule(pool)
            games: list[GameEvidence] = await self.run(self.store.games, account.id, pool, STANDOUT)
            rating, norm = await self._standing(account.id, pool, rule)
            pools.append(
                {
                    "pool": pool,
                    **tally.to_json(),
                    "rule": None
                    if rule is None
                    else {
                        "threshold": rule.threshold,
                        "min_moves": rule.min_moves,
                        "margin": rule.margin,
                    },
                    "rating": None if rating is None else round(rating),
                    "norm": None if norm is None else norm.to_json(),
                    "threshold": None if rule is None else rule.threshold_for(norm),
                    "flagged": rule is not None and rule.fires(tally, norm),
                    "standout": [g.to_json() for g in games],
                }
            )
        return {"account": account.name, "pools": pools}
