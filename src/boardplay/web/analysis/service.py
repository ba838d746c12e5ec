"""The analysis board (issue 64): studies of any position of any game, each a tree of variations
with comments, shared by link, exported as a record with its variations, and the engine's lines
at any of its positions.

Who may do what: anyone with a study's link reads it, asks for its lines and forks it (a copy of
their own); only its owner (the signed-in account, else the browser's device cookie, that made
it) changes it. Fair play's rule (``table/analysable.py``) is asked at every door of a study
that shows a stored game while that game is being played — made, read, moved in, searched,
exported or forked — so a study made by a spectator cannot be read by the game's players, nor a
rated game's by anyone, until the game ends. Hidden information never enters a study
(``sources.py``): the server's chance at a study's chance node is its secret source, never a
game's seed.

Ceilings (``config.Limits``, docs/web.md): positions per study (``analysis_nodes``, counted
under the study's row lock), studies made per hour per owner and per address
(``analysis_studies_per_hour``, counted in the database before each), comment length
(``analysis_comment_length``), and the engine's lines (``engine.py``)."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Engine

from boardplay.core.errors import BoardplayError
from boardplay.core.game import Game, State, sample_chance
from boardplay.core.records import result_of
from boardplay.web.analysis.schemas import MoveRequest, StudyRequest
from boardplay.web.analysis.sources import (
    Opening,
    first_state,
    from_record,
    from_room,
    from_start,
)
from boardplay.web.analysis.store import NewStudy, StudyRow, StudyStore
from boardplay.web.analysis.tree import Tree, nodes_json
from boardplay.web.analysis.variations import variations_json
from boardplay.web.catalogue import WebCatalogue
from boardplay.web.config import Limits
from boardplay.web.database import StorageThreads
from boardplay.web.errors import ApiError, bad_request, conflict, forbidden
from boardplay.web.table import SERVER_CHANCE, Room, check_analysable, hints_for
from boardplay.web.text import tidy
from boardplay.web.throttles import Throttles, VisitorCeiling
from boardplay.web.words import legal_said, said

HOUR = 3600.0
ID_BYTES = 9
"""Random bytes of a study's id: 12 characters of a link nobody can guess."""
GAMES_KEPT = 64
"""Games (name and options) whose engine objects one process keeps for its studies."""


@dataclass(frozen=True)
class Visitor:
    """Who asks: the study owner they would be (``account:<id>`` or ``device:<hash>``; None
    for a browser without a device cookie and no session), their account, the seat token they
    sent (a player of a game is known by it), and their address's hash (the rate's key)."""

    owner: str | None
    account: int | None
    token: str | None
    address: str


@dataclass
class Study:
    """A study as read for one request: its row, tree and game."""

    row: StudyRow
    tree: Tree
    game: Game

    def state_at(self, node: int) -> State:
        """The position of ``node``: the first position with its path's moves applied."""
        state = first_state(self.game, self.row.start_position, "the study's first position")
        for action in self.tree.actions(node):
            state.apply_action(action)
        return state


