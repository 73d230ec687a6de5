"""Keep verbatim: the tool calls no layer may touch, with their results.

A call is kept when its tool is one the settings name (`keep_tools`, as the log's calls name it: the API
and LangChain compare names as they are) or when its input holds one of the texts they name (`keep_inputs`: a path such as `CLAUDE.md`, a command,
found anywhere in the input's text). What each layer does with them:
- L3 never saves a kept result to disk, and L2 never puts a placeholder in it (nor counts it among the
  KEEP_RECENT newest: those are the others);
- L1 never snips a message holding a kept call or result: the middle it snips becomes its marker
  followed by the kept messages, in their order;
- a summary (L4, reactive compaction, the compact tool, summary_keep_last) summarises the other messages
  and is followed by the kept ones, whole, in their order: a kept message is still sent after compaction.
An agent's own summary (a log that compacted itself) is kept the same way, whatever the settings: the
lab's layers never summarise or snip the summary the agent wrote (the one pass after the agent's last
compaction sends it first, as it is).

The API's context editing and LangChain's ClearToolUsesEdit keep the results of the kept tools too (their
`exclude_tools`, which the export carries); they have no field for a text of the input.

The message-level functions (`kept_call_ids`, `holds_kept`) read plain messages, so the standalone
Python export carries them as they are (export/standalone.py); the history-level ones index a prepared
conversation once per rule.
"""

import json

from compaction.model.history import History
from compaction.model.settings import Settings


def is_kept_call(block: dict, tools: tuple[str, ...], inputs: tuple[str, ...]) -> bool:
    """Whether a tool_use block is one to keep: its tool named in `tools`, or its input holding a text of
    `inputs`."""
    if block.get("name") in tools:
        return True
    if not inputs:
        return False
    given = block.get("input")
    text = given if isinstance(given, str) else json.dumps(given, ensure_ascii=False, default=str)
    return any(wanted in text for wanted in inputs)


def kept_call_ids(messages: list, tools: tuple[str, ...], inputs: tuple[str, ...]) -> set[str]:
    """The ids of the kept tool calls in `messages`."""
    if not tools and not inputs:
        return set()
    return {str(block.get("id")) for message in messages if message.get("role") == "assistant"
            and isinstance(message.get("content"), list) for block in message["content"]
            if isinstance(block, dict) and block.get("type") == "tool_use" and is_kept_call(block, tools, inputs)}


def holds_kept(message: dict, ids: set[str] | frozenset[str]) -> bool:
    """Whether `message` holds a kept call or the result of one."""
    content = message.get("content")
    if not ids or not isinstance(content, list):
        return False
    return any(isinstance(block, dict) and (
        (block.get("type") == "tool_use" and str(block.get("id")) in ids)
        or (block.get("type") == "tool_result" and str(block.get("tool_use_id")) in ids)) for block in content)


def kept_ids(history: History, settings: Settings) -> frozenset[str]:
    """The ids of the kept calls of the loaded conversation, found once per rule."""
    rule = (settings.keep_tools, settings.keep_inputs)
    if not settings.keeps:
        return frozenset()
    return history.shared_value(("kept_ids", rule), lambda: frozenset(kept_call_ids(history.originals, *rule)))


def kept_origins(history: History, settings: Settings) -> frozenset[int]:
    """The loaded conversation's messages no layer may touch: those holding a kept call or result, and the
    agent's own summaries."""
    summaries = history.recorded.agent_summaries
    if not settings.keeps:
        return summaries
    ids = kept_ids(history, settings)
    return history.shared_value(("kept_origins", settings.keep_tools, settings.keep_inputs), lambda: frozenset(
        {origin for origin, message in enumerate(history.originals) if holds_kept(message, ids)} | summaries))


def kept_positions(history: History, settings: Settings | None, start: int = 0, end: int | None = None) -> list[int]:
    """The positions in history.messages[start:end] of the messages no layer may touch."""
    origins = kept_origins(history, settings or Settings())
    if not origins:
        return []
    found = history.origins[start:end]
    return [start + offset for offset, origin in enumerate(found) if origin is not None and origin in origins]


def kept_result(block: dict, ids: frozenset[str]) -> bool:
    """Whether a tool_result block answers a kept call."""
    return bool(ids) and str(block.get("tool_use_id")) in ids
