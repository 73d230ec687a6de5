"""A Goose session, from either of the files Goose writes (session.py: its sessions database; legacy.py:
the JSONL of versions before it), in Anthropic form.

Each message of the session becomes one message (content.py reads its parts): a user message the
person's (or the tools' results), an assistant message one model call. Goose marks each message's
visibility (`metadata`: userVisible, agentVisible). Its compaction (crates/goose/src/context_mgmt/mod.rs
compact_messages) keeps every message, hidden from the model, and adds the summary (a user message the
model sees and the person does not), an assistant message of Goose's own ("Your context was compacted.
..."), and a copy of the person's newest message, whose original it hides from both: the original is left
out (the copy follows), the summary is a compaction point (`compact_boundaries`, the summary in the file),
and Goose's own assistant message is no model call (`calls` leaves it out; a warning says the replay
sends it as the log does).

Goose records no usage per call: the session keeps the newest call's tokens (`total_tokens`,
`input_tokens`, `output_tokens`) and the session's sums (`accumulated_*`, and `accumulated_cost` since
schema 13): the sums are the run's recorded totals (importers/totals.py), the newest call's are metadata
(`last_call`), every per-call figure is estimated. The model and its window come from the session's
`model_config_json` where the database has it.
"""

from collections import Counter
from typing import Any

from compaction.agents.goose.content import read_content
from compaction.agents.goose.markers import CONTINUATION_PREFIX
from compaction.importers.checks import build_conversation
from compaction.importers.fields import epoch_time
from compaction.importers.totals import RECORDED_TOTALS, run_totals
from compaction.importers.unique_ids import make_tool_ids_unique
from compaction.measures.windows import NAMED_KEY, NAMED_SOURCE_KEY
from compaction.model.conversation import Conversation, LoadWarning
from compaction.words import plural, verb

FORMAT = "goose"
USAGE_FIELDS = ("total_tokens", "input_tokens", "output_tokens")


def conversation(rows: list[dict[str, Any]], session: dict[str, Any], label: str, source: str,
                 warnings: list[LoadWarning] | None = None) -> Conversation:
    """`rows`: the session's messages as Goose serialises them ({role, created, content, metadata});
    `session`: its facts (the database row, or the JSONL's first line); `source`: where they come from."""
    messages: list[dict[str, Any]] = []
    timestamps: list[str | None] = []
    boundaries: list[dict[str, Any]] = []
    counts: Counter[str] = Counter()
    for row in rows:
        visible: dict = row["metadata"] if isinstance(row.get("metadata"), dict) else {}
        to_person, to_model = visible.get("userVisible", True), visible.get("agentVisible", True)
        role = row.get("role")
        if role not in ("user", "assistant"):
            counts["rows_skipped"] += 1
            continue
        content = read_content(row.get("content"))
        counts.update(f"skipped:{kind}" for kind in content.skipped)
        if not to_person and not to_model:  # the newest message Goose copied after its summary
            counts["hidden_copies"] += 1
            continue
        text = "\n".join(block["text"] for block in content.blocks if block["type"] == "text")
        if role == "user" and not to_person:  # the summary: the model sees it, the person does not
            boundaries.append({"index": len(messages), "trigger": "auto", "pre_tokens": None})
            messages.append({"role": "user", "content": text})
        else:
            if role == "assistant" and not to_person and text.startswith(CONTINUATION_PREFIX):
                counts["goose_replies"] += 1
            elif role == "assistant":
                counts["calls"] += 1
            messages.append({"role": role, "content": content.blocks or ""})
        timestamps.append(epoch_time(row.get("created")))
    found = list(warnings or [])
    renamed = make_tool_ids_unique(messages)
    if renamed is not None:
        found.append(renamed)
    found += _warnings(session, counts)
    fresh = frozenset(b["index"] + step for b in boundaries for step in (0, 1, 2))
    return build_conversation(messages, label, FORMAT, found, metadata=_metadata(session, counts, boundaries, source),
                              fresh_starts=fresh, timestamps=timestamps)


def _metadata(session: dict[str, Any], counts: Counter, boundaries: list, source: str) -> dict[str, Any]:
    config = session.get("model_config") or {}
    model = config.get("model_name") if isinstance(config.get("model_name"), str) else None
    accumulated = {key: session.get(f"accumulated_{key}") for key in USAGE_FIELDS}
    totals = run_totals(source, {"input_tokens": accumulated["input_tokens"],
                                 "output_tokens": accumulated["output_tokens"]}, model,
                        session.get("accumulated_cost"), counts["calls"])
    metadata: dict[str, Any] = {
        "session_id": session.get("id"), "name": session.get("name") or session.get("description"),
        "working_dir": session.get("working_dir"), "model": model, "models": [model] if model else [],
        "provider": session.get("provider_name"), "calls": counts["calls"], "goose_replies": counts["goose_replies"],
        "hidden_copies": counts["hidden_copies"], "compact_boundaries": boundaries,
        "compact_summary_indices": [b["index"] for b in boundaries], "summary_in_file": True,
        "last_call": {key: session.get(key) for key in USAGE_FIELDS}, "accumulated": accumulated,
        "skipped_parts": {key.split(":", 1)[1]: n for key, n in counts.items() if key.startswith("skipped:")},
    }
    limit = config.get("context_limit")
    if isinstance(limit, int) and not isinstance(limit, bool) and limit > 0:
        metadata[NAMED_KEY], metadata[NAMED_SOURCE_KEY] = limit, "the session's model_config_json context_limit"
    if totals is not None:
        metadata[RECORDED_TOTALS] = totals
    return metadata


def _warnings(session: dict[str, Any], counts: Counter) -> list[LoadWarning]:
    last = session.get("total_tokens")
    found = [LoadWarning("Goose records no usage per call: the session keeps the newest call's "
                         f"{f'{last:,}' if isinstance(last, int) else 'unknown'} tokens and the session's sums; each call's "
                         "tokens are estimated", kind="no_usage")]
    if counts["goose_replies"]:
        found.append(LoadWarning(f"{plural(counts['goose_replies'], 'assistant message')} after a summary "
                                 f"{verb(counts['goose_replies'], 'is', 'are')} Goose's own "
                                 "(\"Your context was compacted...\"), no model call: the replay sends them as "
                                 "Goose did", kind="agent_written"))
    return found
