"""Live games: one ``Room`` per game in a process's memory, a cached copy of what the database
holds (the single source of truth when several server processes share it).

Every change follows the same path: bring the copy up to date (one query: the game's revision),
validate against the engine on a clone, resolve any chance nodes that follow (drawn from
``secrets``, or from the agreed seed of a reproducible game), commit all new actions in one
transaction that names the revision it was based on, then swap in the new state and queue the
update for each subscriber (never waiting for a socket). If another process committed first, the
write fails as a whole and the request is decided again on the new position (a move sent for the
old ply is then stale). A refused request raises ``ApiError`` before anything is touched. AI
seats are played as jobs (``aijobs.py``) that any process may claim.

Storage calls are awaited off the event loop (``Hub.db``), so other coroutines run meanwhile:
every change of the copy (a refresh, a commit) happens under the room's lock, and views are
rebuilt only from a complete copy."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

from boardplay.core.errors import BoardplayError
from boardplay.core.game import Game, State, sample_chance
from boardplay.core.records import Move, result_of
from boardplay.web.errors import ApiError, conflict, forbidden
from boardplay.web.sockets import CHANGED, Outbox, Subscriber
from boardplay.web.table import storage as st
from boardplay.web.table.aijobs import AiJob, AiWorkers
from boardplay.web.table.appended import Appended
from boardplay.web.table.chance import chance_rng
from boardplay.web.table.clocks import Clock
from boardplay.web.table.endings import ENDINGS, final_result
from boardplay.web.table.host import RoomHost
from boardplay.web.table.presence import TablePresence
from boardplay.web.table.roomclock import RoomClock
from boardplay.web.table.roomcopy import RoomCopy
from boardplay.web.table.roomviews import RoomViews
from boardplay.web.table.rows import GameEnd, MoveWrite
from boardplay.web.tokens import hash_token
from boardplay.web.words import History, parse_move

log = logging.getLogger("boardplay.web")

ATTEMPTS = 3
"""Times a change is decided again when other processes keep committing first."""


class Room(RoomCopy, RoomClock, RoomViews):
    """One game: ``host`` is the narrow seam to the process (``host.RoomHost``), ``workers`` the
    AI pool its AI turns run in. Its copy of the game is ``RoomCopy``'s, its clock keeping
    ``RoomClock``'s, its views ``RoomViews``'."""

    def __init__(self, host: RoomHost, row: st.GameRow, workers: AiWorkers) -> None:
        self.host = host
        self.row = row
        self.lock = asyncio.Lock()
        self.subscribers: set[Subscriber] = set()
        self.presence = TablePresence(host.now)
        self.ai = AiJob(self, workers)
        self.broken: str | None = None
        self.moves: list[Move] = list(row.moves)
        self._view: dict[str, Any] | None = None
        self._before: dict[str, Any] | None = None
        """The public view before the last change, while the change is relayed (``relayview``)."""
        self._views: dict[tuple[frozenset[int], bool], dict[str, Any]] = {}
        """This revision's view for each set of seats a visitor holds (spectators: none), with
        or without the legal moves' words."""
        self._legal: list[dict[str, Any]] | None = None
        """This revision's legal moves with their structs and words, once a reader asked."""
        self.told_end = False
        """Whether this process has told the game's end (``GameFinished``: its rating, its
        tournament)."""
        self.news: list[int | None] = []
        """What this process stored that players away from the table hear of (``changed``): a
        seat whose turn came (its clock started), None for the game's end."""
        self.sent = row.revision
        """The revision this room's sockets were last sent (``broadcast``): whenever the copy
        is newer, for whatever reason it advanced, the house sends them the update."""
        self.appended: Appended | None = None
        """The moves this process just stored, for the other processes (``appended.py``); None
        once anything else changed the copy."""
        self.series = host.metrics.game(row.game)
        """The game's counters for the operator (``metrics.py``), bound once per room."""
        self.grants: dict[str, frozenset[int]] = {}
        """Seat tokens this process gave out itself and never stored (``grant``), by hash."""
        try:
            self.game: Game = host.catalogue.load(row.game, row.options)
            self.state: State = self._replay(self.moves)
            self.history = History(self.game, self._initial)
        except BoardplayError as exc:
            # The game cannot be rebuilt (engine missing or changed): keep it visible, frozen.
            self._quarantine(f"this game cannot be resumed on this server: {exc}")
        except Exception:
            # A row no check foresaw (written by an older version, or by hand): the same, and
            # the lobby, the sweeper and every other game go on as if it were not there.
            log.exception("game %s cannot be loaded; it is shown frozen", row.id)
            self._quarantine("this game cannot be resumed on this server")

    def _quarantine(self, why: str) -> None:
        self.broken = why
        log.warning("game %s: %s", self.row.id, why)

    @property
    def thinking(self) -> int | None:
        """The AI seat to move (its job is waiting or running on some process)."""
        return self.row.thinking

    @property
    def settled(self) -> bool:
        """Ended by the players rather than the rules (a resignation, an agreed draw)."""
        result = self.row.result
        return (
            self.row.status == st.FINISHED and result is not None and result.get("ended") in ENDINGS
        )

    @property
    def ai_error(self) -> str | None:
        return self.row.ai_error

    def _require_live(self) -> None:
        if self.broken is not None:
            raise conflict("game_unavailable", self.broken)

    def seats_of(self, token: str | None) -> set[int]:
        digest = hash_token(token) if token else None
        held = {s.seat for s in self.row.seats if s.held_by(digest)}
        return (held | self.grants[digest]) if digest in self.grants else held

    def grant(self, token: str, seats: AbstractSet[int]) -> None:
        """Let ``token`` act for ``seats`` on this process's copy, with nothing stored: for a
        caller that has proved it is the seats' account some other way (a bot's API token,
        ``Bots.seat_token``) and keeps the token to itself. Storing a seat key instead was a
        write and a new revision per bot and game, which every other process's copy then read
        back whole. A room loaded again has no grants, and is granted again at the next call."""
        self.grants[hash_token(token)] = frozenset(seats)

    def recount(self, note: Callable[[str], None]) -> bool:
        """A watcher came, said who it is, or left (a page's socket, a bot's game stream):
        every socket of this process is sent the new presence now, and the database hears of
        it at the next check (``note``: ``House.presence_changed``); True if they were sent it."""
        if self.presence.recount(self.subscribers, self.seats_of):
            note(self.row.id)
        return self.presence.send(self.subscribers)

    def ai_to_move(self, state: State) -> int | None:
        return None if self.settled else st.ai_to_move(self.row.seats, state)

    # ----- changes -------------------------------------------------------------------------
    async def settle(self) -> None:
        """A freshly loaded game: resolve an opening chance node and, for a game nobody has
        checked yet, store whether an AI is to move (so its job can be claimed)."""
        if self.broken is not None:
            if self.row.ai_seat is not None and self.row.status == st.ACTIVE:
                # No process can play its AI: end the job, so no sweeper claims it again.
                with contextlib.suppress(st.StaleWrite):
                    self.row.revision = await self.host.db(
                        self.host.storage.set_ai_seat, self.row.id, self.row.revision, None
                    )
                    self.row.ai_seat = None
            if (clock := self.clock) is not None and self.row.deadline is not None:
                # Nobody can move in it, so nobody is flagged: stop its clock for the sweeps.
                with contextlib.suppress(st.StaleWrite):
                    stopped = Clock(clock.left, None, None, clock.flagged)
                    self.row.revision = await self.host.set_clock(
                        self.row.id, self.row.revision, stopped
                    )
                    self.set_clock(stopped)
            return
        async with self.lock:
            for _ in range(ATTEMPTS):
                try:
                    if self.broken is None and self.row.status == st.ACTIVE:
                        await self.start_clock()
                    if await self._commit([]) or self.row.ai_seat != st.UNKNOWN_AI:
                        return
                    seat = self.ai_to_move(self.state)
                    self.row.revision = await self.host.db(
                        self.host.storage.set_ai_seat, self.row.id, self.row.revision, seat
                    )
                    self.row.ai_seat = seat
                    self._touch()
                    return
                except st.StaleWrite:
                    await self._refresh()

    async def _commit(
        self, actions: Sequence[int], by_ai: bool = False, ai_error: str | None = None
    ) -> bool:
        """Apply ``actions`` (already known legal) and the chance outcomes that follow, store them
        all (``StaleWrite`` if another process changed the game first), then publish the new
        state. Nothing changes if storing fails. False if there was nothing to store. The AI's
        error note stays until the AI's next move (``by_ai``) replaces it. Call with the lock
        held."""
        if not by_ai:
            ai_error = self.row.ai_error
        state = self.state.clone()
        new: list[Move] = []
        ply = len(self.moves)
        for action in actions:
            new.append(Move(action, state.action_to_string(action), state.current_player()))
            state.apply_action(action)
        while state.is_chance_node():
            outcome = sample_chance(state, chance_rng(self.row.seed, ply + len(new)))
            new.append(Move(outcome, state.action_to_string(outcome), state.current_player()))
            state.apply_action(outcome)
        if not new:
            return False
        status = st.FINISHED if state.is_terminal() else st.ACTIVE
        if status == st.FINISHED:
            self.news.append(None)
        result = result_of(state) if state.is_terminal() else None
        if result is not None and self.row.resigned:
            result = final_result(self.game, result, self.row.resigned)
        ai_seat = self.ai_to_move(state)
        clock = self.clock_after(self.state, state)
        revision = await self.host.write_moves(
            MoveWrite(
                self.row.id, ply, new, status, result, self.row.revision, ai_seat, ai_error, clock
            )
        )
        self.set_clock(clock)
        self.state = state
        self.moves.extend(new)
        self.row.moves = list(self.moves)
        self.row.status = status
        self.row.result = result
        self.row.revision = revision
        self.row.ai_seat = ai_seat
        self.row.ai_error = ai_error
        self._touch()
        self.appended = Appended.of(self.row, ply, new)
        if actions:
            self.series.moves.inc(len(actions))
        return True

    async def _decide(self, change: Callable[[], Awaitable[None]]) -> None:
        """Run ``change`` (which checks the request and commits) on an up-to-date copy, again on
        the newer position if another process committed first, then tell everyone.

        The copy is used as it is first: a commit names the revision it was based on, so the
        database itself confirms that the copy was current (``StaleWrite`` if not). A refusal
        stores nothing to confirm it, so it stands only once a check finds the copy current;
        otherwise the request is decided again on the newer copy. An accepted move thus costs
        one transaction and no separate check."""
        async with self.lock:
            for _ in range(ATTEMPTS):
                try:
                    await change()
                    break
                except st.StaleWrite:
                    await self._refresh()
                except ApiError:
                    if not await self._refresh():
                        raise
            else:
                raise conflict(
                    "stale", "the game kept changing while your request was stored; try again"
                )
        await self.changed()

    # ----- requests -------------------------------------------------------------------------
    def _acting_seat(self, token: str | None) -> int:
        """The seat ``token`` may move for now, or the reason it may not."""
        if not token:
            raise forbidden(
                "token_required", "this needs your seat's token (header Authorization: Bearer …)"
            )
        seats = self.seats_of(token)
        if not seats:
            raise forbidden("wrong_token", "this token does not hold a seat in this game")
        self._require_live()
        state = self.state
        if self.settled and self.row.result is not None:
            raise conflict("game_over", f"the game is over: {self.row.result.get('text')}")
        if state.is_terminal():
            raise conflict("game_over", f"the game is over: {state.result_text()}")
        current = state.current_player()
        if current not in seats:
            who = self.row.seats[current].name if current >= 0 else "chance"
            waiting = " (the AI is thinking)" if self.thinking == current else ""
            raise conflict("not_your_turn", f"it is not your turn: {who} is to move{waiting}")
        return current

    def _check_ply(self, ply: int | None, what: str) -> None:
        """A request made for an older ply (a second click, a second tab) is refused."""
        if ply is not None and ply != len(self.moves):
            raise conflict(
                "stale",
                f"the game has moved on: your {what} was for ply {ply}, "
                f"the game is at ply {len(self.moves)}; reload and try again",
            )

    async def act(self, token: str | None, move: int | str, ply: int | None) -> None:
        await self.came(self.seats_of(token))  # a move says its player is here

        async def change() -> None:
            self._acting_seat(token)
            self._check_ply(ply, "move")
            clock = self.clock
            if clock is not None and clock.due(self.host.now()):
                raise conflict("out_of_time", "your time ran out before this move arrived")
            action = parse_move(self.state, move)
            try:
                await self._commit([action])
            except BoardplayError as exc:
                raise ApiError(422, "illegal_action", str(exc)) from None

        await self._decide(change)

    def undo_allowed(self, seats: AbstractSet[int]) -> bool:
        """Only the mover's own steps of the current turn, never across a chance reveal or another
        seat's action (the last stored action must be the mover's and the mover still to act)."""
        if self.broken is not None or not self.moves or self.state.is_terminal() or self.settled:
            return False
        current = self.state.current_player()
        return current in seats and self.moves[-1].player == current

    async def undo(self, token: str | None, ply: int | None = None) -> None:
        async def change() -> None:
            current = self._acting_seat(token)
            self._check_ply(ply, "undo")
            if not self.undo_allowed({current}):
                raise conflict(
                    "cannot_undo",
                    "nothing to take back: only your own steps of the current turn can be undone",
                )
            keep = self.moves[:-1]
            state = self._replay(keep)
            revision = await self.host.db(
                self.host.storage.truncate_moves,
                self.row.id,
                len(keep),
                revision=self.row.revision,
                ai_seat=self.ai_to_move(state),
            )
            self.moves = keep
            self.state = state
            self.row.moves = list(keep)
            self.row.status = st.ACTIVE
            self.row.result = None
            self.row.revision = revision
            self.row.ai_seat = self.ai_to_move(state)
            self.row.ai_error = None
            self._touch()

        await self._decide(change)

    # ----- AI -------------------------------------------------------------------------------
    async def play_ai(self, revision: int, seat: int, action: int | None, note: str | None) -> bool:
        """Store the AI's ``action`` if the game is still at ``revision`` (the job was claimed
        there): a random legal action if it is None or not legal, with ``note`` for the players
        saying why. False if the game moved on meanwhile (an undo, another process's move)."""
        async with self.lock:
            await self._refresh()
            if self.row.revision != revision:
                return False
            legal = self.state.legal_actions()
            if action not in legal:
                spec = self.row.seats[seat].spec or "random"
                note = note or f"the AI ({spec}) chose an illegal action; it played randomly"
                action = legal[random.Random(revision).randrange(len(legal))]
            try:
                await self._commit([action], by_ai=True, ai_error=note)
            except st.StaleWrite:
                await self._refresh()
                return False
        return True

    def kick(self) -> None:
        """Start the AI's turn here if an AI seat is to move and no other process holds it."""
        if self.broken is None and self.thinking is not None:
            self.ai.start()

    async def changed(self, publish: bool = True) -> None:
        """Tell this process's sockets, and (through the broker) every other process's."""
        await self.broadcast()
        if publish:
            self.host.publish(self.row.id, self.row.revision, self.relay_text, self.appended)
        self._before = None  # relayed, or nobody to relay it to
        self.kick()
        news, self.news = self.news, []
        control = self.control
        correspondence = control is not None and control.correspondence
        if correspondence:
            here = (self.presence.local + self.presence.others).seats  # their page shows it
            away = tuple(seat for seat in news if seat is not None and seat not in here)
            if away:
                await self.host.turns_away(self.row.id, away)
        if self.row.status == st.FINISHED and not self.told_end:
            self.told_end = True
            self.series.finished.inc()
            end = GameEnd(self.row.result, list(self.row.resigned))
            await self.host.game_ended(self.row.id, self.row.rated, end, correspondence)

    # ----- views ----------------------------------------------------------------------------
    def _touch(self) -> None:
        """Something visible changed: rebuild the view. Its version is the game's revision, the
        same on every process, so a client can drop an older copy that arrives late on another
        connection (or from another process)."""
        if self._view is not None:
            self._before = self._view
        self._view = None
        self._views = {}
        self._legal = None
        self.appended = None

    @property
    def sockets_behind(self) -> bool:
        """Sockets watch this room and were last sent an older revision than the copy's."""
        return bool(self.subscribers) and self.sent < self.row.revision

    async def broadcast(self) -> None:
        """Queue the new view for every subscriber (each distinct message encoded once, see
        ``Outbox``), or ``CHANGED`` for one that reads no views; one that fell behind is
        dropped."""
        self.sent = self.row.revision
        self.host.watch_clock(self.row.id, self.row.deadline)
        outbox = Outbox()
        for sub in list(self.subscribers):
            if sub.views:
                queued = sub.push_view(self.view_for(sub.token, sub.words), outbox=outbox)
            else:
                queued = sub.push_text(CHANGED)
            if not queued:
                self.subscribers.discard(sub)
