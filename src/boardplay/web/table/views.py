"""Views: what a game looks like to the page, built from the stored game and its position.

A room builds the public view once per revision (``public_view``: the same for every visitor,
and the one relayed to other processes) and, from it, one view per set of seats a visitor holds
(``seat_view``: what is yours to do). The public view lists the legal moves by id and notation
only: their structs and words (what a board needs to be clicked) cost more than the rest of the
view together, so a room builds them once per revision and only for a reader that asks (an HTTP
request, or a socket whose hello said ``words``), never for spectators, bots or the copies
relayed to other processes. Views are plain JSON and never change once built, so every
socket of an audience shares one, and a broadcast encodes each distinct message once
(``sockets.py``).

A view's ``version`` is the database's revision of the game, the same on every process, so a
client drops a copy older than the one it holds whichever connection brought it."""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from boardplay.core.game import Game, State
from boardplay.core.records import Move, result_of
from boardplay.web.table import storage as st
from boardplay.web.table.analysable import open_to
from boardplay.web.table.clocks import Clock, control_of
from boardplay.web.table.endings import can_draw
from boardplay.web.table.hints import hints_for

log = logging.getLogger("boardplay.web")

VERSION_EPOCH = "db"
"""First half of a view's version: versions count the database's revisions of the game, so they
compare across server processes and restarts."""


@dataclass(frozen=True)
class Play:
    """A game that can be shown in play: the engine, its position, whether the players ended it
    themselves (a resignation, an agreed draw), the words of its moves and the position's JSON
    (both built on demand, the words first)."""

    game: Game
    state: State
    settled: bool
    words: Callable[[], list[dict[str, Any]]]
    position: Callable[[], Any]


def public_view(
    row: st.GameRow, moves: Sequence[Move], play: Play | None, broken: str | None = None
) -> dict[str, Any]:
    """The view everyone sees; ``play`` None (with why in ``broken``) for a game this server
    cannot rebuild, shown frozen with what the database holds."""
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
                "player": s.account is not None,
                "bot": s.bot,
            }
            for s in row.seats
        ],
        "ply": len(moves),
        "moves": [
            {"ply": i, "action": m.action, "move": m.notation, "player": m.player}
            for i, m in enumerate(moves)
        ],
        "thinking": row.thinking,
        "ai_error": row.ai_error,
        "broken": broken,
        "version": [VERSION_EPOCH, row.revision],
        "reproducible": row.seed is not None,
        "private": row.private,
        "resigned": list(row.resigned),
        "draw_offer": row.draw_offer,
        "rematch": row.rematch,
        "rematch_offer": row.rematch_offer,
        "hints_allowed": row.hints_allowed,
        "rated": row.rated,
        # Who fair play lets analyse the game now (``analysable.open_to``): the page's Analyse.
        "analysable": open_to(row),
        "clock": clock_view(row),
    }
    if row.seed is not None:
        view["seed"] = row.seed
    if play is None:
        view.update(title=row.game, options=row.options, terminal=False, legal=[])
        return view
    game, state = play.game, play.state
    current = state.current_player()
    terminal = state.is_terminal() or play.settled
    # Each move of the history in words, with the struct the boards highlight it by.
    for move, words in zip(view["moves"], safely(play.words) or [], strict=False):
        move.update(words)
    if row.resigned and row.result is not None and view["moves"]:
        _one_outcome(view["moves"][-1], row)
    view.update(
        title=getattr(game, "title", row.game),
        game_string=str(game),
        options=game.options,
        num_players=game.num_players,
        current_player=current,
        current_name=row.seats[current].name if current >= 0 else None,
        terminal=terminal,
        chance=state.is_chance_node() and not terminal,
        legal=[]
        if terminal or state.is_chance_node()
        else [{"id": a, "move": state.action_to_string(a)} for a in state.legal_actions()],
        position=safely(play.position),
        text=safely(state.render),
        scores=safely(state.scores),
        result=row.result if row.result is not None else result_of(state) if terminal else None,
        can_draw=can_draw(game),
        hints=safely(lambda: hints_for(game, state)) or hints_for(game),
    )
    return view


