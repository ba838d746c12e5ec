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
from boardplay.ai.placement_book import (
    PlacementBook,
    PlacementGuard,
    book_path,
    canonical,
    map_move,
    placements_left,
    position_of,
    reply_keys,
    shipped_book,
)
from boardplay.core.game import Game, State

EXPERT = "az(weights=proteus,time={time},iterations=200000,repetition=true,contempt=0.3,c=1.0)"
"""The expert's spec (``ProteusGame.levels``) at ``--time`` seconds a move, for ``--measure``."""

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
    done = {}
    if args.resume and args.out.exists():  # keep the solved ply-4 entries of an earlier run
        earlier_book = json.loads(args.out.read_text())
        earlier = earlier_book["entries"]
        started -= earlier_book["meta"].get("cpu_seconds", 0.0)  # the budget is the total
        done = {
            k: e
            for k, e in earlier.items()
            if e["proven"] and placements_left(position_of(k)) == 11
        }
    for weight, position in frontier:
        if time.process_time() - started > args.seconds:
            break
        key = canonical(game.export_position(position))[0]
        if key in done:
            book.entries[key] = done[key]
            counts["safe" if done[key]["moves"] else "lost"] += 1
            covered += weight
            continue
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
    book.meta["refuted"] = settle(book, game)
    return book


def settle(book: PlacementBook, game: Game) -> list[str]:
    """Prove the opening line's moves where the book covers every reply: an unproven entry
    (ply 2, then ply 0) becomes proven when every reply's position is a proven entry with a
    move (``reply_keys``). An entry whose move meets a reply whose position is lost (a proven
    entry without moves) is dropped, so the search chooses there; returns those keys."""
    refuted = []
    line = [k for k, e in book.entries.items() if not e["proven"]]
    for key in sorted(line, key=lambda k: placements_left(position_of(k))):
        entry = book.entries[key]
        state = game.state_from_json(position_of(key))
        below = [book.entries.get(k) for k in reply_keys(game, state, entry["moves"][0])]
        if any(e is not None and e["proven"] and not e["moves"] for e in below):
            refuted.append(key)
            del book.entries[key]
        elif all(e is not None and e["proven"] and e["moves"] for e in below):
            entry["proven"] = True
    return refuted


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


def measure(args: argparse.Namespace) -> dict[str, object]:
    """The expert as the first mover with and without the guard (book and proofs) against the
    expert unguarded, ``--measure`` games each at ``--time`` seconds a move (kadon, repetition
    forbidden, as on Boardspace; a draw at turn 200): Black's wins, draws and losses, and how
    many losses ended by turn 20, right after the placement."""
    game = boardplay.load("proteus", rules=args.rules, repetition="forbid", max_turns=200)
    spec = EXPERT.format(time=args.time)
    results: dict[str, object] = {}
    for guarded in (False, True):
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
    parser.add_argument("--settle", action="store_true", help="settle --out's book only")
    parser.add_argument("--time", type=float, default=0.03, help="seconds a move in --measure")
    args = parser.parse_args(argv)
    if args.measure:
        print(json.dumps(measure(args)))
        return 0
    if args.settle:  # a book whose build was stopped early: settle what it holds
        book = PlacementBook.from_json(json.loads(args.out.read_text()))
        book.meta["refuted"] = settle(book, boardplay.load("proteus", rules=book.rules))
        save(book, args.out)
        print(json.dumps(book.meta), file=sys.stderr)
        return 0
    book = build(args)
    save(book, args.out)
    print(json.dumps(book.meta), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
