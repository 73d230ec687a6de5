"""Google Gemini CLI sessions, in Anthropic form:

- the chat recording, `~/.gemini/tmp/<project hash or name>/chats/session-*.json`:
  `{sessionId, projectHash, startTime, lastUpdated, messages, [kind, summary, directories]}`
  (subagent chats sit in `chats/<parent session>/`); recording.py;
- the same recording as JSON lines (`session-*.jsonl`, gemini-cli since April 2026); chat_lines.py;
- the headless `--output-format stream-json` output; stream.py.
No file records the system prompt or the tools, nor the CLI version. The window is gemini-cli's
`tokenLimit` for the models used (packages/core/src/core/tokenLimits.ts), not something the log says.
"""

from typing import Any

from compaction.agents.gemini_cli.log import chat_lines, stream
from compaction.agents.gemini_cli.log.builder import Built
from compaction.agents.gemini_cli.log.recording import read_messages
from compaction.errors import ConversationError
from compaction.importers.checks import build_conversation
from compaction.importers.fields import object_at
from compaction.importers.jsonl import JsonLines
from compaction.importers.source import kind_of
from compaction.model.conversation import RECORDED_TOTALS, Conversation, LoadWarning

FORMAT = "gemini-cli"
TOKEN_LIMIT = 1_048_576  # tokenLimits.ts: DEFAULT_TOKEN_LIMIT, and every Gemini 2.5 / 3 model's
GEMMA_TOKEN_LIMIT = 256_000  # tokenLimits.ts: GEMMA_4_TOKEN_LIMIT
FIELDS = (("sessionId", "session_id"), ("projectHash", "project_hash"), ("startTime", "start_time"),
          ("lastUpdated", "last_updated"), ("kind", "kind"), ("summary", "summary"))


def looks_like(value: Any) -> bool:
    """A chat recording document."""
    return isinstance(value, dict) and isinstance(value.get("messages"), list) \
        and isinstance(value.get("sessionId"), str) and "projectHash" in value


def looks_like_lines(objects: list[tuple[int, dict]]) -> bool:
    return chat_lines.looks_like(objects) or stream.looks_like(objects)


def from_json(value: Any, label: str) -> Conversation:
    if not isinstance(value, dict) or not isinstance(value.get("messages"), list):
        raise ConversationError(f"expected a Gemini CLI chat recording (an object with a 'messages' list), "
                                f"got {kind_of(value)}", where=label)
    built = read_messages(value["messages"], label)
    return _conversation(built, label, _fields(value), {"layout": "chat-json"}, [])


def from_lines(lines: JsonLines) -> Conversation:
    if stream.looks_like(lines.objects) or not chat_lines.looks_like(lines.objects):
        run = stream.first_run(lines)
        facts = dict(run.facts)
        # the models that answered, from the totals; `init` may name only a router ("auto")
        stats = object_at(facts, "stats")
        models = list(stats["models"]) if isinstance(stats.get("models"), dict) and stats["models"] else \
            [facts["model"]] if isinstance(facts.get("model"), str) else []
        totals = stream.run_totals_of(facts.get("stats"), facts.get("model"))
        warnings = run.warnings
        if "stats" in facts and totals is None:
            warnings = [*warnings, LoadWarning("the result's stats give no token counts: the run's cost is unknown",
                                               kind="stats_without_counts")]
        return _conversation(run.built, lines.label, {"session_id": facts.pop("session_id", None)},
                             {"layout": "stream-json", **facts, "models": models,
                              **({RECORDED_TOTALS: totals} if totals else {})}, warnings, lines)
    chat = chat_lines.read_chat_lines(lines)
    built = read_messages(list(chat.messages.values()), lines.label, list_name="messages (by id)")
    warnings = []
    if chat.replacements:
        where = ", ".join(f"{n:,}" for n in chat.replacements)
        warnings.append(LoadWarning(f"the history was replaced {len(chat.replacements):,} time(s) (checkpoints at "
                                    f"lines {where}); the conversation after the last one is loaded, as gemini-cli "
                                    "resumes it", line=chat.replacements[0], kind="history_replaced"))
    extra = {"layout": "chat-jsonl", "starts": chat.starts, "rewinds": chat.rewinds,
             "history_replacements": len(chat.replacements)}
    return _conversation(built, lines.label, _fields(chat.fields), extra, warnings, lines)


def _fields(value: dict) -> dict:
    return {name: value[key] for key, name in FIELDS if isinstance(value.get(key), str)}


def _conversation(built: Built, label: str, facts: dict, extra: dict, warnings: list[LoadWarning],
                  lines: JsonLines | None = None) -> Conversation:
    if not built.messages:
        raise ConversationError("no user or model turns: not a Gemini CLI session with messages"
                                + (lines.first_problem() if lines else ""), where=label)
    models = extra.pop("models", None) or _models(built)
    metadata = {**facts, **extra, "models": models, "model_context_window": _window(models),
                "compact_boundaries": built.boundaries,
                "responses_without_usage": sum(1 for m, u in zip(built.messages, built.usage, strict=True)
                                               if m["role"] == "assistant" and u is None),
                **{name: built.counts.get(name, 0) for name in (
                    "info_messages", "warning_messages", "error_messages", "user_messages_not_sent",
                    "calls_recorded_apart", "empty_model_messages", "calls_without_result", "orphan_results",
                    "model_turns_back_to_back")}}
    skipped = lines.skipped_warning() if lines else None
    if metadata["model_turns_back_to_back"]:
        warnings = [*warnings, LoadWarning(
            f"{metadata['model_turns_back_to_back']:,} model turn(s) follow another with nothing recorded between them "
            "(the calls and results that led to them are not in the file)", kind="turns_not_recorded")]
    if built.counts.get("context_only"):
        starts = extra.get("starts", 1)
        warnings = [*warnings, LoadWarning(
            "the chat holds only gemini-cli's session context: no prompt was sent and no model answered"
            + (f" (the session was started {starts:,} times)" if starts > 1 else "")
            + "; the context is loaded as the one user message", kind="context_only")]
    found = ([skipped] if skipped else []) + warnings + built.warnings
    return build_conversation(built.messages, label, FORMAT, found, metadata=metadata,
                              usage=built.usage if any(built.usage) else [],
                              timestamps=built.timestamps if any(built.timestamps) else [])


def _models(built: Built) -> list[str]:
    found = []
    for entry in built.usage:
        model = entry.get("model") if entry else None
        if model and model not in found:
            found.append(model)
    return found


def _window(models: list[str]) -> int | None:
    if not models:
        return None
    return min(GEMMA_TOKEN_LIMIT if model.startswith("gemma-4") else TOKEN_LIMIT for model in models)


__all__ = ["FORMAT", "from_json", "from_lines", "looks_like", "looks_like_lines"]
