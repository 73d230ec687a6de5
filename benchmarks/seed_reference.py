"""The tutorial's own layer code, reproduced only as the baseline for bench_pipeline.py.

It mutates its input and recomputes sizes with len(str(...)); that is what is being measured.
"""

from pathlib import Path

TOOL_RESULTS_DIR = Path(".task_outputs") / "tool-results"


def _has_tool_use(m):
    return m.get("role") == "assistant" and any(
        b.get("type") == "tool_use" for b in m.get("content", []) if isinstance(b, dict))


def _is_tool_result(m):
    return m.get("role") == "user" and any(
        b.get("type") == "tool_result" for b in m.get("content", []) if isinstance(b, dict))


def snip_compact(messages, max_messages=50):
    if len(messages) <= max_messages:
        return messages
    head_end, tail_start = 3, len(messages) - (max_messages - 3)
    if _has_tool_use(messages[head_end - 1]):
        while head_end < len(messages) and _is_tool_result(messages[head_end]):
            head_end += 1
    if _is_tool_result(messages[tail_start]) and _has_tool_use(messages[tail_start - 1]):
        tail_start -= 1
    return (messages[:head_end] + [{"role": "user", "content": f"[snipped {tail_start - head_end} messages]"}]
            + messages[tail_start:])


def micro_compact(messages):
    results = [(m, b) for m in messages if m.get("role") == "user" and isinstance(m.get("content"), list)
               for b in m["content"] if isinstance(b, dict) and b.get("type") == "tool_result"]
    if len(results) <= 3:
        return messages
    for _, b in results[:-3]:
        if len(b.get("content", "")) > 120:
            b["content"] = "[Earlier tool result compacted. Re-run if needed.]"
    return messages


def tool_result_budget(messages, root: Path, max_bytes=200_000):
    last = messages[-1]
    if not last or last.get("role") != "user" or not isinstance(last.get("content"), list):
        return messages
    blocks = [(i, b) for i, b in enumerate(last["content"]) if isinstance(b, dict) and b.get("type") == "tool_result"]
    total = sum(len(str(b.get("content", ""))) for _, b in blocks)
    if total <= max_bytes:
        return messages
    for _, b in sorted(blocks, key=lambda p: len(str(p[1].get("content", ""))), reverse=True):
        if total <= max_bytes:
            break
        directory = root / TOOL_RESULTS_DIR
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / f"{b.get('tool_use_id', 'x')}.txt"
        if not path.exists():
            path.write_text(str(b["content"]))
        b["content"] = f"\nFull output: {path}\nPreview:\n{str(b['content'])[:2000]}\n"
        total = sum(len(str(x.get("content", ""))) for _, x in blocks)
    return messages


def estimate_size(msgs):
    return len(str(msgs))


def run_seed_layers(msgs, root: Path) -> list[int]:
    """The seed demo's sequence: size, L3, size, L1, size, L2, size."""
    sizes = [estimate_size(msgs)]
    msgs = tool_result_budget(msgs, root)
    sizes.append(estimate_size(msgs))
    msgs = snip_compact(msgs)
    sizes.append(estimate_size(msgs))
    msgs = micro_compact(msgs)
    sizes.append(estimate_size(msgs))
    return sizes
