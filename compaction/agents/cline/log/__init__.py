"""A task of Cline, Roo Code or Kilo Code: its folder (globalStorage/<extension>/tasks/<id>/) holds
`api_conversation_history.json` (the messages sent, Anthropic-style) and `ui_messages.json` (what the panel
showed, with one `api_req_started` row per model request). Either file loads alone; a folder, or a file
whose twin lies beside it, loads both (task.py).

- requests.py: one request row's usage, cost and model;
- panel.py: ui_messages.json as messages, calls and the log's own compactions;
- api_history.py: api_conversation_history.json, and Roo's and Kilo's compaction tags in it;
- task.py: both files of a folder together.

The three extensions share the layout; what tells them apart in a file: Cline's rows carry
`conversationHistoryIndex` and `modelInfo`, its messages `modelInfo` and `metrics`; Roo Code's and Kilo
Code's request rows `apiProtocol`, their messages `condenseParent` / `isSummary` and a first turn in
<user_message>. Kilo Code writes what Roo Code writes (a fork): its files load as Roo Code's unless
`--format kilo-code` is given (or its folder is under kilocode.kilo-code).
"""

from pathlib import Path
from typing import Any

from compaction.agents.cline.log.api_history import METRICS, History, looks_like_history, read_history
from compaction.agents.cline.log.panel import Panel, iso, walk
from compaction.agents.cline.log.requests import STARTED
from compaction.agents.cline.log.task import extension_of, joined
from compaction.errors import ConversationError
from compaction.importers.checks import build_conversation, check_message
from compaction.importers.runs import PART_OF_A_SESSION
from compaction.importers.source import parse_document, read_source
from compaction.importers.totals import RECORDED_TOTALS, run_totals
from compaction.measures.windows import NAMED_KEY, NAMED_SOURCE_KEY
from compaction.model.conversation import Conversation, LoadWarning
from compaction.words import plural, verb

CLINE, ROO, KILO = "cline", "roo-code", "kilo-code"
PANEL_FILE, HISTORY_FILE = "ui_messages.json", "api_conversation_history.json"
_HEAD = 200  # rows looked at to recognise a file
ROO_SAYS = ("condense_context", "condense_context_error", "sliding_window_truncation")
ROO_TAGS = ("condenseParent", "isSummary", "truncationParent", "isTruncationMarker")
# the keys of their rows and messages (an unknown file that shares them resembles theirs: importers/unknown.py)
PANEL_KEYS = ("ts", "type", "say", "ask", "text", "partial", "images")
CLINE_KEYS = (*PANEL_KEYS, "conversationHistoryIndex", "conversationHistoryDeletedRange", "modelInfo", "metrics",
              "lastCheckpointHash")
ROO_KEYS = (*PANEL_KEYS, "contextCondense", "contextTruncation", "checkpoint", "isProtected", *ROO_TAGS)


def looks_like_panel(value: Any) -> bool:
    """ui_messages.json: a list of rows `{ts, type: say|ask, ...}`, a request row or the task among them."""
    if not isinstance(value, list) or not value:
        return False
    head = value[:_HEAD]
    rows = all(isinstance(row, dict) and row.get("type") in ("say", "ask") and "ts" in row for row in head[:20])
    return rows and any(row.get("say") in (STARTED, "task") for row in head)


def flavour(value: Any) -> str | None:
    """Which extension wrote a file of the family (CLINE or ROO), or None when it is not one."""
    if looks_like_panel(value):
        head = value[:_HEAD]
        if any(row.get("say") in ROO_SAYS or (row.get("say") == STARTED and '"apiProtocol"' in str(row.get("text")))
               for row in head):
            return ROO
        return CLINE
    if looks_like_history(value):
        if any(isinstance(row, dict) and any(tag in row for tag in ROO_TAGS) for row in value):
            return ROO
        first = value[0]["content"]
        text = first if isinstance(first, str) else next(
            (b.get("text") for b in first if isinstance(b, dict) and isinstance(b.get("text"), str)), "")
        return ROO if str(text).lstrip().startswith("<user_message>") else CLINE
    return None


def sniffer(name: str):
    return lambda value: flavour(value) == name


def loader(name: str):
    def load(value: Any, label: str) -> Conversation:
        if looks_like_panel(value):
            return from_panel(walk(value), label, name)
        if isinstance(value, list) and value and looks_like_history(value):
            return from_history(read_history(value, iso), label, name)
        raise ConversationError(f"neither a task's {PANEL_FILE} (rows with type say/ask and an api_req_started) "
                                f"nor its {HISTORY_FILE} (a list of messages, the first the person's task)",
                                where=label)
    return load


def path_loader(name: str):
    """The reader of a task folder, or of either file of it with its twin beside it; None for any other
    path (the file is then read alone, as any other)."""
    def load(path: Path, label: str | None) -> Conversation | None:
        folder = path if path.is_dir() else path.parent if path.name in (PANEL_FILE, HISTORY_FILE) else None
        if folder is None or not (folder / PANEL_FILE).is_file() or not (folder / HISTORY_FILE).is_file():
            if path.is_dir() and ((path / PANEL_FILE).is_file() or (path / HISTORY_FILE).is_file()):
                alone = path / (PANEL_FILE if (path / PANEL_FILE).is_file() else HISTORY_FILE)
                return loader(name)(_document(alone, label or f"{path.name}/{alone.name}"), label or alone.name)
            return None
        where = label or folder.name
        history_rows = _document(folder / HISTORY_FILE, f"{where}/{HISTORY_FILE}")
        panel_rows = _document(folder / PANEL_FILE, f"{where}/{PANEL_FILE}")
        if not looks_like_panel(panel_rows) or not looks_like_history(history_rows):
            return None
        chosen = name if name != CLINE else extension_of(folder.resolve()) or flavour(panel_rows) or CLINE
        return from_task(history_rows, panel_rows, where, chosen)
    return load


