"""Hints and game reviews on the web: the search work runs in the server's worker pool, never on
the event loop, within the operator's ceilings (``config.Limits``: ``hint_iterations``,
``review_iterations``, ``review_max_iterations``, ``review_max_work``, ``review_jobs``).

Hints: the best move in the asking player's position with its win estimate, in words and with
the struct the board highlights it by. Only a player to move may ask (a spectator gets a 403),
and only in games where no other person plays: hints are for practice against the AI and for
hot-seat games. A game with an invited or open seat has another person at the table, and a hint
there would be outside help, so hints are off in it (``GameRow.hints_allowed``). There are no
rated games yet; a rated game would turn hints off the same way.

Reviews: for a finished game (an unfinished one could be reviewed move by move as help against
a person), one seat's win-probability curve, its mistakes and blunders and the better move at
each (``boardplay.ai.review``). Anyone who can see the game may ask: a review is computed once
per (game, seat, iterations) and stored (``store.py``), so later visitors read it for free.
A review is one job per judged position, so its progress is visible and a long review never
holds a worker for more than one position."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Engine

from boardplay.ai.review import Judgement, assemble, plies_to_judge
from boardplay.core.errors import BoardplayError
from boardplay.core.game import Game, State
from boardplay.web.advice.store import DONE, FAILED, RUNNING, ReviewStore
from boardplay.web.config import Limits
from boardplay.web.errors import ApiError, bad_request, conflict, forbidden
from boardplay.web.replays import check_length, checked_states, record_of
from boardplay.web.table import AiWorkers, Room, check_analysable
from boardplay.web.tasks import cancel_and_wait
from boardplay.web.words import said
from boardplay.web.workers import judge_position

log = logging.getLogger("boardplay.web")

STALE_AFTER = 60.0
"""Seconds without progress after which a running review is taken to be orphaned (its process
died) and the next request starts it again. One position takes at most ``ai_max_time`` plus
its wait in the worker queue."""
TOTALS_KEPT = 1_000
"""Reviews whose count of positions one process remembers for their progress polls."""
SEED = 0
"""Searches of reviews and hints are seeded, so the same budget gives the same review."""


@dataclass(frozen=True)
class ReviewAsk:
    """A visitor's ask for a game's review, as both starting it and polling it judge it: the
    game, the seat token they sent (a player of it is known by it), the seat and iterations they
    named (None: their own seat, else the first, and the server's default budget) and their
    account (None: a guest)."""

    room: Room
    token: str | None
    seat: int | None
    iterations: int | None
    account: int | None


class Reviewer:
    """The hints and reviews one server process computes."""

    def __init__(self, engine: Engine, workers: AiWorkers, limits: Limits) -> None:
        self.store = ReviewStore(engine)
        self.workers = workers
        """The AI worker pool the positions are searched in (shared with the AI turns)."""
        self.limits = limits
        self.tasks: dict[tuple[str, int, int], asyncio.Task[None]] = {}
        self.hinting: set[str] = set()
        self.totals: dict[tuple[str, int, int | None, int | None], tuple[int, int, int]] = {}
        """(game, revision, seat, iterations asked) -> (seat, iterations, positions to judge):
        a review's progress is polled, and working out its positions replays the game."""

    async def close(self) -> None:
        await cancel_and_wait(self.tasks.values())

    async def _judge(self, room: Room, actions: Sequence[int], iterations: int) -> Judgement:
        """One position searched in the worker pool."""
        data = await self.workers.search(judge_position, room.row, actions, iterations, SEED)
        return Judgement.from_json(data)

    # ----- hints ----------------------------------------------------------------------------
    async def hint(self, room: Room, token: str | None, ply: int | None) -> dict[str, Any]:
        """The best move for the token's seat to move, or the reason there is none."""
        seats = room.seats_of(token)
        if not seats:
            raise forbidden(
                "not_a_player",
                "hints are for the players of this game; a spectator cannot ask for one",
            )
        if room.broken is not None:
            raise conflict("game_unavailable", room.broken)
        if not room.row.hints_allowed:
            raise forbidden(
                "hints_off",
                "hints are off in this game: another person plays at this table, and a hint "
                "would be outside help (hints are for games against the AI and hot-seat games)",
            )
        state = room.state
        if state.is_terminal():
            raise conflict("game_over", f"the game is over: {state.result_text()}")
        if state.current_player() not in seats:
            raise conflict("not_your_turn", "a hint is for your own move; it is not your turn")
        if ply is not None and ply != len(room.moves):
            raise conflict("stale", f"the game is at ply {len(room.moves)}, not {ply}; reload")
        game_id = room.row.id
        if game_id in self.hinting:
            raise ApiError(429, "busy", "a hint for this game is being worked out already")
        self.hinting.add(game_id)
        asked = len(room.moves)
        try:
            judged = await self._judge(
                room, [m.action for m in room.moves], self.limits.hint_iterations
            )
        finally:
            self.hinting.discard(game_id)
        await room.refresh()
        if len(room.moves) != asked:
            raise conflict("stale", "the game moved on while the hint was worked out")
        return hint_json(room.game, room.state, judged)

    # ----- reviews --------------------------------------------------------------------------
    def _check(self, ask: ReviewAsk) -> tuple[int, int, list[State], list[int]]:
        """The seat and budget of a review request with the game's positions and the plies to
        judge, or the reason it cannot be reviewed: first fair play's rule of analysis
        (``table/analysable.py``: 403 for a rated game or the asker's own while it is played),
        then a review's own need of a finished game."""
        limits, room = self.limits, ask.room
        check_analysable(room.row, ask.token, ask.account)
        if room.broken is not None:
            raise conflict("game_unavailable", room.broken)
        if not room.state.is_terminal():
            raise conflict(
                "game_not_over", "a review is for a finished game; this one is still being played"
            )
        players = room.game.num_players
        seat = ask.seat
        if seat is None:
            mine = sorted(room.seats_of(ask.token))
            seat = mine[0] if mine else 0
        if not 0 <= seat < players:
            raise bad_request(f"seat must be 0..{players - 1}")
        iterations = limits.review_iterations if ask.iterations is None else ask.iterations
        if not 1 <= iterations <= limits.review_max_iterations:
            raise bad_request(
                f"iterations must be 1..{limits.review_max_iterations} per position "
                "(BOARDPLAY_WEB_REVIEW_MAX_ITERATIONS)"
            )
        record = record_of(room)
        check_length(len(record.moves), limits.replay_max_plies)
        states = checked_states(room.game, record)
        plies = plies_to_judge(states, seat, players)
        if len(plies) * iterations > limits.review_max_work:
            raise bad_request(
                f"this review would cost {len(plies)} positions × {iterations} iterations = "
                f"{len(plies) * iterations:,}; this server's ceiling is "
                f"{limits.review_max_work:,} (BOARDPLAY_WEB_REVIEW_MAX_WORK): ask for fewer "
                "iterations per position"
            )
        return seat, iterations, states, plies

    def status(self, ask: ReviewAsk) -> dict[str, Any]:
        """What is known of a review: ``none``, ``running`` (with progress), ``done`` (with the
        review) or ``failed`` (with the reason)."""
        row = ask.room.row
        key = (row.id, row.revision, ask.seat, ask.iterations)
        if key not in self.totals or ask.seat is None:  # no seat: it depends on the token
            chosen, budget, _, plies = self._check(ask)
            if len(self.totals) >= TOTALS_KEPT:
                self.totals.clear()
            self.totals[key] = (chosen, budget, len(plies))
        chosen, budget, total = self.totals.pop(key)
        self.totals[key] = (chosen, budget, total)
        return self._status(row.id, chosen, budget, total)

    def _status(self, game_id: str, seat: int, iterations: int, total: int) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": seat, "iterations": iterations, "total": total}
        row = self.store.get(game_id, seat, iterations)
        if row is None:
            return {**out, "state": "none", "done": 0}
        if row.status == DONE:
            return {**out, "state": "done", "done": row.total, "review": row.result}
        if row.status == FAILED:
            return {**out, "state": "failed", "done": row.done, "error": row.error}
        return {**out, "state": RUNNING, "done": row.done, "total": row.total}

    async def start(self, ask: ReviewAsk) -> dict[str, Any]:
        """Start the review unless it is stored or running; its status either way."""
        seat, iterations, states, plies = self._check(ask)
        room = ask.room
        game_id = room.row.id
        row = self.store.get(game_id, seat, iterations)
        if row is not None and (
            row.status == DONE or (row.status == RUNNING and not row.stale(STALE_AFTER))
        ):
            return self._status(game_id, seat, iterations, len(plies))
        running = [t for t in self.tasks.values() if not t.done()]
        if len(running) >= self.limits.review_jobs:
            raise ApiError(
                429,
                "busy",
                f"this server is reviewing as many games as it may at once ({len(running)}); "
                "try again in a minute",
            )
        if self.store.claim(game_id, seat, iterations, self.workers.epoch, len(plies), STALE_AFTER):
            key = (game_id, seat, iterations)
            self.tasks[key] = asyncio.get_running_loop().create_task(
                self._run(room, seat, iterations, states, plies)
            )
        return self._status(game_id, seat, iterations, len(plies))

    async def _run(
        self, room: Room, seat: int, iterations: int, states: list[State], plies: list[int]
    ) -> None:
        game_id, owner = room.row.id, self.workers.epoch
        actions = [m.action for m in room.moves]
        key = (game_id, seat, iterations)
        try:
            judgements: dict[int, Judgement] = {}
            for done, ply in enumerate(plies, start=1):
                judgements[ply] = await self._judge(room, actions[:ply], iterations)
                if not self.store.beat(game_id, seat, iterations, owner, done):
                    return  # another process took the review over
            game = room.game
            result = assemble(
                game,
                states,
                actions,
                seat,
                judgements,
                iterations,
                lambda state, action: said(game, state, action),
            )
            self.store.finish(game_id, seat, iterations, owner, result)
        except asyncio.CancelledError:
            self.store.fail(game_id, seat, iterations, owner, "the server stopped; ask again")
            raise
        except Exception as exc:
            log.exception("review of game %s failed", game_id)
            self.store.fail(game_id, seat, iterations, owner, f"the review failed: {exc}")
        finally:
            self.tasks.pop(key, None)


def hint_json(game: Game, state: State, judged: Judgement) -> dict[str, Any]:
    """A hint for the client: the move (id, notation, words, struct), its win estimate for the
    seat to move, the budget spent and the runners-up in words."""
    position = state.to_json()
    others = []
    for candidate in [c for c in judged.candidates if c.get("move") != judged.move][:3]:
        try:
            action = state.string_to_action(str(candidate["move"]))
        except BoardplayError:
            continue
        others.append({**candidate, "words": said(game, state, action, position).get("words")})
    return {
        "ply": judged.ply,
        "seat": judged.seat,
        "action": judged.action,
        "move": judged.move,
        "win_probability": judged.win_probability,
        "iterations": judged.iterations,
        "seconds": judged.seconds,
        **said(game, state, judged.action, position),
        "candidates": others,
    }
