"""The choices a puzzle asks between: every distinct turn the side to move can make.

A turn is the mover's actions from a turn start until the turn passes. In Proteus a turn is one
action; in Potlatch Klone it is the 2 (or 3) actions of the rules; in Passtally the two actions;
in Montana the cattle trades, the one action and its follow-up decisions. A turn ends where
``State.turn()`` changes (another seat's turn, or a canteen's extra turn), where another seat
must decide (Montana's City auction), at a chance node (a Passtally reveal, a Montana spin: what
follows depends on luck, so the choice is judged over every outcome, see ``judge``), or at the
end of the game.

Two action sequences that reach the same position are one choice: a puzzle asks which position
to leave the opponent, not in which order to get there. Positions are compared by their
position JSON, the format a puzzle is exported in.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from boardplay.core.game import State

MAX_CHOICES = 4000
"""Most distinct turns a position may offer; a position with more is not a candidate. Passtally
offers up to about 2000 (a marker move followed by any of some 200 placements): they cost about
one search per first action (``judge.score`` values the turns of a first action through their
best completion), and the answer is the placement that decides, whichever marker moves
(``judge.verdict``'s answer group). The bound keeps the enumeration itself cheap."""

EXPLORED = 10
"""Positions inside one turn explored per allowed choice before giving up (cattle trades in any
order and number make many)."""


class TooManyChoices(Exception):
    """The position offers more than ``MAX_CHOICES`` distinct turns."""


@dataclass(frozen=True)
class Choice:
    """One turn: its actions (ids and notation, in order) and the position it leaves."""

    actions: tuple[int, ...]
    moves: tuple[str, ...]
    after: State
    key: str


def position_key(state: State) -> str:
    """The position as a string, equal exactly when the position JSON is."""
    return json.dumps(state.to_json(), sort_keys=True, separators=(",", ":"))


def at_turn_start(state: State, last_decision: State | None) -> bool:
    """Whether ``state`` is a decision that starts a turn; ``last_decision`` is the latest
    decision position before it (chance outcomes skipped), None at the game's start. A chance
    node's own ``turn()`` names no seat, so it cannot tell a reveal inside a turn from one
    between turns; the decision before it can."""
    if state.is_terminal() or state.is_chance_node():
        return False
    return last_decision is None or last_decision.turn() != state.turn()


def turn_continues(start: State, state: State) -> bool:
    """Whether ``state`` (reached from the turn start ``start`` by the mover's actions) is still
    the mover's own decision in the same turn."""
    if state.is_terminal() or state.is_chance_node():
        return False
    return state.current_player() == start.current_player() and state.turn() == start.turn()


def turn_choices(state: State, limit: int = MAX_CHOICES) -> list[Choice]:
    """Every distinct turn from ``state`` (a decision), in the order of their first actions.
    Raises ``TooManyChoices`` past ``limit``."""
    found: dict[str, Choice] = {}
    seen: set[str] = set()
    pending: list[tuple[State, tuple[int, ...], tuple[str, ...]]] = [(state, (), ())]
    while pending:
        here, actions, moves = pending.pop()
        for action in reversed(here.legal_actions()):
            after = here.clone()
            notation = after.action_to_string(action)
            after.apply_action(action)
            key = position_key(after)
            line, words = (*actions, action), (*moves, notation)
            if turn_continues(state, after):
                if key not in seen:
                    if len(seen) >= EXPLORED * limit:
                        raise TooManyChoices(
                            f"more than {EXPLORED * limit} positions inside the turn"
                        )
                    seen.add(key)
                    pending.append((after, line, words))
                continue
            if key not in found:
                if len(found) >= limit:
                    raise TooManyChoices(f"more than {limit} distinct turns")
                found[key] = Choice(line, words, after, key)
    return sorted(found.values(), key=lambda choice: choice.actions)
