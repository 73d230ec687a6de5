"""A pipeline result as the text table `compaction run` prints (pipeline_data has it as JSON)."""


from compaction.layers.pipeline import LAYER_TITLES, PipelineResult
from compaction.layers.pipeline_data import stage_rows
from compaction.model.validity import is_waiting_call


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
                 f"{len(result.placeholders)} placeholders; L4: {result.summary.reason if result.summary else '-'}")

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
