"""A Gemini CLI chat recording's messages as API messages, the way gemini-cli itself rebuilds the
history it sends when a session is resumed (packages/core/src/utils/sessionUtils.ts,
convertSessionToClientHistory):

- `info`, `warning` and `error` messages are the CLI's own notes, never sent; `user` messages that are
  commands or empty (`/...`, `?...`, `<session_context>`, `<hook_context>`) are not sent either;
- a `gemini` message is a model turn: its thoughts (`**subject** description`), its text and its
  `toolCalls`, or, in newer files, the parts of its content (text, thoughts, functionCall); the calls'
  `result` parts (functionResponse) are the next user turn. A `user` message of functionResponse parts
  (files from May 2026 on write the tool turn as its own message) answers the same calls.
- `tokens` (promptTokenCount, which includes the cached tokens; candidates; cached; thoughts, billed as
  output) is the usage of the model call behind that message.
Calls recorded after a note (`Request cancelled.`) get a `gemini` message of their own with no tokens,
no text and no thoughts: they belong to the response before, and are put back into it.
Compression shows only as an `info` note (the old messages stay in the file); it is a compaction point
at the next message, with the token counts the note gives.
A chat that holds nothing but its session context (the a2a server writes it at each start, and some
chats end before any prompt) loads that context as its one user message, with a warning: it is what the
file holds, and what the first call would have been sent.
"""

import re
from typing import Any

from compaction.agents.gemini_cli.log.builder import Builder, Built
from compaction.agents.gemini_cli.log.parts import (
    function_calls,
    function_responses,
    parts_of,
    response_content,
    text_blocks,
    text_of,
    thought_blocks,
)
from compaction.errors import ConversationError
from compaction.importers.fields import list_at, text_at
from compaction.importers.source import kind_of
from compaction.importers.usage import count, from_cached_input

NOT_SENT_TYPES = ("info", "warning", "error")
SESSION_CONTEXT = "<session_context>"
NOT_SENT_OPENINGS = ("/", "?", SESSION_CONTEXT, "<hook_context>")
# gemini-cli's two wordings of the note (useGeminiStream.ts, handleChatCompressionEvent): until 2026-03 and after
_TOKENS_NOTE = re.compile(r"compressed from: (\d+) to (\d+) tokens")
_PERCENT_NOTE = re.compile(r"Context compressed from (\d+)% to (\d+)%")


def read_messages(messages: list, label: str, list_name: str = "messages") -> Built:
    builder = Builder()
    last_prompt: int | None = None  # the last call's promptTokenCount: what gemini-cli compares
    context: tuple[dict, str | None] | None = None  # the last session context, for a chat that holds nothing else
    for position, record in enumerate(messages):
        where = f"{label}: {list_name}[{position}]"
        if not isinstance(record, dict):
            raise ConversationError(f"a message must be an object, got {kind_of(record)}", where=where)
        kind = record.get("type")
        timestamp = record.get("timestamp") if isinstance(record.get("timestamp"), str) else None
        if kind in NOT_SENT_TYPES:
            builder.count(f"{kind}_messages")
            boundary = compression_point(record.get("content"), last_prompt)
            if boundary is not None:
                builder.compaction_point(boundary)
            continue
        if "content" not in record and kind in ("user", "gemini"):
            raise ConversationError("the message has no 'content'", where=where)
        if kind == "user":
            _user(builder, record, timestamp)
            if text_of(record.get("content")).strip().startswith(SESSION_CONTEXT):
                context = record, timestamp
        elif kind == "gemini":
            tokens = record.get("tokens") if isinstance(record.get("tokens"), dict) else None
            _model_turn(builder, record, timestamp, tokens, where)
            if tokens and count(tokens.get("input")):
                last_prompt = count(tokens.get("input"))
        else:
            raise ConversationError(f"'type' must be user, gemini, info, warning or error, got {kind!r}", where=where)
    built = builder.finish()
    if not built.messages and context is not None:
        return _context_only(*context, built)
    return built


def _context_only(record: dict, timestamp: str | None, built: Built) -> Built:
    """The session context as the one user message of a chat that holds nothing else."""
    builder = Builder()
    builder.out.counts = {**built.counts, "user_messages_not_sent": built.counts["user_messages_not_sent"] - 1,
                          "context_only": 1}
    builder.add_user(text_blocks(parts_of(record.get("content"))), timestamp)
    return builder.finish()


