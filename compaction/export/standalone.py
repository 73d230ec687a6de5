"""The tutorial's four-layer compaction (s08 context compact) as one module for an agent of your own.

`compact(messages)` returns the messages to send: L3 saves the largest outputs of the last message to
disk when they total more than MAX_BYTES, L1 snips the middle above MAX_MESSAGES, L2 puts a placeholder
in the old tool results, and L4 summarises everything when the history is still over CONTEXT_LIMIT
characters. It never changes the list it is given. `reactive_compact` is for the API's "prompt is too
long" error; the `compact` tool is answered with `answer_compact_call`, then `compact_history`;
`agent_loop` is the tutorial's loop on any client with `messages.create` (the anthropic SDK's). Run it on a JSON file of messages to see the size
after each layer, as the tutorial's demo prints them.

This file is the template of `compaction export --form python`, which writes the settings below and
replaces the two import blocks with the source of what they import, so the exported module runs with
the standard library alone. Here, inside Compaction Lab, it imports them.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from pathlib import Path

# --- settings ---
CONTEXT_LIMIT = 50_000
KEEP_RECENT = 3
PERSIST_THRESHOLD = 30_000
MAX_BYTES = 200_000
PREVIEW_CHARS = 2_000
MAX_MESSAGES = 50
KEEP_HEAD = 3
MIN_PLACEHOLDER_CHARS = 120
REACTIVE_KEEP_LAST = 5
OUTPUT_DIR = ".task_outputs"  # persisted outputs in OUTPUT_DIR/tool-results, transcripts in OUTPUT_DIR/transcripts
# --- end of settings ---

# --- the lab's own functions ---
from compaction.client.blocks import plain_block  # noqa: E402
from compaction.layers.compact_tool import COMPACT_TOOL, answer_compact_call  # noqa: E402
from compaction.layers.persist import _replacement, persisted_marker  # noqa: E402
from compaction.layers.reactive import nothing_to_summarize, reactive_cut  # noqa: E402
from compaction.layers.snip import cut_points, snip_marker  # noqa: E402
from compaction.layers.summary import summary_message  # noqa: E402
from compaction.model.markers import COMPACTED_PREFIX, PLACEHOLDER, REACTIVE_PREFIX  # noqa: E402
from compaction.model.messages import content_chars, content_text, tool_result_positions  # noqa: E402
from compaction.storage.outputs import ENCODING, ERRORS, safe_name  # noqa: E402

# --- end of the lab's own functions ---
# --- summariser ---
from compaction.summarizers.offline import OfflineSummarizer  # noqa: E402

# --- end of summariser ---


def estimate_size(messages: list) -> int:
    """Characters, as the tutorial measures them."""
    return len(str(messages))


def _persist(tool_use_id: str, output: str) -> Path:
    """Write an output once under OUTPUT_DIR/tool-results; another output under a reused id gets its own file."""
    folder = Path(OUTPUT_DIR).resolve() / "tool-results"
    data = output.encode(ENCODING, ERRORS)
    path = (folder / f"{safe_name(tool_use_id)}.txt").resolve()
    if path.exists() and path.read_bytes() != data:
        digest = hashlib.sha256(data).hexdigest()
        path = (folder / f"{safe_name(tool_use_id)}-{digest[:12]}.txt").resolve()
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return path


def tool_result_budget(messages: list) -> list:
    """L3: when the last message's tool results total more than MAX_BYTES, save the largest (those over
    PERSIST_THRESHOLD) to disk, keeping a PREVIEW_CHARS preview, until the message is back within it."""
    if not messages:
        return messages
    last = messages[-1]
    positions = tool_result_positions(last)
    lengths = {j: content_chars(last["content"][j].get("content", "")) for j in positions}
    total = sum(lengths.values())
    if total <= MAX_BYTES:
        return messages
    content = list(last["content"])
    changed = False
    for j in sorted(positions, key=lengths.__getitem__, reverse=True):
        if total <= MAX_BYTES or lengths[j] <= PERSIST_THRESHOLD:
            break
        block = last["content"][j]
        output = content_text(block.get("content", ""))
        marker = persisted_marker(_persist(str(block.get("tool_use_id", "x")), output), output, PREVIEW_CHARS)
        replacement = _replacement(block, marker)
        content[j] = {**block, "content": replacement}
        total -= lengths[j] - content_chars(replacement)
        changed = True
    return messages[:-1] + [{**last, "content": content}] if changed else messages


def snip_compact(messages: list) -> list:
    """L1: above MAX_MESSAGES, keep the first KEEP_HEAD messages and the newest, never splitting a tool pair."""
    if len(messages) <= MAX_MESSAGES:
        return messages
    head_end, tail_start = cut_points(messages, KEEP_HEAD, MAX_MESSAGES - KEEP_HEAD)
    if head_end >= tail_start:
        return messages
    return messages[:head_end] + [snip_marker(tail_start - head_end)] + messages[tail_start:]


def micro_compact(messages: list) -> list:
    """L2: keep the KEEP_RECENT newest tool results whole; each older one longer than MIN_PLACEHOLDER_CHARS
    becomes PLACEHOLDER."""
    results = [(i, j) for i, message in enumerate(messages) for j in tool_result_positions(message)]
    old = [(i, j) for i, j in results[:max(len(results) - KEEP_RECENT, 0)]
           if content_chars(messages[i]["content"][j].get("content", "")) > MIN_PLACEHOLDER_CHARS]
    if not old:
        return messages
    compacted = list(messages)
    for i, j in old:
        content = list(compacted[i]["content"])
        content[j] = {**content[j], "content": PLACEHOLDER}
        compacted[i] = {**compacted[i], "content": content}
    return compacted


def _transcript(messages: list) -> Path:
    """The whole history, one message a line, before a summary replaces it."""
    folder = Path(OUTPUT_DIR).resolve() / "transcripts"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"transcript_{time.time_ns()}.jsonl"
    path.write_text("".join(json.dumps(m, default=str) + "\n" for m in messages), encoding=ENCODING, errors=ERRORS)
    return path


def summarize_history(messages: list, focus: str | None = None) -> str:
    """The summary L4 writes: the lab's offline summariser (no LLM). Put your LLM call here to use one."""
    return OfflineSummarizer().summarize(messages, focus=focus).strip() or "(empty summary)"


