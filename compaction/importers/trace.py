"""The compacting client's trace (compaction/client/trace.py writes it), read back as a session.

The session is the conversation as the agent held it: every message the caller passed, in order, each
response where the caller passed it back (and the last one at the end), with the usage the API answered
at the response of its call, as an agent's log records it. A call at which the client summarised (L4,
a peer's summary, reactive compaction, the compact tool) is one of the session's own compactions
(`compact_boundaries`, trigger "client", at the response of that call), so a replay of the session with
the same strategy and settings puts its summaries where the trace says the client did, and the token
estimate is fitted only on the calls before the first. Unlike an agent's log the session does not
hold the summaries themselves (what each call sent is in the trace: `read_trace`), so the "as recorded"
strategy cannot rebuild what the client sent after a compaction.

How the client counts a call's tokens before its strategy runs, and so a replay of the trace counts them
(`decision_count`): the last response's usage as the API answered it (its input, cache included, and its
output), plus the client's token model's estimate of what the history holds beyond what was sent then and
that response; the first call, the estimate alone. The trace says the client's token model (its header),
and each call's count is in the session's metadata (`decision_counts`: [response index, tokens, characters]),
worked out again here from the usage the API answered.
"""

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from compaction.errors import ConversationError
from compaction.importers.checks import build_conversation, check_message
from compaction.importers.jsonl import JsonLines, read_lines
from compaction.importers.source import read_source
from compaction.importers.usage import from_anthropic
from compaction.model.calibration import recorded_context
from compaction.model.conversation import Conversation, LoadWarning
from compaction.model.history import anchored_tokens
from compaction.model.sizes import message_size
from compaction.model.tokens import DEFAULT_TOKEN_MODEL, TokenModel

FORMAT = "compaction-trace"
HEADER = "compaction-trace"  # the first line's type
CALL = "call"  # each call's line
VERSION = 1


@dataclass(frozen=True)
class TracedCall:
    call: int
    line: int
    acted: tuple[str, ...]
    sent: list[dict]  # the messages this call sent, rebuilt from the trace
    sent_chars: int | None
    usage: dict | None  # what the API answered, as the importers give usage


@dataclass
class Trace:
    header: dict
    conversation: Conversation
    calls: list[TracedCall] = field(default_factory=list)


def decision_count(model: TokenModel, last: tuple[int, int] | None, chars: int) -> int:
    """The tokens the client counts for a history of `chars` characters (system prompt and tools included):
    from `last` (the last response's tokens, input and output, and the characters of what was sent then with
    the response after it), the difference in characters through `model`; without one, the estimate."""
    return anchored_tokens(model, last, chars) if last is not None else model.tokens(chars)


def last_response(usage: dict | None, sent_chars: int | None, response: dict | None) -> tuple[int, int] | None:
    """What the next call counts from: the usage the API answered (input, cache included, and output) and the
    characters of what was sent with the response appended (len(str(list)) grows by its size and ", ")."""
    if not usage or not isinstance(sent_chars, int) or not isinstance(response, dict):
        return None
    return recorded_context(usage) + usage["output_tokens"], sent_chars + message_size(response) + 2


def token_model_of(header: dict) -> TokenModel:
    given = header.get("token_model")
    found = given if isinstance(given, dict) else {}
    try:
        return TokenModel(float(found.get("tokens_per_char", DEFAULT_TOKEN_MODEL.tokens_per_char)),
                          int(found.get("overhead_tokens", 0)), bool(found.get("calibrated", False)))
    except (TypeError, ValueError):
        return DEFAULT_TOKEN_MODEL


def looks_like(objects: list[tuple[int, dict]]) -> bool:
    return bool(objects) and objects[0][1].get("type") == HEADER


def load(lines: JsonLines) -> Conversation:
    return _read(lines).conversation


def read_trace(source: str | Path | bytes, name: str | None = None) -> Trace:
    """The trace's session and, per call, what it sent and the usage answered."""
    data, label = read_source(source, name)
    return _read(read_lines(data, label))


