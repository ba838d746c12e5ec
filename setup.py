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

EXTENSIONS = [
    Extension(
        ".".join(path.relative_to("src").with_suffix("").parts),
        [str(path)],
        extra_compile_args=["-O3"],
    )
    for path in SOURCES
]


class BuildWithStartupHook(build_py):
    """build_py that also places the start-up hook's .pth beside the package."""

    def run(self) -> None:
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
