"""A pipeline run as plain JSON-ready data: one row per stage, and the whole result (what `compaction run
--json` prints and the Pipeline page tabulates)."""

from typing import Any

from compaction.layers.pipeline import PipelineResult
from compaction.model.events import event_dict


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
