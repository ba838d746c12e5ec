"""berserk 0.14 (lichess's own Python client), unchanged and unpatched, against a real server
(issue 63's acceptance): two berserk bots and a person play each of the four games to its end,
a test per game (so the games spread over the suite's workers).

- **Bot against bot**: bot A challenges bot B to each game with ``challenges.create`` in
  lichess's fields (``variant``, ``clock_limit``, ``clock_increment``, ``color``); B hears each on
  ``bots.stream_incoming_events`` and accepts it (``bots.accept_challenge``); both play from
  ``bots.stream_game_state`` with ``bots.make_move``, a random move of the stream's ``legal``
  list, until the rules end the game. A rated challenge B declines (``bots.decline_challenge``
  with a reason); one game A aborts before its first move (``bots.abort_game``), one B resigns
  (``bots.resign_game``).
- **Bot against a person**: the person challenges A through the site's routes and plays through
  them (as a page does); A accepts and plays, and writes in the players' chat and in the
  spectators' (``bots.post_message``), which the person cannot read until the game is over.

Every game's id is its challenge's (lichess's rule) and ``gameFull.createdAt`` is epoch
milliseconds (berserk turns it into a ``datetime``); ``bots.get_online_bots`` lists both bots
and ``challenges.get_mine`` A's challenges. Any berserk call that fails raises, and a
game that does not end by its rules fails the test."""

from __future__ import annotations

import queue
import random
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import berserk
import httpcalls
import httpx
import pytest
from botcalls import SOURCE, Person, make_bot, sign_up
from browsing import free_port, serve

GAMES = ("proteus", "potlatch", "passtally", "montana")
SERVER = {
    "PYTHONPATH": str(SOURCE),
    # Eight games at once from two tokens and one address: a test far faster than bots are.
    "BOARDPLAY_WEB_API_REQUESTS_PER_MINUTE": "1000000",
    "BOARDPLAY_WEB_CHALLENGES_PER_HOUR": "1000",
}
WAIT = 600.0
"""Seconds the games may take in all, on a machine loaded by other work (they take well under a
minute on an idle one); a game that makes no move for ``STALL`` seconds fails at once."""
STALL = 60.0
PLIES: list[float] = []
"""When each ply the bots saw came (a game stuck shows as no new one)."""


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db: Path = tmp_path_factory.mktemp("berserk") / "berserk.sqlite3"
    port = free_port()
    server = serve(db, port, SERVER)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=30)


class BerserkBot:
    """A bot written with berserk alone: its event stream read in a thread; each challenge
    declined if rated (with lichess's reason ``rated``) and accepted if not; each game started
    played in a thread of its own by ``play``; what it saw kept for the test to look at."""

    def __init__(self, base: str, token: str, name: str) -> None:
        self.name = name
        self.client = berserk.Client(berserk.TokenSession(token), base_url=base)
        self.events: queue.Queue[Any] = queue.Queue()
        self.finished: dict[str, dict[str, Any]] = {}
        """Each game's last ``gameState``, once its stream ended."""
        self.full: dict[str, dict[str, Any]] = {}
        self.errors: list[BaseException] = []
        self.plan: dict[str, str] = {}
        """What to do in a game besides playing it out: ``abort`` at once, ``resign`` after a
        move each, ``chat`` (both rooms, at its start)."""
        threading.Thread(target=self._listen, daemon=True).start()

    def _listen(self) -> None:
        try:
            for line in self.client.bots.stream_incoming_events():
                event: dict[str, Any] = dict(line)
                self.events.put(event)
                to = event.get("challenge", {}).get("destUser", {}).get("name")
                if event["type"] == "challenge" and to == self.name:
                    challenge_id = event["challenge"]["id"]
                    if event["challenge"]["rated"]:  # casual games only, it says
                        self.client.bots.decline_challenge(challenge_id, reason="rated")
                    else:
                        self.client.bots.accept_challenge(challenge_id)
                elif event["type"] == "gameStart":
                    game_id = event["game"]["gameId"]
                    threading.Thread(target=self._guarded, args=(game_id,), daemon=True).start()
        except BaseException as exc:  # the server stopping ends the stream
            self.errors.append(exc)

    def _guarded(self, game_id: str) -> None:
        try:
            self.play(game_id)
        except BaseException as exc:
            self.errors.append(exc)
            raise

    def play(self, game_id: str) -> None:
        bots = self.client.bots
        plan = self.plan.get(game_id, "")
        seats: list[int] = []
        moved = 0
        for line in bots.stream_game_state(game_id):
            if line["type"] == "gameFull":
                self.full[game_id] = line
                seats, state = line["yourSeats"], line["state"]
                if plan == "chat":
                    bots.post_message(game_id, f"{self.name} here: good luck")
                    bots.post_message(game_id, "engine: depth 1, random", spectator=True)
            elif line["type"] == "gameState":
                state = line
                PLIES.append(time.monotonic())
            else:
                continue
            if state["status"] != "started":
                self.finished[game_id] = state
                return
            if state["turn"] not in seats:
                continue
            if plan == "abort":
                bots.abort_game(game_id)
            elif plan == "resign" and moved:
                bots.resign_game(game_id)
            else:
                bots.make_move(game_id, random.choice(state["legal"]))
                moved += 1

    def gone(self) -> None:
        """End its streams: the client's session closes its connections."""
        self.client._r.session.close()


