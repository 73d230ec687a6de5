"""OpenCode's pruning of old tool outputs (packages/opencode/src/session/compaction.ts, `prune`, run when
the agent's turn ends): from the newest message back, past the last two turns of the person, stopping at
a summary or at an output pruned before, it adds up the completed tool outputs (characters / 4, its
Token.estimate; the `skill` tool's are never pruned); the outputs past the newest 40,000 tokens are
cleared, when they weigh more than 20,000."""

from compaction.agents.opencode.markers import PRUNED, SUMMARY_PREFIX
from compaction.model.events import Placeholder
from compaction.model.history import History, content_repr_len
from compaction.model.messages import content_chars, has_tool_result

PROTECT, MINIMUM = 40_000, 20_000  # PRUNE_PROTECT, PRUNE_MINIMUM
PROTECTED_TOOLS = frozenset({"skill"})  # PRUNE_PROTECTED_TOOLS
CHARS_PER_TOKEN = 4  # util/token.ts: Token.estimate = round(length / 4)


def is_prompt(message: dict) -> bool:
    """A message of the person: a user message with text of its own (beside tool results or not), not a
    summary."""
    if message.get("role") != "user" or is_summary(message):
        return False
    content = message.get("content")
    return isinstance(content, str) or any(isinstance(block, dict) and block.get("type") != "tool_result"
                                           for block in content or ())


def is_summary(message: dict) -> bool:
    content = message.get("content")
    return message.get("role") == "user" and isinstance(content, str) and content.startswith(SUMMARY_PREFIX)


def prune(history: History, end: int, protect: int = PROTECT, minimum: int = MINIMUM) -> tuple[History, list]:
    """`history` with the old tool outputs of messages[:end] cleared as OpenCode's prune clears them, and
    the Placeholder events; the history itself when there is nothing to prune."""
    messages, origins = history.messages, history.origins
    total = pruned = turns = 0
    chosen: list[tuple[int, int, int]] = []  # (position, block, characters)
    for position in range(end - 1, -1, -1):
        message = messages[position]
        if is_summary(message):
            break
        if is_prompt(message):
            turns += 1
        if turns < 2 or not has_tool_result(message):
            continue
        content = message["content"]
        for j in range(len(content) - 1, -1, -1):
            block = content[j]
            if not isinstance(block, dict) or block.get("type") != "tool_result" or block.get("is_error"):
                continue
            if history.tool_name(block.get("tool_use_id"), origins[position]) in PROTECTED_TOOLS:
                continue
            if block.get("content") == PRUNED:
                return _cleared(history, chosen) if pruned > minimum else (history, [])
            chars = content_chars(block.get("content", ""))
            estimate = round(chars / CHARS_PER_TOKEN)
            total += estimate
            if total > protect:
                pruned += estimate
                chosen.append((position, j, chars))
    return _cleared(history, chosen) if pruned > minimum else (history, [])


def _cleared(history: History, chosen: list[tuple[int, int, int]]) -> tuple[History, list]:
    messages, sizes = list(history.messages), list(history.sizes)
    events = []
    placeholder_repr = len(repr(PRUNED))
    for position, j, chars in sorted(chosen):
        message = messages[position]
        content = list(message["content"])
        block = content[j]
        sizes[position] += placeholder_repr - content_repr_len(history, position, j)  # read from `history`: unchanged
        content[j] = {**block, "content": PRUNED}
        messages[position] = {**message, "content": content}
        tool_use_id = str(block.get("tool_use_id", ""))
        origin = history.origins[position]
        events.append(Placeholder(origin, tool_use_id, history.tool_name(tool_use_id, origin), chars, PRUNED, "mask"))
    return history.derive(messages, sizes, list(history.origins)), events
