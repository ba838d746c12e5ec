"""Build the compiled game kernels (every ``*.pyx`` under ``src/boardplay``) with Cython.

Everything else about the package lives in ``pyproject.toml``; this file exists only because
extension modules are declared in code. ``pip install -e .`` and ``python -m build`` both run
it, so a fresh clone needs nothing by hand.
"""

from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_py import build_py

# One line run at interpreter start-up: Gymnasium's ids once Gymnasium is imported
# (src/_boardplay_gymnasium.py says why). Wheels carry it at the top of site-packages.
STARTUP_HOOK = "boardplay-gymnasium.pth"

SOURCES = sorted(Path("src").glob("boardplay/**/*.pyx"))

# The front end's bundle (``make bundle``, docs/web.md "Page weight"): the server of a wheel
# without it could not start, so such a wheel is not built.
BUNDLE = Path("src", "boardplay", "web", "static", "dist")

EXTENSIONS = [
    Extension(
        ".".join(path.relative_to("src").with_suffix("").parts),
        [str(path)],
        extra_compile_args=["-O3"],
    )
    for path in SOURCES
]


class BuildWithStartupHook(build_py):
    """build_py that also places the start-up hook's .pth beside the package, and refuses to
    build a wheel without the front end's bundle."""

    def run(self) -> None:
        if not self.editable_mode and not any(BUNDLE.glob("app-*.js")):
            raise SystemExit(f"{BUNDLE} holds no bundle: run `make bundle` (`make dist` does)")
        super().run()
        self.copy_file(str(Path("src", STARTUP_HOOK)), str(Path(self.build_lib, STARTUP_HOOK)))


setup(
    cmdclass={"build_py": BuildWithStartupHook},
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
    ),
)
