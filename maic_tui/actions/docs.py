"""The agent prompt's action documentation, derived from the schemas: purpose, then each parameter with its
type, ``?`` and default when optional. Nothing here is written by hand per action, so the prompt cannot
promise a default the schema does not apply (models that follow it always pass validation)."""

from __future__ import annotations

import json
import types
from collections.abc import Sequence
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from maic_tui.actions.catalogue import ACTION_SCHEMAS
from maic_tui.actions.schemas import ActionParams


def _type_doc(annotation: Any) -> str:
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Annotated:
        return _type_doc(args[0])
    if origin is Literal:
        return "|".join(json.dumps(arg) for arg in args)
    if origin in (Union, types.UnionType):
        kept = [arg for arg in args if arg is not type(None)]
        return _type_doc(kept[0]) if len(kept) == 1 else "|".join(_type_doc(arg) for arg in kept)
    if origin in (list, tuple):
        return f"[{_type_doc(args[0])}]" if args else "[...]"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "{" + ", ".join(_field_doc(name, field) for name, field in annotation.model_fields.items()) + "}"
    if annotation in (int, float):
        return "num"
    if annotation is str:
        return "str"
    return getattr(annotation, "__name__", str(annotation))


def _default_doc(field: FieldInfo) -> str | None:
    if field.default_factory is not None or field.default in (None, PydanticUndefined):
        return None
    value = field.default
    if isinstance(value, bool | int | float):
        return f"{value:g}" if isinstance(value, float) else str(value)
    return json.dumps(value) if isinstance(value, str) else None


def _field_doc(name: str, field: FieldInfo) -> str:
    key = field.alias or name
    shown = field.description or _type_doc(field.annotation)
    if field.is_required():
        return f'"{key}": {shown}'
    # A number's default says most; a choice is better shown as its choices.
    default = None if field.description or get_origin(field.annotation) is Literal else _default_doc(field)
    return f'"{key}"?: {default if default is not None else shown}'


def required_params(schema: type[ActionParams]) -> list[str]:
    """The parameters the documentation calls required (the schema's required fields, by wire name)."""
    return [field.alias or name for name, field in schema.model_fields.items() if field.is_required()]


def action_doc(name: str) -> str:
    schema = ACTION_SCHEMAS[name]
    fields = ", ".join(_field_doc(key, field) for key, field in schema.model_fields.items())
    purpose = schema.PURPOSE if schema.PURPOSE.endswith(".") else schema.PURPOSE + "."
    return f"{purpose} params {{{fields}}}"


def describe_actions(names: Sequence[str]) -> str:
    return "\n".join(f"- {name}: {action_doc(name)}" for name in names if name in ACTION_SCHEMAS)
