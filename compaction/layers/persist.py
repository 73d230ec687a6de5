"""L3 tool_result_budget: when the last message's tool results are too large, save the largest to
disk and keep a preview, until the message is back within the budget. A result the settings keep
verbatim (model/keep.py) is never saved, nor counted in the budget."""

from compaction.model.events import LayerResult, PersistedOutput
from compaction.model.history import History, prepare, result_positions
from compaction.model.keep import kept_ids, kept_result
from compaction.model.messages import content_chars, content_text
from compaction.model.settings import DEFAULTS, Settings
from compaction.model.sizes import message_size
from compaction.storage.outputs import OutputStore


def persisted_marker(path, output: str, preview_chars: int) -> str:
    return f"<persisted-output>\nFull output: {path}\nPreview:\n{output[:preview_chars]}\n</persisted-output>"


def _replacement(block: dict, marker: str):
    """The new content: the marker, followed by any non-text blocks (images) the result carried."""
    content = block.get("content", "")
    if not isinstance(content, list):
        return marker
    others = [b for b in content if not (isinstance(b, dict) and b.get("type") == "text")]
    return [{"type": "text", "text": marker}, *others] if others else marker


def result_lengths(message: dict, positions) -> tuple[dict[int, int], int]:
    """(characters of each tool result at `positions`, their total) in one message."""
    content = message["content"]
    lengths = {j: content_chars(content[j].get("content", "")) for j in positions}
    return lengths, sum(lengths.values())


def persist_largest(message: dict, lengths: dict[int, int], total: int, origin: int | None, tool_name,
                    settings: Settings, store: OutputStore | None) -> tuple[dict, list[PersistedOutput]] | None:
    """The message with its largest results saved to disk until the rest fit `max_bytes` (only those over
    PERSIST_THRESHOLD are saved), and the records; None when nothing was saved. `tool_name(id, origin)`
    names a result's tool. The replay's incremental pipeline calls this on its newest message too."""
    store = store or OutputStore.temporary()
    content = message["content"]
    new_content = list(content)
    events = []
    for j in sorted(lengths, key=lengths.__getitem__, reverse=True):
        if total <= settings.max_bytes or lengths[j] <= settings.persist_threshold:
            break  # sorted largest first: nothing after this one is over the threshold
        block = content[j]
        tool_use_id = str(block.get("tool_use_id", "x"))
        tool = tool_name(tool_use_id, origin)
        output = content_text(block.get("content", ""))
        stored = store.persist(tool_use_id, output, tool)
        marker = persisted_marker(stored.path, output, settings.preview_chars)
        replacement = _replacement(block, marker)
        new_content[j] = {**block, "content": replacement}
        total -= lengths[j] - content_chars(replacement)
        events.append(PersistedOutput(origin, tool_use_id, tool, len(output), stored.bytes, stored.path,
                                      marker))
    if not events:
        return None
    return {**message, "content": new_content}, events


def tool_result_budget(conversation, settings: Settings = DEFAULTS,
                       store: OutputStore | None = None) -> LayerResult:
    history: History = prepare(conversation)
    if not history.messages:
        return LayerResult(history)
    last_position = len(history.messages) - 1
    positions = result_positions(history, last_position)
    last = history.messages[last_position]
    if positions and settings.keeps:
        ids = kept_ids(history, settings)
        positions = tuple(j for j in positions if not kept_result(last["content"][j], ids))
    if not positions:
        return LayerResult(history)
    lengths, total = result_lengths(last, positions)
    if total <= settings.max_bytes:
        return LayerResult(history)
    done = persist_largest(last, lengths, total, history.origins[last_position], history.tool_name, settings, store)
    if done is None:
        return LayerResult(history)
    message, events = done
    messages = list(history.messages)
    messages[last_position] = message
    sizes = list(history.sizes)
    # measured whole: what is left of its results is at most the budget plus outputs under
    # PERSIST_THRESHOLD, far cheaper to measure than the large outputs it no longer holds
    sizes[last_position] = message_size(message)
    return LayerResult(history.derive(messages, sizes, list(history.origins)), events)
