"""The entries of a Pi session on the branch it is at, as messages.

A session file is a tree (version 2 and later): every entry has an `id` and its `parentId`, and going
back to an earlier point starts a branch in the same file. What Pi sends is the path from the newest
entry back to the root (its leaf is the entry appended last); entries off that path are counted, with
their calls and Pi's cost for them, not loaded. A version 1 file has no ids: its entries are one line.

A `compaction` entry {summary, firstKeptEntryId (version 1: firstKeptEntryIndex), tokensBefore} is Pi's
own compaction: from it on, Pi sends its summary, then the entries from the first kept one, then what
follows. The loaded conversation keeps the file's order; the summary is a user message at the compaction,
with Pi's own wrapping (messages.ts), and the boundary says which message was the first kept.

As Pi sends them (packages/ai/src/providers/transform-messages.ts): a tool call left without a result (the
person interrupted) gets an error result "No result provided"; a failed or aborted response is still a
call, but its tool calls are not sent again.
"""

from dataclasses import dataclass, field
from typing import Any

from compaction.agents.pi.log.messages import (
    assistant_blocks,
    call_usage,
    text_blocks,
    tool_result,
    user_content,
)
from compaction.agents.pi.markers import (
    BRANCH_CLOSING,
    BRANCH_OPENING,
    COMPACTION_CLOSING,
    COMPACTION_OPENING,
)
from compaction.importers.fields import object_at, text_at
from compaction.importers.usage import count

Entry = tuple[int, dict]  # (line number, the entry)
FAILED = ("error", "aborted")  # a response's stopReason when the call failed
NO_RESULT = [{"type": "text", "text": "No result provided"}]  # what Pi sends for a call left without a result


def active_path(entries: list[Entry]) -> tuple[list[Entry], list[Entry]]:
    """(the entries on the path Pi sends, the entries off it)."""
    with_ids = [entry for entry in entries if isinstance(entry[1].get("id"), str)]
    if not with_ids:
        return entries, []
    by_id = {entry[1]["id"]: entry for entry in with_ids}
    path: list[Entry] = []
    seen: set[str] = set()
    current: Entry | None = with_ids[-1]
    while current is not None and current[1]["id"] not in seen:
        seen.add(current[1]["id"])
        path.append(current)
        parent = current[1].get("parentId")
        current = by_id.get(parent) if isinstance(parent, str) else None
    on_path = {entry[1]["id"] for entry in path}
    return path[::-1], [entry for entry in with_ids if entry[1]["id"] not in on_path]


