"""Gemini CLI's headless output, `gemini -p ... --output-format stream-json`: one event a line
(packages/core/src/output/types.ts): `init` {session_id, model}, `message` {role, content, delta},
`tool_use` {tool_name, tool_id, parameters}, `tool_result` {tool_id, status, output, error}, `error`
{severity, message}, `result` {status, error, stats}.

A run starts at `init` and ends at `result`. The assistant's `message` events are chunks (delta) of one
response's text until its calls; the next assistant text after their results is the next response.
Only the run's totals are written (`result.stats`), not each call's usage: they are the run's recorded
totals (run_totals_of). `tool_result.output` is what the CLI displays of the result, the closest the
stream comes to what the model was sent.
Fields a harness adds to every line are ignored; a file holding several runs loads the first.
"""

from dataclasses import dataclass, field
from typing import Any

from compaction.agents.gemini_cli.log.builder import Builder, Built
from compaction.importers.fields import object_at, text_at
from compaction.importers.jsonl import JsonLines
from compaction.importers.totals import cached_input_counts, run_totals
from compaction.importers.usage import count
from compaction.model.conversation import LoadWarning

EVENT_TYPES = ("init", "message", "tool_use", "tool_result", "error", "result")


def looks_like(objects: list[tuple[int, dict]]) -> bool:
    for _, value in objects[:5]:
        kind = value.get("type")
        if kind == "init" and ("session_id" in value or "model" in value) \
                or kind in ("tool_use", "tool_result") and "tool_id" in value \
                or kind == "result" and "stats" in value and "payload" not in value:
            return True
    return False


@dataclass
class Run:
    built: Built
    facts: dict[str, Any] = field(default_factory=dict)
    warnings: list[LoadWarning] = field(default_factory=list)


def first_run(lines: JsonLines) -> Run:
    builder = Builder()
    run = Run(builder.out)
    started = ended = False
    runs = 0
    for number, event in lines.objects:
        kind = event.get("type")
        if kind == "init":
            runs += 1
            if runs == 2:
                name = event.get("session_id") or f"line {number}"
                run.warnings.append(LoadWarning(f"the file holds a second run (session {name}, from line {number}); "
                                                "the first run is loaded", line=number, kind="first_run"))
            if started:
                continue
            started = True
            run.facts.update({k: event[k] for k in ("session_id", "model") if isinstance(event.get(k), str)})
            continue
        if runs > 1 or ended or kind not in EVENT_TYPES:
            if kind not in EVENT_TYPES:
                builder.count("lines_not_read")
            continue
        time = event.get("timestamp") if isinstance(event.get("timestamp"), str) else None
        if kind == "message":
            text = text_at(event, "content")
            if event.get("role") == "assistant":
                _assistant_text(builder, text, time)
            else:
                builder.add_user([{"type": "text", "text": text}] if text else [], time)
        elif kind == "tool_use" and isinstance(event.get("tool_id"), str):
            if _next_response(builder):
                builder.start_response([], time, None)
            parameters = event.get("parameters") if isinstance(event.get("parameters"), dict) else {}
            builder.add_calls([{"type": "tool_use", "id": event["tool_id"], "name": str(event.get("tool_name", "")),
                                "input": parameters}], {})
        elif kind == "tool_result" and isinstance(event.get("tool_id"), str):
            builder.add_result(event["tool_id"], _result(event), time)
        elif kind == "error":
            builder.count("error_events")
        elif kind == "result":
            ended = True
            run.facts["status"] = event.get("status")
            if isinstance(event.get("stats"), dict):
                run.facts["stats"] = event["stats"]
    if started and not ended:
        run.warnings.append(LoadWarning("the run stops before its result event (cut off); read to where it stops",
                                        kind="cut_off"))
    run.facts["runs"] = runs
    builder.finish()
    return run


def _next_response(builder: Builder) -> bool:
    """Whether model output starts the next response: none is open, the person spoke, or results came."""
    return not builder.can_extend or bool(builder.results)


def _assistant_text(builder: Builder, text: str, time: str | None) -> None:
    """Add a chunk to the response being written, or start the next response."""
    if _next_response(builder):
        builder.start_response([], time, None)
    assert builder.response is not None  # open, or started just above
    content = builder.out.messages[builder.response]["content"]
    if content and content[-1]["type"] == "text":
        content[-1] = {"type": "text", "text": content[-1]["text"] + text}
    elif text:
        content.append({"type": "text", "text": text})


def _result(event: dict) -> dict:
    block = {"type": "tool_result", "tool_use_id": event["tool_id"]}
    error = event.get("error") if isinstance(event.get("error"), dict) else None
    output = event.get("output")
    if event.get("status") == "error" or error:
        block["is_error"] = True
        block["content"] = str(error.get("message", "")) if error else (output if isinstance(output, str) else "")
    else:
        block["content"] = output if isinstance(output, str) else ""
    return block


def run_totals_of(stats: Any, init_model: Any) -> dict[str, Any] | None:
    """The run's totals from `result.stats` (gemini-cli's StreamStats, packages/core/src/output/types.ts):
    `input_tokens` is every prompt token, `cached` the share of it read from the cache (since December
    2025); `output_tokens` the candidates'. `total_tokens` also counts the thoughts, which Gemini bills as
    output, so the output is `total_tokens - input_tokens` when that is larger. `models` (since March 2026)
    splits the same figures by model; an older run names only `init`'s model. None without any count."""
    if not isinstance(stats, dict):
        return None
    models = object_at(stats, "models")
    by_model = {name: _counts(split) for name, split in models.items() if isinstance(split, dict)}
    by_model = {name: counts for name, counts in by_model.items() if any(counts.values())}
    return run_totals("result.stats", _counts(stats), None if by_model else init_model, by_model=by_model or None)


def _counts(stats: dict) -> dict[str, int]:
    prompt, output = count(stats.get("input_tokens")), count(stats.get("output_tokens"))
    return cached_input_counts(prompt, stats.get("cached"), max(output, count(stats.get("total_tokens")) - prompt))
