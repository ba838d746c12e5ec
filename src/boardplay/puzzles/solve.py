"""Solving a puzzle: what counts as the right move, one action at a time, and what the other side
answers. The rule of the site's attempts (``boardplay.web.puzzles``) and of anything else that
lets a person solve; pure, no I/O.

The solver plays the mover's side. A puzzle's answer is a whole turn (``Puzzle.solution``), and a
turn of several actions may be played in any order that leaves the same position (two orders of
one turn are one choice, ``turns.py``): so an action is right when the turn can still be
completed to the position of one of the answer group's turns (``Puzzle.answers``: the turns that
share the deciding action, ``judge.verdict``) from where it leads, and the turn is solved when it
has been.
Then the other side answers from the puzzle's ``line`` (the reply the search expects, and any
forced actions or chance outcomes it recorded) until the mover has a real decision again, the game
ends, or the line runs out.

The attempt ends there: the rest of the line is the search's expectation, not a verified unique
answer (only the first turn is judged, docs/formats/puzzles.md), so asking a person to find it
would fail them for moves that are as good as the line's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from boardplay.core.errors import BoardplayError
from boardplay.core.game import Game, State
from boardplay.puzzles.puzzle import Puzzle, PuzzleError, solution_key
from boardplay.puzzles.turns import position_key, turn_choices, turn_continues

RIGHT = "right"
"""The action keeps the solution's turn within reach; the mover plays on."""
SOLVED = "solved"
"""The action completes the solution's turn."""
WRONG = "wrong"
"""The action leaves the solution's turn out of reach: the attempt has failed."""


@dataclass(frozen=True)
class Step:
    """What one of the solver's actions did: its verdict, and the actions the other side (or
    chance) then played from the line, each with the seat that played it (-1: chance)."""

    verdict: str
    replies: list[tuple[int, int]] = field(default_factory=list)


class Solving:
    """A puzzle being solved: its game, its start, and the position the solution leaves.

    Build one per request and replay the solver's actions so far with :meth:`replay` (the state
    is never kept between requests: the actions are the attempt)."""

    def __init__(self, puzzle: Puzzle, game: Game | None = None) -> None:
        self.puzzle = puzzle
        if game is None:
            self.game, self.start = puzzle.load()
        else:
            self.game = game
            try:
                self.start = game.state_from_json(puzzle.position)
            except BoardplayError as exc:
                raise PuzzleError(f"puzzle {puzzle.id}: {exc}") from None
        self.mover = self.start.current_player()
        self.targets = {solution_key(self.start, turn) for turn in puzzle.answer_turns()}
        self.solution = solution_key(self.start, puzzle.solution)

    def replay(self, actions: list[int]) -> tuple[State, list[Step]]:
        """The position after the solver's ``actions`` (each judged and answered as
        :meth:`step` does), and each action's step; a ``PuzzleError`` if one is not legal or
        comes after the attempt ended."""
        state = self.start.clone()
        steps: list[Step] = []
        for action in actions:
            if steps and steps[-1].verdict != RIGHT:
                raise PuzzleError("the attempt has ended")
            steps.append(self.step(state, action))
        return state, steps

    def step(self, state: State, action: int) -> Step:
        """Play the solver's ``action`` on ``state`` (in place) and judge it; once the turn is
        solved with the solution itself, the other side's answer from the line is played too."""
        if state.is_terminal() or state.is_chance_node() or state.current_player() != self.mover:
            raise PuzzleError("it is not the solver's move")
        if action not in state.legal_actions():
            raise PuzzleError(f"action {action} is not legal here")
        state.apply_action(action)
        if turn_continues(self.start, state):
            reachable = any(c.key in self.targets for c in turn_choices(state))
            return Step(RIGHT if reachable else WRONG)
        key = position_key(state)
        if key not in self.targets:
            return Step(WRONG)
        # The line is the reply to the solution's own position; after another turn of the
        # answer group its moves may be illegal there, or legal and meaningless.
        return Step(SOLVED, self.answer(state) if key == self.solution else [])

    def answer(self, state: State) -> list[tuple[int, int]]:
        """Play the line on ``state`` (in place) while it is not the mover's own decision: the
        opponent's reply, chance outcomes the line recorded, and forced actions (one legal
        choice). Stops at the mover's next real decision, the end, or the line's end."""
        played: list[tuple[int, int]] = []
        for move in self.puzzle.line:
            if state.is_terminal():
                break
            chance = state.is_chance_node()
            seat = -1 if chance else state.current_player()
            if seat == self.mover and len(state.legal_actions()) > 1:
                break
            try:
                action = state.string_to_action(move)
            except BoardplayError:
                break  # a chance outcome the rules no longer offer here: the answer stops
            state.apply_action(action)
            played.append((action, seat))
        return played

    def solution_actions(self) -> list[int]:
        """The solution's actions from the start, in the puzzle's order."""
        walker = self.start.clone()
        actions = []
        for move in self.puzzle.solution:
            action = walker.string_to_action(move)
            walker.apply_action(action)
            actions.append(action)
        return actions
