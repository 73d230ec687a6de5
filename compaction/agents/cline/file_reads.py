"""Cline's first resort before truncating (ContextManager.ts attemptFileReadOptimizationCore, lines 626-659):
every copy of a file but its newest (a `[read_file for 'a.py'] Result:` opening a turn's first block, or the
<final_file_content> of a write_to_file or replace_in_file result) keeps its heading and loses the file's
text to a notice; when that saves 30 % or more of the characters of what is sent, Cline does not truncate.
The change is permanent (its context_history.json). Cline also replaces files the person mentioned
(<file_content> in a turn); the replay does not."""

import re

from compaction.agents.cline.markers import FILE_READ_NOTICE
from compaction.model.history import History
from compaction.model.sizes import message_size

HEADING = re.compile(r"^\[([^\s]+) for '([^']+)'\] Result:")
FINAL = re.compile(r'(<final_file_content path="[^"]*">)[\s\S]*?(</final_file_content>)')  # an edit's file text
EDITS = ("replace_in_file", "write_to_file")
ENOUGH = 0.3  # needToTruncate: percentSaved < 0.3


def _first_text(message: dict) -> str | None:
    """The text of a user turn's first block, inside a tool_result where it is one (Cline's getTextFromBlock
    on content[0])."""
    content = message.get("content")
    if message.get("role") != "user" or not isinstance(content, list) or not content or not isinstance(content[0], dict):
        return None
    block = content[0]
    inner = block.get("content") if block.get("type") == "tool_result" else None
    if isinstance(inner, list) and inner and isinstance(inner[0], dict) and inner[0].get("type") == "text":
        inner = inner[0].get("text")
    found = block.get("text") if block.get("type") == "text" else inner
    return found if isinstance(found, str) else None


def _replaced(message: dict, text: str) -> dict:
    content = list(message["content"])
    block = dict(content[0])
    if block.get("type") == "text":
        block["text"] = text
    elif isinstance(block.get("content"), str):
        block["content"] = text
    else:
        block["content"] = [{**block["content"][0], "text": text}, *block["content"][1:]]
    content[0] = block
    return {**message, "content": content}


def without_repeated_reads(history: History, start: int) -> tuple[History, float]:
    """The history with every read but the newest of each file (from `start` on) turned into its heading and
    the notice, and the share of the characters of what is sent that this saved (0 when nothing changed)."""
    reads: dict[str, list[tuple[int, str, str]]] = {}  # each file's reads: (position, the text, its replacement)
    for position in range(start, len(history.messages)):
        text = _first_text(history.messages[position])
        found = HEADING.match(text) if isinstance(text, str) else None
        if text is None or found is None or FILE_READ_NOTICE in text:
            continue
        if found.group(1) == "read_file" and len(text) > found.end():
            reads.setdefault(found.group(2), []).append((position, text, found.group(0) + "\n" + FILE_READ_NOTICE))
        elif found.group(1) in EDITS and FINAL.search(text):
            reads.setdefault(found.group(2), []).append((position, text, FINAL.sub(rf"\1 {FILE_READ_NOTICE} \2", text,
                                                                                     count=1)))
    older = [entry for each in reads.values() for entry in each[:-1]]
    if not older:
        return history, 0.0
    changes = {position: replacement for position, _, replacement in older}
    saved = sum(len(text) - len(replacement) for _, text, replacement in older)
    messages, sizes = list(history.messages), list(history.sizes)
    for position, text in changes.items():
        messages[position] = _replaced(messages[position], text)
        sizes[position] = message_size(messages[position])
    total = sum(history.sizes)
    return history.derive(messages, sizes, list(history.origins)), saved / total if total else 0.0
