"""All rooms of one server: found or rebuilt on demand, and created from a visitor's request
within the operator's ceilings (AI think time and iterations, seat names and specs that fit
their columns, a seed only for games everyone agrees to make reproducible)."""

from __future__ import annotations

import contextlib
import math
import secrets
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from typing import Any

from boardplay.ai.specs import make_agent
from boardplay.core.errors import BoardplayError
from boardplay.core.game import Game
from boardplay.web import storage as st
from boardplay.web.catalogue import WebCatalogue
from boardplay.web.config import Limits
from boardplay.web.errors import bad_request, not_found, quote
from boardplay.web.rooms import Room
from boardplay.web.tokens import hash_token, new_game_id, new_token

NAME_CHARS = 40
"""Longest seat name a person may choose."""


class Hub:
    """All rooms of one server, created on demand from storage."""

    def __init__(
        self,
        storage: st.Storage,
        catalogue: WebCatalogue,
        catalogue_ref: str,
        executor_factory: Callable[[], Executor],
        limits: Limits | None = None,
        data_dir: str | None = None,
    ) -> None:
        self.storage = storage
        self.catalogue = catalogue
        self.catalogue_ref = catalogue_ref
        self.limits = limits or Limits()
        self.data_dir = data_dir
        self.executor_factory = executor_factory
        self.executor = executor_factory()
        self.rooms: dict[str, Room] = {}
        self.epoch = new_token()[:10]
        """Identifies this server process in view versions (versions restart with it)."""

    def room(self, game_id: str) -> Room:
        room = self.rooms.get(game_id)
        if room is None:
            row = self.storage.get_game(game_id)
            if row is None:
                raise not_found(f"there is no game with id {quote(game_id)}")
            room = Room(self, row)
            self.rooms[game_id] = room
            if room.broken is None:
                room._commit([])  # resolve an opening chance node
        return room

    def renew_executor(self) -> None:
        """Replace a broken worker pool (its futures all fail) with a fresh one."""
        broken = self.executor
        self.executor = self.executor_factory()
        broken.shutdown(wait=False, cancel_futures=True)

    async def resume_all(self) -> int:
        """After a restart: rebuild every active game and let waiting AI seats move."""
        count = 0
        for game_id in self.storage.game_ids(st.ACTIVE, limit=100_000):
            self.room(game_id).kick()
            count += 1
        return count

    async def close(self) -> None:
        tasks = [r.ai_task for r in self.rooms.values() if r.ai_task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task

    def create(
        self,
        game_name: str,
        options: Mapping[str, Any],
        seats: Sequence[Mapping[str, Any]],
        reproducible: bool = False,
        seed: int | None = None,
    ) -> tuple[Room, str, dict[int, str]]:
        """A new game; returns the room, the creator's token and invitation codes by seat.
        Chance is the server's secret unless ``reproducible`` (then ``seed``, or one drawn
        here, is shown to everyone and every joining player must accept it)."""
        if seed is not None and not reproducible:
            raise bad_request(
                "field 'seed' is only for reproducible games (add reproducible: true; every "
                "player then sees the seed and must accept it); other games' luck is drawn "
                "by the server"
            )
        if reproducible and seed is None:
            seed = secrets.randbelow(2**63)
        if game_name not in self.catalogue.names():
            raise bad_request(
                f"unknown game {quote(game_name)}; "
                f"this server offers: {', '.join(self.catalogue.names())}"
            )
        try:
            game = self.catalogue.load(game_name, options)
        except BoardplayError as exc:
            raise bad_request(str(exc)) from None
        if len(seats) != game.num_players:
            raise bad_request(f"{game_name} with these options needs {game.num_players} seats")
        token = new_token()
        invites: dict[int, str] = {}
        rows: list[st.SeatRow] = []
        for index, seat in enumerate(seats):
            rows.append(self._seat_row(game, index, seat, token, invites))
        row = st.GameRow(
            id=new_game_id(),
            game=game.name,
            options=dict(game.options),
            seed=seed,
            seats=rows,
        )
        self.storage.create_game(row)
        room = self.room(row.id)
        return room, token, invites

    def _seat_row(
        self, game: Game, index: int, seat: Mapping[str, Any], token: str, invites: dict[int, str]
    ) -> st.SeatRow:
        kind = seat.get("kind")
        if kind == "me":
            kind = st.HUMAN
        if kind not in st.SEAT_KINDS:
            raise bad_request(
                f"seats[{index}].kind must be one of me, {', '.join(st.SEAT_KINDS)}; "
                f"got {quote(kind)}"
            )
        raw_name = seat.get("name")
        if raw_name is not None and not isinstance(raw_name, str):
            raise bad_request(f"seats[{index}].name must be a string")
        name = (raw_name or "").strip()[:NAME_CHARS]
        if kind == st.AI:
            spec = seat.get("spec")
            if not isinstance(spec, str) or not spec.strip():
                raise bad_request(f"seats[{index}] is an AI seat and needs a spec, e.g. 'easy'")
            spec = spec.strip()
            self.check_spec(game, spec, f"seats[{index}].spec")
            default = f"AI ({spec})"
            if len(default) > st.NAME_LENGTH:
                default = default[: st.NAME_LENGTH - 2] + "…)"
            return st.SeatRow(index, kind, name or default, spec=spec)
        if kind in (st.HUMAN, st.HOTSEAT):
            name = name or game.seat_name(index)
            return st.SeatRow(index, kind, name, token_hash=hash_token(token))
        if kind == st.INVITE:
            code = new_token()
            invites[index] = code
            return st.SeatRow(index, kind, name or "Invited player", invite_hash=hash_token(code))
        return st.SeatRow(index, kind, name or "Open seat")

    def check_spec(self, game: Game, spec: str, field: str) -> None:
        """Refuse an AI spec that does not parse, does not fit its column, or asks for more think
        time or iterations per move than the operator's ceilings (naming the ceiling)."""
        if len(spec) > st.SPEC_LENGTH:
            raise bad_request(f"{field} is longer than {st.SPEC_LENGTH} characters")
        try:
            agent = make_agent(spec, game, 0)
        except BoardplayError as exc:
            raise bad_request(f"{field}: {exc}") from None
        limits = self.limits
        time_limit = getattr(agent, "time_limit", None)
        if time_limit is not None and not (
            math.isfinite(time_limit) and time_limit <= limits.ai_max_time
        ):
            raise bad_request(
                f"{field} asks for {time_limit:g} s per move; this server's ceiling is "
                f"{limits.ai_max_time:g} s (BOARDPLAY_WEB_AI_MAX_TIME)"
            )
        iterations = getattr(agent, "iterations", None)
        if iterations is not None and iterations > limits.ai_max_iterations:
            raise bad_request(
                f"{field} asks for {iterations} iterations per move; this server's ceiling is "
                f"{limits.ai_max_iterations} (BOARDPLAY_WEB_AI_MAX_ITERATIONS)"
            )
