"""What happened to each original message in one pipeline run, for the at-a-glance strip."""

from compaction.layers.pipeline import PipelineResult

FATES = ("kept", "persisted", "snipped", "placeholder", "summarised")
FATE_TEXT = {
    "kept": "kept whole",
    "persisted": "large output saved to disk, preview kept (L3)",
    "snipped": "dropped from the middle (L1)",
    "placeholder": "old tool result replaced by a placeholder (L2)",
    "summarised": "folded into the LLM summary (L4)",
}


def message_fates(result: PipelineResult) -> list[str]:
    """One fate per message of the pipeline's input, the latest layer that touched it winning."""
    fates = ["kept"] * result.stages[0].count
    for event in result.persisted:
        if event.index is not None:
            fates[event.index] = "persisted"
    for snipped in result.snipped:
        for index in snipped.indices:
            fates[index] = "snipped"
    for event in result.placeholders:
        if event.index is not None:
            fates[event.index] = "placeholder"
    if result.summary is not None and result.summary.succeeded:
        for index in result.summary.summarized_indices:
            fates[index] = "summarised"
    return fates
