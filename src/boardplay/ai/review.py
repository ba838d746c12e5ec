"""Game review: where did the game turn? The win-probability curve of one seat over a finished
(or unfinished) game, the moves of that seat that lost the most, and the better move at each.

Every decision position is judged by an MCTS search with a fixed iteration budget, through the
public agent API only (``make_agent`` and ``Analysis``), so the review gets stronger and faster
whenever the search does. A judgement gives the best move there and its win estimate for the
seat to move (``Judgement``).

The curve is the reviewed seat's win probability at every judged position. In a two-player game
returns sum to 1, so an opponent's position counts as ``1 - p`` and every decision is a point;
with three or four players a search reports only the mover's own chance, so only the reviewed
seat's own decisions are points. The game's end adds its actual return.

A move's *loss* is the win probability before it (the best move's estimate) minus the value of
the move played: the search's own value of that move when it visited it at least
``MIN_VISITS`` times (an expectation over chance, free of luck), else the next point of the curve
after it (which includes any chance outcome in between, and with three or more players the
opponents' replies). Thresholds (docs/analysis.md, "Review and hints"): a loss of at least
``MISTAKE`` (0.10) is a mistake, at least ``BLUNDER`` (0.25) a blunder. Why these: at the default
400 iterations the best move collects a hundred visits or more, so its estimate has a standard
error of at most 0.05 (returns lie in [0, 1]); a loss of 0.10 is twice that noise, and 0.25 is a
quarter of the whole game thrown away by one move — the kind of move a player would want pointed
out first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from boardplay.ai.agents import agent_analysis
from boardplay.ai.specs import make_agent
from boardplay.core.errors import OptionError
from boardplay.core.game import Game, State
from boardplay.core.records import Record

MISTAKE = 0.10
"""A move that loses at least this much win probability is a mistake."""
BLUNDER = 0.25
"""A move that loses at least this much is a blunder."""
MIN_VISITS = 20
"""Visits the search must have given the played move for its own value to be trusted; below
this the move is judged by the position it led to."""
DEFAULT_ITERATIONS = 400
"""Search iterations per judged position by default (docs/analysis.md has the cost per game)."""

Describe = Callable[[State, int], Mapping[str, Any]]
"""Words (English, and the phrase parts a browser words in its language) and a board struct for
an action in a state: ``{"words", "say", "struct"}`` or ``{}``."""
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Judgement:
    """The search's view of one decision position: the best move there (id and notation), its
    estimated win probability for the seat to move, and the moves it considered."""

    ply: int
    seat: int
    action: int
    move: str
    win_probability: float
    candidates: list[dict[str, Any]] = field(default_factory=list)
    iterations: int = 0
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "seat": self.seat,
            "action": self.action,
            "move": self.move,
            "win_probability": self.win_probability,
            "candidates": list(self.candidates),
            "iterations": self.iterations,
            "seconds": self.seconds,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Judgement:
        return cls(
            ply=int(data["ply"]),
            seat=int(data["seat"]),
            action=int(data["action"]),
            move=str(data["move"]),
            win_probability=float(data["win_probability"]),
            candidates=list(data.get("candidates", [])),
            iterations=int(data.get("iterations", 0)),
            seconds=float(data.get("seconds", 0.0)),
        )


def search_spec(iterations: int, time_limit: float | None = None) -> str:
    """The agent spec a judgement searches with: plain MCTS, a fresh tree per position."""
    if iterations < 1:
        raise OptionError(f"iterations per position must be at least 1, got {iterations}")
    timed = f",time={time_limit:g}" if time_limit is not None else ""
    return f"mcts(iterations={iterations}{timed},reuse=false)"


def judge(
    game: Game,
    state: State,
    ply: int,
    iterations: int = DEFAULT_ITERATIONS,
    seed: int = 0,
    time_limit: float | None = None,
    spec: str | None = None,
) -> Judgement:
    """Search ``state`` (a decision position) and report its best move and estimate; ``spec``
    names another search than plain MCTS at ``iterations`` (the fair-play judge is the expert's
    own search at a fixed budget, boardplay.ai.fairplay)."""
    chosen = spec if spec is not None else search_spec(iterations, time_limit)
    agent = make_agent(chosen, game, seed + ply)
    action = agent.step(state)
    analysis = agent_analysis(agent)
    if analysis is None or analysis.win_probability is None:
        raise RuntimeError("the review search reported no win estimate")
    return Judgement(
        ply=ply,
        seat=state.current_player(),
        action=int(action),
        move=state.action_to_string(action),
        win_probability=float(analysis.win_probability),
        candidates=list(analysis.candidates),
        iterations=analysis.iterations,
        seconds=analysis.seconds,
    )


def plies_to_judge(states: Sequence[State], seat: int, players: int) -> list[int]:
    """The positions (by ply: ``states[ply]`` is before move ``ply``) worth a search: real
    decisions (no chance, no end, more than one legal move), every seat's with two players,
    only ``seat``'s with more (see the module docstring)."""
    plies: list[int] = []
    for ply, state in enumerate(states[:-1]):
        if state.is_terminal() or state.is_chance_node():
            continue
        if players > 2 and state.current_player() != seat:
            continue
        if len(state.legal_actions()) > 1:
            plies.append(ply)
    return plies


