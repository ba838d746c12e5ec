"""``python tools/proteus_book.py [--rules kadon] [--seconds S] [--limit N] [--out FILE]``: build
Proteus's placement book (``boardplay.ai.placement_book``), the first mover's early decisions
solved ahead of time.

The book follows one opening line for Black (the first mover) and every reply of White, up to
the eight board symmetries:

- ply 0: Black's tile onto b2, the centre, which every symmetry keeps, so White's replies fall
  into few classes; which tile, the expert's search decides (an unproven choice);
- ply 1: every White reply (one per class);
- ply 2: the expert's choice after each (unproven);
- ply 3: every White reply;
- ply 4: Black's fifth decision, solved: the first placement, in the order of the expert's
  visits, that ``PlacementSolver`` proves does not lose (White has no forced win by the end of
  its first ``--horizon`` movement turns), or none when every placement loses.

From ply 6 the guard proves while playing (``SOLVE_FROM``). Proving one ply-4 position takes
seconds to a minute in Python, and there are about a thousand, so the ply-4 positions are
solved in the order of how likely the expert's search finds White's two replies (the product
of their visit shares) until ``--seconds`` are spent; a solve that passes ``--limit`` positions
is left out. The book records what it covers in ``meta``.
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
from boardplay.ai.placement_book import PlacementBook, book_path, canonical, map_move
from boardplay.core.game import Game, State

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


def replies(game: Game, state: State, iterations: int) -> list[tuple[State, float]]:
    """One position per class of White's replies (up to symmetry), each with its share of
    the search's visits (the class's summed), most likely first."""
    counts = visits(game, state, iterations)
    total = sum(counts.values()) or 1
    classes: dict[str, tuple[State, float]] = {}
    for action, count in counts.items():
        after = state.clone()
        after.apply_action(action)
        key = canonical(game.export_position(after))[0]
        held = classes.get(key)
        classes[key] = (held[0] if held else after, (held[1] if held else 0.0) + count / total)
    return sorted(classes.values(), key=lambda item: -item[1])


def enter(book: PlacementBook, game: Game, state: State, moves: list[int], proven: bool) -> str:
    """Store ``moves`` for ``state`` in the key's frame; returns the key."""
    key, symmetry = canonical(game.export_position(state))
    texts = [map_move(state.action_to_string(a), symmetry) for a in moves]
    book.entries[key] = {"moves": texts, "proven": proven}
    return key


def save(book: PlacementBook, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(book.to_json(), separators=(",", ":")) + "\n")


def build(args: argparse.Namespace) -> PlacementBook:
    started = time.process_time()
    game = boardplay.load("proteus", rules=args.rules)
    book = PlacementBook("proteus", args.rules, args.horizon)
    root = game.new_initial_state()
    first = choose(game, root, args.iterations, cells="b2")
    enter(book, game, root, [first], proven=False)
    root.apply_action(first)
    frontier: list[tuple[float, State]] = []
    for after_white, share in replies(game, root, args.iterations):
        second = choose(game, after_white, args.iterations)
        enter(book, game, after_white, [second], proven=False)
        after_black = after_white.clone()
        after_black.apply_action(second)
        for position, share3 in replies(game, after_black, args.iterations):
            frontier.append((share * share3, position))
    frontier.sort(key=lambda item: -item[0])
    solver = PlacementSolver(args.horizon, limit=args.limit)
    counts = {"safe": 0, "lost": 0, "unsolved": 0}
    covered = 0.0
    for weight, position in frontier:
        if time.process_time() - started > args.seconds:
            break
        kernel = position.kernel
        assert kernel is not None  # Proteus is a compiled game
        order = visits(game, position, args.iterations)
        ranked = sorted(order, key=lambda a: (-order[a], a))
        try:
            safe = solver.safe_moves(kernel, ranked, limit=1)
        except Unsolved:
            counts["unsolved"] += 1
            continue
        enter(book, game, position, safe, proven=True)
        counts["safe" if safe else "lost"] += 1
        covered += weight
        print(f"{len(book.entries)} entries, {counts}, covered {covered:.3f}", file=sys.stderr)
        book.meta = statistics(started, solver, len(frontier), counts, covered)
        save(book, args.out)  # after each solve, so a run stopped early keeps its work
    book.meta = statistics(started, solver, len(frontier), counts, covered)
    return book


def statistics(
    started: float, solver: PlacementSolver, frontier: int, counts: dict[str, int], covered: float
) -> dict[str, object]:
    """The book's ``meta``: how it was made and what its ply-4 entries cover."""
    return {
        "command": "python tools/proteus_book.py " + " ".join(sys.argv[1:]),
        "cpu_seconds": round(time.process_time() - started, 1),
        "positions_searched": solver.nodes,
        "ply4_positions": frontier,
        "ply4_solved": dict(counts),
        "ply4_coverage": round(covered, 4),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="kadon", choices=("kadon", "seed"))
    parser.add_argument("--horizon", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=1200.0, help="CPU seconds to spend")
    parser.add_argument("--limit", type=int, default=3_000_000, help="positions per solve")
    parser.add_argument("--iterations", type=int, default=400, help="the ordering search's")
    parser.add_argument("--out", type=Path, default=book_path("proteus"))
    args = parser.parse_args(argv)
    book = build(args)
    save(book, args.out)
    print(json.dumps(book.meta), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
