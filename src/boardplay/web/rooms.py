"""Live games: one ``Room`` per game in memory, rebuilt from storage by replaying its actions.

The room is the only writer of its game. Every change follows the same path: validate against
the engine on a clone, resolve any chance nodes that follow (drawn from ``secrets``, or from the
agreed seed of a reproducible game), commit all new actions in one transaction, then swap in the
new state and queue the update for each subscriber (never waiting for a socket). A refused
request raises ``ApiError`` before anything is touched. AI seats are played by a background task
whose search runs in the executor, so the event loop stays free and clients see a "thinking"
flag meanwhile."""

from __future__ import annotations

import asyncio
import functools
import logging
import random
import secrets
from collections.abc import Callable, Sequence
from concurrent.futures import BrokenExecutor
from typing import TYPE_CHECKING, Any

from boardplay.core.errors import BoardplayError
from boardplay.core.game import Game, State, sample_chance
from boardplay.core.records import Move, Player, Record, result_of
from boardplay.web import storage as st
from boardplay.web.ai_worker import choose_action
from boardplay.web.errors import ApiError, bad_request, conflict, forbidden, quote
from boardplay.web.hints import hints_for
from boardplay.web.live import Subscriber
from boardplay.web.moves import History, legal_said
from boardplay.web.tokens import hash_token, matches, new_token

if TYPE_CHECKING:
    from boardplay.web.hub import Hub

log = logging.getLogger("boardplay.web")

SERVER_CHANCE = secrets.SystemRandom()
"""Chance of ordinary games: the operating system's cryptographic source. Nothing about it is
stored or shown, and no number of revealed outcomes predicts the next one."""


def chance_rng(seed: int | None, ply: int) -> random.Random:
    """The generator for the chance outcome at ``ply``. A reproducible game's agreed ``seed``
    fixes it (a replay and a fresh sample agree); otherwise the server's secret source. Either
    way the outcome is stored at once, so nobody can re-roll by reconnecting."""
    if seed is None:
        return SERVER_CHANCE
    return random.Random(f"boardplay:{seed}:{ply}")


def parse_move(state: State, move: int | str) -> int:
    """The action id for ``move`` (an id or notation) or ``ApiError`` 422 naming the legal moves;
    an unknown id never reaches the engine."""
    legal = state.legal_actions()
    if isinstance(move, int):
        if move in legal:
            return move
        shown = ", ".join(state.action_to_string(a) for a in legal[:40])
        raise ApiError(
            422, "illegal_action", f"action {quote(move)} is not legal here; legal: {shown}"
        )
    try:
        return state.string_to_action(move)
    except BoardplayError:
        shown = ", ".join(state.action_to_string(a) for a in legal[:40])
        raise ApiError(
            422, "illegal_action", f"{quote(move)} is not a legal move here; legal: {shown}"
        ) from None