def game_key(key: str) -> Any:
    """A game's key as berserk's ``variant`` (typed there as lichess's chess variants)."""
    return key


def until(
    check: Any, seconds: float = WAIT, what: str = "", seen: list[httpx.Response] | None = None
) -> Any:
    """Poll ``check`` until it holds; a failure names ``what`` and, given ``seen``, the last
    answer the server gave (its status and body, not only that the check did not hold)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    last = f"{seen[-1].status_code} {seen[-1].text[:300]}" if seen else ""
    raise AssertionError(f"not within {seconds:g} s: {what.format(last=last)}")


def person_plays(base: str, person: Person, game_id: str, out: dict[str, Any]) -> None:
    """The person's side through the site's routes, a random legal move on each turn; what
    stopped it, if anything did, in ``out["error"]`` (a thread's exception would be lost)."""
    keyed = person.post(base, f"/api/account/games/{game_id}/token")
    if keyed.status_code != 200:
        out["error"] = f"the person's seat token: {keyed.status_code} {keyed.text[:300]}"
        return
    token = keyed.json()["token"]
    mine = {"Authorization": f"Bearer {token}"}
    deadline = time.monotonic() + WAIT
    with httpx.Client(base_url=base, headers=mine, timeout=20) as http:
        while time.monotonic() < deadline:
            view = http.get(f"/api/games/{game_id}").json()
            if view["status"] == "finished":
                out[game_id] = view
                return
            if not view["your_turn"]:
                time.sleep(0.1)
                continue
            move = random.choice(view["legal"])["move"]
            answer = http.post(
                f"/api/games/{game_id}/actions", json={"action": move, "ply": view["ply"]}
            )
            assert answer.status_code in (200, 409), answer.text  # 409: a clock or race


@pytest.mark.parametrize("key", GAMES)
def test_berserk_plays_a_game_against_a_bot_and_a_person(base: str, key: str) -> None:
    """One game each (so the four spread over the suite's workers); Proteus's also has the
    declined, aborted and resigned challenges, Passtally's the spectators' chat. Montana's
    (a minute of random moves) is make soak's: its stream is test_web_bots_streamed's."""
    started = time.monotonic()
    PLIES.clear()
    names = (f"bka{key}", f"bkb{key}")
    made_a, made_b = make_bot(base, names[0]), make_bot(base, names[1])
    person = sign_up(base, f"pat{key}")
    a = BerserkBot(base, made_a.token, names[0])
    b = BerserkBot(base, made_b.token, names[1])
    assert a.client.account.get()["title"] == "BOT"
    until(
        lambda: set(names) <= {u["username"] for u in a.client.bots.get_online_bots()},
        20,
        "both bots online (their event streams open)",
    )
    online = list(a.client.bots.get_online_bots())
    assert all(isinstance(u["createdAt"], datetime) and u["title"] == "BOT" for u in online)

    # Bot against bot: the game, and with Proteus a rated challenge B declines (lichess's
    # reason) and two short games (an abort, a resignation).
    challenges: dict[str, str] = {}
    made = a.client.challenges.create(
        names[1],
        rated=False,
        clock_limit=600,
        clock_increment=5,
        color="white",
        variant=game_key(key),
    )
    assert made["game"] == key
    challenges[made["id"]] = key
    assert set(challenges) <= {c["id"] for c in a.client.challenges.get_mine()["out"]}
    if key == "proteus":
        rated = a.client.challenges.create(
            names[1], rated=True, clock_limit=300, clock_increment=3, variant=game_key(key)
        )
        until(
            lambda: any(
                e["type"] == "challengeDeclined" and e["challenge"]["id"] == rated["id"]
                for e in list(a.events.queue)
            ),
            20,
            "A hears its challenge declined",
        )
        for plan in ("abort", "resign"):
            made = a.client.challenges.create(names[1], rated=False, days=1, variant=game_key(key))
            a.plan[made["id"]] = b.plan[made["id"]] = plan
            challenges[made["id"]] = plan

    # Bot against a person: the person challenges A through the site and plays through it.
    played: dict[str, Any] = {}
    sent = person.post(
        base,
        "/api/challenges",
        {"to": names[0], "game": key, "clock": {"base": 600, "increment": 5}},
    )
    assert sent.status_code == 201, sent.text
    person_game = sent.json()["challenge"]["id"]
    a.plan[person_game] = "chat"
    until(
        lambda: any(
            c["id"] == person_game and c["game_id"] == person_game
            for c in person.get(base, "/api/challenges").json()["outgoing"]
        ),
        30,
        f"A accepts the person's challenge {person_game}, whose game has its id",
    )
    thread = threading.Thread(
        target=person_plays, args=(base, person, person_game, played), daemon=True
    )
    thread.start()

    if key == "passtally":  # the bot's line is for spectators only
        spectators = f"{base}/api/games/{person_game}/chat?channel=spectators"
        seen: list[httpx.Response] = []

        def spoken() -> bool:
            seen.append(httpcalls.get(spectators, timeout=20))
            return seen[-1].status_code == 200 and bool(seen[-1].json()["messages"])

        until(spoken, 30, "the bot's line in the spectators' chat (last answer: {last})", seen)
        seat = person.post(base, f"/api/account/games/{person_game}/token").json()["token"]
        hidden = httpcalls.get(spectators, headers={"Authorization": f"Bearer {seat}"}, timeout=20)
        view = httpcalls.get(f"{base}/api/games/{person_game}", timeout=20).json()
        assert hidden.status_code == 403 or view["status"] == "finished", hidden.text

    every = [*challenges, person_game]

    def ended() -> bool:
        stalled = PLIES and time.monotonic() - max(PLIES) > STALL
        left = [g for g in every if g not in a.finished]
        assert "error" not in played, played["error"]
        assert not stalled, f"no move for {STALL:g} s; games not over: {left}; {a.errors}"
        return not left

    until(ended, WAIT, "every game of A ends")
    until(lambda: all(g in b.finished for g in challenges), 30, "every game of B ends")
    thread.join(timeout=WAIT)
    assert not a.errors and not b.errors, (a.errors, b.errors)

    for game_id, what in challenges.items():
        for bot in (a, b):
            final = bot.finished[game_id]
            full = bot.full[game_id]
            assert full["id"] == game_id  # the challenge's id is the game's
            assert isinstance(full["createdAt"], datetime)  # epoch ms, converted by berserk
            assert abs(full["createdAt"] - datetime.now(UTC)) < timedelta(minutes=10)
            expected = {"abort": "aborted", "resign": "resign"}.get(what, "finished")
            assert final["status"] == expected, (what, final)
        if what in GAMES:
            assert a.full[game_id]["yourSeats"] == [0]  # color white: seat 0
            assert a.full[game_id]["game"] == what and final["winners"] is not None
    assert a.finished[person_game]["status"] == "finished", a.finished[person_game]
    assert played[person_game]["status"] == "finished" and played[person_game]["game"] == key
    # The players' chat carried the bot's greeting; the person reads the watchers' now.
    lines = person_reads(base, person, person_game, "players")
    assert [m["text"] for m in lines] == [f"{names[0]} here: good luck"], lines
    lines = person_reads(base, person, person_game, "spectators")
    assert [(m["name"], m["text"]) for m in lines] == [(names[0], "engine: depth 1, random")]
    a.gone()
    b.gone()
    print(f"{len(PLIES)} game states in {time.monotonic() - started:.1f} s")


def person_reads(base: str, person: Person, game_id: str, channel: str) -> list[dict[str, Any]]:
    """A channel of a game's chat, as the person reads it with their seat's token."""
    token = person.post(base, f"/api/account/games/{game_id}/token").json()["token"]
    answer = httpcalls.get(
        f"{base}/api/games/{game_id}/chat?channel={channel}",
        headers={"Authorization": f"Bearer {token}"},
        timeout=20,
    )
    assert answer.status_code == 200, answer.text
    messages: list[dict[str, Any]] = answer.json()["messages"]
    return messages
