"""A pipeline result as plain JSON-ready data and as a text table (the CLI's two outputs)."""

from typing import Any

from compaction.layers.pipeline import LAYER_TITLES, PipelineResult
from compaction.model.events import event_dict
from compaction.model.validity import is_waiting_call


def stage_rows(result: PipelineResult) -> list[dict[str, Any]]:
    rows = []
    previous = None
    for stage in result.stages:
        row = {"layer": stage.layer, "messages": stage.count, "size": stage.size, "tokens": stage.tokens,
               "removed": 0 if previous is None else previous - stage.size}
        if stage.layer == "L4":
            row["triggered"] = stage.triggered
        rows.append(row)
        previous = stage.size
    return rows


def result_dict(result: PipelineResult, source: str = "") -> dict[str, Any]:
    summary = result.summary
    return {
        "input": {"file": source, "messages": result.stages[0].count, "size": result.stages[0].size,
                  "system_and_tools": result.stages[0].history.overhead,
                  "valid": not result.input_problems,
                  "problems": [str(p) for p in result.input_problems]},
        "settings": result.settings.as_dict(),
        "stages": stage_rows(result),
        "persisted": [{**event_dict(e), "preview": e.preview[:200]} for e in result.persisted],
        "snipped": [{k: v for k, v in event_dict(e).items() if k != "indices"} for e in result.snipped],
        "placeholders": [event_dict(e) for e in result.placeholders],
        "summary": event_dict(summary) | {"summarized_indices": len(summary.summarized_indices)}
        if summary else None,
        "valid": result.valid,
        "problems": [str(p) for p in result.problems],
    }


def _kb(chars: int) -> str:
    return f"{chars / 1000:,.1f} K"


def stage_table(result: PipelineResult) -> str:
    lines = [f"{'stage':<34}{'messages':>10}{'size (chars)':>16}{'~tokens':>12}{'removed':>14}"]
    for row in stage_rows(result):
        title = LAYER_TITLES[row["layer"]]
        if row["layer"] == "L4" and not row["triggered"]:
            title += " (not triggered)"
        lines.append(f"{title:<34}{row['messages']:>10,}{_kb(row['size']):>16}{row['tokens']:>12,}"
                     f"{_kb(row['removed']):>14}")
    first, last = result.stages[0].size, result.final.size
    saved = 100 * (1 - last / first) if first else 0.0
    lines.append("")
    lines.append(f"saved {_kb(first - last)} characters ({saved:.1f}%); "
                 f"{len(result.persisted)} persisted, {sum(s.count for s in result.snipped)} snipped, "
                 f"{len(result.placeholders)} placeholders; L4: {result.summary.reason}")
    if result.summary and result.summary.error:
        lines.append(f"summary failed: {result.summary.error} (history kept as after L2)")
    lines.append(pairs_line(result))
    return "\n".join(lines)


def pairs_line(result: PipelineResult) -> str:
    """Whether what is sent keeps every tool pair; a call still waiting for its result at the end of
    the input is said apart, since compaction did not cause it."""
    count = result.final.count
    waiting_before = {p.tool_use_id for p in result.input_problems
                      if is_waiting_call(p, result.stages[0].count)} if result.problems else set()
    broken = [p for p in result.problems
              if not (is_waiting_call(p, count) and p.tool_use_id in waiting_before)]
    if broken:
        return "BROKEN tool pairs: " + "; ".join(str(p) for p in broken[:5])
    if result.problems:
        waiting = ", ".join(repr(p.tool_use_id) for p in result.problems)
        return f"tool pairs intact; the last call ({waiting}) still waits for its result, as in the input"
    return "tool pairs intact"