@dataclass
class Walked:
    messages: list[dict] = field(default_factory=list)
    usage: list[dict | None] = field(default_factory=list)
    boundaries: list[dict] = field(default_factory=list)
    summary_indices: list[int] = field(default_factory=list)
    models: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    def count(self, key: str, by: int = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + by


class Walk:
    def __init__(self, all_entries: list[Entry]):
        self.out = Walked()
        self.results: list[dict] = []
        self.at: dict[int, int] = {}  # id(entry) -> the index of the message it became
        self.all_entries = all_entries  # version 1's firstKeptEntryIndex counts these
        self.waiting: list[str] = []  # the newest response's tool calls without a result yet

    def read(self, number: int, entry: dict) -> None:
        kind = entry.get("type")
        if kind == "message":
            self._message(entry)
        elif kind == "compaction":
            self._compaction(number, entry)
        elif kind == "branch_summary":
            self._user([{"type": "text", "text": BRANCH_OPENING + text_at(entry, "summary") + BRANCH_CLOSING}], entry)
        elif kind == "custom_message":
            self._user(text_blocks(entry.get("content")), entry)
        elif kind == "model_change":
            self._model(entry.get("modelId"))
        else:
            self.out.count(f"{kind}_entries" if isinstance(kind, str) else "entries_without_type")

    def finish(self) -> None:
        self._flush()

    def _message(self, entry: dict) -> None:
        message = object_at(entry, "message")
        role = message.get("role")
        if role == "assistant":
            self._flush()
            self._model(message.get("model"))
            usage = call_usage(message)
            self.out.count("calls")
            if usage is None:
                self.out.count("calls_without_usage")
            blocks = assistant_blocks(message.get("content"))
            if message.get("stopReason") in FAILED:  # Pi does not send a failed response's tool calls again
                blocks = [block for block in blocks if block["type"] != "tool_use"]
            self.waiting = [block["id"] for block in blocks if block["type"] == "tool_use"]
            self._add({"role": "assistant", "content": blocks or ""}, entry, usage)
        elif role == "toolResult":
            block = tool_result(message)
            if block is not None:
                if block["tool_use_id"] in self.waiting:
                    self.waiting.remove(block["tool_use_id"])
                self.results.append(block)
                self.at[id(entry)] = len(self.out.messages)
        else:
            said = user_content(message)
            if said is None:
                self.out.count("messages_not_read")
                return
            self._user(said, entry)

    def _user(self, blocks: list[dict], entry: dict) -> None:
        self._close()
        if self.results:  # typed while tools ran: it goes with their results, in one user message
            blocks, self.results = [*self.results, *blocks], []
        self._add({"role": "user", "content": blocks or ""}, entry)

    def _compaction(self, number: int, entry: dict) -> None:
        self._flush()
        index = len(self.out.messages)
        boundary: dict[str, Any] = {"index": index, "trigger": "compaction",
                                    "pre_tokens": count(entry.get("tokensBefore")) or None, "line": number}
        kept = self._first_kept(entry)
        if kept is not None:
            boundary["first_kept_index"] = kept
        if entry.get("fromHook") is True:
            boundary["from_hook"] = True
        self.out.boundaries.append(boundary)
        self.out.summary_indices.append(index)
        text = COMPACTION_OPENING + text_at(entry, "summary") + COMPACTION_CLOSING
        self._add({"role": "user", "content": [{"type": "text", "text": text}]}, entry)

    def _first_kept(self, entry: dict) -> int | None:
        """The message the first kept entry became (the next one when it is not a message)."""
        target = entry.get("firstKeptEntryId")
        position = next((n for n, (_, e) in enumerate(self.all_entries) if e.get("id") == target), None) \
            if isinstance(target, str) else entry.get("firstKeptEntryIndex")
        if not isinstance(position, int) or isinstance(position, bool) or not 0 <= position < len(self.all_entries):
            return None
        for _, later in self.all_entries[position:]:
            if id(later) in self.at:
                return self.at[id(later)]
        return None

    def _add(self, message: dict, entry: dict, usage: dict | None = None) -> None:
        self.at[id(entry)] = len(self.out.messages)
        self.out.messages.append(message)
        self.out.usage.append(usage)

    def _close(self) -> None:
        """A result for each call still waiting (interrupted), as Pi sends it (transform-messages.ts)."""
        for call in self.waiting:
            self.results.append({"type": "tool_result", "tool_use_id": call, "content": NO_RESULT, "is_error": True})
            self.out.count("results_written_by_pi")
        self.waiting = []

    def _flush(self) -> None:
        self._close()
        if self.results:
            self.out.messages.append({"role": "user", "content": self.results})
            self.out.usage.append(None)
            self.results = []

    def _model(self, model: Any) -> None:
        if isinstance(model, str) and model.strip() and model.strip() not in self.out.models:
            self.out.models.append(model.strip())


def off_path_calls(entries: list[Entry]) -> dict[str, Any]:
    """The calls of entries off the branch: how many, and Pi's cost for them."""
    calls = [object_at(entry, "message") for _, entry in entries if entry.get("type") == "message"
             and object_at(entry, "message").get("role") == "assistant"]
    costs = [usage["cost_usd"] for message in calls if (usage := call_usage(message)) and "cost_usd" in usage]
    return {"entries": len(entries), "calls": len(calls), "cost_usd": round(sum(costs), 6)}
