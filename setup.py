"""Build the compiled game kernels (every ``*.pyx`` under ``src/boardplay``) with Cython.

Everything else about the package lives in ``pyproject.toml``; this file exists only because
extension modules are declared in code. ``pip install -e .`` and ``python -m build`` both run
it, so a fresh clone needs nothing by hand.
"""

import os
import runpy
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

# One line run at interpreter start-up: Gymnasium's ids once Gymnasium is imported
# (src/_boardplay_gymnasium.py says why). Wheels carry it at the top of site-packages.
STARTUP_HOOK = "boardplay-gymnasium.pth"

SOURCES = sorted(Path("src").glob("boardplay/**/*.pyx"))

# Each game's layout.pyi, the compiled layout's type stub, is written from its layout.pxd and
# layout.pyx at every build, as Cython writes the C, and its fields.pyi from the table FACE of its
# fields.pyx and the hand-typed rest in fields.api.pyi: the numbers and the position's fields are
# declared once, and git ignores the stubs as it does the C (tools/layoutstubs.py and
# tools/facestubs.py, which the sdist carries).
for writer in ("layoutstubs.py", "facestubs.py"):
    runpy.run_path(str(Path("tools", writer)))["write"](Path("src", "boardplay"))

# The front end's bundle (``make bundle``, docs/web.md "Page weight"): the server of a wheel
# without it could not start, so such a wheel is not built, unless it is asked for as the library
# alone (``make wheel-lib``: BOARDPLAY_LIBRARY_WHEEL=1), which then leaves the bundle out.
BUNDLE = Path("src", "boardplay", "web", "static", "dist")
LIBRARY_ONLY = os.environ.get("BOARDPLAY_LIBRARY_WHEEL", "0") not in ("", "0")

# The Makefile's editable install leaves the kernels out (BOARDPLAY_KERNELS=0): its own rule
# compiles them in place just after, and a fresh clone would otherwise compile them twice.
KERNELS = os.environ.get("BOARDPLAY_KERNELS", "1") not in ("", "0")

EXTENSIONS = [
    Extension(
        ".".join(path.relative_to("src").with_suffix("").parts),
        [str(path)],
        extra_compile_args=["-O3"],
    )
    for path in (SOURCES if KERNELS else [])
]


# Cython's translation and the C compiler's runs, one per core unless asked otherwise: a fresh
# clone and the distcheck's wheel each compile every kernel from nothing.
JOBS = os.cpu_count() or 1


class ParallelBuildExt(build_ext):
    """build_ext compiling the extensions in parallel when no ``--parallel`` is given."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = JOBS


class BuildWithStartupHook(build_py):
    """build_py that also places the start-up hook's .pth beside the package, and refuses to
    build a wheel without the front end's bundle (a library-only build leaves it out instead)."""

    def run(self) -> None:
        if not (self.editable_mode or LIBRARY_ONLY or any(BUNDLE.glob("app-*.js"))):
            raise SystemExit(
                f"{BUNDLE} holds no bundle: run `make bundle` (`make dist` does), or build the "
                "library alone (`make wheel-lib`, BOARDPLAY_LIBRARY_WHEEL=1)"
            )
        super().run()
        self.copy_file(str(Path("src", STARTUP_HOOK)), str(Path(self.build_lib, STARTUP_HOOK)))

    def exclude_data_files(self, package: str, src_dir: str, files: list[str]) -> list[str]:
        kept: list[str] = super().exclude_data_files(package, src_dir, files)
        if LIBRARY_ONLY:  # the bundle's files stay out, whichever package claims them
            kept = [name for name in kept if BUNDLE not in Path(name).parents]
        return kept


setup(
    cmdclass={"build_py": BuildWithStartupHook, "build_ext": ParallelBuildExt},
    ext_modules=cythonize(
        EXTENSIONS,
        include_path=["src"],
        compiler_directives={
            "language_level": 3,
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
            "embedsignature": True,
        },
        quiet=True,
        nthreads=JOBS,
    ),
)