class Room:
    def __init__(self, hub: Hub, row: st.GameRow) -> None:
        self.hub = hub
        self.row = row
        self.lock = asyncio.Lock()
        self.subscribers: set[Subscriber] = set()
        self.thinking: int | None = None
        self.ai_error: str | None = None
        self.ai_task: asyncio.Task[None] | None = None
        self.broken: str | None = None
        self.moves: list[Move] = list(row.moves)
        self._view: dict[str, Any] | None = None
        self.version = 0
        try:
            self.game: Game = hub.catalogue.load(row.game, row.options)
            self.state: State = self._replay(self.moves)
            self.history = History(self.game, self._initial)
        except BoardplayError as exc:
            # The game cannot be rebuilt (engine missing or changed): keep it visible, frozen.
            self.broken = f"this game cannot be resumed on this server: {exc}"
            log.warning("game %s: %s", row.id, self.broken)

    # ----- engine ---------------------------------------------------------------------------
    def _initial(self) -> State:
        if self.row.start_position is None:
            return self.game.new_initial_state()
        return self.game.state_from_json(self.row.start_position)

    def _replay(self, moves: Sequence[Move]) -> State:
        record = Record(
            game=self.row.game,
            options=self.row.options,
            moves=list(moves),
            start_position=self.row.start_position,
        )
        state = self._initial()
        for index, move in enumerate(record.moves, start=1):
            if move.action not in state.legal_actions():
                raise BoardplayError(f"stored move {index} ({move.notation!r}) is not legal")
            state.apply_action(move.action)
        return state

    def _require_live(self) -> None:
        if self.broken is not None:
            raise conflict("game_unavailable", self.broken)

    def seats_of(self, token: str | None) -> set[int]:
        return {s.seat for s in self.row.seats if matches(token, s.token_hash)}

    def _commit(self, actions: Sequence[int]) -> None:
        """Apply ``actions`` (already known legal) and the chance outcomes that follow, store them
        all, then publish the new state. Nothing changes if storing fails."""
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
            return
        status = st.FINISHED if state.is_terminal() else st.ACTIVE
        result = result_of(state) if state.is_terminal() else None
        self.hub.storage.append_moves(self.row.id, ply, new, status, result)
        self.state = state
        self.moves.extend(new)
        self.row.status = status
        self.row.result = result
        self._touch()

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
        async with self.lock:
            self._acting_seat(token)
            self._check_ply(ply, "move")
            action = parse_move(self.state, move)
            try:
                self._commit([action])
            except BoardplayError as exc:
                raise ApiError(422, "illegal_action", str(exc)) from None
        await self.changed()

    def undo_allowed(self, seats: set[int]) -> bool:
        """Only the mover's own steps of the current turn, never across a chance reveal or another
        seat's action (the last stored action must be the mover's and the mover still to act)."""
        if self.broken is not None or not self.moves or self.state.is_terminal():
            return False
        current = self.state.current_player()
        return current in seats and self.moves[-1].player == current

    async def undo(self, token: str | None, ply: int | None = None) -> None:
        async with self.lock:
            current = self._acting_seat(token)
            self._check_ply(ply, "undo")
            if not self.undo_allowed({current}):
                raise conflict(
                    "cannot_undo",
                    "nothing to take back: only your own steps of the current turn can be undone",
                )
            keep = self.moves[:-1]
            state = self._replay(keep)
            self.hub.storage.truncate_moves(self.row.id, len(keep))
            self.moves = keep
            self.state = state
            self.row.status = st.ACTIVE
            self.row.result = None
            self._touch()
        await self.changed()

    async def join(
        self, seat: int | None, invite: str | None, name: str | None, accept_reproducible: bool
    ) -> tuple[str, int]:
        async with self.lock:
            self._require_live()
            if self.row.seed is not None and not accept_reproducible:
                raise conflict(
                    "reproducible",
                    "this game is reproducible: its creator chose the seed its luck follows "
                    f"(seed {self.row.seed}, shown to everyone); join with "
                    "accept_reproducible: true to agree",
                )
            chosen: st.SeatRow | None = None
            if invite is not None:
                for s in self.row.seats:
                    if s.kind == st.INVITE and matches(invite, s.invite_hash):
                        chosen = s
                if chosen is None:
                    raise forbidden("wrong_invite", "this invitation code is not valid here")
            else:
                if seat is None:
                    free = [s for s in self.row.seats if s.kind == st.OPEN and not s.claimed]
                    if not free:
                        raise conflict("no_open_seat", "this game has no open seat left")
                    chosen = free[0]
                elif not 0 <= seat < len(self.row.seats):
                    raise bad_request(f"seat must be 0..{len(self.row.seats) - 1}")
                else:
                    chosen = self.row.seats[seat]
                    if chosen.kind != st.OPEN:
                        raise forbidden(
                            "not_open", f"seat {seat} is not open; it needs an invitation link"
                        )
            if chosen.claimed:
                raise conflict("seat_taken", f"seat {chosen.seat} ({chosen.name}) is already taken")
            token = new_token()
            player = (name or "").strip()[:40] or self.game.seat_name(chosen.seat)
            if not self.hub.storage.claim_seat(self.row.id, chosen.seat, hash_token(token), player):
                raise conflict("seat_taken", f"seat {chosen.seat} was just taken")
            chosen.token_hash = hash_token(token)
            chosen.name = player
            self._touch()
        await self.changed()
        return token, chosen.seat

    # ----- AI -------------------------------------------------------------------------------
    def kick(self) -> None:
        """Start the AI's turn if an AI seat is to move and none is thinking yet."""
        if self.broken is not None or (self.ai_task is not None and not self.ai_task.done()):
            return
        current = self.state.current_player()
        if current < 0 or self.row.seats[current].kind != st.AI:
            return
        # Mark the seat as thinking at once, so the answer to the move that handed over the
        # turn already says so.
        self.thinking = current
        self._touch()
        self.ai_task = asyncio.get_running_loop().create_task(self._ai_turn(current))

    async def _ai_turn(self, seat: int) -> None:
        ply = len(self.moves)
        spec = self.row.seats[seat].spec or "random"
        seed = chance_rng(self.row.seed, ply).randrange(2**31)
        limits = self.hub.limits
        self.thinking = seat
        self._touch()
        await self.broadcast()
        loop = asyncio.get_running_loop()
        error: str | None = None
        job = functools.partial(
            choose_action,
            self.hub.catalogue_ref,
            self.hub.data_dir,
            self.row.game,
            self.row.options,
            self.row.start_position,
            [m.action for m in self.moves],
            spec,
            seed,
            limits.ai_max_time,
        )
        try:
            try:
                action: int | None = await loop.run_in_executor(self.hub.executor, job)
            except BrokenExecutor:
                # A worker process died (killed, out of memory): start a fresh pool, try again.
                log.warning("AI worker pool broke; starting a new one")
                self.hub.renew_executor()
                action = await loop.run_in_executor(self.hub.executor, job)
        except asyncio.CancelledError:
            self.thinking = None
            raise
        except Exception as exc:  # a failing agent must not stop the game
            log.exception("AI %s failed in game %s", spec, self.row.id)
            error = f"the AI ({spec}) failed ({exc}); it played a random legal move instead"
            action = None
        async with self.lock:
            self.thinking = None
            self._touch()
            if len(self.moves) != ply or self.state.current_player() != seat:
                self.ai_task = None
                self.kick()
                return
            legal = self.state.legal_actions()
            if action not in legal:
                error = error or f"the AI ({spec}) chose an illegal action; it played randomly"
                action = legal[random.Random(seed).randrange(len(legal))]
            self.ai_error = error
            self._commit([action])
            self.ai_task = None  # this task is finishing: let changed() start the next AI turn
        await self.changed()

    async def changed(self) -> None:
        await self.broadcast()
        self.kick()

    # ----- views ----------------------------------------------------------------------------
    def _touch(self) -> None:
        """Something visible changed: rebuild the view, with a higher version so clients can
        drop an older copy that arrives late on another connection."""
        self._view = None
        self.version += 1

    def public_view(self) -> dict[str, Any]:
        if self._view is None:
            self._view = self._build_view()
        return self._view

    def _build_view(self) -> dict[str, Any]:
        row = self.row
        view: dict[str, Any] = {
            "id": row.id,
            "game": row.game,
            "status": row.status,
            "created": row.created.isoformat(),
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "kind": s.kind,
                    "spec": s.spec,
                    "claimed": s.claimed,
                }
                for s in row.seats
            ],
            "ply": len(self.moves),
            "moves": [
                {"ply": i, "action": m.action, "move": m.notation, "player": m.player}
                for i, m in enumerate(self.moves)
            ],
            "thinking": self.thinking,
            "ai_error": self.ai_error,
            "broken": self.broken,
            "version": [self.hub.epoch, self.version],
            "reproducible": row.seed is not None,
        }
        if row.seed is not None:
            view["seed"] = row.seed
        if self.broken is not None:
            view.update(title=row.game, options=row.options, terminal=False, legal=[])
            return view
        state = self.state
        current = state.current_player()
        terminal = state.is_terminal()
        # Each move of the history in words, with the struct the boards highlight it by.
        for move, words in zip(view["moves"], _safely(self._history_words) or [], strict=False):
            move.update(words)
        view.update(
            title=getattr(self.game, "title", row.game),
            game_string=str(self.game),
            options=self.game.options,
            num_players=self.game.num_players,
            current_player=current,
            current_name=row.seats[current].name if current >= 0 else None,
            terminal=terminal,
            chance=state.is_chance_node(),
            legal=[]
            if terminal or state.is_chance_node()
            else legal_said(self.game, state, state.legal_actions()),
            position=_safely(state.to_json),
            text=_safely(state.render),
            scores=_safely(state.scores),
            result=result_of(state) if terminal else None,
            hints=_safely(lambda: hints_for(self.game, state)) or hints_for(self.game),
        )
        return view

    def _history_words(self) -> list[dict[str, Any]]:
        return self.history.describe(self.moves)

    def view_for(self, token: str | None) -> dict[str, Any]:
        seats = self.seats_of(token)
        view = dict(self.public_view())
        view["your_seats"] = sorted(seats)
        current = view.get("current_player", -4)
        view["your_turn"] = self.broken is None and current in seats
        view["can_undo"] = self.undo_allowed(seats)
        return view

    async def broadcast(self) -> None:
        """Queue the new view for every subscriber; one that fell behind is dropped."""
        for sub in list(self.subscribers):
            if not sub.push_view(self.view_for(sub.token)):
                self.subscribers.discard(sub)

    # ----- records --------------------------------------------------------------------------
    def record(self) -> Record:
        row = self.row
        players = [
            Player(s.name, "agent" if s.kind == st.AI else "human", s.spec) for s in row.seats
        ]
        finished = row.status == st.FINISHED
        record = Record(
            game=row.game,
            options=dict(self.game.options) if self.broken is None else row.options,
            players=players,
            moves=list(self.moves),
            start_position=row.start_position,
            result=row.result,
            started=row.created.isoformat(timespec="seconds"),
            finished=row.updated.isoformat(timespec="seconds") if finished else None,
            meta={"server_game_id": row.id},
        )
        if row.seed is not None:
            record.meta.update(reproducible=True, seed=row.seed)
        return record


def _safely(build: Callable[[], Any]) -> Any:
    """Presentation extras must never stop a game from being shown."""
    try:
        return build()
    except Exception as exc:
        log.warning("could not build a view field: %s", exc)
        return None
