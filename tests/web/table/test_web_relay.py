"""A change's notice carries the public view, and a process whose copy reaches that very
revision uses it instead of building the view again (issue 17: the view of a move was built once
per process); a notice of another revision, or a view that is not the view of the revision
reached, is never used. A move's notice also carries the moves stored (``appended.py``), and a
process whose copy is at the revision they were stored on applies them instead of reading the
game back (issue 31); any other copy reloads. Two hubs on one database stand for two
processes."""

from __future__ import annotations

import asyncio
import json
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from webtiny import CATALOGUE

from boardplay.core.records import Move
from boardplay.web.broker import Notice
from boardplay.web.catalogue import WebCatalogue
from boardplay.web.hub import Hub
from boardplay.web.sockets import Subscriber
from boardplay.web.table import storage as st
from boardplay.web.table.appended import Appended
from boardplay.web.table.clocks import Clock, TimeControl
from boardplay.web.table.rooms import Room


def hub_on(url: str) -> Hub:
    return Hub(
        url,
        WebCatalogue(CATALOGUE),
        "webtiny:CATALOGUE",
        lambda: ThreadPoolExecutor(1),
        ai_workers=0,
    )


class Sent:
    def __init__(self) -> None:
        self.texts: list[str] = []

    async def send(self, text: str) -> None:
        self.texts.append(text)

    async def close(self, _code: int) -> None:
        return None


@dataclass
class Watched:
    """What two processes did over a few moves made on the first (A) and watched on the second
    (B) by a spectator's socket."""

    mover_views: list[dict[str, Any]] = field(default_factory=list)
    """The public views A built, one per move."""
    sent: list[dict[str, Any]] = field(default_factory=list)
    """What B's spectator socket was sent."""
    built: int = 0
    """Views B built itself."""
    reads: int = 0
    """Times B read the game back from the database."""
    copy: st.GameRow | None = None
    """B's copy of the game at the end, and the database's."""
    stored: st.GameRow | None = None
    positions: tuple[Any, Any] = (None, None)
    """B's position at the end, and A's."""
    notices: list[Notice] = field(default_factory=list)
    """What A published, one per move."""


def record_notices(hub: Hub) -> list[Notice]:
    """What the broker would carry of each change ``hub`` publishes (``House.publish``, which
    without a broker sends nothing)."""
    notices: list[Notice] = []

    def publish(game_id: str, revision: int, view: Any, appended: Any = None) -> None:
        step = appended.to_text() if appended is not None else ""
        notices.append(Notice(revision, hub.epoch, view(), step))

    hub.house.publish = publish  # type: ignore[method-assign]
    return notices


async def two_processes(
    url: str,
    tamper: Any = None,
    clock: TimeControl | None = None,
    moves: int = 3,
    page: bool = True,
) -> Watched:
    """Play ``moves`` steps on hub A with a spectator socket on hub B, each change's notice
    handed to B as the broker would (``tamper`` may change it first, or lose it: None); the
    mover has the game's page open on A (``page``), as a person has, or none, as a bot."""
    a, b = hub_on(url), hub_on(url)
    seen = Watched()
    build, read = Room._build_view, b.storage.get_game

    def counting(room: Room) -> dict[str, Any]:
        if room.host is b.house:
            seen.built += 1
        return build(room)

    def reading(game_id: str) -> st.GameRow | None:
        seen.reads += 1
        return read(game_id)

    socket = Sent()
    notices = record_notices(a)
    try:
        Room._build_view = counting  # type: ignore[method-assign]
        room, token, _ = await a.maker.create(
            "tiny", {}, [{"kind": "me"}, {"kind": "hotseat"}], clock=clock
        )
        if page:
            own = Sent()
            room.subscribers.add(Subscriber(own.send, own.close))
        far = await b.room(room.row.id)
        spectator = Subscriber(socket.send, socket.close)
        far.subscribers.add(spectator)
        spectator.push_view(far.view_for(None), full=True)
        seen.built = 0
        b.storage.get_game = reading  # type: ignore[method-assign]
        for _ in range(moves):
            view = room.view_for(token)
            await room.act(token, view["legal"][0]["id"], view["ply"])
            seen.mover_views.append(room.public_view())
            notice = notices.pop()
            seen.notices.append(notice)
            if tamper is not None:
                notice = tamper(notice)
            if notice is None:  # lost on the way
                continue
            b.house.remote_change(room.row.id, notice.revision, notice)
            await b.house._syncing[room.row.id]
            await asyncio.sleep(0)  # the socket's sender runs
        seen.copy, seen.stored = far.row, read(room.row.id)
        seen.positions = (far.state.to_json(), room.state.to_json())
    finally:
        Room._build_view = build  # type: ignore[method-assign]
        for hub in (a, b):
            await hub.close()
            hub.storage.close()
    seen.sent = [json.loads(t) for t in socket.texts]
    return seen


