"""Codex CLI's rollout (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`) line by line, as it is written.

Each model response is followed by a `token_count` event whose `last_token_usage` is that call's usage
(its input includes the cached tokens); from cli 0.55 most events are written twice, recognised by the
same cumulative total (importers/codex/tokens.py, whose reader keeps only the previous total). The model
is the newest `turn_context`'s. A compaction is a `compacted` line (its `replacement_history` is the new
start), then an `event_msg` of type `context_compacted`: counted once. The 2025 layout writes no token
counts at all: it is said, and no call can be measured. Beside the calls: the assistant's answers by
their size, and Codex's estimate of the encrypted reasoning before the person's newest turn (a fact the
forecast adds, as Codex's own count does). The window is the session's main model's (the model of most
calls so far, with the window its turns report), as the replay's: a one-off turn on a small model does not
move the forecast.
"""

from typing import Any

from compaction.agents.codex.log.items import encrypted_tokens
from compaction.agents.codex.log.tokens import TokenCounts
from compaction.agents.codex.triggers import inferred_trigger
from compaction.live.events import Answered, CallSeen, CompactionSeen, Event, Fact, Note, Written
from compaction.model.messages import content_chars

FORMAT = "codex"
OUTPUT_ITEMS = ("function_call_output", "custom_tool_call_output")
TOOL_ITEMS = ("function_call", "custom_tool_call", "local_shell_call", *OUTPUT_ITEMS)  # a turn not over yet
EARLIER_REASONING = "earlier_reasoning_tokens"  # the session fact Codex's forecast rule adds to its count


def is_legacy_header(value: dict) -> bool:
    return isinstance(value.get("id"), str) and "timestamp" in value and "type" not in value \
        and ("instructions" in value or "git" in value)


def _summary_chars(payload: dict) -> int:
    """Characters of the summary Codex put in place of the history (an encrypted one counts as the bytes
    its base64 text stands for); the person's messages it kept are counted apart."""
    chars = len(payload["message"]) if isinstance(payload.get("message"), str) else 0
    for item in payload.get("replacement_history") or ():
        if isinstance(item, dict) and isinstance(item.get("encrypted_content"), str):
            chars += len(item["encrypted_content"]) * 3 // 4
    return chars


