"""Moves in words for the web views: each legal move and each move of the history gets a struct
(what the boards index moves by) and a sentence (what the move list shows).

Each game's describer (``Game.describer``, e.g. ``games/<game>/describe.py``) turns (position
before, notation, position after) into ``(struct, sentence)``; this module feeds it from the
public contract only (``to_json``, ``action_to_string``, ``clone``, ``apply_action``,
``result_text``), adds the end of the game when a move ends it, and keeps the history's words so
a view costs one new description per move. A game without a describer gets none, and a describer
that fails never stops a game being shown. A move a visitor sends is read here too
(``parse_move``).

A describer's sentence is a :class:`~boardplay.i18n.phrase.Sentence` (or, for a game not yet
translated, a plain English string): ``words`` is its English and ``say`` its parts as JSON, which
the browser puts in the viewer's language (``docs/i18n.md``). The end of the game is not among the
phrases: the engine's result text is English, so the browser words it from ``struct["ends"]``
(the winners and their seat names) in any other language.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from boardplay.core.errors import BoardplayError
from boardplay.core.game import Game, State
from boardplay.core.records import Move
from boardplay.core.registry import find
from boardplay.i18n.phrase import Sentence
from boardplay.web.errors import ApiError, quote

log = logging.getLogger("boardplay.web")


class Describe(Protocol):
    def __call__(
        self,
        before: Mapping[str, Any],
        move: str,
        after: Mapping[str, Any] | None,
        seat: int,
        names: Sequence[str],
    ) -> tuple[dict[str, Any], Sentence | str]: ...


class DescribeEnd(Protocol):
    def __call__(
        self, before: Mapping[str, Any], after: State, seat: int, names: Sequence[str]
    ) -> tuple[dict[str, Any], Sentence]: ...


def describer(game: Game) -> Describe | None:
    """The game's describer (its ``Game.describer`` reference), or None."""
    found: Describe | None = _named(game.describer)
    return found


def end_describer(game: Game) -> DescribeEnd | None:
    """The game's explainer of its endings (its ``Game.end_describer`` reference), or None."""
    found: DescribeEnd | None = _named(game.end_describer)
    return found


def _named(reference: str | None) -> Any:
    """What a game's optional ``module:attribute`` reference names (None: it has none)."""
    return None if reference is None else find(reference)


def ending_of(
    game: Game,
    before: Mapping[str, Any],
    after: State,
    seat: int,
    names: Sequence[str],
) -> tuple[dict[str, Any], str]:
    """``struct["ends"]`` of the move that ended the game (winners, the end's code and, where the
    game explains its endings, ``mark``, what the final board draws, and ``say``, where and why
    in phrases), and the English sentence the move's words end with."""
    winners = after.winners()
    ends: dict[str, Any] = {
        "winners": winners,
        "result": after.result_text(),
        "end": after.end_code(),
        "winner_names": [names[w] for w in winners if 0 <= w < len(names)],
    }
    words = f" The game ends: {after.result_text()}."
    explain = end_describer(game)
    if explain is not None:
        mark, sentence = explain(before, after, seat, names)
        ends.update(mark=mark, say=sentence.to_json())
        words += f" {sentence}"
    return ends, words


def said(
    game: Game, state: State, action: int, before: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """``{"struct": …, "words": …}`` for ``action`` in ``state`` (state is left unchanged);
    empty when the game has no describer or the description fails."""
    if describer(game) is None:
        return {}
    try:
        position = before if before is not None else state.to_json()
        after = state.clone()
        after.apply_action(action)
    except Exception as exc:  # words are an extra: the game is shown, the traceback logged
        log.exception("could not describe %s move %s: %s", game.name, action, exc)
        return {}
    move = state.action_to_string(action)
    return step_said(game, position, move, state.current_player(), after, after.to_json())


def step_said(
    game: Game,
    before: Mapping[str, Any],
    move: str,
    seat: int,
    after: State,
    after_position: Mapping[str, Any],
) -> dict[str, Any]:
    """``said`` for a step already taken: ``move`` by ``seat`` led from the position JSON
    ``before`` to ``after`` (whose JSON is ``after_position``), so a caller walking a whole game
    (a replay) exports each position once and keeps no copies."""
    describe = describer(game)
    if describe is None:
        return {}
    try:
        names = [game.seat_name(s) for s in range(game.num_players)]
        struct, sentence = describe(before, move, after_position, seat, names)
        ending = ""
        if after.is_terminal():
            struct["ends"], ending = ending_of(game, before, after, seat, names)
        if isinstance(sentence, Sentence):
            return {"struct": struct, "words": str(sentence) + ending, "say": sentence.to_json()}
        return {"struct": struct, "words": sentence + ending}
    except Exception as exc:  # words are an extra: the game is shown, the traceback logged
        log.exception("could not describe %s move %s: %s", game.name, move, exc)
        return {}


def legal_said(game: Game, state: State, actions: Sequence[int]) -> list[dict[str, Any]]:
    """The views' legal list: id, notation, struct and words of each legal action."""
    position = state.to_json() if describer(game) is not None else None
    return [
        {"id": a, "move": state.action_to_string(a), **said(game, state, a, position)}
        for a in actions
    ]


class History:
    """The words of a game's moves, extended move by move; a history that changed other than
    by appending (an undo) is described again from the start.

    It walks one state of its own along the game, so a new move costs one step and one export
    (the position after a move is the next move's position before), not a copy of the state, a
    second step and two exports as ``said`` does for a move not yet made."""

    def __init__(self, game: Game, initial: Callable[[], State]) -> None:
        self.game = game
        self.initial = initial
        self.actions: list[int] = []
        self.words: list[dict[str, Any]] = []
        self.state: State | None = None
        self.position: Mapping[str, Any] | None = None
        """The JSON of ``state`` once exported (None: not yet)."""

    def describe(self, moves: Sequence[Move]) -> list[dict[str, Any]]:
        actions = [m.action for m in moves]
        if self.state is None or actions[: len(self.actions)] != self.actions:
            self.actions, self.words, self.state, self.position = [], [], self.initial(), None
        try:
            for action in actions[len(self.actions) :]:
                self.words.append(self._step(self.state, action))
                self.actions.append(action)
        except Exception:
            self.state = None  # stepped but not recorded: start again next time
            raise
        return self.words

    def position_after(self, moves: Sequence[Move]) -> Mapping[str, Any] | None:
        """The JSON of the position after ``moves`` if the last ``describe`` walked exactly
        there and exported it (None otherwise). Shared: never change it."""
        if self.state is None or self.actions != [m.action for m in moves]:
            return None
        return self.position

    def _step(self, state: State, action: int) -> dict[str, Any]:
        if describer(self.game) is None:
            state.apply_action(action)
            return {}
        before = self.position if self.position is not None else state.to_json()
        move, seat = state.action_to_string(action), state.current_player()
        state.apply_action(action)
        self.position = state.to_json()
        return step_said(self.game, before, move, seat, state, self.position)


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
