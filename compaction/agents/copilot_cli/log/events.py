"""The events of a Copilot CLI session as messages: the person's messages, one model response per
`assistant.message` (its text and its tool requests), the tools' results, and the checkpoints its
compactions wrote.

Events not read here are counted by type (`events_not_read`); those marked `ephemeral` (the streamed
deltas, MCP status, the background tasks of `--output-format json`) are never written to events.jsonl
and are skipped. A tool run whose request the message did not list (a redacted `toolRequests`) is added
to the response from its `tool.execution_start`; a result whose run no response asked for is counted,
not kept (`results_without_call`).
"""

from dataclasses import dataclass, field
from typing import Any

from compaction.agents.copilot_cli.log.models import lab_name
from compaction.agents.copilot_cli.log.totals import Shutdowns
from compaction.importers.fields import list_at, object_at, text_at
from compaction.importers.usage import count


@dataclass
class Walked:
    messages: list[dict] = field(default_factory=list)
    boundaries: list[dict] = field(default_factory=list)
    summary_indices: list[int] = field(default_factory=list)
    models: list[str] = field(default_factory=list)  # as the lab's tables spell them
    copilot_models: list[str] = field(default_factory=list)  # as the log writes them
    facts: dict[str, Any] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    not_read: dict[str, int] = field(default_factory=dict)
    shutdowns: Shutdowns = field(default_factory=Shutdowns)

    def count(self, key: str, by: int = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + by


class Walk:
    def __init__(self):
        self.out = Walked()
        self.results: list[dict] = []  # tool results not yet in a message
        self.calls: set[str] = set()  # tool_use ids of the responses so far
        self.answered: set[str] = set()

    def read(self, number: int, event: dict) -> None:
        kind, data = event.get("type"), object_at(event, "data")
        if event.get("ephemeral") is True:
            self.out.count("ephemeral_events")
            return
        if kind == "result" and "data" not in event:
            self.result(event)
            return
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            name = kind if isinstance(kind, str) else "(no type)"
            self.out.not_read[name] = self.out.not_read.get(name, 0) + 1
            return
        handler(self, number, data)

    def finish(self) -> None:
        self._flush()

    # the events --------------------------------------------------------------------------------------

    def _start(self, _number: int, data: dict) -> None:
        facts = self.out.facts
        for key, name in (("sessionId", "session_id"), ("copilotVersion", "copilot_version"),
                          ("startTime", "start_time"), ("selectedModel", "selected_model")):
            if isinstance(data.get(key), str) and name not in facts:
                facts[name] = data[key]
        cwd = text_at(object_at(data, "context"), "cwd")
        if cwd and "cwd" not in facts:
            facts["cwd"] = cwd
        self._model(data.get("selectedModel"))

    def _resume(self, _number: int, data: dict) -> None:
        self.out.count("resumes")
        self._model(data.get("selectedModel"))

    def _model_change(self, _number: int, data: dict) -> None:
        self._model(data.get("newModel") or data.get("model"))

    def _user(self, _number: int, data: dict) -> None:
        text = text_at(data, "content") or text_at(data, "transformedContent")
        if self.results:  # typed while tools ran: it goes with their results, in one user message
            self.out.messages.append({"role": "user", "content": [*self.results, {"type": "text", "text": text}]})
            self.results = []
            return
        self.out.messages.append({"role": "user", "content": text})

    def _assistant(self, _number: int, data: dict) -> None:
        self._flush()
        self.out.count("responses")
        self._model(data.get("model"))
        content: list[dict] = []
        text = text_at(data, "content")
        if text:
            content.append({"type": "text", "text": text})
        for request in list_at(data, "toolRequests"):
            if isinstance(request, dict) and isinstance(request.get("toolCallId"), str):
                content.append(_tool_use(request["toolCallId"], request.get("name"), request.get("arguments")))
                self.calls.add(request["toolCallId"])
        if isinstance(data.get("toolRequests"), str):
            self.out.count("responses_with_redacted_requests")
        if count(data.get("outputTokens")):
            self.out.count("output_tokens_written", count(data["outputTokens"]))
        self.out.messages.append({"role": "assistant", "content": content or ""})

    def _tool_start(self, _number: int, data: dict) -> None:
        call = data.get("toolCallId")
        if not isinstance(call, str) or call in self.calls:
            return
        response = self._last_response()
        if response is None:
            return
        blocks = response["content"] if isinstance(response["content"], list) else []
        if isinstance(response["content"], str) and response["content"]:
            blocks = [{"type": "text", "text": response["content"]}]
        response["content"] = [*blocks, _tool_use(call, data.get("toolName"), data.get("arguments"))]
        self.calls.add(call)
        self.out.count("calls_from_execution_start")

    def _tool_complete(self, _number: int, data: dict) -> None:
        call = data.get("toolCallId")
        if not isinstance(call, str) or call not in self.calls or call in self.answered:
            self.out.count("results_without_call")
            return
        self.answered.add(call)
        block: dict[str, Any] = {"type": "tool_result", "tool_use_id": call, "content": _result_text(data)}
        if data.get("success") is False:
            block["is_error"] = True
        self.results.append(block)

    def _compaction(self, number: int, data: dict) -> None:
        if data.get("success") is False:
            self.out.count("compactions_failed")
            return
        self._flush()
        index = len(self.out.messages)
        boundary: dict[str, Any] = {"index": index, "trigger": text_at(data, "trigger") or "auto",
                                    "pre_tokens": count(data.get("preCompactionTokens")) or None, "line": number}
        for key, name in (("preCompactionMessagesLength", "pre_messages"), ("postCompactionTokens", "post_tokens"),
                          ("checkpointNumber", "checkpoint")):
            if count(data.get(key)):
                boundary[name] = count(data[key])
        used = object_at(data, "compactionTokensUsed")
        if used:  # the summarising call, which no assistant.message shows
            boundary["compaction_call"] = {key: value for key, value in used.items()
                                           if isinstance(value, int | str) and not isinstance(value, bool)}
        summary = text_at(data, "summaryContent")
        boundary["summary_in_file"] = bool(summary)
        self.out.boundaries.append(boundary)
        if summary:
            self.out.summary_indices.append(index)
            self.out.messages.append({"role": "user", "content": summary})

    def _shutdown(self, _number: int, data: dict) -> None:
        self.out.shutdowns.add(data)
        self._model(data.get("currentModel"))

    def _turn(self, _number: int, _data: dict) -> None:
        self.out.count("turns")

    def _compaction_start(self, _number: int, _data: dict) -> None:
        self.out.count("compactions_started")

    def result(self, event: dict) -> None:
        """The last line of `--output-format json` (no `data`): the run's premium requests."""
        self.out.count("results_of_the_run")
        if not self.out.shutdowns.seen:
            self.out.shutdowns.add_premium(object_at(event, "usage").get("premiumRequests"))

    def _abort(self, _number: int, _data: dict) -> None:
        self.out.count("aborts")

    def _error(self, _number: int, _data: dict) -> None:
        self.out.count("errors")

    # helpers -----------------------------------------------------------------------------------------

    def _model(self, model: Any) -> None:
        if isinstance(model, str) and model.strip() and model.strip() not in self.out.copilot_models:
            self.out.copilot_models.append(model.strip())
            if lab_name(model) not in self.out.models:
                self.out.models.append(lab_name(model))

    def _last_response(self) -> dict | None:
        return next((m for m in reversed(self.out.messages) if m["role"] == "assistant"), None)

    def _flush(self) -> None:
        if self.results:
            self.out.messages.append({"role": "user", "content": self.results})
            self.results = []


def _tool_use(call: str, name: Any, arguments: Any) -> dict:
    return {"type": "tool_use", "id": call, "name": name if isinstance(name, str) else "",
            "input": arguments if isinstance(arguments, dict) else {} if arguments is None else {"arguments": arguments}}


def _result_text(data: dict) -> str:
    """What the tool answered: `result.content` (a string in older versions), else the error's message."""
    result = data.get("result")
    if isinstance(result, str):
        return result
    if isinstance(result, dict) and isinstance(result.get("content"), str):
        return result["content"]
    error = data.get("error")
    if isinstance(error, dict):
        return text_at(error, "message")
    return error if isinstance(error, str) else ""


_HANDLERS = {
    "session.start": Walk._start, "session.resume": Walk._resume, "session.model_change": Walk._model_change,
    "user.message": Walk._user, "assistant.message": Walk._assistant,
    "tool.execution_start": Walk._tool_start, "tool.execution_complete": Walk._tool_complete,
    "session.compaction_complete": Walk._compaction, "session.shutdown": Walk._shutdown,
    "abort": Walk._abort, "session.error": Walk._error, "assistant.turn_start": Walk._turn,
    "assistant.turn_end": lambda _walk, _number, _data: None, "session.compaction_start": Walk._compaction_start,
}
