"""Codex's `token_count` events: what each model response used.

One event follows each response (`info.last_token_usage`: input_tokens, which include the cached ones,
cached_input_tokens, output_tokens, which include the reasoning ones, total_tokens), and
`info.total_token_usage` sums them over the session. From cli 0.55 most events are written twice, the
second time when the rate limits are refreshed: the same cumulative total, so a repeat is recognised by
it and counted once. `info` is null before the first response; right after a compaction comes an event
whose last usage is all zero and whose total did not move. The very first versions wrote the usage
flat on the event, without `info`.
"""

from dataclasses import dataclass
from typing import Any

from compaction.importers.fields import object_at
from compaction.importers.usage import count, from_cached_input


@dataclass(frozen=True)
class Call:
    """One model response's usage."""

    line: int
    input_tokens: int  # the whole prompt, cached tokens included
    cached_tokens: int
    output_tokens: int
    context_window: int | None

    @property
    def total(self) -> int:
        return self.input_tokens + self.output_tokens

    def usage(self, model: str | None) -> dict[str, Any] | None:
        return from_cached_input(self.input_tokens, self.cached_tokens, self.output_tokens, model)


class TokenCounts:
    """Reads the events in file order; `read` gives a new Call, or None for a repeat or an empty one."""

    def __init__(self):
        self.previous_key: Any = None
        self.calls = 0
        self.repeated = 0
        self.empty = 0  # info null, or all zero
        self.windows: list[int] = []  # model_context_window values, in the order first seen

    def read(self, payload: dict, line: int) -> Call | None:
        info = payload.get("info")
        if info is None and "input_tokens" in payload:
            info = {"last_token_usage": payload}  # the first versions' flat event
        if not isinstance(info, dict):
            self.empty += 1
            return None
        window = info.get("model_context_window")
        self.note_window(window)
        last = object_at(info, "last_token_usage")
        key = _key(info.get("total_token_usage")) or _key(last)
        if key is not None and key == self.previous_key:
            self.repeated += 1
            return None
        self.previous_key = key
        call = Call(line, count(last.get("input_tokens")), count(last.get("cached_input_tokens")),
                    count(last.get("output_tokens")), window if isinstance(window, int) else None)
        if not (call.input_tokens or call.output_tokens):
            self.empty += 1
            return None
        self.calls += 1
        return call

    def note_window(self, window: Any) -> None:
        if isinstance(window, int) and not isinstance(window, bool) and window > 0 and window not in self.windows:
            self.windows.append(window)


def _key(usage: Any) -> tuple | None:
    if not isinstance(usage, dict) or not usage:
        return None
    return tuple(sorted((k, v) for k, v in usage.items() if isinstance(v, int)))