def verdict(loss: float) -> str | None:
    """``"blunder"``, ``"mistake"`` or None for a move that lost ``loss`` win probability."""
    if loss >= BLUNDER - 1e-9:
        return "blunder"
    if loss >= MISTAKE - 1e-9:
        return "mistake"
    return None


def _said(describe: Describe | None, state: State, action: int) -> dict[str, Any]:
    if describe is None:
        return {}
    return {k: v for k, v in describe(state, action).items() if k in ("words", "say", "struct")}


def assemble(
    game: Game,
    states: Sequence[State],
    actions: Sequence[int],
    seat: int,
    judgements: Mapping[int, Judgement],
    iterations: int,
    describe: Describe | None = None,
) -> dict[str, Any]:
    """The review (JSON-ready) of ``seat`` from the judgements of ``plies_to_judge``'s
    positions: the curve, every judged move of the seat with its loss, and the flagged ones."""
    two = game.num_players == 2
    curve: list[dict[str, Any]] = []
    for ply in sorted(judgements):
        judged = judgements[ply]
        if judged.seat == seat:
            chance = judged.win_probability
        elif two:
            chance = 1.0 - judged.win_probability
        else:
            continue
        curve.append({"ply": ply, "win_probability": round(chance, 4)})
    final = states[-1]
    if final.is_terminal():
        curve.append({"ply": len(actions), "win_probability": round(final.returns()[seat], 4)})

    def after(ply: int) -> float | None:
        return next((p["win_probability"] for p in curve if p["ply"] > ply), None)

    moves: list[dict[str, Any]] = []
    for ply in sorted(judgements):
        judged = judgements[ply]
        if judged.seat != seat:
            continue
        state, played = states[ply], actions[ply]
        notation = state.action_to_string(played)
        before = judged.win_probability
        value: float | None
        if played == judged.action:
            value, source = before, "best"
        else:
            known = next((c for c in judged.candidates if c.get("move") == notation), None)
            if known is not None and int(known.get("visits", 0)) >= MIN_VISITS:
                value, source = float(known["value"]), "search"
            else:
                value, source = after(ply), "next position"
        if value is None:
            continue  # the last move of an unfinished game: nothing after it to judge it by
        loss = round(max(0.0, before - value), 4)
        entry: dict[str, Any] = {
            "ply": ply,
            "move": notation,
            **_said(describe, state, played),
            "win_before": round(before, 4),
            "win_after": round(value, 4),
            "loss": loss,
            "judged_by": source,
            "verdict": verdict(loss),
            "best": None,
        }
        if played != judged.action:
            entry["best"] = {
                "action": judged.action,
                "move": judged.move,
                "win_probability": round(before, 4),
                **_said(describe, state, judged.action),
            }
        moves.append(entry)
    flagged = [m for m in moves if m["verdict"] is not None]
    return {
        "game": game.name,
        "seat": seat,
        "seat_name": game.seat_name(seat),
        "iterations": iterations,
        "thresholds": {"mistake": MISTAKE, "blunder": BLUNDER},
        "plies": len(actions),
        "curve": curve,
        "moves": moves,
        "flagged": flagged,
        "seconds": round(sum(j.seconds for j in judgements.values()), 2),
        "summary": {
            "judged": len(moves),
            "mistakes": sum(1 for m in flagged if m["verdict"] == "mistake"),
            "blunders": sum(1 for m in flagged if m["verdict"] == "blunder"),
        },
    }


def check_seat(game: Game, seat: int) -> None:
    if not 0 <= seat < game.num_players:
        raise OptionError(f"seat must be 0..{game.num_players - 1}, got {seat}")


def review_record(
    record: Record,
    seat: int,
    iterations: int = DEFAULT_ITERATIONS,
    seed: int = 0,
    describe: Describe | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Review ``seat``'s play in ``record`` (every move is verified by replaying it first)."""
    game = record.load_game()
    check_seat(game, seat)
    search_spec(iterations)  # a bad budget fails before any search
    states = list(record.states())
    plies = plies_to_judge(states, seat, game.num_players)
    judgements: dict[int, Judgement] = {}
    for done, ply in enumerate(plies, start=1):
        judgements[ply] = judge(game, states[ply], ply, iterations, seed)
        if progress is not None:
            progress(done, len(plies))
    actions = [m.action for m in record.moves]
    return assemble(game, states, actions, seat, judgements, iterations, describe)
