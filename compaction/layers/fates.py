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
    """One fate per message of the pipeline's input, the latest layer that touched it winning.

    Events name original messages (their origins); the input may be part of a conversation (a log's
    history after its own compaction), so each origin is found at its position in the input."""
    origins = result.stages[0].history.origins
    position = {origin: at for at, origin in enumerate(origins) if origin is not None}
    fates = ["kept"] * len(origins)

    def mark(origin: int | None, fate: str) -> None:
        if origin in position:
            fates[position[origin]] = fate

    for event in result.persisted:
        mark(event.index, "persisted")
    for snipped in result.snipped:
        for index in snipped.indices:
            mark(index, "snipped")
    for placeholder in result.placeholders:
        mark(placeholder.index, "placeholder")
    if result.summary is not None and result.summary.succeeded:
        for index in result.summary.summarized_indices:
            mark(index, "summarised")
    return fates
