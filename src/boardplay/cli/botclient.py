"""The client behind ``boardplay bot``: an agent the project knows, or research code
(``botpolicy``), playing on a boardplay server through the Bot API (docs/bots.md) with a
personal API token.

It reads the account's event stream; a challenge is accepted when it passes the filter (``Wanted``:
the games, rated or casual, the clock) and the agent can play its game here, else declined; every
game the bot is in (``gameStart``: on connecting, the ones running) is played in a thread of its
own that reads the game's stream and answers each ``gameState`` whose turn is the bot's with the
agent's move, rebuilt from the moves so far (chance outcomes included, so the position is exactly
the server's). A dropped stream is opened again after a growing pause (½ s to 8 s), and the
server's ``gameFull`` then gives the game as it is, so a restart of the server, or of the
network, costs a game nothing but the time it was away; a server not up yet at the start is
waited for alike.

No limit can cost it a game: a move refused for the rate (429), by a server error (5xx) or lost
on the network is sent again, after the ``Retry-After`` the server asks for or a growing
pause, for as long as the bot's clock allows; each carries the ply it is for (``?ply=``), so a
move the server took but whose answer was lost is refused as stale (409), never played twice.
A challenge it will not or cannot play is declined with lichess's reason (``DECLINE``), never
left open. Research code that fails at a decision (``PolicyError``: it raised, or chose an
illegal action), or cannot be made for a tournament's game, resigns that game rather than have
a move played that it did not choose. Everything it does is logged (``logging``, the logger
``boardplay.bot``)."""

from __future__ import annotations

import json
import logging
import random
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import httpx

from boardplay.ai.agents import Agent
from boardplay.ai.specs import make_agent
from boardplay.cli.botpolicy import AgentFactory, PolicyError, is_reference, research_agents
from boardplay.core.errors import BoardplayError
from boardplay.core.game import Game, State
from boardplay.core.registry import load

log = logging.getLogger("boardplay.bot")

BACKOFF = (0.5, 1.0, 2.0, 4.0, 8.0)
"""Seconds to wait before the first, second ... reconnection (the last repeats)."""
READ_TIMEOUT = 30.0
"""Seconds a stream may stay silent (the server sends an empty line every few seconds)."""
MARGIN = 0.5
"""Seconds before its clock falls that a bot stops re-sending a move (it would arrive late)."""
PATIENCE = 120.0
"""Seconds a move of an untimed game, or an answer to a challenge, is tried again at most."""
DECLINE = frozenset(
    {"generic", "later", "tooFast", "tooSlow", "timeControl", "rated", "casual", "standard"}
    | {"variant", "noBot", "onlyBot"}
)
"""lichess's decline reasons (its ``/api/challenge/{id}/decline`` ``reason``)."""


def agent_factory(spec: str) -> AgentFactory:
    """What makes the agent of ``spec`` for a game: an agent spec or level the project knows
    (``mcts(time=1)``, ``hard``, ``policy(potlatch-ppo)``, ``random``), or research code named
    ``module:name`` or ``file.py:name`` (``botpolicy``: a policy, an SB3 model, an Agent, or a
    function that makes one of them for each game)."""
    if is_reference(spec):
        return research_agents(spec)
    return lambda game, seed: make_agent(spec, game, seed)


@dataclass(frozen=True)
class Wanted:
    """Which challenges the bot accepts: ``games`` (empty: any it can play), ``rated`` (None:
    both), ``clock`` (``any``, ``realtime``, ``correspondence`` or ``none``)."""

    games: frozenset[str] = frozenset()
    rated: bool | None = None
    clock: str = "any"

    def refuses(self, challenge: Mapping[str, Any]) -> tuple[str, str] | None:
        """Why the challenge is declined, as lichess's reason and in words (None: accept it)."""
        game = str(challenge.get("game"))
        if self.games and game not in self.games:
            return "variant", f"game {game} is not among {', '.join(sorted(self.games))}"
        if self.rated is not None and bool(challenge.get("rated")) != self.rated:
            return ("casual", "rated") if challenge.get("rated") else ("rated", "casual")
        clock = challenge.get("clock") or {}
        kind = "none" if not clock else "correspondence" if "days" in clock else "realtime"
        if self.clock != "any" and kind != self.clock:
            return "timeControl", f"clock {kind}"
        try:
            load(game, **dict(challenge.get("options") or {}))
        except BoardplayError as exc:
            return "standard", f"game {game} cannot be played here: {exc}"
        return None


