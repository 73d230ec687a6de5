"""Copilot's model names in the spelling of the lab's price and window tables. Copilot writes Anthropic's
versions with a dot and its 1M-token variants with `-1m` (`claude-sonnet-4.5`, `claude-opus-4.6-1m`), where
the tables read `claude-sonnet-4-5` and `claude-opus-4-6[1m]`; other names are kept. The log's own names
stay in `metadata["copilot_models"]`."""

import re

_DOTTED = re.compile(r"(?<=\d)\.(?=\d)")
_ONE_MILLION = re.compile(r"-1m(?=$|-)")


def lab_name(model: str) -> str:
    name = model.strip()
    if not name.lower().startswith("claude-"):
        return name
    name = _DOTTED.sub("-", name)
    return _ONE_MILLION.sub("", name) + "[1m]" if _ONE_MILLION.search(name) else name
