"""Ceilings that hold under a burst (issue 47): requests sent at the same moment, to one server
process and to two sharing PostgreSQL, get no more than the ceiling, with the production
defaults (nothing lifted). The fourth attack round sent 60 sign-ins at once and got 59 password
checks; 150 at once made 103; 30 + 30 on two processes made 60.

Real ``boardplay serve`` processes on loopback. A visitor's address is set with
``X-Forwarded-For``, which uvicorn believes from loopback (its default), so one test client can
be many visitors."""

from __future__ import annotations

import asyncio
import itertools
import os
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import devservices as ds
import httpcalls
import httpx
import pytest

import boardplay

HERE = Path(__file__).parents[1]
SOURCE = Path(boardplay.__file__).resolve().parents[1]
"""The package under test, first on the servers' path, so they serve it wherever it is checked
out (a worktree beside the installed copy)."""
_names = itertools.count()


def env_of(database: str, **extra: str) -> dict[str, str]:
    return {
        "BOARDPLAY_DATABASE_URL": database,
        "BOARDPLAY_WEB_CATALOGUE": "webtiny:TRIO_CATALOGUE",  # tiny, and trio for tables
        "BOARDPLAY_WEB_AI_WORKERS": "2",
        # Mail on, to a relay that never answers: confirmations are queued, and counted.
        "BOARDPLAY_WEB_SMTP_URL": f"smtp://127.0.0.1:{ds.free_port()}",
        "BOARDPLAY_WEB_MAIL_FROM": "boardplay@play.example.org",
        "BOARDPLAY_WEB_ORIGIN": "https://play.example.org",
        "PYTHONPATH": f"{SOURCE}{os.pathsep}{HERE}",
        **extra,
    }


@pytest.fixture(scope="module")
def single(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[str]]:
    """One process on SQLite, every ceiling at its default."""
    database = f"sqlite:///{tmp_path_factory.mktemp('bursts') / 'b.sqlite3'}"
    port = ds.free_port()
    process = ds.start_server(port, env_of(database))
    try:
        yield [f"http://127.0.0.1:{port}"]
    finally:
        ds.stop_server(process)


@pytest.fixture(scope="module")
def pair(postgres_url: str) -> Iterator[list[str]]:
    """Two processes on one PostgreSQL database, every ceiling at its default."""
    database = ds.new_database(postgres_url, f"bursts_{next(_names)}_{int(time.time()) % 10**6}")
    ports = [ds.free_port() for _ in range(2)]
    processes = [ds.start_server(port, env_of(database)) for port in ports]
    try:
        yield [f"http://127.0.0.1:{port}" for port in ports]
    finally:
        for process in processes:
            ds.stop_server(process)


_visitors = itertools.count(1)


def visitor() -> dict[str, str]:
    """Headers of a visitor on an address (and network) of its own."""
    n = next(_visitors)
    return {"X-Forwarded-For": f"198.{18 + n // 250}.{n % 250}.7"}


Call = tuple[str, str, dict[str, Any], dict[str, str]]
"""A request: method, URL, JSON body, headers."""


def at_once(calls: Sequence[Call]) -> list[httpx.Response]:
    """Send every (method, url, json, headers) at the same moment; the answers in order."""

    async def send() -> list[httpx.Response]:
        limits = httpx.Limits(max_connections=len(calls))
        async with httpx.AsyncClient(timeout=60, limits=limits) as client:
            return list(
                await asyncio.gather(
                    *(client.request(m, url, json=body, headers=h) for m, url, body, h in calls)
                )
            )

    return asyncio.run(send())


def signed_up(base: str, name: str, headers: dict[str, str]) -> dict[str, str]:
    """Headers of a new account's session (cookie and CSRF token) from ``headers``' address."""
    answer = httpcalls.post(
        f"{base}/api/account/signup",
        json={"name": name, "password": "correct horse battery"},
        headers=headers,
    )
    assert answer.status_code == 201, answer.text
    cookie = answer.cookies["boardplay_session"]
    return {
        **headers,
        "Cookie": f"boardplay_session={cookie}",
        "X-CSRF-Token": answer.json()["csrf"],
    }


def codes(answers: Sequence[httpx.Response]) -> dict[int, int]:
    out: dict[int, int] = {}
    for answer in answers:
        out[answer.status_code] = out.get(answer.status_code, 0) + 1
    return out


def wrong_sign_ins(
    bases: Sequence[str], name: str, count: int, headers: dict[str, str]
) -> list[Call]:
    body = {"name": name, "password": "wrong guess!"}
    return [
        ("POST", f"{bases[i % len(bases)]}/api/account/signin", body, headers) for i in range(count)
    ]


