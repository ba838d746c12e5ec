"""The broker on a real Redis: a process alone publishes nothing (nobody would read it), and
starts again the moment another process announces itself; every other process hears a notice
once, and its sender never hears it back."""

from __future__ import annotations

import asyncio

from boardplay.web.broker import Broker, Notice


async def _until(check: object, seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if callable(check) and check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("timed out")


Heard = dict[str, list[tuple[str, int]]]


def _broker(redis_url: str, heard: Heard, name: str) -> Broker:
    """A broker whose deliveries are written down in ``heard[name]`` (game, revision)."""

    async def changed(game_id: str, revision: int, _notice: Notice) -> None:
        heard[name].append((game_id, revision))

    async def nothing() -> None:
        return None

    return Broker(redis_url, changed, nothing)


def test_a_lone_process_publishes_nothing_until_another_announces_itself(redis_url: str) -> None:
    async def scenario() -> None:
        heard: Heard = {"a": [], "b": []}

        a = _broker(redis_url, heard, "a")
        await a.start()
        try:
            assert a.peers == 1  # assumed until a publish counts the listeners
            a.publish("g1", Notice(1, "a"))
            await _until(lambda: a.peers == 0)  # nobody heard it
            a.publish("g1", Notice(2, "a"))
            assert not a.outbox  # dropped: nobody else would read it
            await asyncio.sleep(0.1)
            assert heard["a"] == []  # a process never hears its own notices

            b = _broker(redis_url, heard, "b")
            await b.start()
            try:
                await _until(lambda: a.peers == 1)  # b's announcement reached a
                a.publish("g1", Notice(3, "a"))
                await _until(lambda: ("g1", 3) in heard["b"])
                assert a.peers == 1 and b.peers == 1
                assert heard == {"a": [], "b": [("g1", 3)]}
            finally:
                await b.close()
            # b is gone: a's next publish counts itself alone again.
            a.publish("g2", Notice(1, "a"))
            await _until(lambda: a.peers == 0)
        finally:
            await a.close()

    asyncio.run(scenario())


def test_each_other_process_hears_a_notice_once_and_its_sender_never(redis_url: str) -> None:
    """Names that share a beginning, differ in their last character, or are one character
    apart: each pattern set lets exactly one copy through from every other sender."""
    names = ["a0b1c2d3", "a0b1c2d4", "a0b1c2e3", "f0b1c2d3", "a0b1c2d3"[:7] + "f"]

    async def scenario() -> None:
        heard: Heard = {name: [] for name in names}

        brokers = []
        for name in names:
            broker = _broker(redis_url, heard, name)
            broker.me = name
            await broker.start()
            brokers.append(broker)
        try:
            for revision, broker in enumerate(brokers, start=1):
                broker.publish("g:1", Notice(revision, broker.me))
            expected = {
                name: sorted(("g:1", r) for r, other in enumerate(names, 1) if other != name)
                for name in names
            }
            await _until(lambda: all(len(heard[n]) >= len(expected[n]) for n in names))
            await asyncio.sleep(0.2)  # a second copy, had one been sent, would be here by now
            assert {name: sorted(got) for name, got in heard.items()} == expected
            assert all(broker.peers == len(names) - 1 for broker in brokers)
        finally:
            for broker in brokers:
                await broker.close()

    asyncio.run(scenario())
