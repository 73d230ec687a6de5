"""The records of a Codex rollout as API messages, in file order.

- One assistant message per model response: the items a response produced (reasoning, text, calls,
  web searches) are written one a line, and nothing of the next request (a user message, a tool output)
  comes between them, so a response is the model items between two input items.
- Its usage is the token_count event of the same stretch between inputs: real files write it before
  the response's items (0.34-0.55) or after its calls and before their outputs (0.77+), never past the
  next input. A response with none recorded has none.
- The outputs of its calls are the next user message, in call order, then any user text. A call whose
  output never came is answered `aborted`, as Codex itself does before sending (context_manager/
  normalize.rs), unless nothing at all followed it: the log stopped while the tool ran (a waiting call).
  An output that answers no call of the response before it is dropped, as Codex drops it.
- A compaction (`compacted`, with `event_msg/context_compacted` beside it) ends the history; what Codex
  sent instead starts at the next message (compaction.py).
"""

from dataclasses import dataclass, field

from compaction.agents.codex.log.compaction import NewStart, from_replacement, rebuilt
from compaction.agents.codex.log.items import convert, encrypted_tokens, item_type
from compaction.agents.codex.log.records import Record, instructions_text
from compaction.agents.codex.log.tokens import Call, TokenCounts
from compaction.agents.codex.triggers import inferred_trigger
from compaction.importers.fields import text_at
from compaction.model.conversation import LoadWarning

ABORTED = "aborted"


@dataclass
class _Pending:
    """The user message being gathered: results of the last response's calls, then other blocks."""

    line: int
    timestamp: str | None
    results: dict[str, dict] = field(default_factory=dict)
    blocks: list[dict] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


@dataclass
class Assembled:
    messages: list[dict] = field(default_factory=list)
    usage: list[dict | None] = field(default_factory=list)
    timestamps: list[str | None] = field(default_factory=list)
    boundaries: list[dict] = field(default_factory=list)
    summary_indices: list[int] = field(default_factory=list)
    injected: list[dict] = field(default_factory=list)  # {"index", "block", "kind"}: what Codex wrote itself
    system: list[str] = field(default_factory=list)
    warnings: list[LoadWarning] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    unknown_items: dict[str, int] = field(default_factory=dict)
    models: list[str] = field(default_factory=list)
    windows: dict[str, int] = field(default_factory=dict)  # model -> the model_context_window its calls report
    efforts: list[str] = field(default_factory=list)
    # [response index, tokens]: Codex's estimate of the encrypted reasoning each response carries (history.rs)
    reasoning: list[list[int]] = field(default_factory=list)
    truncation_policy: dict | None = None  # the newest turn_context's: how Codex cuts a tool output it records
    # responses paid for (a token_count) with no response of their own in the file: an interrupted turn's, or
    # one whose items the file runs into the next response's; Live counts them (measures/branches_paid.py)
    unmatched: list[dict] = field(default_factory=list)