def compact_history(messages: list, focus: str | None = None, prefix: str = COMPACTED_PREFIX) -> list:
    """L4 (and the compact tool): the transcript is saved, then the whole history is one summary message."""
    _transcript(messages)
    return [summary_message(prefix, summarize_history(messages, focus))]


def compact(messages: list) -> list:
    """The messages to send: L3 -> L1 -> L2, then L4 when still over CONTEXT_LIMIT characters."""
    return compact_stages(messages)[-1][1]


def compact_stages(messages: list) -> list[tuple[str, list]]:
    """(layer, messages after it) for input, L3, L1, L2 and L4 (L4 equal to L2 when it did not fire)."""
    stages = [("input", messages)]
    for name, layer in (("L3", tool_result_budget), ("L1", snip_compact), ("L2", micro_compact)):
        stages.append((name, layer(stages[-1][1])))
    after_l2 = stages[-1][1]
    stages.append(("L4", compact_history(after_l2) if estimate_size(after_l2) > CONTEXT_LIMIT else after_l2))
    return stages


def reactive_compact(messages: list) -> list:
    """After the API refused the prompt as too long: summarise all but the REACTIVE_KEEP_LAST newest."""
    cut = reactive_cut(messages, REACTIVE_KEEP_LAST)
    if nothing_to_summarize(messages, cut):
        return messages
    _transcript(messages)
    return [summary_message(REACTIVE_PREFIX, summarize_history(messages[:cut]))] + messages[cut:]


def is_prompt_too_long(error: Exception) -> bool:
    """The API's real answer to an over-long prompt: HTTP 400, "prompt is too long: N tokens > M maximum"."""
    return getattr(error, "status_code", None) == 400 and "prompt is too long" in str(error).lower()


def agent_loop(client, messages: list, tools: list, run_tool, model: str, system: str | None = None,
               max_tokens: int = 8000):
    """The tutorial's loop: compact before every call, reactive compaction once on "prompt is too long", and
    the `compact` tool. `run_tool(name, input) -> str` runs your tools. `messages` is changed in place."""
    extra = {"system": system} if system else {}
    while True:
        messages[:] = compact(messages)
        request = dict(model=model, max_tokens=max_tokens, tools=[*tools, COMPACT_TOOL], **extra)
        try:
            response = client.messages.create(messages=messages, **request)
        except Exception as error:
            if not is_prompt_too_long(error):
                raise
            messages[:] = reactive_compact(messages)
            response = client.messages.create(messages=messages, **request)
        messages.append({"role": "assistant", "content": [plain_block(b) for b in response.content]})
        if response.stop_reason != "tool_use":
            return response
        results, focus, compact_called = [], None, False
        for block in messages[-1]["content"]:
            if block.get("type") != "tool_use":
                continue
            if block.get("name") == COMPACT_TOOL["name"]:
                compact_called, focus = True, (block.get("input") or {}).get("focus")
                results.append(answer_compact_call(block))  # answered first, then compacted: a valid request
            else:
                results.append({"type": "tool_result", "tool_use_id": block["id"],
                                "content": str(run_tool(block["name"], block.get("input") or {}))})
        messages.append({"role": "user", "content": results})
        if compact_called:
            messages[:] = compact_history(messages, focus)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(f"usage: python {Path(argv[0]).name} MESSAGES.json", file=sys.stderr)
        return 2
    data = json.loads(Path(argv[1]).read_text(encoding="utf-8"))
    messages = data["messages"] if isinstance(data, dict) else data
    stages = compact_stages(messages)
    for name, compacted in stages:
        print(f"{name:>5}: {estimate_size(compacted) / 1000:,.2f} KB, {len(compacted):,} messages")
    print(f"saved: {100 * (1 - estimate_size(stages[-1][1]) / max(estimate_size(messages), 1)):.1f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
