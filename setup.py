"""Build the compiled game kernels (every ``*.pyx`` under ``src/boardplay``) with Cython.

Everything else about the package lives in ``pyproject.toml``; this file exists only because
extension modules are declared in code. ``pip install -e .`` and ``python -m build`` both run
it, so a fresh clone needs nothing by hand.
"""

from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

SOURCES = sorted(Path("src").glob("boardplay/**/*.pyx"))

EXTENSIONS = [
    Extension(
        ".".join(path.relative_to("src").with_suffix("").parts),
        [str(path)],
        extra_compile_args=["-O3"],
    )
    for path in SOURCES
]

setup(
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
