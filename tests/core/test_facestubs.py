"""Each compiled game's ``fields.pyi``, which the build writes from the table ``FACE`` of its
``fields.pyx`` and the hand-typed rest in ``fields.api.pyi`` (``tools/facestubs.py``): on the
real tables, whose stubs name every field of the table with the type it reads as, and on a
made-up one."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import facestubs
import pytest

import boardplay
from boardplay.core.face import Values
from option_sets import KERNEL_GAMES

TYPES = {"int": int, "bool": bool, "str": str, "Values": Values}
"""The stub's type of a field against the class of the value it reads."""


@pytest.mark.parametrize("name", KERNEL_GAMES)
def test_each_fields_stub_is_the_one_its_table_writes_and_types_every_field(name: str) -> None:
    """The build wrote the stub from the sources as they are; its class has one property per
    field of the compiled table, in the table's order, typed as the facade reads it (``make
    lint``'s stubtest holds the rest of the module)."""
    pyx = facestubs.PACKAGE / "games" / name / "fields.pyx"
    module = f"boardplay.games.{name}.fields"
    hand = (pyx.parent / facestubs.HAND).read_text("utf-8")
    text = facestubs.stub(module, pyx.read_text("utf-8"), hand)
    assert pyx.with_suffix(".pyi").read_text("utf-8") == text, "run make .venv/.kernels"
    (mixin,) = [n for n in ast.parse(text).body if isinstance(n, ast.ClassDef)]
    typed = {
        n.name: ast.unparse(n.returns)
        for n in mixin.body
        if isinstance(n, ast.FunctionDef) and n.returns is not None
    }
    face = importlib.import_module(module).FACE
    assert list(typed) == list(face.fields)
    state = boardplay.load(name).new_initial_state()
    for field, kind in typed.items():
        value = getattr(state, field)
        assert type(value) is TYPES[kind], f"{field} reads as {type(value).__name__}"


MADE_UP_PYX = '''# cython: language_level=3
"""A table (``FACE = Face(`` in a docstring is not it)."""

from boardplay.core.face cimport BOOL, INT, NAMED, PER_SEAT, SCALAR, SCHAR, field

cdef DiceKernel _k = DiceKernel.__new__(DiceKernel)


cdef _ints(str name, int* address, int count, str doc):
    return field(_k, name, address, INT, count, doc)


FACE = Face(_k, [
    field(_k, "to_move", &_k.s.mover, INT, SCALAR, "The seat to move (a & in a text)."),
    field(_k, "over", <void*>&_k.s.over, BOOL, SCALAR, "Whether it is over."),
    field(_k, "ending", &_k.s.ending, NAMED, SCALAR, "Why it ended.", ("none", "all six")),
    field(_k, "faces", &_k.s.faces[0], SCHAR, 6, "The dice's faces."),
    _ints("score", &_k.s.score[0], PER_SEAT, "Per seat: points."),
])
DiceFields = FACE.mixin("DiceFields")
'''
MADE_UP_HAND = '''"""The rest, by hand (left out of the stub)."""

from typing import Any

from pkg.kernel import DiceKernel

FIELDS: tuple[str, ...]

def snapshot(k: DiceKernel) -> dict[str, Any]: ...
'''


def test_a_fields_stub_is_written_from_the_table_and_the_hand_typed_rest() -> None:
    assert facestubs.stub("pkg.fields", MADE_UP_PYX, MADE_UP_HAND).split('"""', 2)[-1] == (
        "\n\nfrom typing import Any\n\nfrom pkg.kernel import DiceKernel\n\n"
        "from boardplay.core.face import Face, Values\n\n"
        "FACE: Face\n\n"
        "class DiceFields:\n"
        '    """The read-only fields of ``DiceKernel`` (the table ``FACE``)."""\n\n'
        "    @property\n    def to_move(self) -> int: ...\n"
        "    @property\n    def over(self) -> bool: ...\n"
        "    @property\n    def ending(self) -> str: ...\n"
        "    @property\n    def faces(self) -> Values: ...\n"
        "    @property\n    def score(self) -> Values: ...\n\n"
        "FIELDS: tuple[str, ...]\n\n"
        "def snapshot(k: DiceKernel) -> dict[str, Any]: ...\n"
    )


@pytest.mark.parametrize(
    ("change", "refusal"),
    [
        (("FACE = Face(", "TABLE = Face("), "one table"),
        (('field(_k, "over"', 'other(_k, "over"'), "other is neither field nor a helper"),
        (("SCHAR, 6", "FLOAT, 6"), "faces: the kind must be one of"),
        (('FACE.mixin("DiceFields")', 'FACE.mixin("Other")'), "XFields = FACE.mixin"),
    ],
)
def test_a_table_the_writer_cannot_read_is_refused(change: tuple[str, str], refusal: str) -> None:
    with pytest.raises(ValueError, match=refusal):
        facestubs.stub("pkg.fields", MADE_UP_PYX.replace(*change), MADE_UP_HAND)


def test_a_fields_stub_is_rewritten_only_when_its_text_changes(tmp_path: Path) -> None:
    folder = tmp_path / "pkg" / "games" / "dice"
    folder.mkdir(parents=True)
    (folder / "fields.pyx").write_text(MADE_UP_PYX)
    (folder / facestubs.HAND).write_text(MADE_UP_HAND)
    assert facestubs.write(tmp_path / "pkg") == [folder / "fields.pyi"]
    assert "class DiceFields:" in (folder / "fields.pyi").read_text()
    assert facestubs.write(tmp_path / "pkg") == []
