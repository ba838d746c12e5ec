"""The batched env beside Pgx: Pgx's ``connect_four`` on CPU, measured in another Python (Pgx
and JAX are not boardplay's dependencies), and a comparison that alternates the two.

``pgx_row`` runs ``CHILD`` under ``BOARDPLAY_PGX_PYTHON`` (or ``python``): a jitted step of
``batch`` games (random legal actions drawn with ``jax.random.categorical`` over the mask, then
``jax.vmap(pgx.experimental.auto_reset(env.step, env.init))``, the finished games restarted in
the same call as ``BoardplayVectorEnv`` does), timed after its compilation.

``python -m boardplay.adapters.pgxbench --python /tmp/pgxvenv/bin/python`` alternates, round by
round, Pgx and ``BoardplayVectorEnv(compact=True)`` for every game, at 1,024 games, and prints
the medians per CPU second (``time.process_time``: JAX's threads count) and per wall second::

    python3 -m venv /tmp/pgxvenv && /tmp/pgxvenv/bin/pip install pgx 'jax[cpu]'
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
from collections.abc import Sequence

from boardplay.adapters.bench import VECTOR_ENVS, BenchRow, adapter_throughput

PGX_GAME = "connect_four (Pgx, CPU)"
ENV = "BOARDPLAY_PGX_PYTHON"

CHILD = """
import json, sys, time
import jax, jax.numpy as jnp, pgx
from pgx.experimental import auto_reset
seconds, batch, seed = float(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
env = pgx.make("connect_four")
stepper = jax.vmap(auto_reset(env.step, env.init))

@jax.jit
def step(state, key):
    key, pick, restart = jax.random.split(key, 3)
    logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
    action = jax.random.categorical(pick, logits, axis=1)
    state = stepper(state, action, jax.random.split(restart, batch))
    return state, key, state.terminated

key = jax.random.PRNGKey(seed)
state = jax.jit(jax.vmap(env.init))(jax.random.split(key, batch))
state, key, done = step(state, key)
jax.block_until_ready(state)
steps = games = 0
cpu, wall = time.process_time(), time.perf_counter()
while steps == 0 or time.perf_counter() - wall < seconds:
    state, key, done = step(state, key)
    games += int(done.sum())
    steps += batch
jax.block_until_ready(state)
print(json.dumps({"steps": steps, "games": games, "cpu": time.process_time() - cpu,
                  "wall": time.perf_counter() - wall, "pgx": pgx.__version__}))
"""


def pgx_row(seconds: float, seed: int, batch: int = VECTOR_ENVS, python: str = "") -> BenchRow:
    """Pgx's ``connect_four`` at ``batch`` games for about ``seconds`` (compilation excluded),
    or a row whose note says why it did not run."""
    python = python or os.environ.get(ENV, "")
    if not python:
        note = f"skipped (set {ENV} to a Python with pgx and jax[cpu]: adapters.pgxbench)"
        return BenchRow("pgx", PGX_GAME, 0, 0.0, 0, note=note)
    command = [python, "-c", CHILD, str(seconds), str(batch), str(seed)]
    environment = {**os.environ, "JAX_PLATFORMS": "cpu"}
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, env=environment, timeout=600, check=True
        )
        result = json.loads(done.stdout.strip().splitlines()[-1])
    except (OSError, subprocess.SubprocessError, ValueError, IndexError) as exc:
        return BenchRow("pgx", PGX_GAME, 0, 0.0, 0, note=f"skipped ({type(exc).__name__})")
    return BenchRow(
        "pgx",
        f"connect_four (Pgx {result['pgx']}, CPU)",
        int(result["steps"]),
        float(result["wall"]),
        int(result["games"]),
        cpu_seconds=float(result["cpu"]),
    )


def compare(
    python: str, games: Sequence[str], rounds: int, seconds: float
) -> dict[str, list[BenchRow]]:
    """``rounds`` rounds, each Pgx then every game's compact vector env, alternated so that
    both meet the same load; the rows per name."""
    rows: dict[str, list[BenchRow]] = {}
    for round_ in range(rounds):
        row = pgx_row(seconds, round_, python=python)
        rows.setdefault("pgx connect_four", []).append(row)
        for spec in games:
            (mine,) = adapter_throughput([spec], seconds, round_, adapters=["compact"])[:1]
            rows.setdefault(spec, []).append(mine)
    return rows


def format_comparison(rows: dict[str, list[BenchRow]]) -> str:
    """A Markdown table: medians per CPU second and per wall second, and each run's figure."""
    lines = [
        "| 1,024 games | steps per CPU s (median) | per wall s (median) | runs, per CPU s |",
        "|---|---:|---:|---|",
    ]
    for name, runs in rows.items():
        if any(run.note for run in runs):
            lines.append(f"| {name} | {runs[0].note} | | |")
            continue
        cpu = statistics.median(run.steps_per_cpu_second for run in runs)
        wall = statistics.median(run.steps_per_second for run in runs)
        each = ", ".join(f"{run.steps_per_cpu_second / 1e6:.2f}M" for run in runs)
        lines.append(f"| {name} | {cpu:,.0f} | {wall:,.0f} | {each} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", default=os.environ.get(ENV, ""), help="a Python with Pgx")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0, help="per row and round")
    parser.add_argument("games", nargs="*", default=["montana", "passtally", "potlatch", "proteus"])
    args = parser.parse_args(argv)
    print(format_comparison(compare(args.python, args.games, args.rounds, args.seconds)))


if __name__ == "__main__":
    main()