def test_sixty_wrong_passwords_at_once_make_five_checks_and_lock_the_right_one_out(
    single: list[str],
) -> None:
    base = single[0]
    signed_up(base, "Target1", visitor())
    attacker = visitor()
    answers = at_once(wrong_sign_ins(single, "Target1", 60, attacker))
    found = codes(answers)
    assert found.get(401, 0) == 5, found  # five password checks, and no more
    assert found.get(429, 0) == 55, found
    assert {a.json()["error"]["code"] for a in answers if a.status_code == 429} == {
        "signin_throttled"
    }
    right = httpcalls.post(
        f"{base}/api/account/signin",
        json={"name": "Target1", "password": "correct horse battery"},
        headers=visitor(),
    )
    assert right.status_code == 429 and "passkey" in right.json()["error"]["message"]


def test_the_right_password_in_a_burst_gets_no_more_than_five_checks(single: list[str]) -> None:
    base = single[0]
    signed_up(base, "Target2", visitor())
    attacker = visitor()
    calls = wrong_sign_ins(single, "Target2", 59, attacker)
    calls.append(
        (
            "POST",
            f"{base}/api/account/signin",
            {"name": "Target2", "password": "correct horse battery"},
            attacker,
        )
    )
    found = codes(at_once(calls))
    assert found.get(401, 0) + found.get(200, 0) <= 5, found


def test_the_owner_keeps_signing_in_on_their_own_device_during_an_attack(
    single: list[str],
) -> None:
    base = single[0]
    owner = visitor()
    made = httpcalls.post(
        f"{base}/api/account/signup",
        json={"name": "Target3", "password": "correct horse battery"},
        headers=owner,
    )
    device = made.cookies["boardplay_device"]
    at_once(wrong_sign_ins(single, "Target3", 20, visitor()))
    locked = httpcalls.post(
        f"{base}/api/account/signin",
        json={"name": "Target3", "password": "correct horse battery"},
        headers=visitor(),
    )
    assert locked.status_code == 429
    mine = httpcalls.post(
        f"{base}/api/account/signin",
        json={"name": "Target3", "password": "correct horse battery"},
        headers={**owner, "Cookie": f"boardplay_device={device}"},
    )
    assert mine.status_code == 200, mine.text


def test_thirty_and_thirty_on_two_processes_make_five_checks(pair: list[str]) -> None:
    signed_up(pair[0], "Target4", visitor())
    found = codes(at_once(wrong_sign_ins(pair, "Target4", 60, visitor())))
    assert found.get(401, 0) == 5, found


def test_a_burst_of_sign_ups_from_one_address_makes_five_accounts(pair: list[str]) -> None:
    crowd = visitor()
    calls = [
        (
            "POST",
            f"{pair[i % 2]}/api/account/signup",
            {"name": f"Bulk{i}", "password": "correct horse battery"},
            crowd,
        )
        for i in range(20)
    ]
    found = codes(at_once(calls))
    assert found == {201: 5, 429: 15}, found
    signed_up(pair[1], "Elsewhere", visitor())  # another address is not held up


def test_a_crowd_cannot_bury_one_player_in_challenges(single: list[str]) -> None:
    base = single[0]
    signed_up(base, "Buried", visitor())
    crowd: list[dict[str, str]] = []
    for group in range(4):
        address = visitor()
        crowd += [signed_up(base, f"Crowd{group}x{i}", address) for i in range(5)]
    body = {"to": "Buried", "game": "tiny", "clock": {"days": 1}}
    found = codes(at_once([("POST", f"{base}/api/challenges", body, h) for h in crowd]))
    assert found.get(201, 0) == 10 and found.get(429, 0) == 10, found


def test_a_burst_of_seeks_stores_three(pair: list[str]) -> None:
    me = signed_up(pair[0], "Seeker", visitor())
    body = {"game": "tiny", "clock": {"days": 1}}
    found = codes(at_once([("POST", f"{pair[i % 2]}/api/seeks", body, me) for i in range(12)]))
    assert found.get(201, 0) == 3, found


