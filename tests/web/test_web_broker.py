"""The broker on a real Redis: a process alone publishes nothing (nobody would read it), and
starts again the moment another process announces itself."""

from __future__ import annotations

import asyncio

from boardplay.web.broker import Broker, Notice


async def _until(check: object, seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if callable(check) and check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("timed out")


def test_a_lone_process_publishes_nothing_until_another_announces_itself(redis_url: str) -> None:
    async def scenario() -> None:
        heard: dict[str, list[tuple[str, int]]] = {"a": [], "b": []}

        def listener(name: str):  # type: ignore[no-untyped-def]
            async def changed(game_id: str, revision: int, _notice: Notice) -> None:
                heard[name].append((game_id, revision))

            return changed

        async def nothing() -> None:
            return None

        a = Broker(redis_url, listener("a"), nothing)
        await a.start()
        try:
            assert a.peers == 1  # assumed until a publish counts the listeners
            a.publish("g1", Notice(1, "a"))
            await _until(lambda: a.peers == 0)  # only its own listener heard it
            assert heard["a"] == [("g1", 1)]
            a.publish("g1", Notice(2, "a"))
            assert not a.outbox  # dropped: nobody else would read it
            await asyncio.sleep(0.1)
            assert heard["a"] == [("g1", 1)]

            b = Broker(redis_url, listener("b"), nothing)
            await b.start()
            try:
                await _until(lambda: a.peers == 1)  # b's announcement reached a
                a.publish("g1", Notice(3, "a"))
                await _until(lambda: ("g1", 3) in heard["b"])
                assert a.peers == 1 and b.peers == 1
            finally:
                await b.close()
            # b is gone: a's next publish counts itself alone again.
            a.publish("g2", Notice(1, "a"))
            await _until(lambda: a.peers == 0)
        finally:
            await a.close()

    asyncio.run(scenario())
