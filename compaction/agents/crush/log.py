"""Crush's database (`.crush/crush.db`), one session at a time, in Anthropic form.

A file holds every session of its project, a sub-agent's (the `agent` tool's) included: `sessions` lists
them (importers/runs.py: RunKey, the session's id as its instance) and a corpus reads each. Loaded as
one file, the first session with messages that is not a sub-agent's is read, with a warning naming how
many the file holds.

Each message row becomes one message: `user` the person's, `assistant` one model call, `tool` the
results, as the person's turn (one per result in newer versions: a step's are one turn; parts.py reads
the parts). An assistant row with no part (a call cut off
before anything came) is a call with an empty reply.

Crush records no usage per call. Its session row keeps the newest call's prompt and completion tokens
(agent.go updateSessionTokenCounters overwrites them each call: they are not totals) and the session's
cost summed over its calls (0 when the price list lacked the model): the cost is the run's recorded total
(importers/totals.py), the tokens are in metadata (`last_call`), and every per-call figure is estimated.

Crush's compaction (agent.go Summarize): the whole session becomes one summary message (an assistant row
with is_summary_message, and the session's summary_message_id), and from then on that message, as the
person's, and what follows are sent. Each such row is a compaction point (`compact_boundaries`) with the
summary in the file, loaded as the user message Crush sends. A database older than is_summary_message
(August 2025) marks only the newest, by summary_message_id.
"""

from collections import Counter
from pathlib import Path
from typing import Any

from compaction.agents.crush import database
from compaction.agents.crush.markers import INTERRUPTED
from compaction.agents.crush.parts import read_parts
from compaction.errors import ConversationError
from compaction.importers.checks import build_conversation
from compaction.importers.fields import epoch_time
from compaction.importers.limits import MAX_FILE_BYTES
from compaction.importers.runs import RunKey
from compaction.importers.source import read_source
from compaction.importers.sqlite_file import database_bytes
from compaction.importers.totals import RECORDED_TOTALS, run_totals
from compaction.importers.unique_ids import make_tool_ids_unique
from compaction.model.conversation import Conversation, LoadWarning
from compaction.words import plural

FORMAT = "crush"
ROLES = {"user": "user", "assistant": "assistant", "tool": "user"}


def sessions(path: Path) -> tuple[RunKey, ...]:
    """A key per session with messages, oldest first (its place, title and id), for a Crush database of two
    or more; () for any other file."""
    data = database_bytes(path, MAX_FILE_BYTES)
    if data is None or not database.looks_like(data):
        return ()
    try:
        found = _with_messages(database.read(data, path.name))
    except ConversationError:  # its loading says why
        return ()
    keys = tuple(RunKey(number, f"{session['title'] or 'untitled'} ({session['id']})", session["id"], FORMAT)
                 for number, session in enumerate(found, start=1))
    return keys if len(keys) > 1 else ()


def load(data: bytes, label: str, _path: Path | None = None) -> Conversation:
    """The first session that is not a sub-agent's (else the first), with a warning when there are more."""
    stored = database.read(data, label)
    found = _with_messages(stored)
    if not found:
        raise ConversationError(f"a Crush database of {plural(len(stored.sessions), 'session')}, none with a message",
                                where=label)
    session = next((s for s in found if not s["parent_session_id"]), found[0])
    conversation = _session(stored, session, label)
    if len(found) > 1:
        conversation.warnings.insert(0, LoadWarning(
            f"the database holds {len(found):,} sessions; the first ({session['title']}) is loaded; a corpus of the "
            "file, or its session picker, reads each", kind="first_run"))
    return conversation


def load_session(path: Path, key: RunKey, label: str) -> Conversation:
    stored = database.read(read_source(path, label)[0], label)
    session = next((s for s in stored.sessions if s["id"] == key.instance), None)
    if session is None or not stored.messages.get(session["id"]):
        raise ConversationError(f"no session {key.name} with messages any more (the file changed since its "
                                "sessions were listed): read the folder again", where=label)
    return _session(stored, session, f"{label} [{key.name}]")


def _with_messages(stored: database.Stored) -> list[dict[str, Any]]:
    return [session for session in stored.sessions if stored.messages.get(session["id"])]


