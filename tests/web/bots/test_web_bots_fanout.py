"""How the Bot API's streams are fed at one process's cost (``bots/fanout.py``): a line shared by
an audience is built once per change of its room, whatever the number of streams reading it,
and the event streams' looks at their games are one query for every stream of the process."""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Sequence
from typing import Any

from boardplay.web.bots.fanout import Lines, Looks, shared_line
from boardplay.web.sockets import Told


class Room:
    """Stands for a table's room: the shared lines are kept per room object."""


def test_a_line_is_built_once_per_change_for_each_audience() -> None:
    room, other = Room(), Room()
    built: list[tuple[Any, Any]] = []

    def line(audience: Any, key: Any) -> str:
        def build() -> str:
            built.append((audience, key))
            return f"{audience}:{key}\n"

        return shared_line(room, audience, key, build)  # type: ignore[arg-type]

    assert [line((), 1) for _ in range(3)] == ["():1\n"] * 3  # three streams, one build
    assert line((0,), 1) == "(0,):1\n"  # another audience has its own line
    assert line((), 2) == "():2\n" and line((), 2) == "():2\n"  # a change: built again, once
    assert built == [((), 1), ((0,), 1), ((), 2)]
    assert shared_line(other, (), 2, lambda: "other\n") == "other\n"  # type: ignore[arg-type]


class Stream:
    def __init__(self, account_id: int) -> None:
        self.account_id = account_id
        self.lines = Lines()
        self.seen: list[set[str]] = []

    def found(self, game_ids: Collection[str]) -> None:
        self.seen.append(set(game_ids))


def test_the_event_streams_are_looked_at_in_one_query() -> None:
    asked: list[list[int]] = []

    async def playing(account_ids: Sequence[int]) -> dict[int, set[str]]:
        asked.append(list(account_ids))
        return {7: {"g1", "g2"}, 9: {"g3"}}

    async def run() -> None:
        looks = Looks(playing)
        streams = [Stream(9), Stream(7), Stream(7), Stream(8)]
        for stream in streams:
            looks.add(stream)
        streams[3].lines.close()  # an ended stream is not looked for
        await looks.look()
        assert asked == [[7, 9]]
        assert [s.seen for s in streams] == [[{"g3"}], [{"g1", "g2"}], [{"g1", "g2"}], []]
        for stream in streams:
            looks.discard(stream)
        assert looks._task is None  # the looks stop with the last stream

    asyncio.run(run())


def test_a_watch_is_told_each_message_in_the_broadcasts_call_and_dropped_if_it_fails() -> None:
    """A stream's watch (``sockets.Told``) has no queue nor sender task: each message reaches it
    within ``push_text``, in order; one that raises is dropped (False, so the room lets it go),
    and the room dropping it tells it ``""``."""

    async def run() -> None:
        told: list[str] = []
        watch = Told(told.append)
        assert watch.push_text("a") and watch.push_text("b")
        assert told == ["a", "b"]
        watch.drop(1013)
        await watch.finish()
        assert told == ["a", "b", ""] and not watch.push_text("c")

        def fails(text: str) -> None:
            raise RuntimeError(text)

        broken = Told(fails)
        assert not broken.push_text("x") and broken.dropped

    asyncio.run(run())
