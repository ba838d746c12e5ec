"""The shapes every request body and socket message shares, as Pydantic models: strict (no
``"5"`` for 5, no ``true`` for 1), bounded (every string, list and mapping has a ceiling) and
closed (an unknown field is refused with a 400 naming it; the schema says so with
``additionalProperties: false``). Each domain declares its own bodies on these (``table/schemas``,
``accounts/schemas``, ``chat/schemas`` ...); ``describe`` turns validation errors into the one
sentence a 400 carries."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from boardplay.web.errors import clip, quote

OptionValue = bool | int | str | None
Text = Annotated[str, Field(max_length=200)]
Secret = Annotated[str, Field(max_length=200)]
Ply = Annotated[int, Field(ge=0, le=10_000_000)]
Options = Annotated[dict[Annotated[str, Field(max_length=64)], OptionValue], Field(max_length=64)]


class Body(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class Ping(Body):
    type: Literal["ping"]
    id: Annotated[int, Field(ge=-(2**53), le=2**53)] | Text | None = None


def describe(errors: list[Any], skip: int = 0) -> str:
    """Validation errors as one sentence: ``field: problem; ...``, quoting no input beyond a
    short prefix (a location may contain a visitor's dictionary key)."""
    parts: list[str] = []
    for error in errors[:5]:
        loc = error.get("loc", ())[skip:]
        where = ".".join(str(p) if len(str(p)) <= 40 else quote(str(p)) for p in loc)
        parts.append(f"{where or 'request'}: {clip(str(error.get('msg')), 120)}")
    return "; ".join(parts)
