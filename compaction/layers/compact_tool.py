"""The `compact` tool the model can call to have its own history summarised.

Order matters: the tool_result answering the `compact` call is appended with every other result
of the same turn before the history is compacted. Compacting first would leave a tool_result whose
tool_use had been summarised away, which the API refuses.
"""

from compaction.layers.summary import compact_history
from compaction.model.events import LayerResult
from compaction.model.history import prepare
from compaction.model.messages import Message, tool_uses
from compaction.model.settings import Settings
from compaction.storage.outputs import OutputStore
from compaction.summarizers import Summarizer

COMPACT_TOOL = {
    "name": "compact",
    "description": "Summarize earlier conversation to free context space.",
    "input_schema": {"type": "object", "properties": {"focus": {"type": "string"}}},
}
COMPACT_RESULT = "[Compacted. Conversation history has been summarized.]"


def compact_calls(message: Message) -> list[dict]:
    return [use for use in tool_uses(message) if use.get("name") == COMPACT_TOOL["name"]]


def compact_focus(calls: list[dict]) -> str | None:
    """The first non-empty `focus` the compact calls asked for."""
    return next((str(use["input"]["focus"]) for use in calls
                 if isinstance(use.get("input"), dict) and use["input"].get("focus")), None)


def answer_compact_call(use: dict) -> dict:
    return {"type": "tool_result", "tool_use_id": use.get("id"), "content": COMPACT_RESULT}


def handle_compact_turn(conversation, assistant: Message, other_results: list[dict],
                        summarizer: Summarizer | None = None, store: OutputStore | None = None
                        ) -> LayerResult:
    """Append the assistant turn and all its results (the compact call's included), then compact.

    `other_results` are the tool_result blocks of the turn's other tool calls, already run.
    """
    calls = compact_calls(assistant)
    if not calls:
        raise ValueError("the assistant message has no compact tool call")
    history = prepare(conversation)
    results = list(other_results) + [answer_compact_call(use) for use in calls]
    messages = history.messages + [assistant, {"role": "user", "content": results}]
    return compact_answered_turn(messages, compact_focus(calls), summarizer, store)


def compact_answered_turn(conversation, focus: str | None, summarizer: Summarizer | None = None,
                          store: OutputStore | None = None, settings: Settings | None = None) -> LayerResult:
    """Compact a history that already ends with the answers to a turn's compact call (the valid order);
    what `settings` keep verbatim follows the summary."""
    return compact_history(conversation, summarizer, store, reason="the model called the compact tool",
                           focus=focus, settings=settings)
