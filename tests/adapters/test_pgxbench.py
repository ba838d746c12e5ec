"""The Pgx row of the adapter bench (``adapters.pgxbench``): run by another Python, or skipped
saying why; the comparison's table. Speed is never asserted."""

from __future__ import annotations

import sys

import pytest

from boardplay.adapters import pgxbench
from boardplay.adapters.bench import BenchRow


def test_without_a_pgx_python_the_row_says_how_to_get_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(pgxbench.ENV, raising=False)
    row = pgxbench.pgx_row(0.01, 0)
    assert row.steps == 0 and pgxbench.ENV in row.note


def test_a_python_without_pgx_gives_a_skipped_row() -> None:
    row = pgxbench.pgx_row(0.01, 0, python=sys.executable)  # boardplay's venv has no Pgx
    assert row.steps == 0 and row.note.startswith("skipped")


def test_the_comparison_reads_a_childs_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stand-in child prints what Pgx's would; the comparison alternates it with the games."""
    figures = '{"steps": 2048, "games": 9, "cpu": 0.5, "wall": 1.0, "pgx": "x"}'
    child = f"print('{figures}')"
    monkeypatch.setattr(pgxbench, "CHILD", child)
    rows = pgxbench.compare(sys.executable, ["proteus"], rounds=2, seconds=0.02)
    assert list(rows) == ["pgx connect_four", "proteus"]
    pgx = rows["pgx connect_four"]
    assert [r.steps_per_cpu_second for r in pgx] == [4096.0, 4096.0]
    assert all(r.steps >= 1024 and r.cpu_seconds > 0 for r in rows["proteus"])
    table = pgxbench.format_comparison(rows)
    assert "| pgx connect_four | 4,096 | 2,048 | 0.00M, 0.00M |" in table
    skipped = pgxbench.format_comparison({"x": [BenchRow("pgx", "x", 0, 0.0, 0, note="why")]})
    assert "| x | why |" in skipped
