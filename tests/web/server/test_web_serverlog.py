"""A failure a test server logs fails the test (browsing.py's ``ServerLog``): a describer that
raises leaves the page working, without move words, and the server logs its traceback, which the
harness (``check_server_logs``, run after every page and at the server fixture's stop) turns into
a failed test instead of an unclickable board that nobody notices."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import httpcalls
import pytest
from browsing import SERVER_LOGS, check_server_logs, failures_in, free_port, serve

HERE = Path(__file__).resolve().parents[1]


def test_a_describer_that_raises_fails_the_test(tmp_path: Path) -> None:
    port = free_port()
    env = {
        "BOARDPLAY_WEB_CATALOGUE": "brokenwords:CATALOGUE",
        "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")]),
    }
    process = serve(tmp_path / "words.sqlite3", port, env)
    try:
        check_server_logs()  # a clean start: nothing to report
        base = f"http://127.0.0.1:{port}"
        created = httpcalls.post(
            f"{base}/api/games",
            json={"game": "tiny", "seats": [{"kind": "me"}, {"kind": "hotseat"}]},
        ).json()
        headers = {"Authorization": f"Bearer {created['token']}"}
        url = f"{base}/api/games/{created['id']}"
        moved = httpcalls.post(f"{url}/actions", json={"action": "t1"}, headers=headers)
        # The game goes on, without the words the describer would have given.
        assert moved.status_code == 200, moved.text
        game = httpcalls.get(url, headers=headers).json()
        assert game["moves"][-1]["move"] == "t1" and "words" not in game["moves"][-1]
        with pytest.raises(pytest.fail.Exception, match="a describer bug"):
            check_server_logs()
        check_server_logs()  # each failure is reported once
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
        SERVER_LOGS.pop()


def test_failures_in_a_log() -> None:
    """Tracebacks (with their message and exception) and swallowed failures are found; other
    lines, the server's warnings among them, are not."""
    log = (
        "INFO:     Started server process [1]\n"
        "could not describe tiny move t1: boom\n"
        "Traceback (most recent call last):\n"
        '  File "x.py", line 1, in f\n'
        "    raise RuntimeError('boom')\n"
        "RuntimeError: boom\n"
        "AI worker pool broke; starting a new one\n"
        "could not build a view field: no hints\n"
    )
    assert failures_in(log) == [
        "could not describe tiny move t1: boom ... RuntimeError: boom",
        "could not build a view field: no hints",
    ]
