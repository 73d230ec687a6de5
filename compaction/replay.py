"""Replay: the agent loop over a whole conversation, one record per model call.

Each assistant message of the original is a model call. Before it, the strategy (by default the
four-layer pipeline) runs on the history so far and its output becomes the history, as the loop's
`messages[:] = ...` does: a summary is permanent. A strategy that edits only the request (the API's
context editing) says so with `Step.carry`: that history, not the one sent, is kept for the next call. A `compact` tool call compacts once all results of
its turn are appended. A context over the model window is compacted reactively before it is sent.

Incremental: the conversation is measured once (`prepare`); the carried history shares its sizes
and caches, so appending a message measures nothing and a call costs only what its layers do.
"""

import dataclasses
from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Any

from .compact_tool import compact_answered_turn, compact_calls, compact_focus
from .errors import SettingsError
from .events import AppliedEdit, SummaryEvent
from .history import History, prepare
from .layers.reactive import reactive_compact
from .messages import content_chars
from .settings import DEFAULTS, Settings
from .store import OutputStore
from .strategies import StepFunction, resolve, summaries_made
from .summarizers import OfflineSummarizer, Summarizer

MODEL_WINDOW_TOKENS = 200_000
ACTIONS = ("L3", "L1", "L2", "L4", "mask", "summary", "reactive", "compact_tool",
           # the peers' (compaction/strategies/)
           "persist", "microcompact", "auto_compact", "clear_tool_uses", "clear_thinking", "compact", "forget",
           "condense")


@dataclass(frozen=True)
class CallRecord:
    call: int  # 0-based number of the model call
    index: int  # index in the original conversation of the assistant message this call produced
    messages: int  # messages sent
    chars: int  # characters sent: messages plus system prompt and tools
    tokens: int  # estimated from chars
    raw_chars: int  # what the same call would send without any compaction
    raw_tokens: int
    acted: tuple[str, ...]  # what changed the history before this call, in order (see ACTIONS)
    summaries: int  # successful summaries so far, this call's included
    tokens_total: int  # tokens sent by all calls so far, this one included
    raw_tokens_total: int
    over_window: bool  # still over the model window after reactive compaction
    events: tuple = field(default=(), repr=False, compare=False)  # the layers' records

    @property
    def applied_edits(self) -> list[AppliedEdit]:
        """Edits made to this request only (the API's context editing), as `applied_edits` reports them."""
        return [e for e in self.events if isinstance(e, AppliedEdit)]

    def as_dict(self) -> dict[str, Any]:
        return {"call": self.call, "index": self.index, "messages": self.messages, "chars": self.chars,
                "tokens": self.tokens, "raw_chars": self.raw_chars, "raw_tokens": self.raw_tokens,
                "acted": list(self.acted), "summaries": self.summaries, "tokens_total": self.tokens_total,
                "raw_tokens_total": self.raw_tokens_total, "over_window": self.over_window,
                "applied_edits": [e.as_dict() for e in self.applied_edits]}


@dataclass
class ReplayResult:
    strategy: str
    settings: Settings
    model_window_tokens: int
    calls: list[CallRecord] = field(default_factory=list)
    histories: list[History] | None = None  # the history sent at each call, if kept
    # Claude Code's own compactions: {"index", "trigger", "pre_tokens", "call"}; "call" is the first
    # call sent after the boundary, None when no call follows it
    boundaries: list[dict] = field(default_factory=list)
    tool_output_chars: int = 0  # characters of tool output produced before some call
    tool_output_whole_chars: int = 0  # of those, reached the model whole at least once
    max_checked_size: int | None = None  # largest size compared with CONTEXT_LIMIT (see Step)

    def history(self, call: int) -> History:
        """The history sent at `call` (its `.messages`, `.sizes`, `.origins`)."""
        if self.histories is None:
            raise ValueError("this replay did not keep its histories (keep_histories=False)")
        return self.histories[call]

    @property
    def totals(self) -> dict[str, Any]:
        calls = self.calls
        last = calls[-1] if calls else None
        summaries = [e for c in calls for e in c.events if isinstance(e, SummaryEvent) and e.triggered]
        return {
            "strategy": self.strategy,
            "calls": len(calls),
            "summaries": last.summaries if last else 0,
            "failed_summaries": sum(1 for e in summaries if not e.succeeded),
            "acted": {action: sum(1 for c in calls if action in c.acted) for action in ACTIONS},
            "reactive": sum(1 for c in calls if "reactive" in c.acted),
            "compact_tool": sum(1 for c in calls if "compact_tool" in c.acted),
            "tokens_sent": last.tokens_total if last else 0,
            "raw_tokens_sent": last.raw_tokens_total if last else 0,
            "saved_share": 1 - last.tokens_total / last.raw_tokens_total if last and last.raw_tokens_total else None,
            "peak_chars": max((c.chars for c in calls), default=0),
            "peak_tokens": max((c.tokens for c in calls), default=0),
            "raw_peak_tokens": max((c.raw_tokens for c in calls), default=0),
            "over_window_calls": sum(1 for c in calls if c.over_window),
            "tool_output_kept": (self.tool_output_whole_chars / self.tool_output_chars
                                 if self.tool_output_chars else None),
            "model_window_tokens": self.model_window_tokens,
        }

    def as_dict(self) -> dict[str, Any]:
        return {"calls": [c.as_dict() for c in self.calls], "totals": self.totals,
                "settings": self.settings.as_dict(), "boundaries": self.boundaries}


