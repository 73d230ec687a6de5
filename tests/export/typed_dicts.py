"""A value checked against the anthropic SDK's request types (its TypedDicts), field by field: required keys,
no unknown keys, literal values, unions, lists. The SDK does not check what it sends at run time, so this
is what says a fragment is one the SDK types describe."""

import collections.abc
import types
import typing
from typing import Any, Literal, NotRequired, Required, Union, get_args, get_origin

from typing_extensions import is_typeddict


def problems(value: Any, hint: Any, where: str = "value") -> list[str]:
    origin, args = get_origin(hint), get_args(hint)
    if hint is Any:
        return []
    if origin in (Required, NotRequired) or (origin is typing.Annotated):
        return problems(value, args[0], where)
    if is_typeddict(hint):
        if not isinstance(value, dict):
            return [f"{where}: expected an object ({hint.__name__}), got {type(value).__name__}"]
        hints = typing.get_type_hints(hint, include_extras=True)
        found = [f"{where}: unknown field {key!r} for {hint.__name__}" for key in value if key not in hints]
        found += [f"{where}: missing required {key!r} of {hint.__name__}" for key in hint.__required_keys__
                  if key not in value]
        for key, item in value.items():
            if key in hints:
                found += problems(item, hints[key], f"{where}.{key}")
        return found
    if origin is Literal:
        return [] if value in args else [f"{where}: {value!r} is not one of {args}"]
    if origin in (Union, types.UnionType):
        options = [problems(value, option, where) for option in args]
        return [] if any(not found for found in options) else min(options, key=len)
    if hint is type(None):
        return [] if value is None else [f"{where}: expected null"]
    if hint is bool:
        return [] if isinstance(value, bool) else [f"{where}: expected true or false, got {value!r}"]
    if hint in (int, float):
        ok = isinstance(value, int | float) and not isinstance(value, bool) and (hint is float or isinstance(value, int))
        return [] if ok else [f"{where}: expected a {hint.__name__}, got {value!r}"]
    if hint is str:
        return [] if isinstance(value, str) else [f"{where}: expected text, got {value!r}"]
    if origin is not None and (isinstance(origin, type) and issubclass(origin, collections.abc.Iterable)
                               or getattr(origin, "__name__", "") == "SequenceNotStr"):
        if not isinstance(value, list):
            return [f"{where}: expected a list, got {type(value).__name__}"]
        return [found for index, item in enumerate(value) for found in problems(item, args[0], f"{where}[{index}]")]
    if getattr(hint, "__name__", "") == "SequenceNotStr":  # anthropic's own protocol for a list of strings
        return problems(value, list[str], where)
    raise AssertionError(f"{where}: the checker does not know the type {hint!r}")
