"""One OpenCode session as API messages: one model call per step, the log's compactions as boundaries.

An assistant message holds one or more steps (`step-start` ... `step-finish`; 1.x writes one step per
message); each step is one model call: an assistant message (thinking, text, its tool calls) with the
step-finish's usage and cost, then a user message with its tool results. A step with no step-finish (cut
off) takes the message's own tokens when it is the message's only step, else has no usage.

A compaction is a user message holding a `compaction` part (`auto`, `overflow`) answered by an assistant
message with `summary: true` (mode and agent "compaction"): the summary call, whose text is what the next
calls read after "What did we do so far?". It becomes one user message, that question and the summary
(as the lab writes a summary: markers.py), the boundary
(`compact_boundaries`, trigger auto or manual, pre_tokens: what the summary call read), and the summary
call is counted apart (`compaction_calls`, its tokens and cost), as the lab counts an agent's summary call.
"""

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from compaction.agents.opencode.log import parts as blocks
from compaction.agents.opencode.log.session import Message, Session
from compaction.agents.opencode.markers import SUMMARY_PREFIX
from compaction.importers.fields import object_at
from compaction.importers.usage import count
from compaction.model.conversation import LoadWarning


@dataclass
class Assembled:
    messages: list[dict] = field(default_factory=list)
    usage: list[dict | None] = field(default_factory=list)
    timestamps: list[str | None] = field(default_factory=list)
    boundaries: list[dict] = field(default_factory=list)
    summaries: list[int] = field(default_factory=list)  # the summary messages' indices
    fresh: set[int] = field(default_factory=set)
    compaction_calls: list[dict] = field(default_factory=list)
    models: list[str] = field(default_factory=list)
    warnings: list[LoadWarning] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)


def usage_of(tokens, cost, model) -> dict | None:
    """A step's (or a message's) `tokens {input, output, reasoning, cache {read, write}}` in usage.py's keys:
    OpenCode's input is what was not read from the cache, its output leaves the reasoning out."""
    if not isinstance(tokens, dict):
        return None
    cache = object_at(tokens, "cache")
    found: dict[str, Any] = {"input_tokens": count(tokens.get("input")), "cache_creation_input_tokens": count(cache.get("write")),
             "cache_read_input_tokens": count(cache.get("read")),
             "output_tokens": count(tokens.get("output")) + count(tokens.get("reasoning"))}
    if not any(found.values()):
        return None
    if isinstance(model, str) and model:
        found["model"] = model
    if isinstance(cost, int | float) and not isinstance(cost, bool) and cost >= 0:
        found["cost_usd"] = float(cost)
    return found


def _time(info: dict) -> str | None:
    created = object_at(info, "time").get("created")
    if not isinstance(created, int | float) or isinstance(created, bool) or created <= 0:
        return None
    try:
        return datetime.fromtimestamp(created / 1000, UTC).isoformat().replace("+00:00", "Z")
    except (OverflowError, OSError, ValueError):
        return None


