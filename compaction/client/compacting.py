"""`CompactingClient`: the Messages API with a strategy of the lab applied to the history before every
call, as the replay predicted it.

    client = CompactingClient(anthropic.Anthropic(), strategy="pipeline", settings={"context_limit": 20000},
                              trace="trace.jsonl")
    response = client.messages.create(model=..., max_tokens=..., messages=messages, tools=tools)

The caller keeps its whole conversation and passes it at every call, as with the plain SDK; the client
keeps what the strategy left (a summary is permanent, a request-only edit is not) and sends that. When
the API refuses a prompt as too long (its real 400 error), the client compacts reactively and retries
once. It answers the `compact` tool (`answer_compact`, or by itself when the caller leaves the call
unanswered) and compacts once the call's turn is answered. Each call is written to a JSONL trace.

Before its strategy runs, the client counts the history as a replay of its trace does
(importers/trace.py: decision_count): the last response's usage as the API answered it, plus the token
model's estimate of what was added since; while no layer has changed the history yet, that count is the
history's own, after it the anchor later estimates measure from, as in the replay's loop. The usage the API
answered and the client's summaries are what its strategies read of the "log" (`History.recorded`), as
they read them in the trace. So a replay of the trace makes the same decisions, call for call.
"""

from collections.abc import Mapping
from typing import Any

from compaction.client.blocks import response_message
from compaction.client.kept import KeptConversation
from compaction.client.trace import TraceWriter, event_record, sent_items
from compaction.errors import SettingsError
from compaction.importers.trace import decision_count, last_response
from compaction.importers.usage import from_anthropic
from compaction.layers.compact_tool import COMPACT_TOOL, answer_compact_call
from compaction.llm.api_errors import prompt_too_long
from compaction.model.settings import DEFAULTS, LIMITS, Settings
from compaction.model.tokens import DEFAULT_TOKEN_MODEL, TokenModel
from compaction.replay.protocol import TurnProtocol
from compaction.storage.outputs import OutputStore
from compaction.strategies import Built, build, lookup, summaries_made
from compaction.summarizers import OfflineSummarizer, Summarizer

DEFAULT_STORE = ".task_outputs"  # where the tutorial keeps persisted outputs, beside the agent


def resolve(strategy: "str | Built", settings: "Settings | Mapping[str, Any] | None",
            params: Mapping[str, Any] | None) -> tuple[Built, Settings]:
    """The strategy at its parameters and the tutorial's settings. A mapping of settings may hold both the
    tutorial's setting names and the strategy's own parameters; SettingsError names anything else."""
    if isinstance(strategy, Built):
        if params:
            raise SettingsError("give params= with a strategy name, or build the strategy with them, not both")
        built, spec = strategy, strategy.spec
    else:
        built, spec = None, lookup(strategy)
    chosen, given = dict(params or {}), {}
    if isinstance(settings, Settings):
        base = settings
    else:
        base = DEFAULTS
        names = {param.name for param in spec.params}
        for name, value in dict(settings or {}).items():
            key = name.replace("-", "_")
            if key in LIMITS and not (key in names and not spec.from_settings):
                given[key] = value  # a setting of the tutorial; for the pipeline its parameters are these
            elif key in names:
                chosen[key] = value
            else:
                known = ", ".join(sorted(names | set(LIMITS)))
                raise SettingsError(f"{spec.name} has no setting or parameter {name!r}; choose from {known}")
    return built or build(spec.name, chosen), base.replace(**given) if given else base


class _Messages:
    """`client.messages` (or `client.beta.messages`): `create(**request)` as the SDK's, compacted."""

    def __init__(self, owner: "CompactingClient", beta: bool):
        self._owner, self._beta = owner, beta

    def create(self, **request: Any) -> Any:
        return self._owner._create(request, self._beta)


class _Beta:
    def __init__(self, owner: "CompactingClient"):
        self.messages = _Messages(owner, beta=True)


