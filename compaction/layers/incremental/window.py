"""L2 on the running history: the KEEP_RECENT newest tool results stay whole, each older one longer than
the minimum becomes the placeholder.

The plain layer (layers/micro.py) walks the history from its newest message back to the first
placeholder it wrote before. Here the walk goes over the running history's list of messages holding
results, so the messages between them are never visited: per call, the window's results, the ones that
left it since the previous call, and the placeholder it stops at. Same order, same stop, same
replacements, same records.
"""

from bisect import bisect_left

from compaction.model.events import Placeholder
from compaction.model.markers import PLACEHOLDER
from compaction.model.messages import content_chars
from compaction.model.reads import SettingsReads
from compaction.model.running import RunningHistory


def replace_old_results(running: RunningHistory, reads: SettingsReads, placeholder: str = PLACEHOLDER
                        ) -> list[Placeholder]:
    """micro_compact on `running`, in place; the records, oldest first (none: nothing changed)."""
    if reads.at_least("keep_recent", running.result_count):
        return []  # every result is within the window, whatever the exact KEEP_RECENT
    keep = reads.value("keep_recent")
    changes = _walk(running, reads, keep, placeholder)
    if not changes:
        return []
    events = []
    placeholder_repr = len(repr(placeholder))
    prepared = running.prepared
    for position, (origin, replaced) in changes.items():
        message = running.messages[position]
        untouched = message is running.originals[origin]
        content = list(message["content"])
        size = running.sizes[position]
        for j, (block, chars) in replaced.items():
            tool_use_id = str(block.get("tool_use_id", ""))
            events.append(Placeholder(origin, tool_use_id, running.tool_name(tool_use_id, origin), chars, placeholder))
            before = prepared.content_repr(origin, j) if untouched else len(repr(content[j].get("content", "")))
            size += placeholder_repr - before
            content[j] = {**block, "content": placeholder}
        running.replace(position, {**message, "content": content}, size)
    events.reverse()  # collected newest first, as the walk goes
    return events


def _walk(running: RunningHistory, reads: SettingsReads, keep: int, placeholder: str) -> dict:
    """position -> (origin, {block: (block, characters)}) of the results to replace, newest first."""
    messages, originals, keys = running.messages, running.originals, running.keys
    positions_of = running.result_blocks.positions
    results, counts = running.results, running.result_counts
    changes: dict[int, tuple[int, dict]] = {}
    seen = 0
    newest = len(results) - 1
    while newest >= 0 and seen + counts[newest] <= keep:  # whole messages within the window
        seen += counts[newest]
        newest -= 1
    for at in range(newest, -1, -1):
        origin = results[at]
        blocks = positions_of(origin)
        position = bisect_left(keys, origin)
        message = messages[position]
        untouched = message is originals[origin]
        content = message["content"]
        for j in reversed(blocks):
            seen += 1
            if seen <= keep:
                continue
            block = content[j]
            if not untouched and block.get("content") == placeholder:
                return changes  # replaced by an earlier call: every older one was handled then
            chars = content_chars(block.get("content", ""))
            if reads.at_least("min_placeholder_chars", chars):
                continue  # too short to be worth a placeholder
            changes.setdefault(position, (origin, {}))[1][j] = (block, chars)
    return changes
