"""Gemini CLI's recorded messages one at a time, for both of its layouts (gemini_lines.py, document.py).

A `gemini` message with `tokens` is a model call (`tokens.input` is the whole prompt, cached tokens
included; thoughts are billed as output). gemini-cli writes a message again when it changes (its tokens
or its tool calls' results added): the same id is the same call, so the ids of the newest messages are
kept to tell a new message from a rewritten one. `user` messages are the person's turns or tool results;
a compression shows only as an `info` note ("compressed from: X to Y tokens", or "from 68% to 3%"), read
as importers/gemini/recording.py reads it.
"""

from collections import OrderedDict
from typing import Any

from compaction.agents.gemini_cli.log.parts import function_responses, parts_of, response_content, text_of
from compaction.agents.gemini_cli.log.recording import compression_point
from compaction.importers.usage import count, from_cached_input
from compaction.live.events import CallGrew, CallSeen, CompactionSeen, Event, Written

RECENT_IDS = 16  # rewrites come right after the message: a few ids tell them apart


def _usage(record: dict) -> dict | None:
    tokens = record.get("tokens")
    if not isinstance(tokens, dict):
        return None
    output = count(tokens.get("output")) + count(tokens.get("thoughts"))
    return from_cached_input(tokens.get("input"), tokens.get("cached"), output, record.get("model"))


def _result_chars(record: dict) -> int:
    total = 0
    for call in record.get("toolCalls") or ():
        if isinstance(call, dict):
            total += sum(len(response_content(r)[0]) for r in function_responses(parts_of(call.get("result"))))
    return total


class GeminiMessages:
    def __init__(self):
        # id -> (usage seen, result characters counted); the newest last
        self._recent: OrderedDict[str, tuple[dict | None, int]] = OrderedDict()
        self._newest_call: str | None = None
        self._last_prompt: int | None = None

    def read(self, number: int, record: Any) -> list[Event]:
        if not isinstance(record, dict):
            return []
        kind = record.get("type")
        time = record.get("timestamp") if isinstance(record.get("timestamp"), str) else None
        message_id = record.get("id") if isinstance(record.get("id"), str) else None
        seen = self._recent.get(message_id) if message_id else None
        if kind == "gemini":
            return self._model_turn(number, record, message_id, seen, time)
        if seen is not None:
            return []  # a person's turn or a note written again
        self._remember(message_id, (None, 0))
        if kind == "user":
            responses = function_responses(parts_of(record.get("content")))
            if responses:
                return [Written(sum(len(response_content(r)[0]) for r in responses))]
            return [Written(len(text_of(record.get("content"))), person=True)]
        if kind == "info":
            point = compression_point(record.get("content"), self._last_prompt)
            if point is not None:
                return [CompactionSeen(number, "auto", point.get("pre_tokens"), point.get("post_tokens"), time)]
        return []

    def _model_turn(self, number: int, record: dict, message_id: str | None, seen, time: str | None) -> list[Event]:
        usage = _usage(record)
        before, counted = seen if seen is not None else (None, 0)
        found: list[Event] = []
        if usage is not None:
            self._last_prompt = count(record["tokens"].get("input")) or self._last_prompt
            if before is None:
                found.append(CallSeen(number, usage, time))
                self._newest_call = message_id
            elif usage != before and message_id == self._newest_call:
                found.append(CallGrew(usage))
        results = _result_chars(record)
        if results > counted:
            found.append(Written(results - counted))
        self._remember(message_id, (usage or before, max(results, counted)))
        return found

    def _remember(self, message_id: str | None, value: tuple[dict | None, int]) -> None:
        if message_id is None:
            return
        self._recent[message_id] = value
        self._recent.move_to_end(message_id)
        while len(self._recent) > RECENT_IDS:
            self._recent.popitem(last=False)
