"""``python tools/layoutstubs.py [PACKAGE_DIR]``: each game's ``layout.pyi`` written from its
``layout.pxd`` and ``layout.pyx``, so the numbered layouts are declared once (``setup.py`` runs
this at every build, before Cython: the stubs are build output, ignored by git like the
generated C, and the sdist and the wheels carry them).

The stub is what the compiled module exports: every ``cpdef enum`` block of the ``.pxd`` in
order, an unnamed one as ``NAME: Final[int]`` per member, a named one as an ``IntEnum`` class
with its members' values (a member without one is the one before plus 1, the first 0); then
every public name ``layout.pyx`` adds, typed from its value. The values are worked out in
Python: each member's expression over the members before it, then the ``.pyx``, which holds only
Python code over the enums, run with them (a ``.pyx`` that needs Cython is refused, named).

Standard library only: ``setup.py`` runs it in pip's isolated build environment."""

from __future__ import annotations

import enum
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "boardplay"
"""The package whose layouts are written when no directory is named."""

_BLOCK = re.compile(r"^cpdef enum(?:[ \t]+(\w+))?[ \t]*:[ \t]*$")
_MEMBER = re.compile(r"^(\w+)(?:[ \t]*=[ \t]*(.+))?$")


def _logical_lines(body: list[str]) -> Iterator[str]:
    """An enum block's lines without comments, a member split over lines within brackets
    joined into one."""
    pending = ""
    for raw in body:
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        pending = f"{pending} {line}".strip()
        if pending.count("(") == pending.count(")"):
            yield pending
            pending = ""
    if pending:
        raise ValueError(f"unclosed bracket in an enum member: {pending!r}")


def enums(pxd: str) -> list[tuple[str | None, list[tuple[str, int]]]]:
    """The ``cpdef enum`` blocks of a ``.pxd``'s text, in order: (the enum's name, None when
    unnamed; its members with their values)."""
    lines = pxd.splitlines()
    blocks: list[tuple[str | None, list[tuple[str, int]]]] = []
    known: dict[str, int] = {}
    index = 0
    while index < len(lines):
        match = _BLOCK.match(lines[index])
        index += 1
        if match is None:
            continue
        body = []
        while index < len(lines) and (not lines[index].strip() or lines[index][0] in " \t#"):
            body.append(lines[index])
            index += 1
        members: list[tuple[str, int]] = []
        for line in _logical_lines(body):
            member = _MEMBER.match(line)
            if member is None:
                raise ValueError(f"not an enum member: {line!r}")
            name, expression = member.groups()
            if expression is None:
                value = members[-1][1] + 1 if members else 0
            else:
                value = int(eval(expression, {"__builtins__": {}}, dict(known)))
            members.append((name, value))
            known[name] = value
        blocks.append((match.group(1), members))
    return blocks


def _namespace(blocks: list[tuple[str | None, list[tuple[str, int]]]]) -> dict[str, Any]:
    """The names the ``.pyx`` sees: every member bare (a named enum's as its member), and each
    named enum as an ``IntEnum``."""
    names: dict[str, Any] = {}
    for name, members in blocks:
        if name is None:
            names.update(members)
            continue
        made = enum.IntEnum(name, members)  # type: ignore[misc]
        names[name] = made
        names.update((member.name, member) for member in made)
    return names


def _type_of(name: str, value: object) -> str:
    if isinstance(value, bool) or not isinstance(value, int | str | tuple):
        raise ValueError(f"cannot write a stub type for {name} = {value!r}")
    if not isinstance(value, tuple):
        return type(value).__name__
    kinds = {type(item) for item in value}
    if len(kinds) != 1 or kinds - {int, str}:
        raise ValueError(f"cannot write a stub type for {name}: {value!r}")
    return f"tuple[{kinds.pop().__name__}, ...]"


def exported(pyx: str, blocks: list[tuple[str | None, list[tuple[str, int]]]]) -> list[str]:
    """``NAME: Final[type]`` for every public name the ``.pyx`` (Python code over the enums)
    adds, in the order it adds them."""
    names = _namespace(blocks)
    before = set(names)
    try:
        exec(compile(pyx, "layout.pyx", "exec"), names)
    except SyntaxError as error:
        raise ValueError(f"layout.pyx must be plain Python over its enums: {error}") from None
    return [
        f"{name}: Final[{_type_of(name, value)}]"
        for name, value in names.items()
        if name not in before and not name.startswith("_")
    ]


def stub(module: str, pxd: str, pyx: str) -> str:
    """The ``.pyi`` of the compiled layout ``module`` from its ``.pxd`` and ``.pyx``."""
    blocks = enums(pxd)
    parts = [
        f'"""Type stub for the compiled ``{module}``, written from ``layout.pxd`` and\n'
        "``layout.pyx`` by ``tools/layoutstubs.py`` at every build (``setup.py``): edit those,\n"
        'not this."""',
        "from enum import IntEnum\nfrom typing import Final",
    ]
    constants: list[str] = []
    for name, members in blocks:
        if name is None:
            constants += [f"{member}: Final[int]" for member, _ in members]
            continue
        if constants:
            parts.append("\n".join(constants))
            constants = []
        lines = [f"    {member} = {value}" for member, value in members]
        parts.append("\n".join([f"class {name}(IntEnum):", *lines]))
    parts += ["\n".join(constants)] if constants else []
    parts.append("\n".join(exported(pyx, blocks)))
    return "\n\n".join(part for part in parts if part) + "\n"


def write(package: Path = PACKAGE) -> list[Path]:
    """Write every ``layout.pyi`` of ``package`` whose text changed; the paths written."""
    written = []
    for pxd in sorted(package.rglob("layout.pxd")):
        module = ".".join([package.name, *pxd.relative_to(package).with_suffix("").parts])
        pyx = pxd.with_suffix(".pyx")
        text = stub(module, pxd.read_text("utf-8"), pyx.read_text("utf-8"))
        target = pxd.with_suffix(".pyi")
        if not target.is_file() or target.read_text("utf-8") != text:
            target.write_text(text, "utf-8")
            written.append(target)
    return written


if __name__ == "__main__":
    for path in write(Path(sys.argv[1]) if len(sys.argv) > 1 else PACKAGE):
        print(f"wrote {path}")
