"""A change's notice carries the public view, and a process whose copy reloads to that very
revision uses it instead of building the view again (issue 17: the view of a move was built once
per process); a notice of another revision, or a view that is not the view of the revision
loaded, is never used. Two hubs on one database stand for two processes."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from webtiny import CATALOGUE

from boardplay.web import storage as st
from boardplay.web.broker import Notice
from boardplay.web.catalogue import WebCatalogue
from boardplay.web.hub import Hub
from boardplay.web.rooms import Room
from boardplay.web.sockets import Subscriber


def hub_on(url: str) -> Hub:
    return Hub(
        st.Storage(url),
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


async def two_processes(
    url: str, tamper: Any = None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
    """Play three steps on hub A with a spectator socket on hub B; returns the views A built,
    the views B's spectator was sent, and how many views B built itself."""
    a, b = hub_on(url), hub_on(url)
    built = 0
    build = Room._build_view

    def counting(room: Room) -> dict[str, Any]:
        nonlocal built
        if room.host is b:
            built += 1
        return build(room)

    mover_views: list[dict[str, Any]] = []
    seen = Sent()
    try:
        Room._build_view = counting  # type: ignore[method-assign]
        room, token, _ = await a.create("tiny", {}, [{"kind": "me"}, {"kind": "hotseat"}])
        far = await b.room(room.row.id)
        spectator = Subscriber(seen.send, seen.close)
        far.subscribers.add(spectator)
        spectator.push_view(far.view_for(None), full=True)
        built = 0
        for _ in range(3):
            view = room.view_for(token)
            await room.act(token, view["legal"][0]["id"], view["ply"])
            mover_views.append(room.public_view())
            notice = Notice(room.row.revision, a.epoch, room.relay_text())
            if tamper is not None:
                notice = tamper(notice)
            await b.remote_change(room.row.id, notice.revision, notice)
            await b._syncing[room.row.id]
            await asyncio.sleep(0)  # the socket's sender runs
    finally:
        Room._build_view = build  # type: ignore[method-assign]
        for hub in (a, b):
            await hub.close()
            hub.storage.close()
    return mover_views, [json.loads(t) for t in seen.texts], built


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


@pytest.mark.parametrize("relay", [True, False])
def test_the_other_process_uses_the_relayed_view(tmp_path: Path, relay: bool) -> None:
    def strip(notice: Notice) -> Notice:
        return Notice(notice.revision, notice.origin, "")

    url = f"sqlite:///{tmp_path / 'relay.sqlite3'}"
    mover, sent, built = asyncio.run(two_processes(url, None if relay else strip))
    spectator = replay(sent)[1:]
    assert [public(v) for v in spectator] == [json.loads(json.dumps(v)) for v in mover]
    assert built == (0 if relay else 3)


def test_a_relayed_view_of_another_revision_is_not_used(tmp_path: Path) -> None:
    """A notice whose view is not the view of the revision it names (a bug, a mixed rollout)
    is ignored: the process builds its own, and its sockets see the true position."""

    def older(notice: Notice) -> Notice:
        view = json.loads(notice.view_text)
        view["version"] = [view["version"][0], notice.revision - 1]
        view["ply"] = -1
        return Notice(notice.revision, notice.origin, json.dumps(view))

    url = f"sqlite:///{tmp_path / 'relay.sqlite3'}"
    mover, sent, built = asyncio.run(two_processes(url, older))
    assert built == 3
    assert [v["ply"] for v in replay(sent)[1:]] == [v["ply"] for v in mover]


def test_a_notice_survives_its_text_form() -> None:
    notice = Notice(12, "abc", json.dumps({"a": "x y z"}))
    again = Notice.decode(notice.encode().encode())
    assert (again.revision, again.origin, json.loads(again.view_text)) == (
        12,
        "abc",
        {"a": "x y z"},
    )
    assert Notice.decode(b"7 abc").view_text == ""
    with pytest.raises(ValueError):
        Notice.decode(b'{"revision": 3}')
