"""A strategy's parameters: name, default, type, bounds, unit and help, and how a value is checked.

Values come from Python (`build(name, {"trigger": 1000})`), from the command line (`--param
trigger=1000`) or from a web form; every bad one raises SettingsError naming the strategy, the
parameter and what was expected.
"""

import math
import re
from dataclasses import dataclass
from typing import Any

from compaction.errors import SettingsError

KINDS = ("int", "float", "bool", "text", "names")
_WHOLE = re.compile(r"^[+]?\d[\d_,]*$")
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


@dataclass(frozen=True)
class Param:
    name: str
    default: Any
    kind: str  # one of KINDS
    help: str
    unit: str = ""  # "tokens", "characters", "messages", "tool uses", ...
    minimum: float | None = None
    maximum: float | None = None

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"parameter {self.name}: unknown kind {self.kind!r}")

    def describe(self) -> str:
        """'whole number of tokens, 1 to 10,000,000' and the like."""
        what = {"int": "whole number", "float": "number", "bool": "true or false", "text": "text",
                "names": "comma-separated names"}[self.kind]
        if self.unit and self.kind in ("int", "float"):
            what += f" of {self.unit}"
        if self.minimum is not None and self.maximum is not None:
            what += f", {_show(self.minimum)} to {_show(self.maximum)}"
        elif self.minimum is not None:
            what += f", at least {_show(self.minimum)}"
        return what

    def check(self, value: Any, owner: str) -> Any:
        """The value in its Python type, or SettingsError naming `owner` and this parameter."""
        where = f"{owner}: {self.name}"
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise SettingsError(f"{where} must be true or false, got {value!r}")
            return value
        if self.kind == "text":
            if not isinstance(value, str):
                raise SettingsError(f"{where} must be text, got {value!r}")
            return value
        if self.kind == "names":
            if isinstance(value, str) or not all(isinstance(v, str) for v in value or ()):
                raise SettingsError(f"{where} must be a list of names, got {value!r}")
            return tuple(v.strip() for v in value if v.strip())
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise SettingsError(f"{where} must be a {self.describe()}, got {value!r}")
        if self.kind == "int":
            if isinstance(value, float) and not value.is_integer():
                raise SettingsError(f"{where} must be a whole number, got {value!r}")
            value = int(value)
        elif not math.isfinite(value):
            raise SettingsError(f"{where} must be a finite number, got {value!r}")
        else:
            value = float(value)
        if (self.minimum is not None and value < self.minimum) or (self.maximum is not None and value > self.maximum):
            raise SettingsError(f"{where} must be a {self.describe()}, got {_show(value)}")
        return value

    def parse(self, text: str, owner: str) -> Any:
        """A value typed on the command line: '100000', '100_000', 'true', 'Read,Bash'."""
        where = f"{owner}: {self.name}"
        text = text.strip()
        if self.kind == "text":
            return text
        if self.kind == "names":
            return self.check([part for part in text.split(",")], owner)
        if self.kind == "bool":
            lowered = text.lower()
            if lowered not in _TRUE | _FALSE:
                raise SettingsError(f"{where} must be true or false, got {text!r}")
            return lowered in _TRUE
        if self.kind == "int":
            if not _WHOLE.match(text):
                raise SettingsError(f"{where} must be a {self.describe()}, got {text!r}")
            return self.check(int(text.replace("_", "").replace(",", "")), owner)
        try:
            number = float(text.replace("_", ""))
        except ValueError:
            raise SettingsError(f"{where} must be a {self.describe()}, got {text!r}") from None
        return self.check(number, owner)

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "default": list(self.default) if self.kind == "names" else self.default,
                "type": self.kind, "unit": self.unit, "minimum": self.minimum, "maximum": self.maximum,
                "help": self.help}


def _show(number: float) -> str:
    return f"{number:,}" if float(number).is_integer() else f"{number:g}"
