"""``.venv/bin/python tools/movecost.py``: the server's own CPU cost of one move, measured in
process (no sockets, no HTTP, no other load), for both processes a move touches.

Two hubs on one throwaway PostgreSQL (fsync on) stand for two server processes: on the first
(the *mover's* process) a player of each game moves, with the player's socket subscribed there;
on the second (the *watcher's* process) a spectator's socket is subscribed, and the change is
handed over as the broker would hand it (with the mover's public view and the moves it stored;
``--no-relay``: without, so the watcher's process reads the game back and builds the view
itself). Moves are made one at a time, so each side's
CPU time (``time.process_time``: the event loop and the storage threads, not PostgreSQL) is that
move's alone. ``--profile`` prints where the time went (cProfile, cumulative). Numbers are printed,
never asserted: they describe this machine at this moment."""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import devservices as ds

from boardplay.web.broker import Notice
from boardplay.web.catalogue import REGISTRY, WebCatalogue
from boardplay.web.hub import Hub
from boardplay.web.sockets import Subscriber


class Counter:
    """A socket that only counts what it is sent (bytes and messages)."""

    def __init__(self) -> None:
        self.messages = 0
        self.size = 0

    async def send(self, text: str) -> None:
        self.messages += 1
        self.size += len(text)

    async def close(self, _code: int) -> None:
        return None


def _hub(url: str) -> Hub:
    return Hub(
        url,
        WebCatalogue(REGISTRY),
        "boardplay.web.catalogue:REGISTRY",
        lambda: ThreadPoolExecutor(1),
        ai_workers=0,
    )


async def _settle() -> None:
    """Let the sockets' sender tasks (and anything else queued) run."""
    for _ in range(3):
        await asyncio.sleep(0)


async def _measure(url: str, args: argparse.Namespace) -> dict[str, Any]:
    mover_hub, watcher_hub = _hub(url), _hub(url)
    mover_sockets, watcher_sockets = Counter(), Counter()
    tables: list[tuple[str, str]] = []
    for _ in range(args.games):
        room, token, _invites = await mover_hub.maker.create(
            args.game, {}, [{"kind": "me"}, {"kind": "hotseat"}]
        )
        await room.changed(publish=False)
        player = Subscriber(mover_sockets.send, mover_sockets.close)
        player.token = token
        room.subscribers.add(player)
        player.push_view(room.view_for(token), full=True)
        far = await watcher_hub.room(room.row.id)
        spectator = Subscriber(watcher_sockets.send, watcher_sockets.close)
        far.subscribers.add(spectator)
        spectator.push_view(far.view_for(None), full=True)
        tables.append((room.row.id, token))
    await _settle()
    mover_ms: list[float] = []
    watcher_ms: list[float] = []
    published: list[Notice] = []

    def publish(game_id: str, revision: int, view: Any, appended: Any = None) -> None:
        """``Hub.publish`` as with another process on the broker: what it would send."""
        step = appended.to_text() if appended is not None else ""
        published.append(Notice(revision, mover_hub.epoch, view(), step))

    mover_hub.house.publish = publish  # type: ignore[method-assign]
    profile = cProfile.Profile() if args.profile else None
    for _ in range(args.moves):
        for game_id, token in tables:
            room = mover_hub.rooms[game_id]
            view = room.view_for(token)
            if view["terminal"]:
                continue
            move = view["legal"][0]["id"]
            if profile is not None:
                profile.enable()
            started = time.process_time()
            await room.act(token, move, view["ply"])
            # What the broker would send: the public view and the moves stored, unless
            # relaying is off.
            notice = published.pop() if published else Notice(room.row.revision, mover_hub.epoch)
            if args.no_relay:
                notice = Notice(notice.revision, notice.origin)
            await _settle()
            mover_ms.append((time.process_time() - started) * 1000)
            started = time.process_time()
            watcher_hub.house.notice(game_id, notice.revision, notice)
            sync = watcher_hub.house._syncing.get(game_id)
            if sync is not None:
                await sync
            await _settle()
            watcher_ms.append((time.process_time() - started) * 1000)
            if profile is not None:
                profile.disable()
    for hub in (mover_hub, watcher_hub):
        await hub.close()
        hub.storage.close()
    if profile is not None:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(args.profile)
    return {
        "game": args.game,
        "relay": not args.no_relay,
        "moves": len(mover_ms),
        "mover_cpu_ms": round(statistics.fmean(mover_ms), 2) if mover_ms else None,
        "mover_cpu_ms_p50": round(statistics.median(mover_ms), 2) if mover_ms else None,
        "watcher_cpu_ms": round(statistics.fmean(watcher_ms), 2) if watcher_ms else None,
        "watcher_cpu_ms_p50": round(statistics.median(watcher_ms), 2) if watcher_ms else None,
        "bytes_per_move_to_player": mover_sockets.size // max(1, len(mover_ms)),
        "bytes_per_move_to_spectator": watcher_sockets.size // max(1, len(watcher_ms)),
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="potlatch", help="game played (default potlatch)")
    parser.add_argument("--games", type=int, default=20, help="games played side by side")
    parser.add_argument("--moves", type=int, default=15, help="moves per game")
    parser.add_argument(
        "--no-relay",
        action="store_true",
        help="send no view or moves with the notice: the watcher's process reads the game back "
        "and builds its view (as before)",
    )
    parser.add_argument("--profile", type=int, default=0, help="print the N costliest calls")
    args = parser.parse_args(argv)
    with ds.postgres(durable=True) as admin:
        url = ds.new_database(admin, f"movecost_{int(time.time())}")
        print(asyncio.run(_measure(url, args)))


if __name__ == "__main__":
    main()
