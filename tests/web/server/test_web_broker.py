"""The broker on a real Redis: a process alone publishes nothing (nobody would read it), and
starts again the moment another process announces itself; every other process hears a notice
once, and its sender never hears it back; a hung Redis counts as down and the notices wait for
it; a malformed message is passed over; a password in the URL is sent."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from pathlib import Path

import pytest

from boardplay.web import broker, resp
from boardplay.web.broker import Broker, Notice


async def _until(check: object, seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if callable(check) and check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("timed out")


Heard = dict[str, list[tuple[str, int]]]


async def _nothing() -> None:
    return None


def _broker(redis_url: str, heard: Heard, name: str) -> Broker:
    """A broker whose deliveries are written down in ``heard[name]`` (game, revision)."""

    def changed(game_id: str, revision: int, _notice: Notice) -> None:
        heard[name].append((game_id, revision))

    return Broker(redis_url, changed, _nothing)


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
            # Each broker hears the announcements of those started after it. One that lands
            # between a publish and its answer makes the broker ignore the answer's count (it
            # may predate the newcomer), so the counts are read only once they have all landed.
            await _until(
                lambda: all(b.announced >= len(names) - 1 - i for i, b in enumerate(brokers))
            )
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


def _redis_pid(port: int) -> int:
    """The process id of the throwaway redis-server listening on ``port`` (its process title
    reads ``redis-server 127.0.0.1:<port>``)."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                title = (entry / "cmdline").read_bytes()
                if b"redis-server" in title and title.rstrip(b"\0 ").endswith(f":{port}".encode()):
                    return int(entry.name)
    raise AssertionError(f"no redis-server on port {port}")


def test_a_hung_redis_counts_as_down_and_the_notices_wait_for_it() -> None:
    """Redis stops answering (not gone: stopped, its connections open). A publish left
    unanswered past the timeout makes the publisher drop the connection and count Redis down;
    the notice waits in the outbox and reaches the other process once Redis answers again."""
    import devservices as ds

    port = ds.free_port()

    async def scenario(url: str) -> None:
        heard: Heard = {"a": [], "b": []}
        a, b = _broker(url, heard, "a"), _broker(url, heard, "b")
        await a.start()
        await b.start()
        try:
            a.publish("g", Notice(1, "a"))
            await _until(lambda: ("g", 1) in heard["b"])
            pid = _redis_pid(port)
            os.kill(pid, signal.SIGSTOP)
            try:
                a.publish("g", Notice(2, "a"))
                await _until(lambda: a.down, seconds=3 * broker.TIMEOUT_SECONDS + 2)
                assert "g" in a.outbox and a.sender is None
                assert ("g", 2) not in heard["b"]
            finally:
                os.kill(pid, signal.SIGCONT)
            await _until(lambda: ("g", 2) in heard["b"], seconds=10)
            await _until(lambda: not a.down)
            assert not a.outbox
        finally:
            await a.close()
            await b.close()

    with ds.redis(port) as url:
        asyncio.run(scenario(url))


def test_a_malformed_message_is_ignored_and_the_next_one_heard(redis_url: str) -> None:
    async def scenario() -> None:
        heard: Heard = {"b": []}
        b = _broker(redis_url, heard, "b")
        await b.start()
        other = await resp.connect(redis_url, lambda _message: None, 2)
        try:
            channel = f"{broker.CHANNEL}ffffffff:g"
            assert await other.call("PUBLISH", channel, "not a notice") == 1
            assert await other.call("PUBLISH", channel, Notice(7, "ffffffff").encode()) == 1
            await _until(lambda: heard["b"] == [("g", 7)])
        finally:
            other.close()
            await b.close()

    asyncio.run(scenario())


def test_a_topic_message_goes_to_the_other_processes_handler_and_is_never_kept(
    redis_url: str,
) -> None:
    """``Broker.send`` (the chat's way across): the other process's handler of the topic gets
    the text, no game notice is made of it, and a process without Redis drops it."""

    async def scenario() -> None:
        heard: Heard = {"a": [], "b": []}
        a, b = _broker(redis_url, heard, "a"), _broker(redis_url, heard, "b")
        texts: list[str] = []
        b.topics["chat"] = texts.append
        await a.start()
        await b.start()
        try:
            assert a.send("chat", '{"text": "hi"}')
            assert a.send("other", "nobody listens to this topic")
            await _until(lambda: texts == ['{"text": "hi"}'])
            assert heard == {"a": [], "b": []} and not a.outbox
        finally:
            await a.close()
            await b.close()
        cut = Broker("redis://127.0.0.1:1/0", lambda *_: None, _nothing)
        assert not cut.send("chat", "lost") and not cut.outbox

    asyncio.run(scenario())


def test_a_connection_authenticates_with_the_password_in_its_url(redis_url: str) -> None:
    """``resp.connect`` sends ``AUTH`` when the URL holds a password; Redis refusing it (or a
    command sent without it) comes back as ``RedisError``, never as a reply taken for data."""
    host_port = redis_url.removeprefix("redis://").partition("/")[0]

    async def scenario() -> None:
        admin = await resp.connect(redis_url, lambda _message: None, 2)
        await admin.call("CONFIG", "SET", "requirepass", "s3cret word")
        try:
            inside = await resp.connect(f"redis://:s3cret%20word@{host_port}/0", print, 2)
            assert await inside.call("PING") == b"PONG"
            inside.close()
            with pytest.raises(resp.RedisError):
                await resp.connect(f"redis://:wrong@{host_port}/0", print, 2)
            outside = await resp.connect(redis_url, print, 2)
            with pytest.raises(resp.RedisError, match="NOAUTH"):
                await outside.call("PING")
            outside.close()
        finally:
            await admin.call("CONFIG", "SET", "requirepass", "")
            admin.close()

    asyncio.run(scenario())


@pytest.mark.parametrize(
    "url", ["http://127.0.0.1:6379", "redis://127.0.0.1:port/0", "unix://", "127.0.0.1:6379"]
)
def test_a_mistyped_redis_url_is_refused_at_start_naming_the_forms(url: str) -> None:
    with pytest.raises(ValueError, match=r"not a Redis URL.*"):
        Broker(url, lambda *_: None, _nothing)
    for good in ("redis://h", "redis://:pw@h:6380/2", "rediss://u:pw@h", "unix:///run/r.sock"):
        resp.check_url(good)


def test_the_server_needs_hiredis_only_when_a_redis_url_is_set() -> None:
    """A server without Redis (the web extra alone, as the wheel's check installs it) imports
    without hiredis; a Redis URL without it is refused at start, naming the extra to install."""
    import subprocess
    import sys

    script = (
        "import sys; sys.modules['hiredis'] = None\n"
        "import boardplay.web.app\n"
        "from boardplay.web.broker import Broker\n"
        "try:\n"
        "    Broker('redis://127.0.0.1', lambda *_: None, None)\n"
        "except RuntimeError as exc:\n"
        "    print(exc)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "pip install 'boardplay[cluster]'" in done.stdout
