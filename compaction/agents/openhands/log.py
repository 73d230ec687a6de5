"""OpenHands trajectories: the exported list of events (actions and observations), one object each.

An event has `id`, `source` ("user", "agent", "environment"), and either `action` with `args` or
`observation` with `content`, `cause` (the id of the action it answers) and `extras`. With function
calling, an action the model asked for carries `tool_call_metadata`: `function_name`, `tool_call_id`,
`total_calls_in_response`, and `model_response` (the whole LLM response: its `id` is shared by the
actions of one response, and `choices[0].message` holds the text and every tool call); the
observation answering it carries the same `tool_call_id`. As OpenHands itself builds its prompt
(ConversationMemory): the `system` action is the system prompt; the person's `message` actions are
user messages; the actions of one model response are one assistant message (its text, then one
tool_use per call); each observation is the tool_result of its call. Events that never reach the model
(state changes, null observations) are counted and left out. Each response's usage and model, and the
run's totals, come from metrics.py.
"""

import json
from typing import Any

from compaction.agents.openhands.metrics import run_metrics
from compaction.errors import ConversationError
from compaction.importers.fields import object_at
from compaction.importers.openai import Converter
from compaction.importers.source import kind_of
from compaction.importers.totals import RECORDED_TOTALS
from compaction.model.conversation import Conversation, LoadWarning

FORMAT = "openhands"
_NOT_SENT = frozenset({"agent_state_changed", "change_agent_state", "null", "user_rejected", "condensation",
                       "condensation_request", "recall"})


def looks_like(value: Any) -> bool:
    events = _event_list(value) if isinstance(value, dict) and "trajectory" not in value else value
    return isinstance(events, list) and bool(events) and all(
        isinstance(e, dict) and ("action" in e or "observation" in e) and "role" not in e for e in events[:20])


def _event_list(value: dict) -> list | None:
    """The events of a saved trajectory object: under 'history' (evaluation output), else 'events'.
    Detection and loading both ask here, so they agree on a file that has both."""
    for key in ("history", "events"):
        if isinstance(value.get(key), list):
            return value[key]
    return None


def _events(value: Any, label: str) -> list:
    if isinstance(value, dict):
        events = _event_list(value)
        if events is not None:
            return events
        raise ConversationError("expected an OpenHands trajectory: a list of events, or an object with "
                                "'history' or 'events'", where=label)
    if not isinstance(value, list):
        raise ConversationError(f"expected an OpenHands trajectory (a list of events), got {kind_of(value)}",
                                where=label)
    return value


def from_json(value: Any, label: str) -> Conversation:
    """A trajectory: its event list, or an object holding it (a saved trajectory, an evaluation output's
    line, whose model and metrics are read too: metrics.py)."""
    metrics = run_metrics(value)
    converter = Converter(label, list_name="events")
    response: _Response | None = None  # the model response being read: its calls and their results
    left_out = dropped = 0
    for index, event in enumerate(_events(value, label)):
        where = f"{label}: events[{index}]"
        if not isinstance(event, dict):
            raise ConversationError(f"an event must be an object, got {kind_of(event)}", where=where)
        metadata = event.get("tool_call_metadata") if isinstance(event.get("tool_call_metadata"), dict) else None
        call_id = metadata.get("tool_call_id") if metadata else None
        if "action" in event and metadata and event.get("source") == "agent":
            response_id = _response_id(metadata)
            if response is None or response_id is None or response.response_id != response_id:
                dropped += _flush(converter, response, final=False)
                response = _Response(response_id, _assistant_text(metadata, event), index, metrics.usage(metadata))
            response.calls.append(_tool_call(metadata, event, where))
            continue
        if "action" not in event and response is not None and call_id in response.call_ids():
            response.results[call_id] = (_observation(event, metadata), index)  # answers a call of this response
            continue
        message = _plain_action(event) if "action" in event else _observation(event, metadata)
        if message is None:  # the model never sees it: it neither ends the response being read nor adds
            left_out += 1
            continue
        dropped += _flush(converter, response, final=False)
        response = None
        converter.add_or_merge(message, index)
    dropped += _flush(converter, response, final=True)
    if left_out:
        converter.warnings.append(LoadWarning(
            f"{left_out:,} event(s) that never reach the model (state changes, recalls, empty observations) left out",
            kind="events_left_out"))
    if dropped:
        converter.warnings.append(LoadWarning(
            f"{dropped:,} tool call(s) without an observation left out (OpenHands does not send them either)",
            kind="calls_left_out"))
    system = "\n\n".join(converter.system) if converter.system else None
    facts: dict[str, Any] = {"model": metrics.model} if metrics.model else {}
    if metrics.totals is not None:
        facts[RECORDED_TOTALS] = metrics.totals
    return converter.conversation(FORMAT, system, [], metadata=facts)


class _Response:
    """The actions of one model response (they share `model_response.id`) and their observations, which
    OpenHands writes interleaved (action 1, observation 1, action 2, ...)."""

    def __init__(self, response_id: str | None, text: str, index: int, usage: dict | None):
        self.response_id = response_id
        self.usage = usage
        self.text = text
        self.index = index
        self.calls: list[dict] = []
        self.results: dict[str, tuple[dict | None, int]] = {}

    def call_ids(self) -> set[str]:
        return {call["id"] for call in self.calls}