def test_a_burst_of_seats_holds_three_and_a_burst_for_a_last_seat_starts_one_game(
    pair: list[str],
) -> None:
    """Open tables (three players, ``trio``): one account taking a seat at six tables at once,
    on two processes, holds three (``seats_per_account``); eight players taking a table's last
    seat at once start exactly one game."""
    owners = [signed_up(pair[i % 2], f"Host{i}", visitor()) for i in range(7)]
    tables = []
    for i, owner in enumerate(owners):
        answer = httpcalls.post(f"{pair[i % 2]}/api/seeks", json={"game": "trio"}, headers=owner)
        assert answer.status_code == 201, answer.text
        tables.append(answer.json()["seek"]["id"])
    sitter = signed_up(pair[0], "Sitter", visitor())
    calls = [
        ("POST", f"{pair[i % 2]}/api/seeks/{t}/sit", {}, sitter) for i, t in enumerate(tables[:6])
    ]
    found = codes(at_once(calls))
    assert found == {200: 3, 429: 3}, found
    crowd = [signed_up(pair[i % 2], f"Crowd{i}", visitor()) for i in range(8)]
    last = f"/api/seeks/{tables[6]}/sit"
    answers = at_once([("POST", f"{pair[i % 2]}{last}", {}, h) for i, h in enumerate(crowd)])
    taken = [a.json() for a in answers if a.status_code == 200]
    assert len(taken) == 2, codes(answers)  # the table's two free seats, and no more
    assert {a.status_code for a in answers} <= {200, 404, 409}, codes(answers)  # full, gone
    assert [t["started"] is None for t in taken].count(True) == 1, taken  # one game started


def test_a_burst_of_games_from_one_address_makes_its_hours_share(pair: list[str]) -> None:
    maker = visitor()
    body = {"game": "tiny", "seats": [{"kind": "me"}, {"kind": "hotseat"}]}
    found = codes(at_once([("POST", f"{pair[i % 2]}/api/games", body, maker) for i in range(40)]))
    assert found == {201: 30, 429: 10}, found


def test_a_burst_of_confirmation_mails_to_one_address_sends_three(pair: list[str]) -> None:
    crowd = [signed_up(pair[0], f"Mailer{i}", visitor()) for i in range(6)]
    body = {"address": "victim@example.org"}
    answers = at_once(
        [("PUT", f"{pair[i % 2]}/api/account/email", body, h) for i, h in enumerate(crowd)]
    )
    sent = [a for a in answers if a.status_code == 200 and a.json()["sent"]]
    refused = [a for a in answers if a.status_code == 429]
    assert len(sent) == 3 and len(refused) == 3, codes(answers)


def test_many_addresses_of_ai_only_games_leave_a_visitor_instant_ai(single: list[str]) -> None:
    base = single[0]
    hog = {"kind": "ai", "spec": "mcts(time=2)"}
    calls = []
    for _ in range(8):  # eight addresses on eight networks, two AI-only games each, at once
        address = visitor()
        calls += [("POST", f"{base}/api/games", {"game": "tiny", "seats": [hog, hog]}, address)] * 2
    found = codes(at_once(calls))
    assert found.get(201, 0) == 8 and found.get(429, 0) == 8, found  # the server's ceiling
    time.sleep(0.5)  # the hogs are thinking
    started = time.monotonic()
    made = httpcalls.post(
        f"{base}/api/games",
        json={"game": "tiny", "seats": [{"kind": "ai", "spec": "random"}, {"kind": "me"}]},
        headers=visitor(),
    )
    assert made.status_code == 201, made.text
    game_id, token = made.json()["id"], made.json()["token"]
    while True:
        view = httpcalls.get(
            f"{base}/api/games/{game_id}", headers={"Authorization": f"Bearer {token}"}
        ).json()
        if view["current_player"] == 1:
            break
        assert time.monotonic() - started < 1.0, "the visitor's AI waited behind the hogs"
        time.sleep(0.02)


def test_bursts_of_tournaments_and_of_tournament_chat_hold_their_ceilings(
    pair: list[str],
) -> None:
    """One account's burst of tournaments across two processes makes as many as one account may
    have open (3); its burst of lines in a tournament's chat stores one (one a second)."""
    me = signed_up(pair[0], "Organiser", visitor())
    body = {
        "kind": "swiss",
        "game": "tiny",
        "clock": {"base": 600, "increment": 5},
        "starts": time.time() + 600,
        "rounds": 1,
    }
    calls = [
        ("POST", f"{pair[i % 2]}/api/tournaments", {**body, "name": f"Burst {i}"}, me)
        for i in range(12)
    ]
    answers = at_once(calls)
    found = codes(answers)
    assert found.get(201, 0) == 3, found
    tid = next(a.json()["tournament"]["id"] for a in answers if a.status_code == 201)
    assert httpcalls.post(f"{pair[0]}/api/tournaments/{tid}/join", headers=me).status_code == 200
    line = {"text": "hello"}
    path = f"/api/tournament-pages/{tid}/chat"
    found = codes(at_once([("POST", f"{pair[i % 2]}{path}", line, me) for i in range(12)]))
    assert found.get(201, 0) == 1, found
    assert len(httpcalls.get(f"{pair[1]}{path}").json()["messages"]) == 1
