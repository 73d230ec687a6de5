"""The pairing rule of the Messages API, checked over a whole history.

Every tool_use in an assistant message must be answered by a tool_result with the same id in the
next message (a user message), and every tool_result must answer a tool_use of the message just
before it. Trimming that breaks this makes the API answer 400.
"""

from collections.abc import Iterable
from dataclasses import dataclass

from compaction.model.messages import Message


@dataclass(frozen=True)
class PairProblem:
    index: int  # message index where the problem is seen
    kind: str  # "unanswered_tool_use" | "orphan_tool_result" | "duplicate_tool_use_id"
    tool_use_id: str
    detail: str

    def __str__(self) -> str:
        return f"message {self.index}: {self.detail}"


def check_pairs(messages: list[Message]) -> list[PairProblem]:
    """Every broken tool_use/tool_result pairing, in message order; empty when the history is valid.
    One short loop per message: it runs over whole files as they load."""
    return pair_problems(map(_ids, messages), len(messages))


def pair_problems(ids: Iterable[tuple[list[str], list[str]]], count: int) -> list[PairProblem]:
    """check_pairs from each message's (tool_use ids, tool_result ids), as `_ids` gives them (a loader that
    walks the blocks anyway collects them as it goes), for `count` messages."""
    problems: list[PairProblem] = []
    seen_ids: set[str] = set()
    previous_uses: set[str] = set()
    for index, (uses, results) in enumerate(ids):
        for result_id in results:
            if result_id not in previous_uses:
                problems.append(PairProblem(
                    index, "orphan_tool_result", result_id,
                    f"tool_result {result_id!r} answers no tool_use in the message just before it"))
        if index > 0 and previous_uses:
            for use_id in sorted(previous_uses.difference(results)):
                problems.append(PairProblem(
                    index - 1, "unanswered_tool_use", use_id,
                    f"tool_use {use_id!r} is not answered by a tool_result in the next message"))
        for use_id in uses:
            if use_id in seen_ids:
                problems.append(PairProblem(
                    index, "duplicate_tool_use_id", use_id, f"tool_use id {use_id!r} is used twice"))
            seen_ids.add(use_id)
        previous_uses = set(uses)
    if count and previous_uses:
        for use_id in sorted(previous_uses):
            problems.append(PairProblem(
                count - 1, "unanswered_tool_use", use_id,
                f"tool_use {use_id!r} in the last message is never answered"))
    return problems


def _ids(message: Message) -> tuple[list[str], list[str]]:
    """(tool_use ids if an assistant message, tool_result ids if a user message)."""
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, list):
        return [], []
    role = message.get("role")
    if role == "assistant":
        return [str(b.get("id")) for b in content if isinstance(b, dict) and b.get("type") == "tool_use"], []
    if role == "user":
        return [], [str(b.get("tool_use_id")) for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]
    return [], []


def is_valid(messages: list[Message]) -> bool:
    return not check_pairs(messages)


def is_waiting_call(problem: PairProblem, message_count: int) -> bool:
    """A call in the last message whose result has not come yet: a log that stopped while a tool ran.
    Sending it as it is would be refused, but compaction did not cause it, and the agent would first
    append the result."""
    return problem.kind == "unanswered_tool_use" and problem.index == message_count - 1
