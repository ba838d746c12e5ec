"""The AI's worker processes and their slots: what a worker process runs (an AI move, a position
judged for hints and reviews) and the fair queue of the pool's slots. Kept free of the web
framework: a worker process imports ``boardplay.web.workers.ai_worker`` and must not pay for
FastAPI (about two seconds of imports on a busy machine), so this package's face imports nothing."""

from __future__ import annotations

from boardplay.web.workers.ai_worker import (
    choose_action,
    make_executor,
    run_job,
    site_agent,
    stop_executor,
    think,
)
from boardplay.web.workers.aiqueue import FairQueue
from boardplay.web.workers.judging import judge_fairly, judge_position
from boardplay.web.workers.lines import engine_lines
from boardplay.web.workers.position import Position

__all__ = [
    "FairQueue",
    "Position",
    "choose_action",
    "engine_lines",
    "judge_fairly",
    "judge_position",
    "make_executor",
    "run_job",
    "site_agent",
    "stop_executor",
    "think",
]
