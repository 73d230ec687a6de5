"""What one Claude Code compaction carried on, from its own records: the isCompactSummary line (the summary
as Claude Code wrote it), the files it attached again (its `file` and `compact_file_reference` lines, 2.1.92
on; before that, the files its rule re-attaches: the newest read or edited, after_compaction.py), the plan,
skills and to-do list it put back, and the messages it kept whole (`preservedMessages`, 2.1.16x)."""

import json

from compaction.agents.claude_code.after_compaction import FILES
from compaction.agents.claude_code.compacting import expected_after
from compaction.compactions.carried import CarriedOn, generic_carried_on
from compaction.importers.fields import object_at
from compaction.model.history import History
from compaction.model.messages import tool_uses

EXTRAS = ("plan and skills", "to-do list")


def plan_and_todos_text(messages: list) -> tuple[str, ...]:
    """The texts of the last plan presented (ExitPlanMode) and the last to-do list written (TodoWrite), which
    Claude Code puts back after a compaction: what they name was carried on."""
    plan = todos = ""
    for message in messages:
        for use in tool_uses(message):
            given = object_at(use, "input")
            if use.get("name") == "ExitPlanMode" and isinstance(given.get("plan"), str):
                plan = given["plan"]
            elif use.get("name") == "TodoWrite" and isinstance(given.get("todos"), list):
                todos = json.dumps(given["todos"], ensure_ascii=False)
    return tuple(text for text in (plan, todos) if text)


def carried_on(history: History, boundary: dict) -> CarriedOn:
    found = generic_carried_on(history, boundary)
    attachments = boundary.get("attachments")
    index = boundary["index"]
    after = expected_after(history, index, history.recorded.agent_version)
    if isinstance(attachments, list) and any(a.get("type") in FILES for a in attachments if isinstance(a, dict)):
        files = tuple(a["filename"] for a in attachments
                      if isinstance(a, dict) and a.get("type") in FILES and isinstance(a.get("filename"), str))
        files_note = "the files the log's attachment lines name"
    else:
        files = tuple(file.path for file in after.files)
        files_note = ("the log lists none: the newest files read or edited, which Claude Code's rule attaches "
                      "again (up to 5)")
    kept = boundary.get("preserved_messages")
    return CarriedOn(found.summary, found.summary_chars, found.summary_note or "the log's isCompactSummary line",
                     files, files_note, tuple((part, after.part(part)) for part in EXTRAS if after.part(part)),
                     kept_count=kept if isinstance(kept, int) else 0,
                     extra_text=plan_and_todos_text(history.originals[:index]),
                     kept_note="messages kept whole across the compaction (the log's preservedMessages)"
                     if isinstance(kept, int) else "")