class Walk:
    def __init__(self):
        self.out = Assembled()
        self.pending: dict | None = None  # the compaction part waiting for its summary
        self.call_ids: set[str] = set()

    def count(self, name: str, amount: int = 1) -> None:
        self.out.counts[name] = self.out.counts.get(name, 0) + amount

    def _append(self, role: str, content: list | str, when: str | None, usage: dict | None = None) -> int:
        self.out.messages.append({"role": role, "content": content})
        self.out.usage.append(usage)
        self.out.timestamps.append(when)
        return len(self.out.messages) - 1

    def read(self, session: Session) -> Assembled:
        for message in session.messages:
            role = message.info.get("role")
            if role == "user":
                self._user(message)
            elif role == "assistant":
                self._assistant(message)
            else:
                self.count("messages_of_no_role")
        if self.pending is not None:
            self.count("compactions_without_summary")
        return self.out

    def _user(self, message: Message) -> None:
        compaction = next((part for part in message.parts if part.get("type") == "compaction"), None)
        if compaction is not None:
            self.pending = compaction
            return
        content = [block for part in message.parts if (block := blocks.content_block(part)) is not None]
        if not content:
            self.count("empty_user_messages")
            return
        last = self.out.messages[-1] if self.out.messages else None
        if last is not None and last["role"] == "user" and isinstance(last["content"], list) \
                and len(self.out.messages) - 1 not in self.out.summaries:
            last["content"].extend(content)  # after a step's tool results: one user message, as the API is sent it
            self.count("prompts_after_results")
            return
        self._append("user", content, _time(message.info))

    def _assistant(self, message: Message) -> None:
        info = message.info
        if info.get("summary") is True:
            self._summary(message)
            return
        model = info.get("modelID")
        if isinstance(model, str) and model and model not in self.out.models:
            self.out.models.append(model)
        steps = _steps(message.parts)
        if not any(step["finish"] for step in steps) and len(steps) == 1:
            steps[0]["finish"] = {"tokens": info.get("tokens"), "cost": info.get("cost"), "from_message": True}
        when = _time(info)
        for step in steps:
            finish = step["finish"]
            usage = usage_of(finish.get("tokens"), finish.get("cost"), model) if finish else None
            if not step["parts"] and usage is None:
                self.count("empty_steps")
                continue
            self._step(step["parts"], usage, when)

    def _step(self, parts: list[dict], usage: dict | None, when: str | None) -> None:
        content, results = [], []
        for part in parts:
            if part.get("type") == "tool":
                call_id = self._call_id(part)
                content.append(blocks.tool_use(part, call_id))
                result, status = blocks.tool_result(part, call_id)
                results.append(result)
                if status not in ("completed", "error"):
                    self.count("interrupted_tools")
                if blocks.pruned(part):
                    self.count("pruned_tool_outputs")
            elif (block := blocks.content_block(part)) is not None:
                content.append(block)
        if usage is None:
            self.count("steps_without_usage")
        self._append("assistant", content or [{"type": "text", "text": ""}], when, usage)
        if results:
            self._append("user", results, when)

    def _call_id(self, part: dict) -> str:
        given = part.get("callID") or part.get("id") or f"call_{len(self.call_ids)}"
        call_id = str(given)
        while call_id in self.call_ids:
            call_id += "'"
        self.call_ids.add(call_id)
        return call_id

    def _summary(self, message: Message) -> None:
        info = message.info
        finishes = [part for part in message.parts if part.get("type") == "step-finish"]
        tokens = finishes[-1].get("tokens") if finishes else info.get("tokens")
        cost = sum(part["cost"] for part in finishes if isinstance(part.get("cost"), int | float)) \
            if finishes else info.get("cost")
        usage = usage_of(tokens, cost, info.get("modelID"))
        pending, self.pending = self.pending, None
        text = "\n".join(blocks.text(part.get("text")) for part in message.parts
                         if part.get("type") == "text" and blocks.text(part.get("text")))
        call = {"message": info.get("id"), "usage": usage, "failed": bool(info.get("error")) or not text}
        self.out.compaction_calls.append(call)
        if call["failed"]:
            self.count("failed_compactions")
            return
        index = self._append("user", f"{SUMMARY_PREFIX}\n\n{text}", _time(info))
        read = sum(usage[key] for key in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")) \
            if usage else None
        trigger = "unknown" if pending is None else "auto" if pending.get("auto") else "manual"
        boundary = {"index": index, "trigger": trigger, "pre_tokens": read or None, "summary_call": usage}
        if pending is not None and pending.get("overflow") is not None:
            boundary["overflow"] = bool(pending["overflow"])
        if pending is not None and isinstance(pending.get("tail_start_id"), str):
            boundary["tail_start_id"] = pending["tail_start_id"]
        self.out.boundaries.append(boundary)
        self.out.summaries.append(index)
        self.out.fresh.update((index, index + 1))


def _steps(parts: list[dict]) -> list[dict]:
    """The message's parts split at each step-finish: [{parts, finish}] (the finish None when cut off)."""
    steps: list[dict] = [{"parts": [], "finish": None}]
    for part in parts:
        kind = part.get("type")
        if kind == "step-finish":
            steps[-1]["finish"] = part
            steps.append({"parts": [], "finish": None})
        elif kind not in blocks.NOT_SENT:
            steps[-1]["parts"].append(part)
    if len(steps) > 1 and not steps[-1]["parts"]:
        steps.pop()
    return steps
