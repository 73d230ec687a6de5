"""Small conversation builders for engine tests."""

import tempfile
from pathlib import Path


def user(text="do the thing"):
    return {"role": "user", "content": text}


def assistant(text="ok"):
    return {"role": "assistant", "content": [{"type": "text", "text": text}]}


def call(*ids, name="read_file", text=None):
    """An assistant message with one tool_use per id (several ids: parallel calls)."""
    content = [{"type": "text", "text": text}] if text else []
    content += [{"type": "tool_use", "id": i, "name": name, "input": {"path": f"src/{i}.py"}} for i in ids]
    return {"role": "assistant", "content": content}


def results(*pairs, text=None):
    """A user message answering (id, output) pairs; `text` adds a text block after them."""
    content = [{"type": "tool_result", "tool_use_id": i, "content": out} for i, out in pairs]
    if text:
        content.append({"type": "text", "text": text})
    return {"role": "user", "content": content}


def turns(count, output_chars=200, prefix="t"):
    """`count` read_file turns after one user request."""
    messages = [user("build it")]
    for n in range(count):
        messages.append(call(f"{prefix}{n}"))
        messages.append(results((f"{prefix}{n}", "x" * output_chars)))
    return messages


def compacted_claude_code_log(seed: int = 5, turns: int = 400):
    """A generated Claude Code log, read back: recorded usage per call and compactions of its own."""
    from compaction.agents.claude_code.sample_log import ClaudeCodeLog
    from compaction.generate import generate
    from compaction.importers import load_conversation

    log = ClaudeCodeLog(seed=seed)
    log.session(generate("realistic", turns=turns, seed=seed, parallel_share=0.3), window=60_000)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "session.jsonl")
        path.write_text(log.jsonl(), encoding="utf-8")
        return load_conversation(path)
