"""The wheel's Gymnasium start-up hook (``boardplay-gymnasium.pth``) beside PettingZoo: it
imports nothing of PettingZoo's, so a program that imports PettingZoo before Gymnasium (or
``pettingzoo.classic``, or boardplay's own PettingZoo adapter) still finds every Gymnasium id
and prints no warning (research review 2026-11c, friction 1). Each case runs in a fresh
interpreter that has not imported boardplay, with the .pth read from a site directory as the
interpreter reads the wheel's."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[2] / "src"

MAKE_EVERY_ID = (
    "import gymnasium\n"
    "for name in ('montana', 'passtally', 'potlatch', 'proteus'):\n"
    "    gymnasium.make(f'boardplay/{name}-v0').reset(seed=0)\n"
)


def run_with_hook(tmp_path: Path, code: str) -> subprocess.CompletedProcess[str]:
    shutil.copy(SOURCE / "boardplay-gymnasium.pth", tmp_path)
    prelude = (
        "import site, sys\n"
        f"site.addsitedir({str(tmp_path)!r})\n"
        "assert not [m for m in sys.modules if m.startswith('boardplay')], 'loaded too early'\n"
    )
    env = {**os.environ, "PYTHONPATH": str(SOURCE)}
    env.pop("BOARDPLAY_GYMNASIUM_IDS", None)
    return subprocess.run(
        # the hook's warning (a RuntimeWarning) becomes an exception, so no run hides it
        [sys.executable, "-W", "error::RuntimeWarning", "-c", prelude + code],
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
    )


@pytest.mark.parametrize(
    "first",
    [
        "import pettingzoo",
        "from pettingzoo.classic import connect_four_v3",
        "from boardplay.adapters import pettingzoo",  # as `python -m boardplay.adapters.bench`
    ],
)
def test_pettingzoo_imported_before_gymnasium(tmp_path: Path, first: str) -> None:
    if "classic" in first:
        pytest.importorskip("pygame")  # pettingzoo[classic]
    done = run_with_hook(tmp_path, f"{first}\n{MAKE_EVERY_ID}print('made')\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["made"]
    assert "boardplay" not in done.stderr, done.stderr


def test_the_hook_imports_nothing_of_pettingzoo(tmp_path: Path) -> None:
    done = run_with_hook(
        tmp_path,
        MAKE_EVERY_ID + "print(sorted(m for m in sys.modules if 'pettingzoo' in m) or 'none')\n",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["none"]
