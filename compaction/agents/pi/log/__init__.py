"""Pi's session file (badlogic/pi-mono coding agent), `~/.pi/agent/sessions/--<cwd>--/<time>_<uuid>.jsonl`,
in Anthropic form (packages/coding-agent/src/core/session-manager.ts, docs/session.md).

A header line {type: "session", version, id, timestamp, cwd}, then entries: `message` {id, parentId,
message: {role, content, provider, model, usage, stopReason}}, `model_change`, `thinking_level_change`,
`compaction` {summary, firstKeptEntryId, tokensBefore}, `branch_summary`, `custom_message`, `label`,
`session_info`. Version 1 files (before the tree) have no ids, their header names the model, and a
compaction names its first kept entry by index (firstKeptEntryIndex).

The branch Pi is at is loaded (entries.py); each assistant message is one model call with its usage and
Pi's own price for it (`usage.cost.total`, as `cost_usd`), so the recorded cost is exact. The log's
compactions are in `metadata["compact_boundaries"]`, each at its summary (`compact_summary_indices`).
"""

from compaction.agents.pi.log.entries import Walk, Walked, active_path, off_path_calls
from compaction.errors import ConversationError
from compaction.importers.checks import build_conversation
from compaction.importers.fields import text_at
from compaction.importers.jsonl import JsonLines
from compaction.model.conversation import Conversation, LoadWarning
from compaction.words import plural

FORMAT = "pi"
ROLES = ("user", "assistant", "toolResult", "bashExecution", "custom", "branchSummary")
ENTRY_TYPES = ("model_change", "thinking_level_change", "session_info", "compaction", "branch_summary")


def is_entry(value: dict) -> bool:
    kind = value.get("type")
    if kind == "session":
        return "cwd" in value or "version" in value
    if kind == "message":
        message = value.get("message")
        return isinstance(message, dict) and message.get("role") in ROLES
    return kind in ENTRY_TYPES


def looks_like(objects: list[tuple[int, dict]]) -> bool:
    """A Pi header line first, or Pi's entries among the first lines."""
    head = [value for _, value in objects[:5]]
    return bool(head) and (head[0].get("type") == "session" and "cwd" in head[0]
                           or sum(map(is_entry, head)) * 2 > len(head))


def load(lines: JsonLines) -> Conversation:
    objects = lines.objects
    header = objects[0][1] if objects and objects[0][1].get("type") == "session" else {}
    entries = objects[1:] if header else objects
    path, off_path = active_path(entries)
    walk = Walk(objects if header else entries)
    for number, entry in path:
        walk.read(number, entry)
    walk.finish()
    out = walk.out
    if not out.counts.get("calls"):
        raise ConversationError(f"a Pi session of {plural(len(objects), 'line')} without an assistant message: no "
                                "model call to read", where=lines.label)
    metadata = _metadata(out, header, off_path_calls(off_path))
    usage = out.usage if any(out.usage) else []
    fresh = frozenset(out.summary_indices) | frozenset(index + 1 for index in out.summary_indices)
    return build_conversation(out.messages, lines.label, FORMAT, _warnings(out, lines, metadata["off_branch"]),
                              metadata=metadata, fresh_starts=fresh, usage=usage)


def _metadata(out: Walked, header: dict, off_branch: dict) -> dict:
    first = header.get("modelId")  # version 1: the header names the session's first model
    if isinstance(first, str) and first not in out.models:
        out.models.insert(0, first)
    costs = [u["cost_usd"] for u in out.usage if u is not None and "cost_usd" in u]
    return {
        "session_id": header.get("id"), "session_version": header.get("version", 1 if header else None),
        "cwd": text_at(header, "cwd") or None, "started": header.get("timestamp"),
        "branched_from": header.get("branchedFrom") or header.get("parentSession"),
        "models": out.models,
        "compact_boundaries": out.boundaries,
        "compact_summary_indices": out.summary_indices,
        "calls": out.counts.get("calls", 0),
        "calls_without_usage": out.counts.get("calls_without_usage", 0),
        "recorded_cost_usd": round(sum(costs), 6) if costs else None,  # Pi's own prices, summed
        "off_branch": off_branch,
        "counts": dict(sorted(out.counts.items())),
    }


def _warnings(out: Walked, lines: JsonLines, off_branch: dict) -> list[LoadWarning]:
    found = [warning for warning in (lines.skipped_warning(),) if warning is not None]
    if off_branch["entries"]:
        found.append(LoadWarning(f"{off_branch['entries']:,} entries on other branches of the session are not "
                                 f"loaded (Pi does not send them); their {plural(off_branch['calls'], 'call')} cost "
                                 f"${off_branch['cost_usd']:,.4f} by Pi's prices", kind="other_branches"))
    if out.counts.get("calls_without_usage"):
        found.append(LoadWarning(f"{plural(out.counts['calls_without_usage'], 'call')} aborted or failed without usage "
                                 "(stopReason aborted or error)", kind="calls_without_usage"))
    return found


__all__ = ["FORMAT", "load", "looks_like"]