class Walk:
    def __init__(self, base_instructions: str | None):
        self.out = Assembled(system=[base_instructions] if base_instructions else [])
        self.has_base = base_instructions is not None
        self.tokens = TokenCounts()
        self.model: str | None = None
        self.response: tuple[int, str | None, list[str]] | None = None  # (index, model, call ids)
        self.pending: _Pending | None = None
        self.waiting_for: list[str] = []  # calls of the last response, answered by the next user message
        self.gap: list[Call] = []  # responses' usage seen since the last response ended
        self.last_call: Call | None = None
        self.turn_window: int | None = None  # the current turn's model_context_window (task_started)
        self.open_boundary: dict | None = None  # a compaction not yet followed by a model item
        self.user_texts: list[str] = []  # the person's messages since the last compaction (compact.rs keeps them)

    def count(self, name: str, amount: int = 1) -> None:
        self.out.counts[name] = self.out.counts.get(name, 0) + amount

    def read(self, record: Record) -> None:
        payload = record.payload
        if record.kind == "turn_context":
            self._turn_context(payload)
        elif record.kind == "event":
            kind = payload.get("type")
            if kind == "token_count":
                call = self.tokens.read(payload, record.line)
                if call is not None:
                    self.gap.append(call)
            elif kind == "task_started":
                window = payload.get("model_context_window")
                self.tokens.note_window(window)
                if isinstance(window, int) and not isinstance(window, bool) and window > 0:
                    self.turn_window = window
            elif kind == "context_compacted":
                self.compaction(record, None)
        elif record.kind == "compacted":
            self.compaction(record, payload)
        elif record.kind == "item":
            self._item(record)

    def _turn_context(self, payload: dict) -> None:
        base = instructions_text(payload.get("base_instructions"))
        if base and not self.has_base:  # some versions write them here rather than on session_meta
            self.out.system.insert(0, base)
            self.has_base = True
        model, effort = payload.get("model"), payload.get("effort")
        if isinstance(model, str) and model:
            self.model = model
            if model not in self.out.models:
                self.out.models.append(model)
        if isinstance(effort, str) and effort not in self.out.efforts:
            self.out.efforts.append(effort)
        policy = payload.get("truncation_policy")
        if isinstance(policy, dict) and policy.get("mode") in ("tokens", "bytes") and isinstance(policy.get("limit"), int):
            self.out.truncation_policy = {"mode": policy["mode"], "limit": policy["limit"]}

    def _item(self, record: Record) -> None:
        converted = convert(record.payload, record.where, record.line)
        if converted is None:
            kind = item_type(record.payload)
            self.out.unknown_items[kind] = self.out.unknown_items.get(kind, 0) + 1
            return
        if converted.side == "none":
            self.count("ghost_snapshots")
            return
        if converted.side == "system":
            if converted.system and converted.system not in self.out.system:
                self.out.system.append(converted.system)
            self.count("developer_messages")
            return
        if converted.side == "model":
            index, _, calls = self._open_response(record)
            self.out.messages[index]["content"].extend(converted.blocks)
            calls.extend(b["id"] for b in converted.blocks if b["type"] == "tool_use")
            self._reasoning_counts(record.payload, index)
            self.out.warnings.extend(LoadWarning(text, index=index, line=record.line) for text in converted.warnings)
            return
        self._input(record, converted)

    def _reasoning_counts(self, payload: dict, index: int) -> None:
        if item_type(payload) == "reasoning":
            self.count("reasoning_items")
            encrypted = payload.get("encrypted_content")
            if encrypted:
                self.count("reasoning_encrypted")
                tokens = encrypted_tokens(encrypted)
                if self.out.reasoning and self.out.reasoning[-1][0] == index:
                    self.out.reasoning[-1][1] += tokens
                else:
                    self.out.reasoning.append([index, tokens])

    def _open_response(self, record: Record) -> tuple[int, str | None, list[str]]:
        """The response being read, (index, model, call ids), begun at `record` if none is open."""
        if self.response is not None:
            return self.response
        self.finish_user()
        self.response = (self._append("assistant", [], record.timestamp), self.model, [])
        self.open_boundary = None
        return self.response

    def _input(self, record: Record, converted) -> None:
        if self.response is not None:
            self.close_response()
        pending = self._pending(record)
        pending.warnings.extend(converted.warnings)
        if converted.call_id is not None:
            if converted.call_id in self.waiting_for and converted.call_id not in pending.results:
                pending.results[converted.call_id] = converted.blocks[0]
            else:
                self.count("orphan_outputs")
            return
        kind = f"injected:{converted.injected}" if converted.injected else "user"
        for block in converted.blocks:
            pending.blocks.append(block)
            pending.kinds.append(kind)
        if kind == "user":
            self.user_texts.extend(b["text"] for b in converted.blocks if b["type"] == "text")

    def _pending(self, record: Record) -> _Pending:
        if self.pending is None:
            self.pending = _Pending(record.line, record.timestamp)
        return self.pending

    def close_response(self) -> None:
        if self.response is None:
            return
        index, model, calls = self.response
        if self.gap:
            call = self.gap[-1]
            self.out.usage[index] = call.usage(model)
            window = call.context_window or self.turn_window
            if model and window:
                self.out.windows.setdefault(model, window)  # each turn on a model reports its model's
            self.last_call = call
            self.count("token_counts_unmatched", len(self.gap) - 1)
            self._unmatched(self.gap[:-1], model, index)
            self.gap = []
        self.waiting_for = calls
        self.response = None

    def finish_user(self, at_end: bool = False) -> None:
        """Write the gathered user message; the last response's calls left without output are answered
        `aborted`, except at the end of a log that stopped before any of them came back."""
        pending, calls = self.pending, self.waiting_for
        if pending is None and (at_end or not calls):
            self.waiting_for = []
            return
        pending = pending or _Pending(0, None)
        missing = [c for c in calls if c not in pending.results]
        if missing:
            self.count("aborted_calls", len(missing))
        results = [pending.results.get(c) or {"type": "tool_result", "tool_use_id": c, "content": ABORTED}
                   for c in calls]
        blocks = results + pending.blocks
        if blocks:
            index = self._append("user", blocks, pending.timestamp)
            for position, kind in enumerate(pending.kinds, start=len(results)):
                self._note_block(index, position, kind)
            self.out.warnings.extend(LoadWarning(t, index=index, line=pending.line) for t in pending.warnings)
        self.pending, self.waiting_for = None, []

    def _note_block(self, index: int, position: int, kind: str) -> None:
        if kind.startswith("injected:"):
            self.out.injected.append({"index": index, "block": position, "kind": kind.split(":", 1)[1]})
        elif kind == "summary" and index not in self.out.summary_indices:
            self.out.summary_indices.append(index)

    def _append(self, role: str, content: list, timestamp: str | None) -> int:
        self.out.messages.append({"role": role, "content": content})
        self.out.usage.append(None)
        self.out.timestamps.append(timestamp)
        return len(self.out.messages) - 1

    def compaction(self, record: Record, payload: dict | None) -> None:
        """A compaction point: the history so far ends; Codex's new start follows as one user message."""
        if self.open_boundary is not None:  # the other line of the same compaction
            if payload is not None and not self.open_boundary["new_start"]:
                self._new_start(self.open_boundary, record, payload)
            return
        if self.response is not None:
            self.close_response()
        mid_turn = bool(self.waiting_for)
        self.finish_user()
        self.gap = []
        pre_tokens = self.last_call.total if self.last_call else None
        window = (self.last_call.context_window if self.last_call else None) or \
            (self.tokens.windows[-1] if self.tokens.windows else None)
        boundary = {"index": len(self.out.messages), "trigger": inferred_trigger(not mid_turn, pre_tokens, window),
                    "pre_tokens": pre_tokens,
                    "position": "mid_turn" if mid_turn else "between_turns", "line": record.line,
                    "replacement_items": None, "new_start": False}
        self.out.boundaries.append(boundary)
        self.open_boundary = boundary
        if payload is not None:
            self._new_start(boundary, record, payload)

    def _new_start(self, boundary: dict, record: Record, payload: dict) -> None:
        items = payload.get("replacement_history")
        if isinstance(items, list):
            start = from_replacement(items, record.where)
            boundary["replacement_items"] = len(items)
        else:
            start = rebuilt(self.user_texts, text_at(payload, "message"))
            boundary["rebuilt"] = True  # from compact.rs's rule: the file has the summary only
        boundary["new_start"] = True
        boundary.update({key: start.counts.get(key, 0) for key in
                         ("kept_user_messages", "kept_assistant_messages", "encrypted_summary_chars")})
        for text in start.system:
            if text and text not in self.out.system:
                self.out.system.append(text)
        self._start_with(record, start)

    def _start_with(self, record: Record, start: NewStart) -> None:
        pending = self._pending(record)
        pending.blocks.extend(start.blocks)
        pending.kinds.extend(start.kinds)
        self.user_texts = [b["text"] for b, kind in zip(start.blocks, start.kinds, strict=True)
                           if kind == "user" and b["type"] == "text"]

    def _unmatched(self, calls: list[Call], model: str | None, before: int) -> None:
        after = sum(1 for message in self.out.messages[:before] if message["role"] == "assistant")
        for call in calls:
            usage = call.usage(model)
            if usage is not None:
                self.out.unmatched.append({"usage": usage, "line": call.line, "after_call": after,
                                           "reason": "unmatched"})

    def finish(self) -> Assembled:
        if self.response is not None:
            self.close_response()
        if self.gap:  # paid after the last response the file holds (a turn interrupted before its items)
            self.count("token_counts_unmatched", len(self.gap))
            self._unmatched(self.gap, self.model, len(self.out.messages))
            self.gap = []
        self.finish_user(at_end=True)
        return self.out