def _session(stored: database.Stored, session: dict[str, Any], label: str) -> Conversation:
    rows = stored.messages[session["id"]]
    messages: list[dict[str, Any]] = []
    timestamps: list[str | None] = []
    boundaries: list[dict[str, Any]] = []
    summaries: list[int] = []
    models: Counter[str] = Counter()
    counts: Counter[str] = Counter()
    finishes: Counter[str] = Counter()
    previous_tool = False
    for row in rows:
        where = f"{label}: message {row['id']}"
        parts = read_parts(row["parts"], where)
        counts["reasoning_parts"] += parts.reasoning
        counts.update(f"unknown_part:{kind}" for kind in parts.unknown)
        summary = bool(row["is_summary_message"]) or row["id"] == session["summary_message_id"]
        role = ROLES.get(row["role"])
        if role is None:
            counts["rows_skipped"] += 1
            continue
        if summary:  # Crush sends it as the person's message, and nothing before it
            boundaries.append({"index": len(messages), "trigger": "unknown", "pre_tokens": None, "message_id": row["id"]})
            summaries.append(len(messages))
            role = "user"
            counts["summary_calls"] += 1
        elif role == "assistant":
            counts["calls"] += 1
            if row["model"]:
                models[row["model"]] += 1
            if parts.finish is not None:
                finishes[str(parts.finish.get("reason"))] += 1
        if row["role"] == "tool" and previous_tool:  # one row per result of the same step: one turn
            messages[-1]["content"].extend(parts.blocks)
            continue
        previous_tool = row["role"] == "tool" and bool(parts.blocks)
        content = "\n\n".join(b["text"] for b in parts.blocks if b["type"] == "text") if summary else parts.blocks
        messages.append({"role": role, "content": content or ""})
        timestamps.append(epoch_time(row["created_at"]))
    for boundary in boundaries:  # summarised in the middle of a turn: Crush queued the turn's prompt again
        after = messages[boundary["index"] + 1:boundary["index"] + 2]
        boundary["trigger"] = "auto" if after and _text(after[0]).startswith(INTERRUPTED) else "unknown"
    metadata = _metadata(stored, session, models, counts, finishes, boundaries, summaries)
    warnings = _warnings(stored, session, counts)
    renamed = make_tool_ids_unique(messages)  # some providers number their calls afresh each step
    if renamed is not None:
        warnings.append(renamed)
    return build_conversation(messages, label, FORMAT, warnings, metadata=metadata,
                              fresh_starts=frozenset(summaries) | {i + 1 for i in summaries}, timestamps=timestamps)


def _metadata(stored, session, models, counts, finishes, boundaries, summaries) -> dict[str, Any]:
    model = models.most_common(1)[0][0] if models else None
    totals = run_totals("sessions.cost", None, model, session["cost"], counts["calls"])
    metadata: dict[str, Any] = {
        "session_id": session["id"], "title": session["title"], "parent_session_id": session["parent_session_id"],
        "sessions_in_file": len(_with_messages(stored)), "models": sorted(models), "model": model,
        "calls": counts["calls"], "summary_calls": counts["summary_calls"], "finish_reasons": dict(finishes),
        "last_call": {"prompt_tokens": session["prompt_tokens"], "completion_tokens": session["completion_tokens"]},
        "cost_usd": session["cost"], "summary_message_id": session["summary_message_id"],
        "compact_boundaries": boundaries, "compact_summary_indices": summaries, "summary_in_file": True,
        "reasoning_parts": counts["reasoning_parts"], "wal_mode": stored.wal,
    }
    if totals is not None:
        metadata[RECORDED_TOTALS] = totals
    return metadata


def _warnings(stored: database.Stored, session: dict[str, Any], counts: Counter) -> list[LoadWarning]:
    found = [LoadWarning(f"Crush records no usage per call: the session row keeps the newest call's "
                         f"{session['prompt_tokens']:,} prompt and {session['completion_tokens']:,} completion tokens "
                         f"and the session's cost (${session['cost'] or 0:,.4f}); each call's tokens are estimated",
                         kind="no_usage")]
    if stored.wal:
        found.append(LoadWarning("the database is in WAL mode: the newest messages may still be in crush.db-wal "
                                 "beside it, which is not read (Crush moves them into crush.db when it closes)",
                                 kind="wal"))
    unknown = sorted(key.split(":", 1)[1] for key in counts if key.startswith("unknown_part:"))
    if unknown:
        found.append(LoadWarning(f"parts of unknown types left out: {', '.join(unknown)}", kind="unknown_parts"))
    return found


def _text(message: dict) -> str:
    content = message["content"]
    if isinstance(content, str):
        return content
    return next((block["text"] for block in content if block.get("type") == "text"), "")
