"""One Pi entry's message in Anthropic form (Pi's convertToLlm, packages/coding-agent/src/core/messages.ts):
`user` and `custom` as user text, `assistant` with its text, thinking and toolCall blocks, `toolResult` as a
tool_result, `bashExecution` (a `!` command) as the user text Pi sends for it, a branch or compaction
summary wrapped in Pi's own words. Each assistant message is one model call; its `usage` {input, output,
cacheRead, cacheWrite, cost {total}} is Anthropic's split already (input without the cache's share), and
`cost.total` is what Pi priced the call at."""

from typing import Any

from compaction.agents.pi.markers import BRANCH_CLOSING, BRANCH_OPENING
from compaction.importers.fields import object_at, text_at
from compaction.importers.totals import usd
from compaction.importers.usage import from_anthropic


def text_blocks(content: Any) -> list[dict]:
    """Pi's content (a string, or text and image blocks) as Anthropic blocks."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content else []
    found = []
    for block in content if isinstance(content, list) else []:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text" and isinstance(block.get("text"), str):
            found.append({"type": "text", "text": block["text"]})
        elif block.get("type") == "image":
            found.append({"type": "image", "source": {"type": "base64", "media_type": text_at(block, "mimeType"),
                                                      "data": text_at(block, "data")}})
    return found


def assistant_blocks(content: Any) -> list[dict]:
    found = []
    for block in content if isinstance(content, list) else []:
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text" and isinstance(block.get("text"), str) and block["text"]:
            found.append({"type": "text", "text": block["text"]})
        elif kind == "thinking" and isinstance(block.get("thinking"), str) and block["thinking"]:
            found.append({"type": "thinking", "thinking": block["thinking"]})
        elif kind == "toolCall" and isinstance(block.get("id"), str):
            arguments = block.get("arguments")
            found.append({"type": "tool_use", "id": block["id"], "name": text_at(block, "name"),
                          "input": arguments if isinstance(arguments, dict) else {}})
    return found


def call_usage(message: dict) -> dict | None:
    """The call's usage with its model and Pi's cost; None when it recorded none (an aborted call)."""
    usage = object_at(message, "usage")
    counts = {"input_tokens": usage.get("input"), "cache_creation_input_tokens": usage.get("cacheWrite"),
              "cache_read_input_tokens": usage.get("cacheRead"), "output_tokens": usage.get("output")}
    found = from_anthropic(counts, message.get("model"))
    if found is not None:
        cost = usd(object_at(usage, "cost").get("total"))
        if cost is not None:
            found["cost_usd"] = cost
    return found


def bash_text(message: dict) -> str:
    """What Pi sends for a `!` command (messages.ts bashExecutionToText)."""
    text = f"Ran `{text_at(message, 'command')}`\n"
    output = text_at(message, "output")
    text += f"```\n{output}\n```" if output else "(no output)"
    if message.get("cancelled"):
        text += "\n\n(command cancelled)"
    elif isinstance(message.get("exitCode"), int) and message["exitCode"] != 0:
        text += f"\n\nCommand exited with code {message['exitCode']}"
    return text


def user_content(message: dict) -> list[dict] | None:
    """A user-side message's blocks, or None when the role is not one Pi sends as the person's."""
    role = message.get("role")
    if role in ("user", "custom"):
        return text_blocks(message.get("content"))
    if role == "bashExecution":
        return [{"type": "text", "text": bash_text(message)}]
    if role == "branchSummary":
        return [{"type": "text", "text": BRANCH_OPENING + text_at(message, "summary") + BRANCH_CLOSING}]
    return None


def tool_result(message: dict) -> dict | None:
    if not isinstance(message.get("toolCallId"), str):
        return None
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": message["toolCallId"],
                             "content": text_blocks(message.get("content"))}
    if message.get("isError") is True:
        block["is_error"] = True
    return block
