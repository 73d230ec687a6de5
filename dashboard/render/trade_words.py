"""The Pipeline page's headline as a trade: what one pass saved set beside what it kept and what it lost,
and how many summaries the same settings write over the whole session against the agent's own. No
Streamlit here."""

from compaction.layers import PipelineResult
from compaction.measures import PipelineLoss
from compaction.replay import ReplayResult
from dashboard.render.narrative import fate_counts, plural
from dashboard.render.units import percent


def trade_sentence(result: PipelineResult, lost: PipelineLoss) -> str:
    """'One pass saves 99.6 % of the characters by keeping 1 of 155 messages whole: 104 dropped with no
    summary (L1), 50 folded into one summary (L4), 40 old tool results' text replaced (L2); 0 % of the
    artifacts ... are still sent word for word.'"""
    counts = fate_counts(result)
    total = len(result.stages[0].messages)
    first = result.stages[0]
    saved = result.saved / first.size if first.size else 0.0
    whole = counts.get("kept", 0)
    losses = []
    if counts.get("snipped"):
        losses.append(f"{counts['snipped']:,} dropped with no summary (L1)")
    if counts.get("summarised"):
        losses.append(f"{counts['summarised']:,} folded into one summary (L4)")
    if counts.get("persisted"):
        losses.append(f"{counts['persisted']:,} with a large output saved to disk and only its preview sent (L3)")
    if result.placeholders:
        losses.append(f"{plural(len(result.placeholders), 'old tool result')} replaced by a one-line placeholder (L2)")
    how = f": {'; '.join(losses)}" if losses else ", nothing else"
    artifacts = "" if lost.artifact_retention is None else (
        f" Of the artifacts (files read or written, errors, the person's constraints), "
        f"{percent(lost.artifact_retention)} are still sent word for word.")
    return (f"One pass saves {percent(saved, 1)} of the characters by keeping {whole:,} of {total:,} messages "
            f"whole{how}.{artifacts}")


def summaries_sentence(replay: ReplayResult, agent: str) -> str | None:
    """'Over the whole session these settings write 6 summaries; <the agent> wrote 1.' None when the log
    records no compaction of its own and the settings write none either."""
    written = replay.totals["summaries"]
    own = len(replay.boundaries)
    if not own and not written:
        return None
    return (f"Over the whole session, call by call, these settings write {plural(written, 'summary')}; "
            f"{agent} wrote {own:,} in its log.")
