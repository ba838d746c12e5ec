"""``python tools/proteus_book.py [--seconds S] [--resume] [--out FILE] ...``: build Proteus's
placement book (``boardplay.ai.placement_book``), the first mover's early decisions solved
ahead of time; ``--measure N`` plays the guarded expert against the plain one instead.

The book follows one opening line for Black (the first mover) against every reply of White, up
to the eight board symmetries, and proves it by cases:

- ply 0: Black's tile onto b2, the centre, which every symmetry keeps, so White's replies fall
  into 19 classes; which tile, the expert's search decides;
- ply 1: every White reply (one per class), the likeliest for the search first;
- ply 2: the expert's favourite, unless a proof below refutes it, then its next (``--tries``);
- ply 3: every White reply;
- ply 4: Black's third placement, solved: the first placement, in the order of the expert's
  visits, that ``PlacementSolver`` proves does not lose (White has no forced win by the end of
  its first ``--horizon`` movement turns), or none when every placement loses; a ply-2 move
  that allows such a lost position is refuted.

A ply-2 move is proven when every reply's ply-4 position holds a safe move, and the root when
every ply-2 entry is. From ply 6 the guard proves while playing (``SOLVE_FROM``). A ply-4 proof
takes about a second or two of CPU in Python and the line meets about 650 of them, so a run
can be stopped (``--seconds``, or at any time: the book is saved after each solve) and resumed
(``--resume`` keeps the solved ply-4 entries); a solve past ``--limit`` positions is left
unsolved and its line stays unproven. ``meta`` records the counts.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import boardplay
from boardplay.ai import make_agent
from boardplay.ai.agents import agent_analysis
from boardplay.ai.placement import PlacementSolver, Unsolved
from boardplay.ai.placement_book import (
    PLACEMENTS,
    PlacementBook,
    PlacementGuard,
    book_path,
    canonical,
    map_move,
    placements_left,
    position_of,
    shipped_book,
)
from boardplay.core.game import Game, State

EXPERT = "az(weights=proteus,time={time},iterations=200000,repetition=true,contempt=0.3,c=1.0)"
"""The expert's spec (``ProteusGame.levels``) at ``--time`` seconds a move, for ``--measure``."""

FRONTIER = PLACEMENTS - 4
"""Placements left at Black's third placement (ply 4), where the book's proofs start."""

SEARCH = "az(weights=proteus,iterations={n},repetition=true,contempt=0.3,c=1.0)"
"""The expert's search at an iteration budget (so the book replays): it picks the opening
line's moves and orders the replies and the candidates."""


def visits(game: Game, state: State, iterations: int) -> dict[int, int]:
    """The expert search's visits per legal action of ``state``."""
    agent = make_agent(SEARCH.format(n=iterations), game, seed=1)
    agent.step(state)
    analysis = agent_analysis(agent)
    counts = {c["move"]: int(c["visits"]) for c in analysis.candidates} if analysis else {}
    return {a: counts.get(state.action_to_string(a), 0) for a in state.legal_actions()}


def choose(game: Game, state: State, iterations: int, cells: str | None = None) -> int:
    """The expert's most visited action (only those ending on ``cells``, if given)."""
    counts = visits(game, state, iterations)
    pool = [a for a in counts if cells is None or state.action_to_string(a)[-2:] in cells]
    return max(pool, key=lambda a: (counts[a], -a))


def replies(game: Game, state: State, iterations: int) -> list[State]:
    """One position per class of White's replies (up to symmetry), the class with the most
    visits of the search first."""
    counts = visits(game, state, iterations)
    classes: dict[str, tuple[State, int]] = {}
    for action, count in counts.items():
        after = state.clone()
        after.apply_action(action)
        key = canonical(game.export_position(after))[0]
        held = classes.get(key)
        classes[key] = (held[0] if held else after, (held[1] if held else 0) + count)
    return [position for position, _ in sorted(classes.values(), key=lambda item: -item[1])]


def enter(book: PlacementBook, game: Game, state: State, moves: list[int], proven: bool) -> str:
    """Store ``moves`` for ``state`` in the key's frame; returns the key."""
    key, symmetry = canonical(game.export_position(state))
    texts = [map_move(state.action_to_string(a), symmetry) for a in moves]
    book.entries[key] = {"moves": texts, "proven": proven}
    return key


def save(book: PlacementBook, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(book.to_json(), separators=(",", ":")) + "\n")


