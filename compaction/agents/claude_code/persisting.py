"""Claude Code's saving of long tool outputs to a file, result by result, as its version did (rules.py):
none before 2.1.2; from then a tool's own limit (Bash 30,000 characters, Grep 20,000) or the default
(100,000 characters until 2.1.50, 50,000 from 2.1.51)."""

from compaction.layers.persist import persisted_marker
from compaction.model.events import PersistedOutput
from compaction.model.history import History, result_positions
from compaction.model.messages import content_text
from compaction.model.sizes import message_size
from compaction.storage.outputs import OutputStore
from compaction.strategies.edits import tool_names_match


def limit_for(tool: str, limits: dict[str, int]) -> int:
    """The characters over which `tool`'s output goes to a file ("" in `limits`: every other tool)."""
    return next((chars for name, chars in limits.items() if name and tool_names_match(tool, (name,))), limits[""])


def persist_outputs(history: History, limits: dict[str, int] | None, preview_chars: int, exempt: tuple[str, ...],
                    store: OutputStore | None) -> tuple[History, list[PersistedOutput]]:
    """Each result of the newest message longer than its tool's limit in `limits` (None: save nothing),
    of a tool not `exempt`, saved to a file with a `preview_chars` preview in its place."""
    position = len(history.messages) - 1
    if position < 0 or limits is None:
        return history, []
    blocks = result_positions(history, position)
    message, origin = history.messages[position], history.origins[position]
    found = []
    for j in blocks:
        block = message["content"][j]
        # the text only: an image beside it is not saved to a file (a screenshot's base64 is no output)
        tool, chars = history.tool_name(str(block.get("tool_use_id", "x")), origin), len(content_text(block.get("content", "")))
        if chars > limit_for(tool, limits) and not tool_names_match(tool, exempt):
            found.append((chars, j, block, tool))
    found.sort(key=lambda item: -item[0])  # largest first, as the tutorial's layer writes them
    if not found:
        return history, []
    store = store or OutputStore.temporary()
    content, events = list(message["content"]), []
    for _, j, block, tool in found:
        tool_use_id, output = str(block.get("tool_use_id", "x")), content_text(block.get("content", ""))
        stored = store.persist(tool_use_id, output, tool)  # the store writes a file once
        marker = persisted_marker(stored.path, output, preview_chars)
        others = [b for b in block["content"] if not (isinstance(b, dict) and b.get("type") == "text")] \
            if isinstance(block.get("content"), list) else []  # images stay beside the preview
        content[j] = {**block, "content": [{"type": "text", "text": marker}, *others] if others else marker}
        events.append(PersistedOutput(origin, tool_use_id, tool, len(output), stored.bytes, stored.path, marker))
    messages, sizes = list(history.messages), list(history.sizes)
    messages[position] = {**message, "content": content}
    sizes[position] = message_size(messages[position])
    return history.derive(messages, sizes, list(history.origins)), events
