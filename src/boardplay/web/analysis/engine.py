"""The engine's lines at a study's position: the best ``k`` moves (at most five) of a level of
the ladder, each with its win chance for the seat to move and the line the search expects after
it, searched in the AI worker pool (``workers/lines.py``).

A visitor cannot buy unbounded thought. One search is one job of the level's own agent, stopped
at ``ai_max_time`` whatever its budget, so it costs what an AI seat of that level costs per move;
it waits for a slot in the pool's fair queue under its address (``workers/aiqueue.py``), so the
AI turns of other visitors' games are served in between; an address has one search at a time on
a process and ``analysis_lines_per_hour`` an hour, counted in the database before each. Lines
found are stored on the position, so the study's next readers get them for nothing."""

from __future__ import annotations

from typing import Any

from boardplay.web.analysis.service import Analysis, Study
from boardplay.web.errors import ApiError, conflict
from boardplay.web.table import AiWorkers
from boardplay.web.throttles import Ceiling, Throttled
from boardplay.web.workers import engine_lines

SEED = 0
"""Lines are searched with a fixed seed, so one position at one level gives the same lines."""


class Lines:
    """The engine's lines of one process's analysis board."""

    def __init__(self, analysis: Analysis, workers: AiWorkers) -> None:
        self.analysis = analysis
        self.workers = workers
        self.searching: set[str] = set()
        """Addresses with a search running on this process."""

    async def lines(
        self, study: Study, node: int, level: str, k: int, address: str
    ) -> dict[str, Any]:
        """The ``k`` best lines of ``level`` at ``node``: stored ones if they hold ``k``, else a
        new search (``{"node", "level", "seat", "iterations", "seconds", "lines"}``)."""
        at = study.tree.get(node)
        kept = (at.lines or {}).get(level)
        if kept is not None and len(kept["lines"]) >= k:
            return {**kept, "lines": kept["lines"][:k], "stored": True}
        state = study.state_at(node)
        if state.is_terminal() or state.is_chance_node():
            raise conflict(
                "no_decision",
                "the engine judges a player's move; here the game is over or chance decides",
            )
        if address in self.searching:
            raise ApiError(429, "busy", "your last engine search is still running; wait for it")
        limits = self.analysis.limits
        most = limits.analysis_lines_per_hour
        try:
            ceiling = Ceiling(f"analysis-lines:{address}", most, 3600.0)
            await self.analysis.db(self.analysis.throttles.take, [ceiling])
        except Throttled as exc:
            raise exc.error(
                "lines_rate",
                f"you have asked for {most} engine searches this hour, the most this server "
                "allows (BOARDPLAY_WEB_ANALYSIS_LINES_PER_HOUR); lines already found stay free",
            ) from None
        self.searching.add(address)
        try:
            row = study.row
            position = self.workers.position(
                row.game, row.options, row.start_position, study.tree.actions(node)
            )
            async with self.workers.queue.slot(address):
                found: dict[str, Any] = await self.workers.search_position(
                    engine_lines, position, (level, k), SEED
                )
        finally:
            self.searching.discard(address)
        result = {"node": node, "level": level, **found}
        await self.analysis.db(self.analysis.store.keep_lines, row.id, node, level, result)
        return {**result, "stored": False}
