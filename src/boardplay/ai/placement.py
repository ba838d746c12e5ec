"""Proteus's placement traps, solved exactly: which placements lose by force.

A placement is *losing* for the seat that makes it when the opponent can then force a win by
the end of the first ``horizon`` movement turns (of either seat; White moves first), whatever
the placer does: every remaining placement of both seats is searched, then those turns. Such traps
are what the expert walked into against Boardspace's robot (issue 67, item 5: each lost game
was decided by a placement at ply 4-8 and ended at ply 16-18, White's first or second
movement turn); a search that values leaves by an estimate sees them a move too late, while
this search sees every one within its horizon.

The search is a plain AND-OR depth-first search over the compiled kernel (its legal actions
and ``step``), with a transposition table for the placement phase, whose positions are reached
in many orders, keyed by the kernel's whole position (``Kernel.save``). Nothing is estimated:
"loses" is a proof, and "does not lose" means the opponent has no forced win within the
horizon (the game may still be lost later, or won). Its cost grows about a hundredfold per
two placements left: Black's fourth placement (ply 6) takes under a second, its third (ply 4)
seconds to a minute, its second (ply 2), by extrapolation, hours; so
``boardplay.ai.placement_book`` holds the early decisions solved ahead of time.
"""

from __future__ import annotations

from collections.abc import Iterable

from boardplay.core.kernel import Kernel

HORIZON = 1
"""Movement turns searched after the placement by default: the first, White's, on which seven
of the eight lost games of the evidence were decided."""


def in_placement(kernel: Kernel) -> bool:
    """Whether ``kernel`` (a Proteus kernel) is in the placement phase: its repetition key is 0
    exactly there (placement positions cannot recur)."""
    return kernel.current_player() >= 0 and kernel.repetition_key() == 0


class Unsolved(Exception):
    """A solve gave up at its node limit: the answer is unknown, not "does not lose"."""


class PlacementSolver:
    """Exact answers to "does this placement lose?" for one Proteus game's kernels.

    One solver serves many questions; its table of solved positions is kept between the
    questions asked of one position and dropped when a new root is asked about (``clear``), so
    memory stays bounded by one solve.
    """

    def __init__(self, horizon: int = HORIZON, limit: int = 0) -> None:
        if horizon < 1:
            raise ValueError(
                f"the horizon is a number of movement turns, at least 1, not {horizon}"
            )
        self.horizon = horizon
        self.limit = limit
        """With a limit, a question (``loses``) that expands more positions than this raises
        ``Unsolved``."""
        self.nodes = 0
        """Positions expanded since the solver was made (for the book's statistics)."""
        self._table: dict[tuple[int, object], bool] = {}
        self._root: object = None
        self._scratch: list[Kernel] = []
        self._killers: list[int] = []
        self._stop = 0

    def clear(self) -> None:
        """Forget every solved position."""
        self._table.clear()
        self._root = None

    def loses(self, kernel: Kernel, action: int) -> bool:
        """Whether ``action``, a legal placement of the seat to move in ``kernel``, loses: the
        opponent then forces a win within the horizon."""
        root = kernel.save()[0]
        if root != self._root:
            self.clear()
            self._root = root
        self._stop = self.nodes + self.limit if self.limit else 0
        mover = kernel.current_player()
        child = kernel.clone()
        child.step(action)
        if child.current_player() < 0:
            return child.returns()[1 - mover] == 1.0
        return self._forces(child, 1 - mover, self.horizon, 0)

    def safe_moves(
        self, kernel: Kernel, candidates: Iterable[int] | None = None, limit: int = 0
    ) -> list[int]:
        """The ``candidates`` (default: every legal action) that do not lose, in the order given;
        with ``limit``, stop once that many are found (the proof of one safe move is the
        expensive part, so asking for one costs least)."""
        safe = []
        for action in kernel.legal_actions() if candidates is None else candidates:
            if not self.loses(kernel, action):
                safe.append(action)
                if len(safe) == limit:
                    break
        return safe

    def _forces(self, kernel: Kernel, winner: int, budget: int, depth: int) -> bool:
        """Whether ``winner`` can force a win from ``kernel`` (a position in play) before
        ``budget`` more movement plies are spent. At the winner's turns one action must win; at
        the other seat's every action must. The action that last decided a position at this
        depth is tried first (a killer move: sibling positions are mostly decided alike)."""
        self.nodes += 1
        if self._stop and self.nodes > self._stop:
            raise Unsolved(f"no answer within {self.limit} positions")
        placing = kernel.repetition_key() == 0
        key = (budget, kernel.save()[0]) if placing else None
        if key is not None:
            known = self._table.get(key)
            if known is not None:
                return known
        if depth == len(self._scratch):
            self._scratch.append(kernel.clone())
            self._killers.append(-1)
        child = self._scratch[depth]
        attacking = kernel.current_player() == winner
        remaining = budget if placing else budget - 1
        actions = kernel.legal_actions()
        killer = self._killers[depth]
        if killer in actions:
            actions.remove(killer)
            actions.insert(0, killer)
        result = not attacking
        for action in actions:
            child.assign(kernel)
            child.step(action)
            if child.current_player() < 0:
                won = child.returns()[winner] == 1.0
            elif remaining == 0 and child.repetition_key() != 0:
                won = False
            else:
                won = self._forces(child, winner, remaining, depth + 1)
            if won == attacking:
                result = won
                self._killers[depth] = action
                break
        if key is not None:
            self._table[key] = result
        return result
