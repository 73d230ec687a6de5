"""Clearing old tool results in a request, oldest first, keeping the newest few: the work shared by
Anthropic's `clear_tool_uses_20250919` and LangChain's `ClearToolUsesEdit`.

Both edit each request afresh from the client's full history, so the same old results are cleared
again at every call. The cleared copy is carried from one call to the next (strategies/memo.py):
once a result is old enough to clear it stays so, and a call only clears what has just aged out.
"""

from collections.abc import Callable
from dataclasses import dataclass

from compaction.model.events import Placeholder
from compaction.model.history import History, result_positions
from compaction.model.messages import content_chars, tool_uses
from compaction.strategies.edits import set_block_field
from compaction.strategies.memo import remember, resume


@dataclass(frozen=True)
class ToolUse:
    """One tool call and its result, by position in the history."""

    result_position: int
    result_block: int
    tool: str
    use_block: int | None  # the call's block in the message before the result, when found


@dataclass(frozen=True)
class Cleared:
    """A history's tool uses and the request with the oldest ones cleared."""

    uses: tuple[ToolUse, ...]
    messages: list  # the request: the history with uses[:looked_at] cleared (excluded tools aside)
    sizes: list
    looked_at: int  # uses before this one were cleared, or kept because of their tool
    cleared_uses: int
    cleared_chars: int


def _tool_uses(history: History, start: int) -> list[ToolUse]:
    found = []
    messages = history.messages
    for position in range(start, len(messages)):
        blocks = result_positions(history, position)
        if not blocks:
            continue
        calls = {str(b.get("id")): j for j, b in enumerate(messages[position - 1]["content"])
                 if isinstance(b, dict) and b.get("type") == "tool_use"} if position and tool_uses(
                     messages[position - 1]) else {}
        origin = history.origins[position]
        for j in blocks:
            use_id = str(messages[position]["content"][j].get("tool_use_id"))
            found.append(ToolUse(position, j, history.tool_name(use_id, origin), calls.get(use_id)))
    return found


def clear_old_results(history: History, key, keep: int, keep_tools: frozenset[str], clear_inputs: bool,
                      placeholder: str, enough: Callable[[int], bool] | None = None) -> Cleared:
    """The request with every tool result but the newest `keep` replaced by `placeholder` (their
    calls' inputs emptied too when `clear_inputs`), oldest first; results of `keep_tools` stay.
    `enough(characters cleared)` stops the clearing early once it says so."""
    resumed = resume(history, key)
    if resumed is None:
        count, previous = 0, Cleared((), [], [], 0, 0, 0)
    else:
        count, previous = resumed
    messages = previous.messages + history.messages[count:]
    sizes = previous.sizes + history.sizes[count:]
    uses = previous.uses + tuple(_tool_uses(history, count))
    looked_at, cleared_uses, cleared_chars = previous.looked_at, previous.cleared_uses, previous.cleared_chars
    while looked_at < len(uses) - keep and not (enough and enough(cleared_chars)):
        use = uses[looked_at]
        looked_at += 1
        if use.tool in keep_tools:
            continue
        cleared_chars += set_block_field(messages, sizes, use.result_position, use.result_block, "content",
                                         placeholder)
        if clear_inputs and use.use_block is not None:
            cleared_chars += set_block_field(messages, sizes, use.result_position - 1, use.use_block, "input", {})
        cleared_uses += 1
    done = Cleared(uses, messages, sizes, looked_at, cleared_uses, cleared_chars)
    remember(history, key, history.messages, done)
    return done


Unit = tuple[tuple[int, int], ...]  # the (message position, block position) of tool results cleared together


def clear_beyond_newest(history: History, key, units_in: Callable[[History, int], list[Unit]], trigger: int,
                        keep: int, placeholder: Callable[[dict], str], layer: str,
                        worth: Callable[[History, list[Unit]], bool] | None = None) -> tuple[History, list]:
    """A permanent edit: once more than `trigger` units are whole, replace every result of all but the
    newest `keep` with `placeholder(block)` (when `worth(history, those units)` says so, if given).
    `units_in(history, position)` lists the whole units of a message (those already cleared left out).
    The whole units are remembered, so a call only looks at new messages."""
    resumed = resume(history, key)
    count, pending = resumed if resumed is not None else (0, ())
    found = list(pending)
    for position in range(count, len(history.messages)):
        found += units_in(history, position)
    events: list[Placeholder] = []
    if len(found) > trigger and (worth is None or worth(history, found[:len(found) - keep])):
        cut = len(found) - keep
        messages, sizes = list(history.messages), list(history.sizes)
        for unit in found[:cut]:
            for position, j in unit:
                block = messages[position]["content"][j]
                tool_use_id = str(block.get("tool_use_id", ""))
                origin = history.origins[position]
                text = placeholder(block)
                events.append(Placeholder(origin, tool_use_id, history.tool_name(tool_use_id, origin),
                                          content_chars(block.get("content", "")), text, layer))
                set_block_field(messages, sizes, position, j, "content", text)
        history = history.derive(messages, sizes, list(history.origins))
        found = found[cut:]
    remember(history, key, history.messages, tuple(found))
    return history, events


def results_of(matches: Callable[[str], bool], cleared_text: str) -> Callable[[History, int], list[Unit]]:
    """units_in for clear_beyond_newest: each whole result of a tool whose name `matches`, one unit each;
    a result this edit cleared before (`cleared_text` in a changed message) is not whole any more."""
    def units_in(history: History, position: int) -> list[Unit]:
        message = history.messages[position]
        units: list[Unit] = []
        for j in result_positions(history, position):
            block = message["content"][j]
            if block.get("content") == cleared_text and not history.is_original(position):
                continue  # a tool that printed this text itself still counts
            if matches(history.tool_name(str(block.get("tool_use_id", "")), history.origins[position])):
                units.append(((position, j),))
        return units
    return units_in