class Builder:
    """One build: the book so far, the solver, the ply-4 entries of an earlier run
    (``--resume``) and the tallies of ``meta``."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.started = time.process_time()
        self.game = boardplay.load("proteus", rules=args.rules)
        self.book = PlacementBook("proteus", args.rules, args.horizon)
        self.solver = PlacementSolver(args.horizon, limit=args.limit)
        self.counts = {"unsolved": 0, "refuted": 0}
        self.done: dict[str, dict[str, object]] = {}
        if args.resume and args.out.exists():  # keep the solved ply-4 entries of an earlier run
            earlier = json.loads(args.out.read_text())
            self.started -= earlier["meta"].get("cpu_seconds", 0.0)  # the budget is the total
            self.done = {
                k: e
                for k, e in earlier["entries"].items()
                if e["proven"] and placements_left(position_of(k)) == FRONTIER
            }

    def spent(self) -> bool:
        return bool(time.process_time() - self.started > self.args.seconds)

    def run(self) -> PlacementBook:
        """Ply 0, then for each White reply (likeliest first) the ply-2 line move that the
        proofs below do not refute; the root is proven when every ply-2 entry is."""
        game, iterations = self.game, self.args.iterations
        root = game.new_initial_state()
        first = choose(game, root, iterations, cells="b2")
        root.apply_action(first)
        proven_all = True
        for after_white in replies(game, root, iterations):
            proven_all &= self.line(after_white) == "proven"
        enter(self.book, game, game.new_initial_state(), [first], proven=proven_all)
        self.save()
        return self.book

    def line(self, state: State) -> str:
        """Black's ply-2 move in ``state``: the search's candidates in turn (``--tries``) until
        one is not refuted; its entry is stored proven when every reply's ply-4 position has a
        proven safe move. Returns ``proven``, ``open`` (budget spent or a solve gave up) or
        ``refuted`` (every candidate tried meets a lost ply-4 position: no entry)."""
        counts = visits(self.game, state, self.args.iterations)
        for move in sorted(counts, key=lambda a: (-counts[a], a))[: self.args.tries]:
            after = state.clone()
            after.apply_action(move)
            outcome = "proven"
            for position in replies(self.game, after, self.args.iterations):
                found = self.frontier(position)
                if found == "lost":
                    outcome = "refuted"
                    break
                if found != "safe":
                    outcome = "open"
            if outcome != "refuted":
                enter(self.book, self.game, state, [move], proven=outcome == "proven")
                self.save()
                return outcome
            self.counts["refuted"] += 1
        return "refuted"

    def frontier(self, position: State) -> str:
        """Black's ply-4 decision in ``position``: the first placement, in the search's order,
        proven not to lose (``safe``), none (``lost``), or ``unsolved``/``open``."""
        key = canonical(self.game.export_position(position))[0]
        entry = self.book.entries.get(key) or self.done.get(key)
        if entry is None:
            if self.spent():
                return "open"
            kernel = position.kernel
            assert kernel is not None  # Proteus is a compiled game
            order = visits(self.game, position, self.args.iterations)
            try:
                safe = self.solver.safe_moves(
                    kernel, sorted(order, key=lambda a: (-order[a], a)), 1
                )
            except Unsolved:
                self.counts["unsolved"] += 1
                return "unsolved"
            enter(self.book, self.game, position, safe, proven=True)
            entry = self.book.entries[key]
            print(f"{len(self.book.entries)} entries, {self.counts}", file=sys.stderr)
        self.book.entries[key] = entry
        self.save()
        return "safe" if entry["moves"] else "lost"

    def save(self) -> None:
        """Write the book with its ``meta`` (after each solve, so a stopped run keeps its
        work for ``--resume``)."""
        frontier = [
            e for k, e in self.book.entries.items() if placements_left(position_of(k)) == FRONTIER
        ]
        safe = sum(1 for e in frontier if e["moves"])
        lost = len(frontier) - safe
        self.book.meta = {
            "command": "python tools/proteus_book.py " + " ".join(sys.argv[1:]),
            "cpu_seconds": round(time.process_time() - self.started, 1),
            "positions_searched": self.solver.nodes,
            "ply4": {"safe": safe, "lost": lost, **self.counts},
        }
        save(self.book, self.args.out)


def measure(args: argparse.Namespace) -> dict[str, object]:
    """The expert as the first mover with and without the guard (book and proofs) against the
    expert unguarded, ``--measure`` games each at ``--time`` seconds a move (kadon, repetition
    forbidden, as on Boardspace; a draw at turn 200): Black's wins, draws and losses, and how
    many losses ended by turn 20, right after the placement."""
    game = boardplay.load("proteus", rules=args.rules, repetition="forbid", max_turns=200)
    spec = EXPERT.format(time=args.time)
    results: dict[str, object] = {}
    for guarded in [side == "guarded" for side in args.sides.split(",")]:
        tally = {"wins": 0, "draws": 0, "losses": 0, "losses_by_turn_20": 0}
        for index in range(args.measure):
            black = make_agent(spec, game, seed=2 * index)
            if guarded:
                black = PlacementGuard(black, game, shipped_book(game))
            seats = (black, make_agent(spec, game, seed=2 * index + 1))
            state = game.new_initial_state()
            while not state.is_terminal():
                action = seats[state.current_player()].step(state)
                state.apply_action(action)
                for agent in seats:
                    agent.inform(action)
            black_return = state.returns()[0]
            outcome = "wins" if black_return == 1 else "losses" if black_return == 0 else "draws"
            tally[outcome] += 1
            if outcome == "losses" and len(state.history()) <= 20:
                tally["losses_by_turn_20"] += 1
        results["guarded" if guarded else "unguarded"] = tally
        print(("guarded" if guarded else "unguarded"), tally, file=sys.stderr)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="kadon", choices=("kadon", "seed"))
    parser.add_argument("--horizon", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=1200.0, help="CPU seconds to spend")
    parser.add_argument("--limit", type=int, default=3_000_000, help="positions per solve")
    parser.add_argument("--iterations", type=int, default=400, help="the ordering search's")
    parser.add_argument("--out", type=Path, default=book_path("proteus"))
    parser.add_argument("--measure", type=int, default=0, help="games to play instead of building")
    parser.add_argument("--resume", action="store_true", help="keep --out's solved entries")
    parser.add_argument("--tries", type=int, default=3, help="ply-2 candidates to try")
    parser.add_argument("--sides", default="unguarded,guarded", help="--measure's Black sides")
    parser.add_argument("--time", type=float, default=0.03, help="seconds a move in --measure")
    args = parser.parse_args(argv)
    if args.measure:
        print(json.dumps(measure(args)))
        return 0
    book = Builder(args).run()
    print(json.dumps(book.meta), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
