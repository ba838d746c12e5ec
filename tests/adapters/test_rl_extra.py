"""The ``rl`` extra brings everything the adapters' documented uses import (research review
2026-11c, friction 3: without Pillow, ``check_env`` on a registered env and
``render_mode="rgb_array"`` failed with ``No module named 'PIL'`` after ``pip install
'boardplay[rl]'``). A fresh interpreter runs those uses and names the distributions of every
module they import; each must be a requirement of boardplay or of its ``rl`` extra, or one of
theirs (read from ``pyproject.toml`` and the installed packages' metadata), so an install of
``boardplay[rl]`` alone has them."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]

USES = """
import json, sys, warnings
before = set(sys.modules)
warnings.simplefilter("ignore")
import gymnasium
from gymnasium.utils.env_checker import check_env
import boardplay.adapters.gymnasium
check_env(gymnasium.make("boardplay/potlatch-v0").unwrapped)
env = gymnasium.make("boardplay/proteus-v0", render_mode="rgb_array")
env.reset(seed=0)
assert env.render().shape[2] == 3
from importlib.metadata import packages_distributions
names = packages_distributions()
tops = {m.split(".")[0] for m in set(sys.modules) - before} - set(sys.stdlib_module_names)
print(json.dumps({top: names[top] for top in sorted(tops) if top in names}))
"""


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def closure(requirements: list[str]) -> set[str]:
    """The distributions ``requirements`` install, with their own requirements (no extras)."""
    seen: set[str] = set()
    todo = [Requirement(text) for text in requirements]
    while todo:
        requirement = todo.pop()
        name = canonical(requirement.name)
        if name in seen or (requirement.marker and not requirement.marker.evaluate({"extra": ""})):
            continue
        seen.add(name)
        try:
            todo += [Requirement(text) for text in metadata.requires(name) or []]
        except metadata.PackageNotFoundError:
            continue
    return seen


def test_the_rl_extra_brings_what_check_env_and_rgb_array_import() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    allowed = closure(project["dependencies"] + project["optional-dependencies"]["rl"])
    done = subprocess.run(
        [sys.executable, "-c", USES],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert done.returncode == 0, done.stderr
    imported: dict[str, list[str]] = json.loads(done.stdout.splitlines()[-1])
    assert "PIL" in imported  # the rgb_array picture is drawn with Pillow
    missing = {
        top: dists
        for top, dists in imported.items()
        if top != "boardplay" and not {canonical(d) for d in dists} & allowed
    }
    assert not missing, f"imported but not brought by boardplay[rl]: {missing}"
