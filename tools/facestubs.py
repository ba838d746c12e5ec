"""``python tools/facestubs.py [PACKAGE_DIR]``: each game's ``fields.pyi`` written from the table
``FACE`` of its ``fields.pyx`` and the rest of the module's names, typed by hand in
``fields.api.pyi``, so a position field is declared once (``setup.py`` runs this at every build,
before Cython: the stubs are build output, ignored by git like the generated C, and the sdist and
the wheels carry them).

The table is the ``FACE = Face(probe, [...])`` statement of ``fields.pyx``: each entry a call of
``field(probe, "name", &address, KIND, COUNT, doc, ...)`` (``core/face.pyx``) or of a ``cdef``
helper of the module whose body is ``return field(...)`` over its parameters (Montana's
``_int("stage", &..., doc)``). Each entry is a read-only property of the class that
``XFields = FACE.mixin("XFields")`` makes: a scalar (``COUNT`` is ``SCALAR``) as ``int``,
``bool``, ``int`` or ``str`` by its kind (``INT``, ``BOOL``, ``SCHAR``, ``NAMED``), an array as
``Values``. An entry the writer cannot read is refused, named.

The hand-typed ``fields.api.pyi`` is a stub of its own (ruff and mypy read it): its imports go
first, its other statements after the class, its docstring is left out.

Standard library only: ``setup.py`` runs it in pip's isolated build environment."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "boardplay"
"""The package whose fields stubs are written when no directory is named."""

HAND = "fields.api.pyi"
"""The hand-typed rest of a ``fields.pyi``, beside its ``fields.pyx``."""

SCALAR_TYPES = {"INT": "int", "BOOL": "bool", "SCHAR": "int", "NAMED": "str"}
"""What a scalar field of each kind (``core/face.pxd``) reads as; an array reads as ``Values``."""

_STRING = re.compile(r"""("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')""")
_CAST = re.compile(r"<\s*\w+\s*\*?\s*>")
_HELPER = re.compile(r"^cdef (?:\w+ )?(\w+)\(([^)]*)\):\s*\n\s+return (field\(.*\))$", re.M)
_PROBE = r"^cdef (\w+) {probe} = "
_MIXIN = re.compile(r'^(\w+) = FACE\.mixin\("(\w+)"\)$', re.M)


def _python(cython: str) -> str:
    """``cython`` with the casts (``<void*>``) and address-ofs (``&``) left out, outside its
    string literals: the table's expressions as Python."""
    parts = _STRING.split(cython)
    for index in range(0, len(parts), 2):
        parts[index] = _CAST.sub("", parts[index]).replace("&", "")
    return "".join(parts)


def _table(pyx: str) -> tuple[str, list[ast.expr]]:
    """The probe's name and the entries of the ``FACE = Face(probe, [...])`` statement."""
    lines = _python(pyx).splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("FACE = Face(")]
    if len(starts) != 1:
        raise ValueError("fields.pyx must hold one table `FACE = Face(probe, [...])`")
    for end in range(starts[0] + 1, len(lines) + 1):
        try:
            statement = ast.parse("\n".join(lines[starts[0] : end])).body[0]
        except SyntaxError:
            continue
        call = statement.value if isinstance(statement, ast.Assign) else None
        match call.args if isinstance(call, ast.Call) else None:
            case [ast.Name(id=probe), ast.List(elts=entries)]:
                return probe, entries
        break
    raise ValueError("FACE must be `Face(probe, [entries])`")


def _helpers(pyx: str) -> dict[str, tuple[list[str], ast.Call]]:
    """The module's ``cdef`` helpers that return a ``field(...)``: their parameters' names and
    that call."""
    helpers = {}
    for name, parameters, body in _HELPER.findall(pyx):
        call = ast.parse(_python(body), mode="eval").body
        assert isinstance(call, ast.Call)
        helpers[name] = ([p.split()[-1].strip("*") for p in parameters.split(",")], call)
    return helpers