def _user(builder: Builder, record: dict, timestamp: str | None) -> None:
    parts = parts_of(record.get("content"))
    responses = function_responses(parts)
    if responses:  # a tool turn: results, and what came with them (an image read)
        blocks = []
        for response in responses:
            call_id = text_at(response, "id")
            if not builder.add_result(call_id, result_block(call_id, response), timestamp):
                text = response_content(response)[0]
                blocks.append({"type": "text", "text": f"[{response.get('name')} result; its call is not recorded] "
                                                       f"{text}"})
        builder.add_user(blocks + [b for b in text_blocks(parts) if b["type"] != "text"], timestamp)
        return
    if text_of(record.get("content")).strip().startswith(NOT_SENT_OPENINGS) or not text_of(record.get("content")).strip():
        builder.count("user_messages_not_sent")
        return
    builder.add_user(text_blocks(parts), timestamp)


def _model_turn(builder: Builder, record: dict, timestamp: str | None, tokens: dict | None, where: str) -> None:
    parts = parts_of(record.get("content"))
    records = list_at(record, "toolCalls")
    in_content = function_calls(parts)
    uses, statuses, results = _calls(records, where)
    if in_content:  # newer files: the content's parts are the turn as sent, the records add the results
        uses = _calls(in_content, where)[0]
    blocks = text_blocks(parts)
    if not in_content and not any(b["type"] == "thinking" for b in blocks):
        blocks = thought_blocks(record.get("thoughts")) + blocks
    if tokens is None and not blocks and uses and builder.can_extend:
        builder.count("calls_recorded_apart")  # see the module: they belong to the response before
    elif tokens is None and not blocks and not uses:
        builder.count("empty_model_messages")
        return
    else:
        usage = None
        if tokens is not None:
            output = count(tokens.get("output")) + count(tokens.get("thoughts"))
            usage = from_cached_input(tokens.get("input"), tokens.get("cached"), output, record.get("model"))
        if builder.can_extend and not builder.calls:
            builder.count("model_turns_back_to_back")  # no call, no result, no person between: not recorded
        builder.start_response(blocks, timestamp, usage)
    builder.add_calls(uses, statuses)
    for call_id, block, finished in results:
        builder.add_result(call_id, block, finished)


def _calls(calls: list, where: str) -> tuple[list[dict], dict[str, str], list[tuple[str, dict, str | None]]]:
    """tool_use blocks, statuses and results of toolCalls records or functionCall parts."""
    uses: list[dict] = []
    statuses: dict[str, str] = {}
    results: list[tuple[str, dict, str | None]] = []
    for position, call in enumerate(calls):
        if not isinstance(call, dict) or not isinstance(call.get("name"), str):
            raise ConversationError("a tool call needs 'name' as a string", where=f"{where}: toolCalls[{position}]")
        call_id = given if isinstance(given := call.get("id"), str) else f"synth_{call['name']}_{position}"
        args = call.get("args") if isinstance(call.get("args"), dict) else {}
        uses.append({"type": "tool_use", "id": call_id, "name": call["name"], "input": args})
        if isinstance(call.get("status"), str):
            statuses[call_id] = call["status"]
        result = call.get("result")
        finished = call.get("timestamp") if isinstance(call.get("timestamp"), str) else None
        if isinstance(result, str):
            results.append((call_id, {"type": "tool_result", "tool_use_id": call_id, "content": result}, finished))
        elif isinstance(result, list) and result:
            responses = function_responses(result)
            extra = text_blocks(result)
            block = result_block(call_id, responses[0]) if responses else \
                {"type": "tool_result", "tool_use_id": call_id, "content": extra}
            if responses and extra:  # parts beside the response (an image read, a note) go with it
                block["content"] = [{"type": "text", "text": block["content"]}, *extra]
            results.append((call_id, block, finished))
    return uses, statuses, results


def result_block(call_id: str, response: dict) -> dict:
    text, error = response_content(response)
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": call_id, "content": text}
    if error:
        block["is_error"] = True
    return block


def compression_point(content: Any, last_prompt: int | None) -> dict | None:
    """The compaction point an info note announces, or None for another note."""
    text = content if isinstance(content, str) else text_of(content)
    found = _TOKENS_NOTE.search(text)
    if found:
        return {"index": None, "trigger": "auto", "pre_tokens": int(found.group(1)),
                "post_tokens": int(found.group(2)), "summary_recorded": False}
    found = _PERCENT_NOTE.search(text)
    if found:
        return {"index": None, "trigger": "auto", "pre_tokens": last_prompt, "pre_percent": int(found.group(1)),
                "post_percent": int(found.group(2)), "summary_recorded": False}
    return None