class CompactingClient:
    def __init__(self, client: Any, strategy: "str | Built" = "pipeline",
                 settings: "Settings | Mapping[str, Any] | None" = None, *, params: Mapping[str, Any] | None = None,
                 store: "OutputStore | str | None" = None, summarizer: Summarizer | None = None,
                 trace: Any = None, compact_tool: bool = False, token_model: TokenModel = DEFAULT_TOKEN_MODEL):
        """`client`: an `anthropic.Anthropic` (or anything with `messages.create`). `store`: where L3 saves
        outputs and summaries their transcripts (default .task_outputs, as the tutorial). `trace`: a path for
        the JSONL trace (None: no trace). `compact_tool`: offer the model the `compact` tool on every call.
        `token_model`: how characters become tokens for the strategies that count tokens."""
        self.strategy, self.settings = resolve(strategy, settings, params)
        self.store = store if isinstance(store, OutputStore) else OutputStore(store or DEFAULT_STORE)
        self.summarizer = summarizer or OfflineSummarizer()
        self.compact_tool = compact_tool
        self.token_model = token_model
        self._client = client
        self._trace_path = trace
        self.messages = _Messages(self, beta=False)
        self.beta = _Beta(self)
        self.reset()

    def reset(self) -> None:
        """Start another conversation (and, with a trace, a new trace file)."""
        self.conversation = KeptConversation(TurnProtocol(self.settings, self.summarizer, self.store), self.token_model)
        self.calls = 0
        self._last: tuple[int, int] | None = None  # what the next call counts from: the last response's usage
        self._pristine = True  # no layer has changed the history yet: the count is the history's own
        self.trace = None if self._trace_path is None else TraceWriter(self._trace_path, {
            "strategy": self.strategy.spec.name, "params": _plain(self.strategy.params),
            "settings": self.settings.as_dict(), "compact_tool": self.compact_tool,
            "token_model": {"tokens_per_char": self.token_model.tokens_per_char,
                            "overhead_tokens": self.token_model.overhead_tokens,
                            "calibrated": self.token_model.calibrated}})

    @staticmethod
    def answer_compact(block: Any) -> dict | None:
        """The tool_result answering a `compact` tool call, None for any other block."""
        data = block if isinstance(block, dict) else {"type": getattr(block, "type", None),
                                                      "name": getattr(block, "name", None), "id": getattr(block, "id", None)}
        if data.get("type") == "tool_use" and data.get("name") == COMPACT_TOOL["name"]:
            return answer_compact_call(data)
        return None

    def _create(self, request: dict, beta: bool) -> Any:
        if request.get("stream"):
            raise SettingsError("the compacting client does not stream: call messages.create without stream=True")
        if not isinstance(request.get("messages"), list | tuple):
            raise SettingsError("messages.create needs messages=[...], the whole conversation so far")
        kept = self.conversation
        new = kept.new_messages(list(request["messages"]))
        tools = self._tools(request.get("tools"))
        system = request.get("system")
        overhead = (len(str(system)) if system else 0) + (len(str(tools)) if tools else 0)
        start = kept.seen
        history = kept.extend(new, overhead)
        new = kept.originals[start:]  # as kept: a compact call the caller left unanswered has its answer
        chars = history.context_size
        tokens = decision_count(self.token_model, self._last, chars)
        history = history.knowing(tokens) if self._pristine else history.anchored(tokens, chars)
        before = (chars, tokens)
        done = self.strategy(history, self.settings, self.store, self.summarizer)
        sent, carried = done.history, done.kept
        acted, events = tuple(done.acted), tuple(done.events)
        given = history
        send = self._client.beta.messages.create if beta else self._client.messages.create
        body = {**request, **({"tools": tools} if tools else {})}
        refused = None
        try:
            response = send(**{**body, "messages": sent.messages})
        except Exception as error:  # only the API's prompt-too-long is handled; the rest goes to the caller
            limits = prompt_too_long(error)
            if limits is None:
                raise
            reason = f"the API refused the prompt: {limits[0]:,} tokens > {limits[1]:,} maximum"
            compacted = kept.turns.compact_reactively(sent, reason)
            if compacted.history is sent:  # nothing could be summarised, or the summariser failed
                raise
            sent = carried = compacted.history  # the loop's own compaction is permanent
            acted, events = (*acted, "reactive"), (*events, *compacted.events)
            refused = str(getattr(error, "message", error))
            response = send(**{**body, "messages": sent.messages})
        # the compact tool's events since the last call go first, once the call is made (a call that fails
        # otherwise can be made again, and they go with it)
        acted, events = kept.turns.with_pending(acted, events)
        kept.keep(carried)
        self._pristine = self._pristine and not acted and sent is given
        answered = response_message(response)
        usage = _usage(response)
        kept.answered(usage, summaries_made(events) > 0, tokens, acted)
        self._last = last_response(usage, sent.context_size, answered)
        self._record(new, before, sent, acted, events, refused, response, system, tools)
        self.calls += 1
        return response

    def _tools(self, tools: Any) -> list | None:
        if not self.compact_tool:
            return tools
        tools = list(tools or [])
        if not any(isinstance(tool, dict) and tool.get("name") == COMPACT_TOOL["name"] for tool in tools):
            tools.append(COMPACT_TOOL)
        return tools

    def _record(self, new, before, sent, acted, events, refused, response, system, tools) -> None:
        if self.trace is None:
            return
        usage: Any = getattr(response, "usage", None)  # the SDK's Usage, or whatever a test's client gave
        self.trace.call({
            "call": self.calls, "new_messages": new, "before_chars": before[0], "before_tokens": before[1],
            "sent": sent_items(sent), "sent_messages": len(sent),
            "sent_chars": sent.context_size, "sent_tokens": sent.context_tokens, "acted": acted,
            "summaries": summaries_made(events), "events": [event_record(e) for e in events],
            "refused": refused, "model": getattr(response, "model", None),
            "stop_reason": getattr(response, "stop_reason", None), "response": response_message(response),
            "usage": usage.model_dump(mode="json") if hasattr(usage, "model_dump") else usage,
        }, system, tools)


def _usage(response: Any) -> dict | None:
    """The response's usage as the trace reader gives it (importers/usage.py)."""
    usage = getattr(response, "usage", None)
    data = usage.model_dump(mode="json") if usage is not None and hasattr(usage, "model_dump") else usage
    return from_anthropic(data, getattr(response, "model", None)) if isinstance(data, dict) else None


def _plain(params: dict) -> dict:
    return {name: list(value) if isinstance(value, tuple) else value for name, value in params.items()}
