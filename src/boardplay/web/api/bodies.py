"""Request bodies as lichess's clients send them to the Bot API: JSON (berserk) or an urlencoded
form (lichess-bot; lichess documents its routes' fields as form fields), read into the same
strict model either way (``Body``: an unknown field refused, every value bounded), so both give
the same answer and the same 400 for the same fields.

The guard has held a form to the query's rule already (no control character, ``guard.py``);
JSON has passed ``safejson``. A form's values are text, so they are read as a form means them
(``"true"`` a boolean, ``"300"`` a number: the model's lax mode); JSON keeps its types, strictly,
as every other body of the API. A name given twice in a form is refused: no reader can say
which one was meant."""

from __future__ import annotations

from typing import Any, TypeVar
from urllib.parse import parse_qsl

from fastapi import Depends, Request
from pydantic import BaseModel, ValidationError

from boardplay.web import safejson
from boardplay.web.config import Limits
from boardplay.web.errors import bad_request, quote
from boardplay.web.models import describe

FORM = "application/x-www-form-urlencoded"
FIELDS = 64
"""Most fields a form may have (every model here has fewer)."""

B = TypeVar("B", bound=BaseModel)


def content_type(request: Request) -> str:
    return request.headers.get("content-type", "").split(";")[0].strip().lower()


def form_fields(raw: bytes) -> dict[str, str]:
    """An urlencoded form's fields (400 for text that is not UTF-8, a name given twice, or more
    than ``FIELDS`` fields)."""
    try:
        text = raw.decode("utf-8")
        pairs = parse_qsl(text, keep_blank_values=True, errors="strict", max_num_fields=FIELDS)
    except UnicodeDecodeError:
        raise bad_request("the form is not UTF-8 text") from None
    except ValueError:
        raise bad_request(f"the form has more than {FIELDS} fields") from None
    fields: dict[str, str] = {}
    for name, value in pairs:
        if name in fields:
            raise bad_request(f"the form gives the field {quote(name[:40])} twice")
        fields[name] = value
    return fields


async def fields_of(request: Request) -> tuple[Any, bool]:
    """The body's value and whether it is JSON (typed: read strictly) or a form (text: read
    laxly). An empty body is an empty object, as a client that sends no field means it."""
    raw = await request.body()
    if content_type(request) == FORM:
        return form_fields(raw), False
    if not raw.strip():
        return {}, True
    limits: Limits = request.app.state.limits
    return safejson.parse(raw, limits), True


def read(model: type[B], value: Any, strict: bool) -> B:
    """``value`` as ``model``, or the 400 every body's validation gives (``models.describe``)."""
    try:
        return model.model_validate(value, strict=strict)
    except ValidationError as exc:
        raise bad_request(describe(list(exc.errors()))) from None


def json_or_form(model: type[B]) -> Any:
    """A dependency giving the request's body as ``model``, sent as JSON or as a form:
    ``body: Annotated[ChatLine, json_or_form(ChatLine)]``."""

    async def body(request: Request) -> B:
        value, strict = await fields_of(request)
        return read(model, value, strict)

    return Depends(body)