def _read(lines: JsonLines) -> Trace:
    label = lines.label
    if not looks_like(lines.objects):
        raise ConversationError(f"not a Compaction Lab trace: the first line must have \"type\": \"{HEADER}\""
                                + lines.first_problem(), where=label)
    header_line, header = lines.objects[0]
    if header.get("version") != VERSION:
        raise ConversationError(f"trace version {header.get('version')!r} is not one this lab reads ({VERSION})",
                                where=f"{label}: line {header_line}")
    builder = _Builder(label, token_model_of(header))
    for number, line in lines.objects[1:]:
        if line.get("type") == CALL:
            builder.call(number, line)
        else:
            builder.warnings.append(LoadWarning(f"a line of type {line.get('type')!r} is not part of a trace; "
                                                "skipped", line=number, kind="unknown_line"))
    if not builder.calls:
        raise ConversationError("the trace has no call: the client made no model call" + lines.first_problem(),
                                where=label)
    builder.finish()
    warnings = [w for w in (lines.skipped_warning(),) if w] + builder.warnings
    metadata = {"trace_strategy": header.get("strategy"), "trace_params": header.get("params"),
                "trace_settings": header.get("settings"), "trace_calls": len(builder.calls),
                "compact_boundaries": builder.boundaries, "compaction_lab": header.get("compaction_lab"),
                "token_model": asdict(builder.token_model), "decision_counts": builder.decisions}
    conversation = build_conversation(builder.messages, label, FORMAT, warnings, system=builder.system,
                                      tools=builder.tools, metadata=metadata, usage=builder.usage,
                                      timestamps=builder.times)
    return Trace(header, conversation, builder.calls)


class _Builder:
    """The session and the calls, one call line at a time."""

    def __init__(self, label: str, token_model: TokenModel):
        self.label = label
        self.token_model = token_model
        self.last: tuple[int, int] | None = None  # what the next call counts from (decision_count)
        self.decisions: list[list[int]] = []  # [response index, tokens, characters] per call
        self._decision: tuple[int, int] | None = None  # the waiting response's call's (tokens, characters)
        self.messages: list[dict] = []
        self.usage: list[dict | None] = []
        self.times: list[str | None] = []
        self.warnings: list[LoadWarning] = []
        self.boundaries: list[dict] = []
        self.calls: list[TracedCall] = []
        self.system: Any = None
        self.tools: list = []
        self._waiting: tuple[dict, dict | None, str | None, int] | None = None  # the last call's response

    def call(self, number: int, line: dict) -> None:
        where = f"{self.label}: line {number}"
        new = line.get("new_messages")
        if not isinstance(new, list):
            raise ConversationError("a call line must have 'new_messages', a list of messages", where=where)
        for position, message in enumerate(new):
            for text in check_message(message, f"{where}: new_messages[{position}]"):
                self.warnings.append(LoadWarning(text, index=len(self.messages), line=number))
            self._append(message, number, line.get("time"))
        if "system" in line:
            self.system, self.tools = line.get("system"), line.get("tools") or []
        sent = self._sent(line.get("sent"), where)
        usage = from_anthropic(line.get("usage"), line.get("model"))
        response = line.get("response")
        chars = line.get("before_chars")
        self._decision = (decision_count(self.token_model, self.last, chars), chars) if isinstance(chars, int) \
            else None
        self.last = last_response(usage, line.get("sent_chars"), response)
        if isinstance(response, dict):
            check_message(response, f"{where}: response")
            self._waiting = (response, usage, line.get("time"), number)
        else:
            self._waiting = None
        if isinstance(line.get("summaries"), int) and line["summaries"] > 0:
            self.boundaries.append({"index": len(self.messages), "trigger": "client",
                                    "pre_tokens": line.get("before_tokens"), "acted": list(line.get("acted") or [])})
        acted = tuple(str(a) for a in line.get("acted") or ())
        self.calls.append(TracedCall(len(self.calls), number, acted, sent, line.get("sent_chars"), usage))

    def finish(self) -> None:
        """The last call's response, which no later call passed back."""
        if self._waiting is not None:
            response, usage, time, _ = self._waiting
            self._waiting = None
            self._decided(len(self.messages))
            self.messages.append(response)
            self.usage.append(usage)
            self.times.append(time)

    def _decided(self, index: int) -> None:
        if self._decision is not None:
            self.decisions.append([index, *self._decision])
            self._decision = None

    def _append(self, message: dict, number: int, time: str | None) -> None:
        usage = None
        if self._waiting is not None:  # the first message after a call: its response, when the caller passed it
            response, usage, _, call_line = self._waiting
            self._waiting = None
            if message.get("role") != "assistant":
                self.warnings.append(LoadWarning(f"the response of the call on line {call_line} was not passed back "
                                                 "before the next call; its usage is left out", index=len(self.messages),
                                                 line=number, kind="response_not_passed_back"))
                usage = None
                self._decision = None
            else:
                self._decided(len(self.messages))
        self.messages.append(message)
        self.usage.append(usage)
        self.times.append(time)

    def _sent(self, items: Any, where: str) -> list[dict]:
        if not isinstance(items, list):
            raise ConversationError("a call line must have 'sent', a list of message indexes and messages",
                                    where=where)
        sent = []
        for position, item in enumerate(items):
            if isinstance(item, int) and not isinstance(item, bool):
                if not 0 <= item < len(self.messages):
                    raise ConversationError(f"sent[{position}] names message {item}, which the trace has not given "
                                            "yet", where=where)
                sent.append(self.messages[item])
            else:
                check_message(item, f"{where}: sent[{position}]")
                sent.append(item)
        return sent
