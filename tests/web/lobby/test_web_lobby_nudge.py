"""The lobby's nudge across processes (``lobby/sockets.py``, the broker's lobby topic): a notice
told on one process (a tournament's game started, a challenge) makes the other processes read
the lobby's events at once, so a bot whose event stream is there hears of its pairing in a round
trip, not at their next poll (a second later: half the arena's pairing wait in
``tools/botbench.py``). Two processes' hubs on one database, the broker stood in for by a
direct call."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tournamentcalls import HandClock, Process, players


def test_a_notice_told_on_one_process_is_heard_on_another_at_once(tmp_path: Path) -> None:
    async def body() -> None:
        url = f"sqlite:///{tmp_path / 'nudge.sqlite3'}"
        clock = HandClock()
        one, two = Process(url, clock), Process(url, clock)
        (bot,) = players(one, ["Robo"])
        heard: list[dict[str, object]] = []
        two.hub.lobby.listen(bot.id, heard.append)
        started = {"type": "started", "game": "g1", "tournament": "t1"}
        # No broker: the other process hears at its next poll (not run here), not before.
        await one.hub.lobby.tell([(bot.id, started)])
        await asyncio.sleep(0)
        assert heard == []
        nudges: list[str] = []

        def send(text: str) -> bool:
            nudges.append(text)
            two.hub.lobby.remote(text)  # what the broker hands the other process
            return True

        one.hub.lobby.send = send
        again = {**started, "game": "g2"}
        await one.hub.lobby.tell([(bot.id, again)])
        assert len(nudges) == 1
        reading = two.hub.lobby._nudged
        assert reading is not None
        await reading
        assert heard == [started, again]  # the one missed, then the new one, each once
        two.hub.lobby.remote("")  # a nudge with nothing new delivers nothing twice
        await two.hub.lobby._nudged
        assert heard == [started, again]
        for process in (one, two):
            await process.close()

    asyncio.run(body())


def test_a_read_of_the_lobby_events_fetches_only_those_not_seen(tmp_path: Path) -> None:
    """Every process reads the last seconds' events every second and at every nudge: the rows
    it has seen already are left out by id, so a burst of notices (an arena's wave) is
    decoded once per process, not once per read."""

    async def body() -> None:
        url = f"sqlite:///{tmp_path / 'seen.sqlite3'}"
        one = Process(url, HandClock())
        (bot,) = players(one, ["Robo"])
        store = one.hub.lobby.store
        notices = [(bot.id, {"type": "started", "game": f"g{i}"}) for i in range(3)]
        await one.hub.lobby.tell(notices)
        every = store.events_since(0.0)
        assert [e.message for e in every] == [m for _, m in notices]
        fresh = store.events_since(0.0, {every[0].id, every[2].id})
        assert [e.id for e in fresh] == [every[1].id]
        assert store.events_since(0.0, {e.id for e in every}) == []
        await one.close()

    asyncio.run(body())