def reason_for(refusal: httpx.Response, rated: bool) -> str:
    """lichess's decline reason for a challenge the server would not let the bot accept: a
    rated game refused between players who may not meet rated (``same_person``, a bot's daily
    cap ...) → ``casual``; a ceiling reached (429) → ``later``; else ``generic``."""
    code = _code(refusal)
    if rated and (code == "same_person" or "rated" in code):
        return "casual"
    if refusal.status_code == 429:
        return "later"
    return "generic"


def retry_after(response: httpx.Response) -> float | None:
    """The seconds a refusal asks the client to wait (``Retry-After``), if it says."""
    raw = response.headers.get("retry-after", "")
    try:
        return max(0.0, float(raw))
    except ValueError:
        return None


def lines(client: httpx.Client, path: str, stop: threading.Event) -> Iterator[dict[str, Any]]:
    """The objects of an ndjson stream (keep-alive empty lines skipped) until it ends or
    ``stop`` is set (looked at on every line, keep-alives included); raises
    ``httpx.HTTPStatusError`` for a refusal, ``httpx.HTTPError`` when the connection drops."""
    with client.stream("GET", path) as response:
        if response.status_code != 200:
            response.read()
            response.raise_for_status()
        for line in response.iter_lines():
            if stop.is_set():
                return
            if line.strip():
                yield json.loads(line)


def state_of(game: Game, moves: list[str]) -> State:
    """The position after ``moves`` (the game's notation, chance outcomes included)."""
    state = game.new_initial_state()
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


