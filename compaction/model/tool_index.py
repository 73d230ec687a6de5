"""Where the tool calls and results of a prepared conversation are, found on demand.

Built lazily: a first pipeline run on a large conversation only looks at the few messages its
layers touch, so indexing everything up front would cost more than the run itself.
"""

from collections.abc import Iterator, Mapping
from typing import Any

from compaction.model.messages import Message, tool_names_by_id, tool_result_positions, tool_uses


class ResultBlocks(Mapping):
    """origin -> positions of the tool_result blocks in that original message (absent: none)."""

    def __init__(self, messages: list[Message]):
        self._messages = messages
        self._known: dict[int, tuple[int, ...]] = {}
        self._by_id: dict[str, tuple[int, int]] | None = None

    def find(self, tool_use_id: str) -> tuple[int, int] | None:
        """(origin, block position) of the first tool_result answering `tool_use_id`, or None."""
        if self._by_id is None:
            self._by_id = {}
            for origin in self:
                for position in self.positions(origin):
                    key = str(self._messages[origin]["content"][position].get("tool_use_id"))
                    self._by_id.setdefault(key, (origin, position))
        return self._by_id.get(str(tool_use_id))

    def positions(self, origin: int) -> tuple[int, ...]:
        found = self._known.get(origin)
        if found is None:
            found = self._known[origin] = tool_result_positions(self._messages[origin])
        return found

    def __getitem__(self, origin: int) -> tuple[int, ...]:
        found = self.positions(origin) if 0 <= origin < len(self._messages) else ()
        if not found:
            raise KeyError(origin)
        return found

    def __contains__(self, origin: Any) -> bool:
        return isinstance(origin, int) and 0 <= origin < len(self._messages) and bool(self.positions(origin))

    def __iter__(self) -> Iterator[int]:
        return (origin for origin in range(len(self._messages)) if self.positions(origin))

    def __len__(self) -> int:
        return sum(1 for _ in self)


class ToolNames:
    """Tool name of a tool_use id. A valid result's call is in the message just before it, so that
    message is looked at first; the full index is built only when it is not there."""

    def __init__(self, messages: list[Message]):
        self._messages = messages
        self._all: dict[str, str] | None = None
        self._named: dict[tuple[str, int | None], str] = {}  # answers so far: L2 names a result at every replay

    def name(self, tool_use_id: Any, origin: int | None = None) -> str:
        wanted = str(tool_use_id)
        known = self._named.get((wanted, origin))
        if known is None:
            known = self._named[wanted, origin] = self._look_up(wanted, origin)
        return known

    def _look_up(self, wanted: str, origin: int | None) -> str:
        if origin is not None and 0 < origin <= len(self._messages):
            for use in tool_uses(self._messages[origin - 1]):
                if str(use.get("id")) == wanted:
                    return str(use.get("name", "?"))
        if self._all is None:
            self._all = tool_names_by_id(self._messages)
        return self._all.get(wanted, "?")