def _flush(converter: Converter, response: _Response | None, final: bool) -> int:
    """Write a finished response: the assistant message, then each result in call order. A call never
    answered is left out, unless it ends the trajectory (a call still waiting, such as `finish`);
    returns how many were left out."""
    if response is None:
        return 0
    answered = [call for call in response.calls if call["id"] in response.results]
    calls = response.calls if final else answered
    if not calls and not response.text:
        return len(response.calls)
    converter.add({"role": "assistant", "content": response.text, "tool_calls": calls}, response.index)
    if response.usage is not None:
        converter.usage[len(converter.messages) - 1] = response.usage
    for call in answered:
        reply, index = response.results[call["id"]]
        converter.add(reply or {"role": "tool", "tool_call_id": call["id"], "content": ""}, index)
    return len(response.calls) - len(calls)


def _response_id(metadata: dict) -> str | None:
    response = metadata.get("model_response")
    return response.get("id") if isinstance(response, dict) and isinstance(response.get("id"), str) else None


def _assistant_text(metadata: dict, event: dict) -> str:
    """The response's own text (its thought), from the model response when it is there."""
    response = metadata.get("model_response")
    choices = response.get("choices") if isinstance(response, dict) else None
    message = choices[0].get("message") if isinstance(choices, list) and choices and isinstance(choices[0], dict) \
        else None
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(part.get("text", "") for part in content if isinstance(part, dict))
    thought = event.get("args", {}).get("thought") if isinstance(event.get("args"), dict) else None
    return thought if isinstance(thought, str) else ""


def _tool_call(metadata: dict, event: dict, where: str) -> dict:
    call_id, name = metadata.get("tool_call_id"), metadata.get("function_name")
    if not isinstance(call_id, str) or not isinstance(name, str):
        raise ConversationError("tool_call_metadata needs 'tool_call_id' and 'function_name' as strings", where=where)
    arguments = _arguments_from_response(metadata, call_id)
    if arguments is None:
        args = object_at(event, "args")
        arguments = json.dumps({k: v for k, v in args.items() if k not in ("thought",)}, ensure_ascii=False)
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def _arguments_from_response(metadata: dict, call_id: str) -> str | None:
    """The call's arguments exactly as the model wrote them."""
    response = metadata.get("model_response")
    choices = response.get("choices") if isinstance(response, dict) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        return None
    message = choices[0].get("message")
    calls = message.get("tool_calls") if isinstance(message, dict) else None
    for call in calls if isinstance(calls, list) else ():
        function = call.get("function") if isinstance(call, dict) else None
        if isinstance(call, dict) and call.get("id") == call_id and isinstance(function, dict):
            arguments = function.get("arguments")
            return arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    return None


def _field(event: dict, name: str) -> Any:
    """An action's argument: under `args` (current layout) or beside `action` (the older one)."""
    args = event.get("args")
    return args.get(name) if isinstance(args, dict) else event.get(name)


# How CodeAct wrote an action as text before function calling (the older layout has no tool calls).
_TEXT_ACTIONS = {"run": ("command", "execute_bash"), "run_ipython": ("code", "execute_ipython"),
                 "browse": ("url", "execute_browse"), "browse_interactive": ("browser_actions", "execute_browse")}


def _plain_action(event: dict) -> dict | None:
    """An action without a tool call: the system prompt, a message, an action the model wrote as text
    (before function calling), or nothing the model sees."""
    action, content = event.get("action"), _field(event, "content")
    content = content if isinstance(content, str) else event.get("message")
    if action == "system":
        return {"role": "system", "content": content or ""}
    if action == "message" and isinstance(content, str) and content:
        source = event.get("source")
        # the older layout has no source: the person's messages do not wait for a response
        person = source == "user" if source else _field(event, "wait_for_response") is False
        return {"role": "user" if person else "assistant", "content": content}
    if action in _TEXT_ACTIONS and event.get("source") != "user":
        key, tag = _TEXT_ACTIONS[action]
        thought = _field(event, "thought")
        text = f"{thought}\n" if isinstance(thought, str) and thought else ""
        return {"role": "assistant", "content": f"{text}<{tag}>\n{_field(event, key)}\n</{tag}>"}
    return None


def _observation(event: dict, metadata: dict | None) -> dict | None:
    """The tool result of a call, or a note to the model; None for what never reaches it."""
    kind = event.get("observation")
    content = event.get("content") if isinstance(event.get("content"), str) else event.get("message")
    if metadata is not None and isinstance(metadata.get("tool_call_id"), str):
        return {"role": "tool", "tool_call_id": metadata["tool_call_id"], "content": content or ""}
    if kind in _NOT_SENT or not isinstance(content, str) or not content:
        return None
    return {"role": "user", "content": f"OBSERVATION:\n{content}" if kind in _TEXT_ACTIONS else content}