class CodexLines:
    def __init__(self):
        self._tokens = TokenCounts()
        self._model: str | None = None
        self._compacted = False  # a `compacted` line since the newest call: its context_compacted is the same
        self._legacy = False
        self._calls: dict[str | None, int] = {}  # calls by model
        self._windows: dict[str | None, int] = {}  # the window each model's turns report
        self._turn_window: int | None = None  # the current turn's, from task_started
        self._turn_reasoning = 0  # Codex's estimate of the encrypted reasoning of the current turn
        self._earlier_reasoning = 0  # and of the turns before it since the last compaction
        self._tools_last = False  # the newest item is a tool call or its output: a compaction now is mid-turn
        self._context: int | None = None  # the newest call's context
        self._window: int | None = None
        # a response begun after the newest input (tool output, person's message) and before its token_count;
        # the 2025 layout writes the token_count before the response's items, so only input opens one
        self._after_input = False
        self._responding = False

    def read(self, number: int, line: dict) -> list[Event]:
        if number == 1 and is_legacy_header(line) or self._legacy:
            return self._legacy_line(number)
        kind, payload = line.get("type"), line.get("payload")
        if not isinstance(payload, dict):
            return []
        time = line.get("timestamp") if isinstance(line.get("timestamp"), str) else None
        if kind == "session_meta":
            found: list[Event] = []
            for key, name in (("cli_version", "version"), ("id", "session_id")):
                if isinstance(payload.get(key), str) and payload[key]:
                    found.append(Fact(name, payload[key]))
            return found
        if kind == "turn_context":
            if isinstance(payload.get("model"), str) and payload["model"]:
                self._model = payload["model"]
            return []
        if kind == "compacted":
            self._compacted = True
            self._responding = self._after_input = False
            self._turn_reasoning = self._earlier_reasoning = 0  # the history is replaced
            return [CompactionSeen(number, self._trigger(), time=time, summary_chars=_summary_chars(payload)),
                    Fact(EARLIER_REASONING, 0)]
        if kind == "response_item":
            self._note_response(payload)
        if kind == "response_item":
            self._tools_last = payload.get("type") in TOOL_ITEMS or \
                (self._tools_last and payload.get("type") == "reasoning")
        if kind == "event_msg":
            return self._event(number, payload, time)
        if kind == "response_item" and payload.get("type") in OUTPUT_ITEMS:
            return [Written(content_chars(payload.get("output")))]
        if kind == "response_item" and payload.get("type") == "reasoning" and payload.get("encrypted_content"):
            self._turn_reasoning += encrypted_tokens(payload["encrypted_content"])
        if kind == "response_item" and payload.get("type") == "message" and payload.get("role") == "assistant":
            return [Answered(content_chars(payload.get("content")))]
        return []

    def _event(self, number: int, payload: dict, time: str | None) -> list[Event]:
        event = payload.get("type")
        found: list[Event] = []
        if isinstance(payload.get("model_context_window"), int):
            self._turn_window = payload["model_context_window"]
            if not self._calls:  # before any call: the first turn's model is the main one so far
                self._window = payload["model_context_window"]
                found.append(Fact("window", payload["model_context_window"]))
        if event == "token_count":
            call = self._tokens.read(payload, number)
            usage = call.usage(self._model) if call is not None else None
            if call is not None and usage is not None:
                self._responding = self._after_input = False
                found.extend(self._main_window(call.context_window or self._turn_window))
                self._compacted = False
                self._context = call.total if call is not None else None
                found.append(CallSeen(number, usage, time))
        elif event == "turn_aborted" and self._responding:
            # the response was cut before its token_count: the replay counts it as a call, so the follower does
            self._responding = False
            found.append(CallSeen(number, {"model": self._model}, time, measured=False))
        elif event == "context_compacted":
            if not self._compacted:
                found.append(CompactionSeen(number, self._trigger(), time=time))
            self._compacted = False
        elif event == "user_message":
            found.append(Written(_text_chars(payload.get("message")), person=True))
            # a new turn of the person: the reasoning before it is what Codex counts again (history.rs)
            self._earlier_reasoning += self._turn_reasoning
            self._turn_reasoning = 0
            found.append(Fact(EARLIER_REASONING, self._earlier_reasoning))
        return found

    def _note_response(self, payload: dict) -> None:
        kind = payload.get("type")
        if kind in OUTPUT_ITEMS or kind == "message" and payload.get("role") == "user":
            self._after_input = True
        elif self._after_input and (kind in TOOL_ITEMS or kind == "reasoning"
                                    or kind == "message" and payload.get("role") == "assistant"):
            self._responding, self._after_input = True, False

    def _main_window(self, window: int | None) -> list[Event]:
        """The call's model counted; the window of the model of most calls so far, when known."""
        self._calls[self._model] = self._calls.get(self._model, 0) + 1
        if window:
            self._windows.setdefault(self._model, window)
        main = max(self._calls, key=lambda model: self._calls[model])
        if main not in self._windows:
            return []
        self._window = self._windows[main]
        return [Fact("window", self._window)]

    def _trigger(self) -> str:
        """Whose compaction this is (triggers.py): the person's /compact is between turns."""
        return inferred_trigger(not self._tools_last, self._context, self._window)

    def _legacy_line(self, number: int) -> list[Event]:
        if self._legacy:
            return []
        self._legacy = True
        return [Note(number, "this rollout is in Codex's 2025 layout, which records no token counts: none of "
                             "its calls can be measured", "no_usage")]


def _text_chars(value: Any) -> int:
    return len(value) if isinstance(value, str) else content_chars(value)
