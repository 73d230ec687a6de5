"""One id per tool call, as the Messages API demands ("`tool_use` ids must be unique").

Replayed OpenAI-style trajectories can reuse a tool-call id in several turns. When converting, each
later duplicate gets a fresh id (`<id>~2`, `~3`, ...) and so do the results that answer it in the next
message, with one warning. Works on the converter's own new message dicts.
"""

from collections import defaultdict, deque

from compaction.model.conversation import LoadWarning
from compaction.model.messages import tool_results, tool_uses
from compaction.words import plural


def make_tool_ids_unique(messages: list[dict]) -> LoadWarning | None:
    seen: set[str] = set()
    renamed: list[tuple[int, str, str]] = []  # (message index, old id, new id)
    for index, message in enumerate(messages):
        uses = tool_uses(message)
        if not uses:
            continue
        final_ids: dict[str, deque[str]] = defaultdict(deque)  # old id -> the ids its calls now have, in order
        for use in uses:
            old = use.get("id")
            if not isinstance(old, str):
                continue
            new = old
            if old in seen:
                new = _fresh(old, seen)
                use["id"] = new
                renamed.append((index, old, new))
            seen.add(new)
            final_ids[old].append(new)
        if index + 1 < len(messages) and any(old != ids[0] or len(ids) > 1 for old, ids in final_ids.items()):
            for result in tool_results(messages[index + 1]):
                answered = result.get("tool_use_id")
                ids = final_ids.get(answered) if isinstance(answered, str) else None
                if ids:
                    result["tool_use_id"] = ids.popleft()
    if not renamed:
        return None
    index, old, new = renamed[0]
    return LoadWarning(f"{plural(len(renamed), 'tool call')} reused an earlier call's id; each was given a fresh id "
                       f"with its result (first: {old!r} -> {new!r})", index=index, kind="renamed_id")


def _fresh(old: str, taken: set[str]) -> str:
    number = 2
    while f"{old}~{number}" in taken:
        number += 1
    return f"{old}~{number}"