class Analysis:
    """One process's analysis board."""

    def __init__(
        self,
        engine: Engine,
        db: StorageThreads,
        limits: Limits,
        throttles: Throttles,
        catalogue: WebCatalogue,
        game_row: Callable[[str], Any],
        room: Callable[[str], Any],
    ) -> None:
        self.store = StudyStore(engine)
        self.db = db
        self.limits = limits
        self.throttles = throttles
        self.catalogue = catalogue
        self.game_row = game_row
        """The table's reader of a stored game's row (``Games.get``), for fair play's rule."""
        self.room = room
        """The table's room of a stored game (``House.room``), to study its moves."""
        self._games: dict[tuple[str, str], Game] = {}

    # ----- reading ------------------------------------------------------------------------
    async def study(self, study_id: str, who: Visitor) -> Study:
        """The study, if fair play lets ``who`` see it now (404 if there is none, 403 if not)."""
        row, tree = await self.db(self.store.load, study_id)
        if row.source_game is not None:
            game_row = await self.game_row(row.source_game)
            if game_row is not None:
                check_analysable(game_row, who.token, who.account)
        return Study(row, tree, self._game(row.game, row.options))

    def _game(self, name: str, options: Mapping[str, Any]) -> Game:
        key = (name, repr(sorted(options.items())))
        game = self._games.get(key)
        if game is None:
            if len(self._games) >= GAMES_KEPT:
                self._games.clear()
            game = self._games[key] = self.catalogue.build(name, options)
        return game

    def study_json(self, study: Study, who: Visitor) -> dict[str, Any]:
        """What the page reads of a study: its game and first position, how it began, whether
        ``who`` owns it, its revision and its tree (``tree.nodes_json``)."""
        row, game = study.row, study.game
        return {
            "id": row.id,
            "game": row.game,
            "title": getattr(game, "title", row.game),
            "options": row.options,
            "num_players": game.num_players,
            "players": row.players,
            "start_position": row.start_position,
            "source": row.source,
            "yours": who.owner is not None and who.owner == row.owner,
            "revision": row.revision,
            "nodes": nodes_json(study.tree),
        }

    def node_json(self, study: Study, node: int) -> dict[str, Any]:
        """One position of a study, as a board draws it: whose turn, the legal moves (or the
        chance outcomes with their probabilities), the position JSON and its text, the result
        at the end, and the engine's lines stored for it by level."""
        at = study.tree.get(node)
        state = study.state_at(node)
        terminal, chance = state.is_terminal(), state.is_chance_node()
        game = study.game
        # The moves and outcomes carry their structs and words, as a game view's legal moves do
        # (``words.legal_said``): the page's board offers them as targets by their structs.
        outcomes = state.chance_outcomes() if chance else []
        described = legal_said(game, state, [a for a, _ in outcomes])
        return {
            "study": study.row.id,
            "node": node,
            "ply": len(study.tree.path(node)),
            "current_player": state.current_player(),
            "terminal": terminal,
            "chance": chance,
            "legal": [] if terminal or chance else legal_said(game, state, state.legal_actions()),
            "outcomes": [
                {**d, "probability": p} for d, (_, p) in zip(described, outcomes, strict=True)
            ],
            "moved": self._moved(study, node),
            "position": state.to_json(),
            "text": state.render(),
            "scores": state.scores(),
            "result": result_of(state) if terminal else None,
            "comment": at.comment,
            "lines": at.lines or {},
            "hints": hints_for(study.game, state),
        }

    def _moved(self, study: Study, node: int) -> dict[str, Any] | None:
        """The move that led to ``node`` (notation, seat, struct and words), which the page says
        and marks on the board as a game's last move; None at the first position."""
        at = study.tree.get(node)
        if at.parent is None or at.action is None:
            return None
        before = study.state_at(at.parent)
        return {"move": at.move, "player": at.seat, **said(study.game, before, at.action)}

    def export(self, study: Study) -> dict[str, Any]:
        """The study as a boardplay record: its mainline as the moves, its other lines and its
        comments in ``variations`` and ``comments`` (docs/formats.md, "Variations")."""
        tree, row = study.tree, study.row
        mainline = tree.mainline(0)
        final = study.state_at(mainline[-1].id if mainline else 0)
        return {
            "format": "boardplay-record",
            "version": 1,
            "game": row.game,
            "options": row.options,
            **({"start_position": row.start_position} if row.start_position else {}),
            "players": [{"name": name, "kind": "human"} for name in row.players],
            "actions": [n.action for n in mainline],
            "moves": [n.move for n in mainline],
            "seats": [n.seat for n in mainline],
            "result": result_of(final),
            "meta": {"study": row.id},
            **variations_json(tree),
        }

    # ----- making -------------------------------------------------------------------------
    async def create(self, body: StudyRequest, who: Visitor) -> Study:
        """A new study of ``who``'s from the body's source (``StudyRequest``)."""
        owner = self._owner(who)
        given = [body.game is not None, body.record is not None, body.from_game is not None]
        if sum(given) != 1 or (body.position is not None and body.game is None):
            raise bad_request(
                "say where the study starts: 'game' (with 'options' and maybe 'position'), "
                "'record' or 'from_game', one of them"
            )
        limits = self.limits
        if body.from_game is not None:
            room: Room = await self.room(body.from_game)
            check_analysable(room.row, who.token, who.account)
            if room.broken is not None:
                raise conflict("game_unavailable", room.broken)
            opening = from_room(room, limits.analysis_nodes)
        elif body.record is not None:
            opening = from_record(
                self.catalogue,
                body.record,
                limits.replay_max_plies,
                limits.analysis_nodes,
                self.clean,
            )
        else:
            assert body.game is not None
            opening = from_start(self.catalogue, body.game, body.options or {}, body.position)
        return await self._store(opening, owner, who)

    async def fork(self, study: Study, who: Visitor) -> Study:
        """A copy of ``study`` owned by ``who`` (its positions, comments and stored lines)."""
        row = study.row
        source = {"kind": "fork", "study": row.id}
        if row.source_game is not None:
            source["game_id"] = row.source_game
        opening = Opening(
            study.game,
            row.start_position,
            row.players,
            source,
            row.source_game,
            list(study.tree.nodes.values()),
        )
        return await self._store(opening, self._owner(who), who)

    def _owner(self, who: Visitor) -> str:
        if who.owner is None:
            raise bad_request("a study needs a browser cookie or a session to be yours")
        return who.owner

    async def _store(self, opening: Opening, owner: str, who: Visitor) -> Study:
        most = self.limits.analysis_studies_per_hour
        studies = VisitorCeiling(
            "studies",
            most,
            HOUR,
            "studies_rate",
            f"you have made {most} studies this hour, the most this server allows "
            "(BOARDPLAY_WEB_ANALYSIS_STUDIES_PER_HOUR); try again later",
        )
        await self.throttles.take_for(studies, owner, who.address, self.db)
        game = opening.game
        new = NewStudy(
            secrets.token_urlsafe(ID_BYTES),
            owner,
            game.name,
            dict(game.options),
            opening.start_position,
            opening.players,
            opening.source,
            opening.source_game,
            opening.tree,
        )
        await self.db(self.store.create, new)
        return await self.study(new.id, who)

    # ----- changing -----------------------------------------------------------------------
    def owned(self, study: Study, who: Visitor) -> None:
        """Only a study's owner changes it (403 ``not_yours``; others may fork it)."""
        if who.owner is None or who.owner != study.row.owner:
            raise forbidden(
                "not_yours",
                "only the study's owner may change it; fork it (POST /api/analysis/{id}/fork) "
                "to have a copy of your own",
            )

    async def play(
        self, study: Study, node: int, body: MoveRequest, who: Visitor
    ) -> tuple[int, bool]:
        """Add a move at ``node`` (checked by the rules; at a chance node the chosen outcome,
        or one drawn from the server's secret source): the node it leads to, and whether it is
        new."""
        self.owned(study, who)
        state = study.state_at(node)
        if state.is_terminal():
            raise conflict("game_over", f"the game is over here: {state.result_text()}")
        if body.draw:
            if not state.is_chance_node():
                raise bad_request("'draw' is for a chance node; this position is a player's move")
            if body.move is not None:
                raise bad_request("give a chance outcome in 'move' or ask for 'draw', not both")
            action = sample_chance(state, SERVER_CHANCE)
        else:
            if body.move is None:
                raise bad_request("field 'move': the move to play (its notation or its id)")
            action = self._legal(state, body.move)
        move = (action, state.action_to_string(action), state.current_player())
        found: tuple[int, bool] = await self.db(
            self.store.add, study.row.id, node, move, self.limits.analysis_nodes
        )
        return found

    def _legal(self, state: State, move: str | int) -> int:
        """The action ``move`` names, legal here; else a 400 naming the legal moves."""
        try:
            return state.string_to_action(str(move))
        except BoardplayError as exc:
            text = str(exc)
            legal = ", ".join(state.action_to_string(a) for a in state.legal_actions()[:40])
            more = "" if "legal moves" in text or "outcomes" in text else f"; legal moves: {legal}"
            raise ApiError(400, "illegal_move", f"{text}{more}") from None

    async def promote(self, study: Study, node: int, mainline: bool, who: Visitor) -> None:
        self.owned(study, who)
        study.tree.get(node)
        await self.db(self.store.promote, study.row.id, node, mainline)

    async def delete(self, study: Study, node: int, who: Visitor) -> int:
        self.owned(study, who)
        study.tree.get(node)
        gone: int = await self.db(self.store.delete, study.row.id, node)
        return gone

    async def comment(self, study: Study, node: int, text: str | None, who: Visitor) -> None:
        self.owned(study, who)
        study.tree.get(node)
        await self.db(self.store.comment, study.row.id, node, self.clean(text, "comment"))

    def clean(self, text: Any, where: str) -> str | None:
        """A comment as studies keep it: tidied onto one line, None if empty, a 400 if it is not
        text or is longer than ``analysis_comment_length``."""
        if text is None:
            return None
        if not isinstance(text, str):
            raise bad_request(f"field {where!r} must be text")
        tidied = tidy(text)
        most = self.limits.analysis_comment_length
        if len(tidied) > most:
            raise bad_request(
                f"field {where!r} has {len(tidied):,} characters; a comment has at most {most:,} "
                "(BOARDPLAY_WEB_ANALYSIS_COMMENT_LENGTH)"
            )
        return tidied or None