@dataclass
class BotClient:
    """One bot at one server: ``run`` until ``stop`` is set (or ``max_games`` have ended)."""

    server: str
    token: str
    make_agent: AgentFactory
    wanted: Wanted = field(default_factory=Wanted)
    max_games: int | None = None
    seed: int | None = None
    stop: threading.Event = field(default_factory=threading.Event)
    name: str = ""
    finished: list[str] = field(default_factory=list)
    playing: dict[str, threading.Thread] = field(default_factory=dict)
    retries: int = 0
    """Requests sent again after a 429, a 5xx or a network error (``_post``)."""

    def __post_init__(self) -> None:
        timeout = httpx.Timeout(20.0, read=READ_TIMEOUT)
        headers = {"Authorization": f"Bearer {self.token}"}
        self.client = httpx.Client(
            base_url=self.server.rstrip("/"), headers=headers, timeout=timeout
        )
        self.lock = threading.Lock()

    def whoami(self) -> dict[str, Any]:
        """The token's account (``GET /api/account``), waited for while the server is down,
        busy (5xx) or asks for a pause (429), as after a drop; raises ``HTTPStatusError`` if
        it refuses the token, ``HTTPError`` if told to stop first."""
        attempt = 0
        while True:
            try:
                answer = self.client.get("/api/account")
                if answer.status_code != 429 and answer.status_code < 500:
                    answer.raise_for_status()
                    me: dict[str, Any] = answer.json()
                    self.name = str(me["username"])
                    return me
                log.warning("the server answered %s; asking again", answer.status_code)
                wait = retry_after(answer)
            except httpx.TransportError as exc:
                log.warning("cannot reach %s (%s); trying again", self.server, exc)
                wait = None
            if self.stop.is_set():
                raise httpx.ConnectError(f"stopped before {self.server} answered")
            self._pause(attempt, wait)
            attempt += 1

    def _pause(self, attempt: int, wait: float | None = None) -> None:
        """Wait before trying again: what the server asked (``Retry-After``), else the backoff."""
        self.stop.wait(BACKOFF[min(attempt, len(BACKOFF) - 1)] if wait is None else wait)

    # ----- the event stream ------------------------------------------------------------------
    def run(self) -> None:
        """Read the event stream (again after every drop) until told to stop."""
        if not self.name:
            self.whoami()
        attempt = 0
        while not self.stop.is_set():
            wait: float | None = None
            try:
                for event in lines(self.client, "/api/stream/event", self.stop):
                    attempt = 0
                    self.on_event(event)
                    if self.stop.is_set():
                        break
                if not self.stop.is_set():
                    log.info("the event stream ended; connecting again")
            except httpx.HTTPStatusError as exc:
                if exc.response.status_code in (401, 403):
                    log.error("the server refuses this token (%s); stopping", exc.response.text)
                    self.stop.set()
                    break
                log.warning("the event stream was refused (%s); trying again", exc)
                wait = retry_after(exc.response)
            except (httpx.HTTPError, ValueError) as exc:
                log.warning("the event stream dropped (%s); connecting again", exc)
            self._pause(attempt, wait)
            attempt += 1
        for thread in list(self.playing.values()):
            thread.join(timeout=30)
        self.client.close()

    def on_event(self, event: Mapping[str, Any]) -> None:
        kind = event.get("type")
        if kind == "challenge":
            challenge = event["challenge"]
            threading.Thread(target=self.answer, args=(challenge,), daemon=True).start()
        elif kind == "gameStart":
            self.play(str(event["game"]["id"]))
        elif kind == "gameFinish":
            log.info("game %s finished (%s)", event["game"]["id"], event["game"].get("status"))
        elif kind in ("challengeDeclined", "challengeCanceled"):
            log.info("challenge %s: %s", event["challenge"].get("id"), kind)

    def answer(self, challenge: Mapping[str, Any]) -> None:
        """Accept the challenge, or decline it with lichess's reason: one the filter refuses,
        or one the server would not let the bot accept (the reason its refusal gives). A
        refusal for the rate is asked again after its ``Retry-After`` (in a thread of its own:
        the event stream goes on meanwhile)."""
        if challenge.get("to") != self.name or challenge.get("status") != "open":
            return  # one this bot sent, or settled
        cid, who = str(challenge["id"]), challenge.get("from")
        refused = self.wanted.refuses(challenge)
        if refused is None and (why := self.cannot_play(challenge)) is not None:
            refused = "variant", why
        if refused is None:
            sent = self._post(f"/api/challenge/{quote(cid, safe='')}/accept", PATIENCE)
            if sent is not None and sent.status_code == 200:
                log.info("accepted challenge %s from %s (%s)", cid, who, challenge["game"])
                return
            if sent is None:
                return  # the server never answered: the challenge is still there on reconnect
            if sent.status_code == 404 or _code(sent) == "challenge_closed":
                log.info("challenge %s was answered or withdrawn meanwhile", cid)
                return
            reason = reason_for(sent, bool(challenge.get("rated")))
            refused = reason, f"the server refused it: {sent.text}"
        reason, why = refused
        answer = self._post(
            f"/api/challenge/{quote(cid, safe='')}/decline", PATIENCE, json={"reason": reason}
        )
        done = answer is not None and answer.status_code == 200
        log.info(
            "declined challenge %s from %s (%s): %s%s",
            cid,
            who,
            reason,
            why,
            "" if done else " (the decline was not taken)",
        )

    def _post(
        self, path: str, patience: float, json: Any = None, ply: int | None = None
    ) -> httpx.Response | None:
        """POST ``path`` until it is answered, within ``patience`` seconds: after a 429 (its
        ``Retry-After``), a 5xx or a network error (the backoff). The last answer (None: none
        came). A 409 ``stale`` to a retry means the first was taken: it is answered 200."""
        until = time.monotonic() + patience
        attempt = 0
        params = None if ply is None else {"ply": ply}
        while True:
            wait: float | None = None
            answer: httpx.Response | None = None
            try:
                answer = self.client.post(path, json=json, params=params)
                if answer.status_code == 409 and attempt and _code(answer) == "stale":
                    return httpx.Response(200, json={"ok": True}, request=answer.request)
                if answer.status_code != 429 and answer.status_code < 500:
                    return answer
                wait = retry_after(answer)
                log.warning("%s: %s %s; trying again", path, answer.status_code, answer.text)
            except httpx.TransportError as exc:
                log.warning("%s: %s; trying again", path, exc)
            wait = BACKOFF[min(attempt, len(BACKOFF) - 1)] if wait is None else wait
            if time.monotonic() + wait > until or self.stop.is_set():
                log.error("%s: given up, no answer in time", path)
                return answer
            self.retries += 1
            self.stop.wait(wait)
            attempt += 1

    def cannot_play(self, challenge: Mapping[str, Any]) -> str | None:
        """Why the agent cannot play the challenge's game (its maker refused it), or None."""
        try:
            game = load(str(challenge.get("game")), **dict(challenge.get("options") or {}))
            self.make_agent(game, self.seed)
        except BoardplayError as exc:
            return f"the agent does not play it: {exc}"
        return None

    def resign(self, game_id: str, why: str) -> None:
        """Resign the game, saying why in the log: the agent cannot play it, or failed in it."""
        log.error("game %s: %s; resigning", game_id, why)
        sent = self._post(f"/api/bot/game/{game_id}/resign", PATIENCE)
        if sent is None or sent.status_code != 200:
            log.warning("game %s: resigning was refused: %s", game_id, sent and sent.text)

    # ----- a game ----------------------------------------------------------------------------
    def play(self, game_id: str) -> None:
        """Play the game in a thread of its own, unless one plays it already."""
        with self.lock:
            running = self.playing.get(game_id)
            if running is not None and running.is_alive():
                return
            thread = threading.Thread(target=self._game, args=(game_id,), daemon=True)
            self.playing[game_id] = thread
        thread.start()

    def _game(self, game_id: str) -> None:
        attempt = 0
        game: Game | None = None
        agent: Agent | None = None
        seats: list[int] = []
        over = False
        while not over and not self.stop.is_set():
            wait: float | None = None
            try:
                for event in lines(self.client, f"/api/bot/game/stream/{game_id}", self.stop):
                    attempt = 0
                    kind = event.get("type")
                    if kind == "gameFull":
                        if game is None:
                            game = load(event["game"], **dict(event.get("options") or {}))
                            try:
                                agent = self.make_agent(game, self.seed)
                            except BoardplayError as exc:  # a tournament's game it cannot play
                                self.resign(game_id, f"no agent for {game}: {exc}")
                                over = True
                                break
                            agent.reset()
                            log.info(
                                "playing game %s (%s) as seat %s",
                                game_id,
                                game.name,
                                event["yourSeats"],
                            )
                        else:
                            log.info(
                                "game %s: back after a drop, at ply %s",
                                game_id,
                                event["state"]["ply"],
                            )
                        seats = list(event["yourSeats"])
                        event = event["state"]
                    if event.get("type") == "gameState" and game is not None and agent is not None:
                        if event["status"] != "started":
                            over = True
                            log.info(
                                "game %s over: %s (%s)",
                                game_id,
                                event.get("result"),
                                event["status"],
                            )
                            break
                        if event.get("turn") in seats:
                            self._move(game_id, game, agent, event)
                    elif kind == "chatLine":
                        log.info(
                            "game %s chat %s: %s", game_id, event.get("username"), event.get("text")
                        )
                if not over and not self.stop.is_set():
                    log.info("game %s: the stream ended; connecting again", game_id)
            except httpx.HTTPStatusError as exc:
                if exc.response.status_code in (401, 403, 404):
                    log.error("game %s refused (%s); leaving it", game_id, exc.response.text)
                    break
                log.warning("game %s: the stream was refused (%s); trying again", game_id, exc)
                wait = retry_after(exc.response)
            except (httpx.HTTPError, ValueError) as exc:
                log.warning("game %s: the stream dropped (%s); connecting again", game_id, exc)
            if not over:
                self._pause(attempt, wait)
                attempt += 1
        if over:
            with self.lock:
                self.finished.append(game_id)
                if self.max_games is not None and len(self.finished) >= self.max_games:
                    self.stop.set()

    def _move(self, game_id: str, game: Game, agent: Agent, state_line: Mapping[str, Any]) -> None:
        """Choose and send the move, sent again (``_post``) while the bot's clock allows."""
        times = state_line.get("times")
        turn = state_line.get("turn")
        left = PATIENCE
        if isinstance(times, list) and isinstance(turn, int) and 0 <= turn < len(times):
            left = times[turn] / 1000 if times[turn] is not None else PATIENCE
        started = time.monotonic()
        try:
            state = state_of(game, list(state_line["moves"]))
            action = agent.step(state)
            move = state.action_to_string(action)
        except PolicyError as exc:  # research code's bug: no move it did not choose is played
            self.resign(game_id, str(exc))
            return
        except BoardplayError as exc:
            log.error("game %s: the agent could not move (%s); a random legal move", game_id, exc)
            move = random.choice(list(state_line["legal"]))
        patience = left - MARGIN - (time.monotonic() - started)
        path = f"/api/bot/game/{game_id}/move/{quote(move, safe='')}"
        sent = self._post(path, max(0.0, patience), ply=int(state_line["ply"]))
        if sent is not None and sent.status_code == 200:
            log.info(
                "game %s ply %s: %s (%.2f s)",
                game_id,
                state_line["ply"],
                move,
                time.monotonic() - started,
            )
        else:
            log.warning(
                "game %s: move %s refused: %s",
                game_id,
                move,
                "no answer" if sent is None else sent.text,
            )


def _code(answer: httpx.Response) -> str:
    """The error code of an API answer (``{"error": {"code"}}``), or ''."""
    try:
        return str(answer.json()["error"]["code"])
    except (ValueError, KeyError, TypeError):
        return ""