def _one_outcome(last: dict[str, Any], row: st.GameRow) -> None:
    """The last move's words say how the game ended as the rules see it; where seats had
    resigned (and were played on by the AI), its winners are the stored result's
    (``endings.final_result``), so the history never names a winner the result does not."""
    ends = (last.get("struct") or {}).get("ends")
    if not isinstance(ends, dict) or row.result is None:
        return
    winners = list(row.result.get("winners") or [])
    ends.update(
        winners=winners,
        winner_names=[row.seats[w].name for w in winners if 0 <= w < len(row.seats)],
        result=row.result.get("text", ends.get("result")),
        resigned=list(row.resigned),
    )
    words = last.get("words")
    if isinstance(words, str) and " The game ends: " in words:
        last["words"] = words.split(" The game ends: ")[0] + f" The game ends: {ends['result']}."


def clock_view(row: st.GameRow) -> dict[str, Any] | None:
    """The game's clock as the page shows it: the control, each seat's time left as of
    ``since`` (server time) and the seat whose time runs from then; a page counts the running
    seat's time down from ``since`` with the server's time (``now`` in the ``state`` answering a
    socket's hello) and waits for the server to say the clock fell."""
    control = control_of(row.clock)
    if control is None:
        return None
    clock = Clock.from_json(row.clock_state, control, len(row.seats))
    shown: dict[str, Any] = {
        "control": control.to_json(),
        "label": control.label(),
        "left": [round(x, 3) for x in clock.left],
        "running": clock.seat,
        "since": clock.since,
        "deadline": clock.deadline,
        "flagged": clock.flagged,
    }
    if clock.waiting and row.status == st.ACTIVE:
        # Held for players still to come: the page says whom it waits for and until when.
        shown.update(waiting=list(clock.waiting), start_by=clock.start_by)
    return shown


def seat_view(
    public: dict[str, Any],
    row: st.GameRow,
    seats: Collection[int],
    live: bool,
    can_undo: bool,
    legal: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The view of a visitor holding ``seats`` (none: a spectator) of a game ``live`` (not
    frozen): the public view plus whose turn it is and what those seats may answer; ``legal``,
    when given, is the legal list with each move's struct and words (``words.legal_said``)."""
    view = dict(public)
    if legal is not None:
        view["legal"] = legal
    view["your_seats"] = sorted(seats)
    current = view.get("current_player", -4)
    view["your_turn"] = live and not view.get("terminal") and current in seats
    view["can_undo"] = can_undo
    offer = row.draw_offer
    view["draw_to_answer"] = (
        sorted(s for s in seats if s != offer["by"] and s not in offer.get("agreed", []))
        if offer
        else []
    )
    return view


def summary(view: dict[str, Any], updated: datetime) -> dict[str, Any]:
    """A game as the lobby's lists show it, from its public view."""
    keys = ("id", "game", "title", "status", "seats", "ply", "current_player", "thinking", "rated")
    out = {k: view.get(k) for k in keys}
    clock = view.get("clock") or {}
    out["clock"] = clock.get("label")  # English: for API readers
    out["control"] = clock.get("control")  # which the pages word in the reader's language
    out["deadline"] = clock.get("deadline")
    out["current_name"] = view.get("current_name")
    out["result"] = (view.get("result") or {}).get("text")
    # The lobby words the result from these in a language other than the engine's English.
    for key in ("winners", "end", "ended", "resigned", "left"):
        out[key] = (view.get("result") or {}).get(key)
    out["updated"] = updated.isoformat()
    out["reproducible"] = view.get("reproducible", False)
    return out


def safely(build: Callable[[], Any]) -> Any:
    """Presentation extras must never stop a game from being shown."""
    try:
        return build()
    except Exception as exc:
        log.exception("could not build a view field: %s", exc)
        return None
