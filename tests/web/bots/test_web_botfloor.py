"""The bench's bot floor (``tools/botfloor.py``) pairs the bots waiting at its arena's start even
when the event loop's sleep ends a hair before the wall clock reaches it (half the floor's runs
in ``make bench-web`` once played no game: the start's pairing found the arena not started yet,
and nothing paired the bots again)."""

from __future__ import annotations

import asyncio
import time

import botfloor
import pytest


def test_the_bots_waiting_at_the_start_are_paired_though_the_sleep_ends_early(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    yield_once = asyncio.sleep

    async def early(_seconds: float) -> None:  # a sleep that ends before its time
        await yield_once(0)

    async def body() -> list[str]:
        floor = botfloor.BotFloor()
        for bot in ("a", "b"):
            floor.events[bot] = asyncio.Queue()
            floor.free.append(bot)
        floor.starts = time.time() + 0.02
        monkeypatch.setattr(botfloor.asyncio, "sleep", early)
        await floor._pair_at_start()
        return [floor.events[bot].get_nowait() or "" for bot in ("a", "b")]

    lines = asyncio.run(body())
    assert all('"gameStart"' in line for line in lines)
