"""Wheels a researcher can build and use (research review 2026-11c, frictions 4 and 5):
``make dist`` builds one for every CPython 3.11+ on the machine (``tools/wheels.py`` finds
them), ``make distcheck`` still builds only the one it installs, and ``make wheel-lib`` builds
the library alone, needing neither the web front end's bundle nor the development environment
(``setup.py`` leaves the bundle out under ``BOARDPLAY_LIBRARY_WHEEL=1`` instead of refusing).
The builds themselves take minutes a wheel: ``make dist`` and ``make distcheck`` run them."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import wheels

ROOT = Path(__file__).resolve().parents[2]


def fake_python(folder: Path, name: str, answer: str) -> str:
    """An executable that answers the interpreter probe as a real one would."""
    path = folder / name
    path.write_text(f"#!/bin/sh\necho {answer}\n")
    path.chmod(0o755)
    return str(path)


def test_one_interpreter_per_cpython_311_or_later(tmp_path: Path) -> None:
    paths = [
        fake_python(tmp_path, "a", "cpython 3 12 0"),
        fake_python(tmp_path, "b", "cpython 3 10 0"),  # too old
        fake_python(tmp_path, "c", "pypy 3 11 0"),  # not CPython
        fake_python(tmp_path, "d", "cpython 3 13 1"),  # free-threaded: another ABI
        fake_python(tmp_path, "e", "cpython 3 13 0"),
        fake_python(tmp_path, "f", "cpython 3 12 0"),  # a second 3.12: the first is kept
        fake_python(tmp_path, "g", "cpython 3 11 0"),
        str(tmp_path / "missing"),
    ]
    found = wheels.interpreters(paths)
    assert [(i.tag, Path(i.path).name) for i in found] == [
        ("cp311", "g"),
        ("cp312", "a"),
        ("cp313", "e"),
    ]
    with pytest.raises(SystemExit, match=r"not a CPython 3\.11"):
        wheels.named([paths[1]])


def test_pyenv_versions_are_looked_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for version in ("3.12.1", "3.13.0"):
        (tmp_path / "versions" / version / "bin").mkdir(parents=True)
        fake_python(tmp_path / "versions" / version / "bin", "python3", "cpython 3 13 0")
    monkeypatch.setenv("PYENV_ROOT", str(tmp_path))
    found = wheels.candidates()
    assert str(tmp_path / "versions" / "3.12.1" / "bin" / "python3") in found
    assert str(tmp_path / "versions" / "3.13.0" / "bin" / "python3") in found


def test_every_cpython_311_or_later_on_this_machine_is_found() -> None:
    """What `make dist` builds for, against an independent look at the usual places."""
    places = glob.glob("/usr/bin/python3.*") + glob.glob(
        str(Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions/3.*/bin/python3")
    )
    expected = {sys.version_info[:2]}
    for path in places:
        done = subprocess.run(
            [path, "-c", "import sys; print(sys.implementation.name, *sys.version_info[:2])"],
            capture_output=True,
            text=True,
            check=False,
        )
        name, *version = done.stdout.split() or ["none"]
        if done.returncode == 0 and name == "cpython" and tuple(map(int, version)) >= (3, 11):
            expected.add((int(version[0]), int(version[1])))
    assert {i.version for i in wheels.interpreters(wheels.candidates())} >= expected


def dry_run(*arguments: str) -> list[str]:
    """The commands ``make`` would run (nothing is run), those of tools/wheels.py and of the
    development environment and the bundle, which the library must not need."""
    done = subprocess.run(
        ["make", "-n", "-C", str(ROOT), *arguments], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_make_dist_builds_for_every_interpreter_and_distcheck_for_one() -> None:
    (dist,) = [line for line in dry_run("dist") if "tools/wheels.py" in line]
    assert dist.split("tools/wheels.py", 1)[1].split() == ["--out", "dist"]  # none named: all
    (check,) = [line for line in dry_run("distcheck") if "tools/wheels.py" in line]
    assert check.split()[-1] == "python3"  # one wheel, the one distcheck installs


def test_make_wheel_lib_needs_neither_bundle_nor_development_environment() -> None:
    # as if pyproject.toml and a front-end file had just changed: what depends on them reruns
    commands = dry_run("-W", "pyproject.toml", "-W", "src/boardplay/web/static/app.js", "wheel-lib")
    text = "\n".join(commands)
    assert "tools/wheels.py --library" in text
    assert "esbuild" not in text and "pip install" not in text and ".venv" not in text


def library_tree(tmp_path: Path, bundle: bool) -> Path:
    """The smallest source tree setup.py builds: the hook, the stub writers (layouts and fields),
    the package, its page and (or not) a bundle."""
    tree = tmp_path / "tree"
    (tree / "tools").mkdir(parents=True)
    writers = ("tools/layoutstubs.py", "tools/facestubs.py")
    for name in ("setup.py", "pyproject.toml", "MANIFEST.in", *writers):
        shutil.copy(ROOT / name, tree / name)
    (tree / "README.md").write_text("boardplay\n")
    src = tree / "src"
    (src / "boardplay" / "web" / "static" / "dist").mkdir(parents=True)
    for name in ("_boardplay_gymnasium.py", "boardplay-gymnasium.pth"):
        shutil.copy(ROOT / "src" / name, src / name)
    (src / "boardplay" / "__init__.py").write_text("")
    (src / "boardplay" / "web" / "__init__.py").write_text("")
    (src / "boardplay" / "web" / "static" / "index.html").write_text("<html></html>\n")
    if bundle:
        (src / "boardplay" / "web" / "static" / "dist" / "app-ABC.js").write_text("//\n")
    return tree


def build_py(tree: Path, library: bool) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "BOARDPLAY_LIBRARY_WHEEL": "1" if library else "0"}
    return subprocess.run(
        [sys.executable, "setup.py", "-q", "build_py", "--build-lib", "out"],
        cwd=tree,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def test_a_library_build_needs_no_bundle_and_leaves_one_out(tmp_path: Path) -> None:
    bare = library_tree(tmp_path / "bare", bundle=False)
    refused = build_py(bare, library=False)
    assert refused.returncode != 0 and "make wheel-lib" in refused.stderr
    assert build_py(bare, library=True).returncode == 0
    assert (bare / "out" / "boardplay-gymnasium.pth").exists()
    assert (bare / "out" / "boardplay" / "web" / "static" / "index.html").exists()

    bundled = library_tree(tmp_path / "bundled", bundle=True)
    assert build_py(bundled, library=True).returncode == 0
    assert not list((bundled / "out").rglob("app-*.js"))  # the library leaves it out
    assert build_py(bundled, library=False).returncode == 0
    assert list((bundled / "out").rglob("app-*.js"))  # a full wheel carries it


def test_serve_from_the_library_alone_says_why_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A library-only wheel has no front end's bundle: ``boardplay serve`` says so (and which
    wheel serves) instead of a traceback from the server's start."""
    import uvicorn
    from typer.testing import CliRunner

    import boardplay.cli.serve as serve_module
    from boardplay.cli.main import app

    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: pytest.fail("the server started"))
    monkeypatch.setattr(serve_module, "bundle_folder", lambda: tmp_path)  # no app-*.js here
    result = CliRunner().invoke(app, ["serve", "--port", "0"])
    assert result.exit_code == 2
    assert "library-only wheel" in result.stderr and "make dist" in result.stderr
    assert "Traceback" not in result.output + result.stderr
