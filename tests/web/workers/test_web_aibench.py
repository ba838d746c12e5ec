"""``tools/aibench.py``: AI games at once through the fair queue and a real worker pool, with the
queue's wait and the simulations a move reported."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest


def test_the_ai_bench_reports_the_wait_and_the_simulations(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = Path(__file__).parents[3] / "tools" / "aibench.py"
    spec = importlib.util.spec_from_file_location("aibench_tool", path)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, tool)  # its dataclasses look their module up
    spec.loader.exec_module(tool)
    argv = ["--games", "3", "--seconds", "3", "--workers", "1", "--level", "easy"]
    assert tool.main(argv) == 0
    printed = capsys.readouterr().out
    moves = re.search(r"(\d+) AI moves", printed)
    assert moves is not None and int(moves.group(1)) > 3, printed
    assert "queue wait p50" in printed
    # Easy is 30 simulations a move, whatever the load (fewer only where the move is settled).
    assert re.search(r"simulations a move p50 30, ", printed), printed