def read_with_its_twin(path: Path) -> tuple:
    """For a corpus: an api_conversation_history.json beside a ui_messages.json is read with it (task.py), so
    the task is listed once, under its ui_messages.json."""
    return PART_OF_A_SESSION if path.name == HISTORY_FILE and (path.parent / PANEL_FILE).is_file() else ()


def _document(path: Path, label: str) -> Any:
    data, _ = read_source(path, label)
    document = parse_document(data, label)
    if document is None:
        raise ConversationError("JSON lines, not one JSON document", where=label)
    return document.value


def from_task(history_rows: list, panel_rows: list, label: str, name: str) -> Conversation:
    history, panel, warnings, placed = joined(history_rows, panel_rows)
    conversation = from_history(history, label, name)
    facts = _panel_facts(panel)
    facts.update({"file": "task folder", "compact_boundaries": history.boundaries,
                  "models": list(dict.fromkeys([*facts["models"], *history.models])),
                  "requests_without_reply": sum(1 for reply in placed if reply < 0)})
    conversation.metadata.update(facts)
    conversation.warnings[:0] = warnings
    return conversation


def from_panel(panel: Panel, label: str, name: str, history: History | None = None) -> Conversation:
    if not panel.messages:
        raise ConversationError(f"no model request: a {PANEL_FILE} without an api_req_started row", where=label)
    warnings = list(panel.warnings) + _panel_warnings(panel)
    metadata = {**_panel_facts(panel), "file": PANEL_FILE}
    return build_conversation(panel.messages, label, name, warnings, metadata=metadata,
                              fresh_starts=frozenset(b["index"] for b in panel.boundaries),
                              usage=panel.usage if any(panel.usage) else [], timestamps=panel.timestamps)


def from_history(history: History, label: str, name: str) -> Conversation:
    warnings = list(history.warnings)
    for index, message in enumerate(history.messages):
        warnings += [LoadWarning(text, index=index) for text in check_message(message, f"{label}: messages[{index}]")]
    calls = [u for u in history.usage if u is not None]
    from_metrics = sum(1 for u in calls if u.pop(METRICS, False))
    if from_metrics:
        warnings.append(LoadWarning(f"{from_metrics:,} replies carry Cline's metrics: its `cached` adds the cache's "
                                    "writes and reads, read here as reads", kind="cached_not_split"))
    cost = sum(u.get("cost_usd", 0.0) for u in calls)
    metadata: dict[str, Any] = {
        "file": HISTORY_FILE, "models": history.models, "compact_boundaries": history.boundaries,
        "compact_summary_indices": history.summaries, "messages_hidden_by_compactions": history.tagged,
        "tool_results_read_from_text": history.results_from_text, "context_usage_falls": history.usage_falls,
        "calls": len(calls)}
    if history.window:
        metadata[NAMED_KEY] = history.window
        metadata[NAMED_SOURCE_KEY] = "the environment details' Context Window Usage line"
    totals = run_totals(f"{HISTORY_FILE} metrics", cost_usd=cost, calls=len(calls)) if calls else None
    if totals:
        metadata[RECORDED_TOTALS] = totals
    return build_conversation(history.messages, label, name, warnings, metadata=metadata,
                              fresh_starts=frozenset(b["index"] for b in history.boundaries),
                              usage=history.usage if calls else [], timestamps=history.timestamps)


def _panel_facts(panel: Panel) -> dict:
    requests = panel.requests
    priced = [r.cost_usd for r in requests if r.cost_usd is not None]
    models = list(dict.fromkeys(r.model for r in requests if r.model))
    facts: dict[str, Any] = {
        "models": models, "calls": len(requests),
        "calls_with_usage": sum(1 for r in requests if r.usage is not None),
        "calls_cut_off": sum(1 for r in requests if r.cancelled),
        "logged_cost_usd": round(sum(priced), 10) if priced else None,
        "compact_boundaries": panel.boundaries, "api_protocols": sorted({r.protocol for r in requests if r.protocol}),
        **{key: value for key, value in sorted(panel.counts.items())}}
    if panel.window:
        facts[NAMED_KEY] = panel.window
        facts[NAMED_SOURCE_KEY] = "the environment details' Context Window Usage line"
    totals = run_totals(f"{PANEL_FILE} api_req_started", cost_usd=sum(priced), calls=len(requests))
    if totals:
        facts[RECORDED_TOTALS] = totals
    return facts


def _panel_warnings(panel: Panel) -> list[LoadWarning]:
    found = []
    if not any(r.text for r in panel.requests):
        found.append(LoadWarning("the request rows keep no `request` text: the person's turns are the panel's task "
                                 "and feedback, and each call's context is known from its usage only",
                                 kind="no_request_text"))
    if panel.counts.get("calls_without_text"):
        found.append(LoadWarning(f"{plural(panel.counts['calls_without_text'], 'request')} "
                                 f"{verb(panel.counts['calls_without_text'], 'shows', 'show')} no reply in the panel "
                                 "(cut off, failed or retried): each is a call with an empty reply",
                                 kind="call_without_text"))
    return found


__all__ = ["CLINE", "HISTORY_FILE", "KILO", "PANEL_FILE", "ROO", "flavour", "from_history", "from_panel",
           "loader", "looks_like_panel", "sniffer"]
