"""A task folder's two files together: the messages from api_conversation_history.json, each request's
usage, cost and model from ui_messages.json, and the compactions of both.

A request row maps to its reply by Cline's `conversationHistoryIndex` (the API history's newest message
when the row was written: the person's turn follows it, the reply after that, at index + 2); rows without
it (Roo Code, Kilo Code) map to the replies in order. A Cline compaction of the panel takes effect at the
person's turn of its request; Roo's and Kilo's are the history's own summary and marker messages.

Which extension wrote the task: the format asked for, else the folder it lies in under VS Code's global
storage (its extension id), else the files' own marks (log/__init__.py flavour).
"""

from pathlib import Path
from typing import Any

from compaction.agents.cline.log.api_history import History, read_history
from compaction.agents.cline.log.panel import Panel, iso, walk
from compaction.model.conversation import LoadWarning

STORAGE_IDS = {"saoudrizwan.claude-dev": "cline", "rooveterinaryinc.roo-cline": "roo-code",
               "kilocode.kilo-code": "kilo-code"}


def extension_of(path: Path) -> str | None:
    """The agent whose global-storage folder `path` lies in, or None."""
    return next((name for part in path.parts for key, name in STORAGE_IDS.items() if part.lower() == key), None)


def joined(history_rows: list, panel_rows: list) -> tuple[History, Panel, list[LoadWarning], list[int]]:
    """The history with the panel's usage on its replies, its compactions added; the warnings of the
    join; the replies' positions, request by request (-1: no reply in the history)."""
    history, panel = read_history(history_rows, iso), walk(panel_rows)
    messages = history.messages
    replies = [i for i, m in enumerate(messages) if isinstance(m, dict) and m.get("role") == "assistant"]
    by_index = bool(panel.requests) and all(r.history_index is not None for r in panel.requests)
    placed: list[int] = []
    in_order = iter(replies)
    for request in panel.requests:
        if by_index:
            assert request.history_index is not None
            reply = request.history_index + 2
        else:
            reply = next(in_order, -1)
        ok = 0 <= reply < len(messages) and isinstance(messages[reply], dict) and messages[reply].get("role") == "assistant"
        placed.append(reply if ok else -1)
        if ok and request.usage is not None:
            usage: dict[str, Any] = dict(request.usage)
            own = history.usage[reply]
            if "model" not in usage and own and own.get("model"):
                usage["model"] = own["model"]
            history.usage[reply] = usage
    warnings = []
    missing = sum(1 for reply in placed if reply < 0)
    if missing:
        warnings.append(LoadWarning(f"{missing:,} of {len(placed):,} request rows of the panel have no reply in the "
                                    "API history (a request that failed or was cut off): their usage is left out",
                                    kind="request_without_reply"))
    for boundary in panel.boundaries:
        at = boundary.get("request")
        reply = placed[at] if isinstance(at, int) and 0 <= at < len(placed) else -1
        if boundary["trigger"] in ("condense", "truncation") and not boundary.get("deleted_range"):
            continue  # Roo's and Kilo's: the history's own summary or marker says where
        if reply > 0:
            first, last = boundary["deleted_range"]
            kept = [i for i in range(reply - 1) if not first <= i <= last]  # the API history's own indices
            history.boundaries.append({**boundary, "index": reply - 1, "kept": kept})
    _with_panel_counts(history, panel)
    history.boundaries.sort(key=lambda b: b["index"])
    return history, panel, warnings, placed


def _with_panel_counts(history: History, panel: Panel) -> None:
    """Roo's and Kilo's summaries and markers in the history, in order, with the tokens the panel's
    condense and truncation rows give for them."""
    for trigger in ("condense", "truncation"):
        shown = [b for b in panel.boundaries if b["trigger"] == trigger and not b.get("deleted_range")]
        kept = [b for b in history.boundaries if b["trigger"] == trigger and "deleted_range" not in b]
        for boundary, facts in zip(kept, shown, strict=False):
            boundary.update({key: facts[key] for key in ("pre_tokens", "post_tokens", "cost_usd", "messages_removed")
                             if facts.get(key) is not None})
