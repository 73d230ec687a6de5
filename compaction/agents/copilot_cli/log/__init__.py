"""GitHub Copilot CLI's session log, `~/.copilot/session-state/<session id>/events.jsonl`, in Anthropic form.

One event a line, `{type, data, id, timestamp, parentId}` (events.py reads them): `session.start`
{sessionId, copilotVersion, selectedModel, context.cwd}, `user.message` {content, transformedContent},
`assistant.turn_start` / `assistant.turn_end`, `assistant.message` {content, toolRequests, model,
outputTokens}, `tool.execution_start` / `tool.execution_complete` {toolCallId, success, result},
`session.compaction_start` / `session.compaction_complete` {preCompactionTokens,
preCompactionMessagesLength, summaryContent, compactionTokensUsed, checkpointNumber}, and
`session.shutdown` {modelMetrics, totalPremiumRequests}. `copilot -p ... --output-format json` prints the
same events with the streamed ones among them (marked `ephemeral`), which are skipped.

No usage per call: each `assistant.message` is one model call, without usage, and the lab estimates each
call's tokens as for any log without usage. The session's own totals, per model, are those of its
shutdown events (totals.py): the run's recorded totals, with the premium requests beside them.

Its own compactions, in `metadata["compact_boundaries"]`: each successful `session.compaction_complete`,
at the checkpoint summary it wrote (`summaryContent`, kept as a user message, its index in
`compact_summary_indices`), with `preCompactionTokens` as pre_tokens.
"""

from compaction.agents.copilot_cli.log.events import Walk, Walked
from compaction.errors import ConversationError
from compaction.importers.checks import build_conversation
from compaction.importers.jsonl import JsonLines
from compaction.model.conversation import RECORDED_TOTALS, Conversation, LoadWarning
from compaction.words import plural, verb

FORMAT = "copilot-cli"
PREFIXES = ("session.", "user.", "assistant.", "tool.", "subagent.", "hook.", "model.", "skill.")


def is_event(value: dict) -> bool:
    kind = value.get("type")
    return isinstance(kind, str) and kind.startswith(PREFIXES) and isinstance(value.get("data"), dict)


def looks_like(objects: list[tuple[int, dict]]) -> bool:
    """The first lines are Copilot events: a dotted type (`session.start`, `user.message`) and a `data` object."""
    head = [value for _, value in objects[:5]]
    return bool(head) and sum(map(is_event, head)) * 2 > len(head)


def load(lines: JsonLines) -> Conversation:
    walk = Walk()
    for number, event in lines.objects:
        walk.read(number, event)
    walk.finish()
    out = walk.out
    if not any(message["role"] == "assistant" for message in out.messages):
        raise ConversationError(f"a Copilot CLI session of {plural(len(lines.objects), 'event')} without any "
                                "assistant.message: no model call to read", where=lines.label)
    fresh = frozenset(index + 1 for index in out.summary_indices)
    return build_conversation(out.messages, lines.label, FORMAT, _warnings(out, lines), metadata=_metadata(out),
                              fresh_starts=fresh | frozenset(out.summary_indices))


def _metadata(out: Walked) -> dict:
    totals = out.shutdowns.totals()
    metadata = {
        **out.facts,
        "agent_version": out.facts.get("copilot_version"),
        "models": out.models,
        "copilot_models": out.copilot_models,
        "compact_boundaries": out.boundaries,
        "compact_summary_indices": out.summary_indices,
        "responses": out.counts.get("responses", 0),
        "shutdowns": out.shutdowns.seen,
        "premium_requests": out.shutdowns.premium_requests if out.shutdowns.seen or out.counts.get(
            "results_of_the_run") else None,
        "nano_aiu": out.shutdowns.nano_aiu or None,
        "counts": dict(sorted(out.counts.items())),
        "events_not_read": dict(sorted(out.not_read.items())),
    }
    if totals:
        metadata[RECORDED_TOTALS] = totals
    return metadata


def _warnings(out: Walked, lines: JsonLines) -> list[LoadWarning]:
    found = [warning for warning in (lines.skipped_warning(),) if warning is not None]
    found.append(LoadWarning(f"Copilot CLI records no usage per call: the {out.counts.get('responses', 0):,} "
                             "calls' tokens are estimated" + (", the session's totals are its shutdown's model "
                                                              "metrics" if out.shutdowns.seen else
                                                              "; no session.shutdown, so no totals either"),
                             kind="no_usage"))
    if out.shutdowns.seen > 1:
        found.append(LoadWarning(f"{out.shutdowns.seen:,} session.shutdown events (the session was resumed): "
                                 "their model metrics are added up", kind="several_shutdowns"))
    if out.counts.get("results_without_call"):
        found.append(LoadWarning(f"{plural(out.counts['results_without_call'], 'tool result')} "
                                 f"{verb(out.counts['results_without_call'], 'answers', 'answer')} no request of a "
                                 "response: not kept", kind="results_without_call"))
    return found


__all__ = ["FORMAT", "is_event", "load", "looks_like"]