def _boundaries(conversation: Any, call_indices: list[int]) -> list[dict]:
    metadata = getattr(conversation, "metadata", None) or {}
    found = []
    for boundary in metadata.get("compact_boundaries") or []:
        index = boundary.get("index") if isinstance(boundary, dict) else None
        if isinstance(index, int) and not isinstance(index, bool):
            call = bisect_left(call_indices, index)
            found.append({**boundary, "call": call if call < len(call_indices) else None})
    return found


def _new_outputs(history: History, originals: list, first_new: int, end: int) -> tuple[int, int]:
    """(characters of the tool outputs that arrived in originals[first_new:end], of those sent whole).

    They sit at the tail of the history unless a summary took them; a block is whole when the sent
    message still holds the original block object (layers copy what they change)."""
    produced = 0
    for origin in range(first_new, end):
        if origin in history.result_blocks:
            content = originals[origin]["content"]
            produced += sum(content_chars(content[j].get("content", "")) for j in history.result_blocks[origin])
    whole = 0
    for position in range(len(history.messages) - 1, -1, -1):
        origin = history.origins[position]
        if origin is None:
            continue
        if origin < first_new:
            break
        sent = history.messages[position]["content"]
        original = originals[origin]["content"]
        for j in history.result_blocks.get(origin, ()):
            if sent[j] is original[j]:
                whole += content_chars(original[j].get("content", ""))
    return produced, whole


def replay(conversation, settings: Settings | None = None, store: OutputStore | None = None,
           summarizer: Summarizer | None = None, model_window_tokens: int = MODEL_WINDOW_TOKENS,
           strategy: "str | StepFunction" = "pipeline", keep_histories: bool = True) -> ReplayResult:
    """Replay a conversation (message list, Conversation or prepared History) through the agent loop.

    Nothing passed in is changed. `keep_histories=False` drops the per-call histories (sweeps).
    """
    settings = settings or DEFAULTS
    if isinstance(model_window_tokens, bool) or not isinstance(model_window_tokens, int) \
            or model_window_tokens < 1:
        raise SettingsError(f"the model window must be a positive number of tokens, got {model_window_tokens!r}")
    name, step = resolve(strategy)
    prepared = prepare(conversation)
    if prepared.messages is not prepared.originals:  # a layer's output: its origins are not 0..n-1
        prepared = dataclasses.replace(prepare(prepared.messages), overhead=prepared.overhead)
    store = store or OutputStore.temporary()
    summarizer = summarizer or OfflineSummarizer()
    originals, sizes, overhead = prepared.messages, prepared.sizes, prepared.overhead
    call_indices = [i for i, m in enumerate(originals) if m.get("role") == "assistant"]
    result = ReplayResult(name, settings, model_window_tokens, histories=[] if keep_histories else None,
                          boundaries=_boundaries(conversation, call_indices))
    history = prepared.derive([], [], [])
    raw_sum = summaries = tokens_total = raw_total = first_new = 0
    pending: list = []  # compact-tool events since the last call
    compact_focus: list[str | None] = []  # set while a compact call waits for its turn's results
    checked: list[int] = []
    for index, message in enumerate(originals):
        if message.get("role") == "assistant":
            done = step(history, settings, store, summarizer)
            history, carried = done.history, done.kept  # an edit of this request only leaves `carried` whole
            if done.checked_size is not None:
                checked.append(done.checked_size)
            acted = (["compact_tool"] if pending else []) + list(done.acted)
            events = pending + list(done.events)
            pending = []
            tokens = history.context_tokens
            if tokens > model_window_tokens:
                compacted = reactive_compact(history, settings, summarizer, store,
                                             f"{tokens:,} estimated tokens > model window {model_window_tokens:,}")
                if compacted.events:  # none when only the newest messages are left: sent over the window
                    history = carried = compacted.history  # the loop's own compaction is permanent
                    acted.append("reactive")
                    events += compacted.events
                    tokens = history.context_tokens
            summaries += summaries_made(events)
            raw_chars = raw_sum + 2 * max(index - 1, 0) + 2 + overhead
            raw_tokens = prepared.token_model.tokens(raw_chars)
            tokens_total += tokens
            raw_total += raw_tokens
            produced, whole = _new_outputs(history, originals, first_new, index)
            result.tool_output_chars += produced
            result.tool_output_whole_chars += whole
            first_new = index
            result.calls.append(CallRecord(
                len(result.calls), index, len(history), history.context_size, tokens, raw_chars, raw_tokens,
                tuple(acted), summaries, tokens_total, raw_total, tokens > model_window_tokens, tuple(events)))
            if keep_histories:
                result.histories.append(history)
            history = carried
        raw_sum += sizes[index]
        history = history.derive(history.messages + [message], history.sizes + [sizes[index]],
                                 history.origins + [index])
        if compact_focus and message.get("role") == "user":
            compacted = compact_answered_turn(history, compact_focus[0], summarizer, store)
            history = compacted.history
            pending += compacted.events
        compact_focus = _compact_focus(message)
    result.max_checked_size = max(checked) if checked else None
    return result


def _compact_focus(message: dict) -> list[str | None]:
    """[focus] when the message calls the compact tool, else []."""
    calls = compact_calls(message)
    return [compact_focus(calls)] if calls else []
