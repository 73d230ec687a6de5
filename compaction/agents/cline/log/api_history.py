"""A task's api_conversation_history.json: the Anthropic-style messages the extension sends, each with its
own keys beside `role` and `content`, which the lab sets aside.

- `ts` (all three); Cline 3.3x adds on each reply `modelInfo` {modelId, providerId, mode}, `id` and
  `metrics` {tokens {prompt, completion, cached}, cost}: `prompt` is the input not read from a cache,
  `cached` the cache's writes and reads together (Cline's task/index.ts), so they are read as reads;
- Roo Code and Kilo Code keep every message after a compaction and tag it (src/core/condense,
  src/core/context-management): `condenseParent` on the messages a summary replaced, the summary itself a
  user message with `isSummary` and `condenseId` (its text opens "## Conversation Summary"); a sliding-window
  truncation tags the hidden messages `truncationParent` and inserts a user message with
  `isTruncationMarker`. Each such summary or marker is a compaction of the log, at that message.
Cline's own compactions are not in this file (its deleted range is in ui_messages.json).
"""

from dataclasses import dataclass, field
from typing import Any

from compaction.agents.cline.log.usage_line import usage_line
from compaction.importers.totals import usd
from compaction.importers.usage import count
from compaction.model.conversation import LoadWarning

OWN_KEYS = ("role", "content")
METRICS = "from_metrics"  # marks a reply's usage read from Cline's metrics (set aside before loading ends)
RESULT = "] Result:"  # Cline's formatResponse.toolResult heading


@dataclass
class History:
    messages: list[dict] = field(default_factory=list)
    usage: list[dict | None] = field(default_factory=list)
    timestamps: list[str | None] = field(default_factory=list)
    boundaries: list[dict] = field(default_factory=list)
    summaries: list[int] = field(default_factory=list)
    models: list[str] = field(default_factory=list)
    warnings: list[LoadWarning] = field(default_factory=list)
    tagged: int = 0  # messages a later compaction hid (condenseParent, truncationParent)
    results_from_text: int = 0  # tool results Cline wrote as text blocks, read as tool_result blocks
    window: int | None = None  # the window the environment details name
    usage_falls: list[dict] = field(default_factory=list)  # where their tokens used fell: Cline compacted before


def read_history(rows: list, iso) -> History:
    out = History()
    for index, row in enumerate(rows):
        if not isinstance(row, dict):
            out.messages.append(row)  # the shape check names it
            out.usage.append(None)
            out.timestamps.append(None)
            continue
        out.messages.append({key: row[key] for key in OWN_KEYS if key in row})
        out.timestamps.append(iso(row.get("ts")))
        out.usage.append(_metrics(row, out))
        if row.get("condenseParent") or row.get("truncationParent"):
            out.tagged += 1
        if row.get("isSummary"):
            out.summaries.append(index)
            out.boundaries.append({"index": index, "trigger": "condense", "pre_tokens": None,
                                   "summary_in_file": True, "condense_id": row.get("condenseId")})
        elif row.get("isTruncationMarker"):
            out.boundaries.append({"index": index, "trigger": "truncation", "pre_tokens": None,
                                   "summary_in_file": False, "truncation_id": row.get("truncationId")})
    _results_from_text(out)
    _usage_lines(out)
    return out


def _usage_lines(out: History) -> None:
    before: tuple[int, int] | None = None  # (message index, tokens used) of the line before
    for index, message in enumerate(out.messages):
        content = message.get("content") if isinstance(message, dict) and message.get("role") == "user" else None
        texts = [content] if isinstance(content, str) else [
            b.get("text") or b.get("content") for b in content if isinstance(b, dict)] if isinstance(content, list) else []
        line = next((found for text in reversed(texts) if isinstance(text, str) and (found := usage_line(text))), None)
        if line is None:
            continue
        out.window = line[1]
        if before is not None and line[0] < before[1]:
            out.usage_falls.append({"index": before[0], "tokens_before": before[1], "tokens_after": line[0]})
        before = (index, line[0])


def _results_from_text(out: History) -> None:
    """Cline 3.3x calls tools natively (tool_use blocks) but writes their results as text blocks opening
    `[read_file for 'a.py'] Result:`: each such block right after a reply with calls answers the next call."""
    messages = out.messages
    for index in range(1, len(messages)):
        before, message = messages[index - 1], messages[index]
        if not (isinstance(before, dict) and isinstance(message, dict) and before.get("role") == "assistant"
                and message.get("role") == "user" and isinstance(message.get("content"), list)
                and isinstance(before.get("content"), list)):
            continue
        calls = [b.get("id") for b in before["content"] if isinstance(b, dict) and b.get("type") == "tool_use"]
        answered = {b.get("tool_use_id") for b in message["content"] if isinstance(b, dict)}
        waiting = [call for call in calls if isinstance(call, str) and call not in answered]
        content = []
        for block in message["content"]:
            text = block.get("text") if isinstance(block, dict) and block.get("type") == "text" else None
            if waiting and isinstance(text, str) and text.startswith("[") and RESULT in text.split("\n", 1)[0]:
                content.append({"type": "tool_result", "tool_use_id": waiting.pop(0), "content": text})
                out.results_from_text += 1
            else:
                content.append(block)
        messages[index] = {**message, "content": content}


def _metrics(row: dict, out: History) -> dict | None:
    info = row.get("modelInfo")
    model = info.get("modelId") if isinstance(info, dict) and isinstance(info.get("modelId"), str) else None
    if model and model not in out.models:
        out.models.append(model)
    metrics = row.get("metrics")
    tokens = metrics.get("tokens") if isinstance(metrics, dict) else None
    if row.get("role") != "assistant" or not isinstance(tokens, dict):
        return None
    counts = {"input_tokens": count(tokens.get("prompt")), "cache_creation_input_tokens": 0,
              "cache_read_input_tokens": count(tokens.get("cached")), "output_tokens": count(tokens.get("completion"))}
    if not any(counts.values()):
        return None
    usage: dict[str, Any] = {**counts, **({"model": model} if model else {}), METRICS: True}
    cost = usd(metrics.get("cost")) if isinstance(metrics, dict) else None
    if cost is not None:
        usage["cost_usd"] = cost
    return usage


def looks_like_history(value: Any) -> bool:
    """A list of messages with the family's marks: the first has `ts`, or its text opens with <task> (Cline)
    or <user_message> (Roo Code, Kilo Code), or carries <environment_details>."""
    if not isinstance(value, list) or not value or not isinstance(value[0], dict):
        return False
    first = value[0]
    if first.get("role") != "user" or "content" not in first:
        return False
    if isinstance(first.get("ts"), int):
        return True
    content = first["content"]
    texts = [content] if isinstance(content, str) else [
        block.get("text") for block in content[:4] if isinstance(block, dict)] if isinstance(content, list) else []
    return any(isinstance(text, str) and (text.lstrip().startswith(("<task>", "<user_message>"))
                                          or "<environment_details>" in text) for text in texts)
