"""The fifth-game promise, tested as the review tested it: the toy fifth game, Race to ten,
copied where a contributor puts a new game's files (``fifthgame.laid_out``: its folder under
``src/boardplay/games``, its board module, its docs and its golden file, in a copy of the
checkout; nothing else is touched), and the suites that iterate over the registered games run
there in a fresh process, which finds it as the fifth of ``boardplay.available()``.

They must pass, and the fifth game's own cases must have run (counted from the run's JUnit
report): every contract test of ``tests/core/test_contract.py`` but a compiled kernel's own, for
each of its three option sets. A test that again asks something of every game that the checklist
does not (a compiled kernel, a table that names the four games, a catalogue outside the folder)
fails the run, so this test fails: the second test puts back the contract suite's old demand of a
kernel from every game and sees the run fail on the fifth game's cases alone."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from collections import Counter
from pathlib import Path

from fifthgame import laid_out
from fifthonly import GAME as FIFTH

SUITES = [
    "tests/core/test_contract.py",
    "tests/core/test_records.py",
    "tests/core/test_registration.py::test_every_registered_game_provides_every_piece",
    "tests/core/test_registration.py::test_every_game_declares_what_the_rest_finds",
    "tests/games/test_golden.py",
    "tests/i18n/test_i18n_rules.py",
    "tests/i18n/test_i18n_web.py",
    "tests/cli/test_commands.py",
    "tests/adapters/test_episode_bounds_pettingzoo.py",
    "tests/adapters/test_episode_bounds_vector.py",
    "tests/adapters/test_gymnasium_adapter.py",
    "tests/adapters/test_gymnasium_opponents.py::"
    "test_every_episode_ends_within_the_bound_against_a_hostile_learner",
    "tests/adapters/test_openspiel_adapter.py",
    "tests/adapters/test_openspiel_bounds_undo.py",
    "tests/adapters/test_pettingzoo_adapter.py",
    "tests/ai/test_ai_agents.py",
    "tests/ai/test_ai_engines.py",
    "tests/ai/test_ai_evaluation.py",
]
"""The tests over the registered games: the contract suite, the checklist, the golden
trajectories, the catalogues and Japanese rules, the command line, the research adapters and
the AI's levels and engines (the web's are left to its own suite, which needs the bundle and
browsers). They run in the run's own process: the fifth game's 164 cases take 12 s there, and
28 s on two workers, each of which collects every suite first."""
OPTION_SETS = ("race", "race(target=15)", "race(step=3)")
KERNEL_ONLY = re.compile(r'@pytest\.mark\.parametrize\("game", KERNEL_CASES\)\ndef (test_\w+)')


def run(tree: Path, *targets: str) -> tuple[subprocess.CompletedProcess[str], list[Case]]:
    """``pytest targets`` in ``tree`` with its own ``boardplay`` (``tree/src``), keeping the fifth
    game's cases of the parametrized tests (``fifthonly``); the outcome of every case run."""
    report = tree / "report.xml"
    path = os.pathsep.join(str(tree / folder) for folder in ("src", "tests/core"))
    environment = {**os.environ, "PYTHONPATH": path}
    command = [sys.executable, "-m", "pytest", "-p", "fifthonly", "-p", "no:cacheprovider"]
    command += ["-q", f"--junitxml={report}", *targets]
    done = subprocess.run(command, cwd=tree, env=environment, capture_output=True, text=True)
    return done, cases(report)


Case = tuple[str, str, str]
"""(module, test name with its parameters, outcome: passed, failed, error or skipped)."""


def cases(report: Path) -> list[Case]:
    found = []
    for case in ElementTree.parse(report).getroot().iter("testcase"):
        outcome = next((c.tag for c in case if c.tag in ("failure", "error", "skipped")), "passed")
        found.append((case.get("classname", ""), case.get("name", ""), outcome))
    return found


def test_the_fifth_game_passes_the_suites_over_every_game_from_its_folder_alone(
    tmp_path: Path,
) -> None:
    tree = laid_out(tmp_path / "checkout")
    done, ran = run(tree, *SUITES)
    failed = [case for case in ran if case[2] in ("failure", "error")]
    assert done.returncode == 0 and not failed, (failed, done.stdout[-3000:])
    # The fifth game's cases that passed (its seed rule text, kept outside the repository, is
    # the one it has none of: that case skips, as its marker allows under make test).
    fifth = [
        (module, name)
        for module, name, outcome in ran
        if FIFTH.search(name) and outcome == "passed"
    ]
    by_module = Counter(module.rpartition(".")[2] for module, _name in fifth)
    assert len(fifth) >= 80 and len(by_module) >= 12, by_module
    # Every contract test runs for each of the fifth game's option sets, but a kernel's own.
    contract = (tree / "tests" / "core" / "test_contract.py").read_text("utf-8")
    every_game = set(re.findall(r"^def (test_\w+)", contract, re.M)) - set(
        KERNEL_ONLY.findall(contract)
    )
    for test in every_game:
        ids = {name.partition("[")[2][:-1] for m, name in fifth if name.startswith(f"{test}[")}
        assert ids in ({"race"}, set(OPTION_SETS)), (test, ids)  # per game, or per option set
    assert len(every_game) >= 12


def test_the_run_fails_when_the_suite_asks_every_game_for_a_compiled_kernel(
    tmp_path: Path,
) -> None:
    """The contract suite as the review found it: the kernel's sizes asked of every option set.
    The fifth game has no kernel, so its three cases fail, and so would the test above."""
    tree = laid_out(tmp_path / "checkout")
    contract = tree / "tests" / "core" / "test_contract.py"
    source = contract.read_text("utf-8")
    test = "test_the_kernel_has_the_games_sizes"
    demand = f'@pytest.mark.parametrize("game", KERNEL_CASES)\ndef {test}'
    assert demand in source
    contract.write_text(source.replace(demand, demand.replace("KERNEL_CASES", "CASES")))
    done, ran = run(tree, f"tests/core/test_contract.py::{test}")
    assert done.returncode != 0
    assert sorted(name for _m, name, outcome in ran if outcome == "failure") == sorted(
        f"{test}[{option_set}]" for option_set in OPTION_SETS
    )
