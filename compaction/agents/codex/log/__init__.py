"""OpenAI Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`, also
`~/.codex/archived_sessions/`), in Anthropic form.

How a file is read, one idea per module:
- records.py: the lines as records, in the envelope layout and in the bare 2025 one;
- items.py: one response item as blocks (model side, input side, system prompt);
- tokens.py: the token_count events, each response's usage counted once;
- assemble.py: responses, tool results in call order, usage per response, compaction points;
- compaction.py: the new start Codex sent after each compaction.
The system prompt is the session's base instructions and the developer messages; the user messages
Codex writes itself (environment context, AGENTS.md) stay where they are, listed in
`metadata["injected_context"]`.
"""

from compaction.agents.codex.log.assemble import Assembled, Walk
from compaction.agents.codex.log.records import Session, looks_like, read_records
from compaction.agents.codex.log.tokens import TokenCounts
from compaction.errors import ConversationError
from compaction.importers.checks import build_conversation
from compaction.importers.jsonl import JsonLines
from compaction.measures.branches_paid import OFF_BRANCH_CALLS
from compaction.measures.windows import NAMED_KEY, PER_MODEL_KEY, main_model
from compaction.model.conversation import Conversation, LoadWarning

FORMAT = "codex"
EFFECTIVE_PERCENT = 95  # codex-rs openai_models.rs: default_effective_context_window_percent


def load(lines: JsonLines) -> Conversation:
    records, session = read_records(lines)
    walk = Walk(session.base_instructions)
    for record in records:
        walk.read(record)
    out = walk.finish()
    if not out.messages:
        raise ConversationError("no response items: not a Codex rollout with messages" + lines.first_problem(),
                                where=lines.label)
    metadata = _metadata(session, out, walk.tokens)
    if out.unmatched:
        metadata[OFF_BRANCH_CALLS] = out.unmatched  # paid for beside the conversation's responses
    fresh_starts = frozenset(b["index"] for b in out.boundaries if b["new_start"])
    return build_conversation(out.messages, lines.label, FORMAT, _warnings(lines, session, out),
                              system="\n\n".join(out.system) or None, metadata=metadata, fresh_starts=fresh_starts,
                              usage=out.usage if any(out.usage) else [],
                              timestamps=out.timestamps if any(out.timestamps) else [])


def _metadata(session: Session, out: Assembled, tokens: TokenCounts) -> dict:
    responses = sum(1 for m in out.messages if m["role"] == "assistant")
    with_usage = sum(1 for u in out.usage if u is not None)
    # the session's window is its main model's (a one-off turn on a small model reports a smaller one)
    main = main_model(out.usage, out.boundaries)
    reported = out.windows.get(main) if main else None
    reported = reported or (tokens.windows[0] if tokens.windows else None)
    return {
        **session.facts,
        "layout": session.layout,
        "models": out.models,
        "reasoning_efforts": out.efforts,
        "model_context_window": reported,
        **model_window(reported),
        "model_context_windows": tokens.windows,
        PER_MODEL_KEY: {model: model_window(window)[NAMED_KEY] for model, window in out.windows.items()},
        "compact_boundaries": out.boundaries,
        "compact_summary_indices": out.summary_indices,
        "injected_context": out.injected,
        "token_counts": tokens.calls,
        "token_counts_repeated": tokens.repeated,
        "token_counts_unmatched": out.counts.get("token_counts_unmatched", 0),
        "responses_without_usage": responses - with_usage if tokens.calls else responses,
        "reasoning_items": out.counts.get("reasoning_items", 0),
        "reasoning_encrypted": out.counts.get("reasoning_encrypted", 0),
        "reasoning_estimates": out.reasoning,
        "truncation_policy": out.truncation_policy,
        "developer_messages": out.counts.get("developer_messages", 0),
        "ghost_snapshots": out.counts.get("ghost_snapshots", 0),
        "aborted_calls": out.counts.get("aborted_calls", 0),
        "orphan_outputs": out.counts.get("orphan_outputs", 0),
        "unknown_items": out.unknown_items,
        "unknown_lines": session.other_lines,
        "session_meta_lines": session.meta_lines,
        "state_lines": session.state_lines,
    }


def model_window(reported: int | None) -> dict:
    """The model's window from the one the rollout reports: from cli 0.55 on that is the usable part,
    effective_context_window_percent (95) of the model's (258,400 of 272,000); the first versions reported
    the model's own (272,000, not 95 % of a whole number)."""
    if not reported:
        return {}
    whole = reported * 100 % EFFECTIVE_PERCENT == 0
    tokens = reported * 100 // EFFECTIVE_PERCENT if whole else reported
    words = f"the rollout's model_context_window {reported:,}" + (
        f" = {EFFECTIVE_PERCENT} % of the model's {tokens:,} (effective_context_window_percent)" if whole else "")
    return {"model_window_tokens": tokens, "model_window_source": words}


def _warnings(lines: JsonLines, session: Session, out: Assembled) -> list[LoadWarning]:
    found = [w for w in (lines.skipped_warning(),) if w] + out.warnings
    aborted, orphans = out.counts.get("aborted_calls", 0), out.counts.get("orphan_outputs", 0)
    if aborted:
        found.append(LoadWarning(f"{aborted:,} tool call(s) had no output before the conversation went on; each is "
                                 f"answered {'aborted'!r}, as Codex does before sending", kind="aborted_call"))
    if orphans:
        found.append(LoadWarning(f"{orphans:,} tool output(s) answer no call of the response before them; left out, "
                                 "as Codex leaves them out", kind="orphan_output"))
    if out.unknown_items:
        kinds = ", ".join(f"{k} ({v:,})" for k, v in sorted(out.unknown_items.items()))
        found.append(LoadWarning(f"response items of unknown type left out: {kinds}", kind="unknown_item"))
    if session.meta_lines > 1:
        found.append(LoadWarning(f"{session.meta_lines:,} session_meta lines (a resumed session); the first one's "
                                 "facts are kept", kind="resumed"))
    return found


__all__ = ["FORMAT", "load", "looks_like"]