def _field_call(entry: ast.expr, helpers: dict[str, tuple[list[str], ast.Call]]) -> list[ast.expr]:
    """The arguments of the ``field(...)`` call ``entry`` is, a helper's with its parameters
    bound to the entry's arguments."""
    if not isinstance(entry, ast.Call) or not isinstance(entry.func, ast.Name):
        raise ValueError(f"not a field of the table: {ast.unparse(entry)}")
    if entry.func.id == "field":
        return entry.args
    if entry.func.id not in helpers:
        raise ValueError(f"{entry.func.id} is neither field nor a helper returning one")
    parameters, call = helpers[entry.func.id]
    bound = dict(zip(parameters, entry.args, strict=True))
    return [bound.get(a.id, a) if isinstance(a, ast.Name) else a for a in call.args]


def properties(pyx: str) -> list[tuple[str, str]]:
    """Each field of ``fields.pyx``'s table in order: its name and the type it reads as."""
    helpers = _helpers(pyx)
    fields = []
    for entry in _table(pyx)[1]:
        arguments = _field_call(entry, helpers)
        name, kind, count = arguments[1], arguments[3], arguments[4]
        if not isinstance(name, ast.Constant) or not isinstance(name.value, str):
            raise ValueError(f"a field's name must be a string: {ast.unparse(entry)}")
        if not isinstance(kind, ast.Name) or kind.id not in SCALAR_TYPES:
            raise ValueError(f"{name.value}: the kind must be one of {', '.join(SCALAR_TYPES)}")
        scalar = ast.unparse(count) in ("SCALAR", "0")
        fields.append((name.value, SCALAR_TYPES[kind.id] if scalar else "Values"))
    return fields


def _parts(hand: str) -> tuple[str, str]:
    """``fields.api.pyi``'s imports and its other statements, as written, without its
    docstring."""
    body = ast.parse(hand).body
    lines = hand.splitlines()
    start = 0
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        start = body.pop(0).end_lineno or 0
    imports = 0
    while body and isinstance(body[0], ast.Import | ast.ImportFrom):
        imports = body.pop(0).end_lineno or 0
    imports = max(imports, start)
    return "\n".join(lines[start:imports]).strip(), "\n".join(lines[imports:]).strip()


def stub(module: str, pyx: str, hand: str) -> str:
    """The ``.pyi`` of the compiled fields ``module`` from its ``.pyx`` and its ``HAND``."""
    mixin = _MIXIN.search(pyx)
    if mixin is None or mixin.group(1) != mixin.group(2):
        raise ValueError('fields.pyx must name its mixin `XFields = FACE.mixin("XFields")`')
    probe = re.search(_PROBE.format(probe=re.escape(_table(pyx)[0])), pyx, re.M)
    if probe is None:
        raise ValueError("the table's probe must be declared `cdef XKernel probe = ...`")
    fields = properties(pyx)
    shown = ["Face", *(["Values"] if any(kind == "Values" for _, kind in fields) else [])]
    imports, rest = _parts(hand)
    lines = [f"    @property\n    def {name}(self) -> {kind}: ..." for name, kind in fields]
    parts = [
        f'"""Type stub for the compiled ``{module}``, written by\n'
        f"``tools/facestubs.py`` at every build (``setup.py``): ``{mixin.group(1)}`` from the\n"
        f'table ``FACE`` of ``fields.pyx``, the rest from ``{HAND}``. Edit those, not this."""',
        imports,
        f"from boardplay.core.face import {', '.join(shown)}",
        "FACE: Face",
        "\n".join(
            [
                f"class {mixin.group(1)}:",
                f'    """The read-only fields of ``{probe.group(1)}`` (the table ``FACE``)."""',
                "",
                *lines,
            ]
        ),
        rest,
    ]
    return "\n\n".join(part for part in parts if part) + "\n"


def write(package: Path = PACKAGE) -> list[Path]:
    """Write every ``fields.pyi`` of ``package`` whose text changed; the paths written."""
    written = []
    for pyx in sorted(package.rglob("fields.pyx")):
        module = ".".join([package.name, *pyx.relative_to(package).with_suffix("").parts])
        text = stub(module, pyx.read_text("utf-8"), (pyx.parent / HAND).read_text("utf-8"))
        target = pyx.with_suffix(".pyi")
        if not target.is_file() or target.read_text("utf-8") != text:
            target.write_text(text, "utf-8")
            written.append(target)
    return written


if __name__ == "__main__":
    for path in write(Path(sys.argv[1]) if len(sys.argv) > 1 else PACKAGE):
        print(f"wrote {path}")