def replay(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The spectator's views, merged from its messages as the page does."""
    views: list[dict[str, Any]] = []
    for message in messages:
        if message["type"] == "state":
            views.append(message["game"])
        else:
            view = {k: v for k, v in views[-1].items() if k not in message["removed"]}
            view.update(message["game"])
            moves = message["moves"]
            view["moves"] = views[-1]["moves"][: moves["keep"]] + moves["add"]
            views.append(view)
    return views


AUDIENCE = {"your_seats", "your_turn", "can_undo", "draw_to_answer"}
"""The fields a view adds to the public view for its audience."""


def public(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in AUDIENCE}


STORED = ("moves", "status", "result", "revision", "ai_seat", "ai_error", "clock_state", "deadline")
"""The game's fields a move changes (``Storage.change_values``, and its plies)."""


def same_game(seen: Watched) -> None:
    """B's copy is the stored game, and its position A's."""
    assert seen.copy is not None and seen.stored is not None
    for name in STORED:
        assert getattr(seen.copy, name) == getattr(seen.stored, name), name
    assert seen.positions[0] == seen.positions[1]


@pytest.mark.parametrize("relay", [True, False])
def test_the_other_process_uses_the_relayed_view_and_moves(tmp_path: Path, relay: bool) -> None:
    def strip(notice: Notice) -> Notice:
        return Notice(notice.revision, notice.origin)

    url = f"sqlite:///{tmp_path / 'relay.sqlite3'}"
    seen = asyncio.run(two_processes(url, None if relay else strip))
    spectator = replay(seen.sent)[1:]
    assert [public(v) for v in spectator] == [json.loads(json.dumps(v)) for v in seen.mover_views]
    assert seen.built == (0 if relay else 3)
    assert seen.reads == (0 if relay else 3)
    same_game(seen)


def test_a_view_nobody_watches_where_the_move_is_made_is_not_relayed(tmp_path: Path) -> None:
    """A bot's move (no page of the game open on its process): the notice carries the moves
    but no view, and the process with a page open builds the view itself, the very same."""
    url = f"sqlite:///{tmp_path / 'relay.sqlite3'}"
    seen = asyncio.run(two_processes(url, page=False))
    assert [n.view_text for n in seen.notices] == [""] * 3
    assert all(n.step_text for n in seen.notices)
    spectator = replay(seen.sent)[1:]
    assert [public(v) for v in spectator] == [json.loads(json.dumps(v)) for v in seen.mover_views]
    assert (seen.built, seen.reads) == (3, 0)
    same_game(seen)


def test_the_moves_of_a_timed_game_carry_its_clock(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'relay.sqlite3'}"
    seen = asyncio.run(two_processes(url, clock=TimeControl(base=60, increment=5)))
    assert seen.reads == 0
    assert seen.copy is not None and seen.copy.clock_state is not None
    assert seen.copy.deadline is not None
    same_game(seen)


def test_moves_that_do_not_lead_on_from_the_copy_are_read_back(tmp_path: Path) -> None:
    """A process that missed a notice (its copy is a revision behind the moves' base), or got
    moves it cannot read, reads the game back: its copy is never wrong."""
    dropped = iter([True, False, False, False])

    def missed(notice: Notice) -> Notice | None:
        # The first is lost on the way: the next notice's moves start a revision ahead.
        return None if next(dropped) else notice

    url = f"sqlite:///{tmp_path / 'relay.sqlite3'}"
    seen = asyncio.run(two_processes(url, missed, moves=3))
    assert seen.reads == 1  # the move after the lost notice; the rest follow on again
    same_game(seen)

    def garbled(notice: Notice) -> Notice:
        return Notice(notice.revision, notice.origin, notice.view_text, notice.step_text[:-3])

    seen = asyncio.run(two_processes(f"sqlite:///{tmp_path / 'garbled.sqlite3'}", garbled))
    assert seen.reads == 3
    same_game(seen)


def test_a_relayed_view_of_another_revision_is_not_used(tmp_path: Path) -> None:
    """A notice whose view is not the view of the revision it names (a bug, a mixed rollout)
    is ignored: the process builds its own, and its sockets see the true position."""

    def older(notice: Notice) -> Notice:
        relayed = json.loads(notice.view_text)
        view = relayed.get("view", relayed)
        view["version"] = [view["version"][0], notice.revision - 1]
        view["ply"] = -1
        return Notice(notice.revision, notice.origin, json.dumps(relayed), notice.step_text)

    url = f"sqlite:///{tmp_path / 'relay.sqlite3'}"
    seen = asyncio.run(two_processes(url, older))
    assert seen.built == 3
    assert [v["ply"] for v in replay(seen.sent)[1:]] == [v["ply"] for v in seen.mover_views]


def test_a_relayed_view_carries_only_the_moves_since_the_view_before(tmp_path: Path) -> None:
    """A notice's size does not grow with the game: it carries the view without its moves, and
    the moves since the view before the change; the other process, at that view, puts the two
    together (above: it builds nothing), and one whose view is another revision's builds its
    own."""
    url = f"sqlite:///{tmp_path / 'relay.sqlite3'}"
    seen = asyncio.run(two_processes(url, moves=4))
    for notice, view in zip(seen.notices, seen.mover_views, strict=True):
        relayed = json.loads(notice.view_text)
        assert len(relayed["add"]) == 1 and relayed["keep"] == len(view["moves"]) - 1, relayed
        assert "moves" not in relayed["view"] and relayed["base"][1] == notice.revision - 1
    assert seen.built == 0

    def rebased(notice: Notice) -> Notice:
        relayed = json.loads(notice.view_text)
        relayed["base"] = [relayed["base"][0], notice.revision - 2]
        return Notice(notice.revision, notice.origin, json.dumps(relayed), notice.step_text)

    seen = asyncio.run(two_processes(f"sqlite:///{tmp_path / 'rebased.sqlite3'}", rebased))
    assert seen.built == 3
    assert [public(v) for v in replay(seen.sent)[1:]] == [
        json.loads(json.dumps(v)) for v in seen.mover_views
    ]


def test_a_notice_survives_its_text_form() -> None:
    step = Appended(4, 2, (Move(7, "a b", 1),), "active", None, None, None, None, None)
    notice = Notice(12, "abc", json.dumps({"a": "x y z"}), step.to_text())
    again = Notice.decode(notice.encode().encode())
    assert (again.revision, again.origin, json.loads(again.view_text)) == (
        12,
        "abc",
        {"a": "x y z"},
    )
    assert Appended.from_text(again.step_text) == step
    assert Notice.decode(b"7 abc").view_text == ""
    for malformed in (b'{"revision": 3}', b"7 abc 99 {}", b"7 abc -1 {}", b'7 abc {"a": 1}'):
        with pytest.raises(ValueError):
            Notice.decode(malformed)


def test_a_held_clock_released_elsewhere_is_taken_in_without_reading_the_game(
    tmp_path: Path,
) -> None:
    """Players coming to a table whose clock is held for them (a tournament's or a challenge's
    game: two bots' streams opening) store the clock alone, and its notice carries it as a step
    with no moves (``RoomClock._store_clock``): the other process's copy takes it in as stored,
    and reads nothing."""
    url = f"sqlite:///{tmp_path / 'relay.sqlite3'}"

    async def body() -> tuple[int, st.GameRow, st.GameRow | None, list[Notice]]:
        a, b = hub_on(url), hub_on(url)
        notices = record_notices(a)
        control = TimeControl(base=60, increment=5)
        try:
            room, _token, _ = await a.maker.create(
                "tiny", {}, [{"kind": "me"}, {"kind": "hotseat"}], clock=control
            )
            held = Clock.fresh(control, 2, start_by=time.time() + 60)
            a.storage.set_clock(room.row.id, room.row.revision, held)
            await room.refresh()
            far = await b.room(room.row.id)
            far.subscribers.add(Subscriber(Sent().send, Sent().close))
            reads = 0
            read = b.storage.get_game

            def reading(game_id: str) -> st.GameRow | None:
                nonlocal reads
                reads += 1
                return read(game_id)

            b.storage.get_game = reading  # type: ignore[method-assign]
            notices.clear()
            for seat in (0, 1):  # one comes (still held for the other), then the other
                await room.came([seat])
                notice = notices.pop()
                b.house.remote_change(room.row.id, notice.revision, notice)
                await b.house._syncing[room.row.id]
            assert room.clock is not None and room.clock.seat is not None  # it runs
            return reads, far.row, read(room.row.id), notices
        finally:
            for hub in (a, b):
                await hub.close()
                hub.storage.close()

    reads, copy, stored, _ = asyncio.run(body())
    assert reads == 0
    assert stored is not None
    for name in STORED:
        assert getattr(copy, name) == getattr(stored, name), name
