"""Each kernel game's numbered layouts (``games/<game>/layout.pxd``) against what the game and
its kernel report: the action ids the layout declares are the game's action space, and the
feature names name every number ``features()`` writes, once each. The layouts are the one place
these numbers are written, so this is where they meet the running game. Then their type stubs,
which the build writes from them (``tools/layoutstubs.py``), on the real layouts and a made-up
one."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import layoutstubs
import pytest

import boardplay
from option_sets import KERNEL_SETS

TABLES = sorted(KERNEL_SETS)
"""Every option set of the games that run on a compiled kernel."""


@pytest.mark.parametrize("spec", TABLES)
def test_the_layout_is_the_games_action_space_and_feature_vector(spec: str) -> None:
    game = boardplay.load(spec)
    layout = importlib.import_module(f"boardplay.games.{game.name}.layout")
    assert game.num_distinct_actions == layout.NUM_ACTIONS
    kernel = game.new_initial_state().kernel
    assert kernel is not None
    assert len(layout.FEATURE_NAMES) == kernel.feature_size == len(kernel.features())
    assert len(set(layout.FEATURE_NAMES)) == len(layout.FEATURE_NAMES)


# ----- the layouts' stubs, written from the .pxd at every build (tools/layoutstubs.py) --------
LAYOUTS = sorted(layoutstubs.PACKAGE.glob("games/*/layout.pxd"))


@pytest.mark.parametrize("pxd", LAYOUTS, ids=lambda path: path.parent.name)
def test_each_layout_stub_is_the_one_its_pxd_writes_and_names_what_the_module_exports(
    pxd: Path,
) -> None:
    """The build wrote the stub from the sources as they are, and it names exactly the public
    names of the compiled module, each enum member with its value (``make lint``'s stubtest
    holds the types)."""
    module = f"boardplay.games.{pxd.parent.name}.layout"
    text = layoutstubs.stub(module, pxd.read_text("utf-8"), pxd.with_suffix(".pyx").read_text())
    assert pxd.with_suffix(".pyi").read_text("utf-8") == text, "run make .venv/.kernels"
    compiled = importlib.import_module(module)
    public = {name for name in vars(compiled) if not name.startswith("_")}
    stubbed = ast.parse(text)
    named = {ast.unparse(n.target) for n in stubbed.body if isinstance(n, ast.AnnAssign)}
    classes = {n.name: n.body for n in stubbed.body if isinstance(n, ast.ClassDef)}
    assert public == named | set(classes)
    for name, body in classes.items():
        members = {ast.unparse(a.targets[0]): ast.literal_eval(a.value) for a in body}
        assert members == {m.name: int(m) for m in getattr(compiled, name)}


MADE_UP_PXD = '''# cython: language_level=3
"""A layout (``cpdef enum`` in a docstring is no block)."""

cpdef enum:
    # the board
    SIDE = 5  # a comment after a value
    CELLS = SIDE * SIDE
    SIZE = (CELLS
            + 2)

cpdef enum Stage:
    SETUP
    PLAY = 3
    OVER

cpdef enum:
    PLANES = OVER + 1
'''
MADE_UP_PYX = """STAGE_NAMES = tuple(stage.name.lower() for stage in Stage)
FIRST = int(Stage.PLAY)
_HIDDEN = 1
"""


def test_a_layout_stub_is_written_from_its_enums_and_the_pyxs_names() -> None:
    assert layoutstubs.stub("pkg.layout", MADE_UP_PXD, MADE_UP_PYX).split('"""')[-1] == (
        "\n\nfrom enum import IntEnum\nfrom typing import Final\n\n"
        "SIDE: Final[int]\nCELLS: Final[int]\nSIZE: Final[int]\n\n"
        "class Stage(IntEnum):\n    SETUP = 0\n    PLAY = 3\n    OVER = 4\n\n"
        "PLANES: Final[int]\n\n"
        "STAGE_NAMES: Final[tuple[str, ...]]\nFIRST: Final[int]\n"
    )
    assert layoutstubs.enums(MADE_UP_PXD)[0] == (None, [("SIDE", 5), ("CELLS", 25), ("SIZE", 27)])


@pytest.mark.parametrize(
    ("pyx", "refusal"),
    [
        ("from pkg.board cimport SIZE\n", "plain Python over its enums"),
        ("MIXED = (1, 'a')\n", "cannot write a stub type for MIXED"),
        ("TABLE = {1: 2}\n", "cannot write a stub type for TABLE"),
    ],
)
def test_a_layout_the_writer_cannot_type_is_refused(pyx: str, refusal: str) -> None:
    with pytest.raises(ValueError, match=refusal):
        layoutstubs.stub("pkg.layout", MADE_UP_PXD, pyx)


def test_a_layout_stub_is_rewritten_only_when_its_text_changes(tmp_path: Path) -> None:
    folder = tmp_path / "pkg" / "games" / "dice"
    folder.mkdir(parents=True)
    (folder / "layout.pxd").write_text(MADE_UP_PXD)
    (folder / "layout.pyx").write_text(MADE_UP_PYX)
    assert layoutstubs.write(tmp_path / "pkg") == [folder / "layout.pyi"]
    assert "class Stage(IntEnum):" in (folder / "layout.pyi").read_text()
    assert layoutstubs.write(tmp_path / "pkg") == []
