"""Engine lines for the analysis board, in a worker process: the ``k`` moves a level of the
ladder thinks best in a position, each with its win chance for the seat to move and the line the
search expects after it.

The search is the level's own agent as the site plays it (``ai_worker.site_agent``: its
simulations with a time cap, stopped at the operator's think time whatever its budget), exactly
as an AI seat of that level would think there; the lines are
read off its tree (``ai.kept.expected_line``), so they cost nothing beyond the one search. An
agent without a compiled tree (a game without a kernel) reports its best move's line and the
other candidates' first moves only."""

from __future__ import annotations

from typing import Any

from boardplay.ai.agents import agent_analysis
from boardplay.ai.kept import expected_line
from boardplay.web.workers.ai_worker import site_agent
from boardplay.web.workers.position import Position


def engine_lines(
    position: Position, budget: tuple[str, int], seed: int, max_time: float
) -> dict[str, Any]:
    """The best ``k`` lines of ``level`` (``budget``) at ``position``, a decision position:
    ``{"seat", "iterations", "seconds", "lines": [{"move", "action", "win_probability",
    "visits", "line"}]}``, the most visited move first."""
    level, k = budget
    game, state = position.rebuild()
    agent = site_agent(level, game, seed, max_time)
    chosen = int(agent.step(state))
    found = agent_analysis(agent)
    tree = getattr(agent, "tree", None)
    lines: list[dict[str, Any]] = []
    if tree is not None and found is not None and found.iterations:
        ranked = sorted(tree.children(tree.root), key=lambda c: (-c[2], c[0]))[:k]
        lines = [
            {
                "move": state.action_to_string(action),
                "action": int(action),
                "win_probability": round(float(tree.node_value(node)), 4),
                "visits": int(visits),
                "line": expected_line(state, tree, action, node),
            }
            for action, node, visits in ranked
        ]
    elif found is not None:
        best = {
            "move": found.move,
            "action": chosen,
            "win_probability": found.win_probability,
            "visits": found.iterations,
            "line": found.line or [found.move],
        }
        others = [
            {
                "move": c["move"],
                "action": int(state.string_to_action(str(c["move"]))),
                "win_probability": c.get("value"),
                "visits": c.get("visits", 0),
                "line": [c["move"]],
            }
            for c in found.candidates
            if c.get("move") != found.move
        ]
        lines = [best, *others][:k]
    if not lines:  # a forced move, or an agent that reports no search
        move = state.action_to_string(chosen)
        lines = [
            {"move": move, "action": chosen, "win_probability": None, "visits": 0, "line": [move]}
        ]
    return {
        "seat": state.current_player(),
        "iterations": found.iterations if found else 0,
        "seconds": found.seconds if found else 0.0,
        "lines": lines,
    }
