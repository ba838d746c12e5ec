"""``BOARDPLAY_NO_SKIPS`` (tests/conftest.py, set by ``make test``): a test that skips fails the
run, whether it skips while running or its whole module skips at collection (a module-level
``pytest.importorskip``); tests and modules marked ``outside_repo`` may still skip. Checked by
running pytest on a small made-up suite that uses the real conftest."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

CONFTEST = Path(__file__).resolve().parents[1] / "conftest.py"

SUITE = {
    "pytest.ini": "[pytest]\nmarkers =\n    outside_repo: kept outside the repository\n",
    "test_fine.py": "def test_fine():\n    pass\n",
    "test_gone.py": (
        "import pytest\n\n"
        'pytest.importorskip("boardplay_no_such_module", reason="the xyz extra is missing")\n\n\n'
        "def test_never_collected():\n    pass\n"
    ),
    "test_runtime.py": (
        "import pytest\n\n\ndef test_skips():\n"
        '    pytest.skip("no server")\n\n\n'
        "@pytest.mark.outside_repo\ndef test_may_skip():\n"
        '    pytest.skip("the seed texts are not beside the checkout")\n'
    ),
    "test_outside.py": (
        "import pytest\n\npytestmark = pytest.mark.outside_repo\n"
        'pytest.importorskip("boardplay_no_such_module")\n\n\n'
        "def test_never_collected():\n    pass\n"
    ),
}


def _run(tmp_path: Path, strict: bool) -> str:
    """The suite's summary under pytest (collection errors do not stop it here, so one run shows
    both kinds of skip)."""
    for name, text in SUITE.items():
        (tmp_path / name).write_text(text, "utf-8")
    shutil.copy(CONFTEST, tmp_path / "conftest.py")
    env = {**os.environ, "BOARDPLAY_NO_SKIPS": "1" if strict else "0"}
    command = [sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider"]
    command.append("--continue-on-collection-errors")
    run = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True)
    assert run.returncode == (1 if strict else 0), run.stdout + run.stderr
    return run.stdout


def test_without_the_guard_skips_are_skips(tmp_path: Path) -> None:
    out = _run(tmp_path, strict=False)
    assert "1 passed, 4 skipped" in out, out


def test_under_the_guard_skips_fail_unless_outside_repo(tmp_path: Path) -> None:
    out = _run(tmp_path, strict=True)
    assert (
        "test_gone.py skipped at collection under make test, where nothing may be missing:"
        " Skipped: the xyz extra is missing"
    ) in out, out
    assert "FAILED test_runtime.py::test_skips - skipped under make test" in out, out
    assert "SKIPPED [1] test_runtime.py" in out, out
    assert "SKIPPED [1] test_outside.py" in out, out
    assert "1 failed, 1 passed, 2 skipped, 1 error" in out, out
