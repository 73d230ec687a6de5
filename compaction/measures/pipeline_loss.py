"""What one pipeline run drops and loses, beside what it saves (the Pipeline page's headline)."""

from dataclasses import dataclass

from compaction.layers.pipeline import PipelineResult
from compaction.measures.loss import SentView, artifact_retention
from compaction.measures.meter import conversation_artifacts, term_index


@dataclass(frozen=True)
class PipelineLoss:
    dropped_messages: int  # snipped from the middle by L1: no summary ever sees them
    dropped_chars: int
    artifact_retention: float | None  # artifacts of the whole input still sent verbatim


def pipeline_loss_of(result: PipelineResult) -> PipelineLoss:
    prepared = result.stages[0].history
    found = conversation_artifacts(prepared, len(prepared.originals))
    retention = artifact_retention(found, term_index(prepared), SentView(result.final.history))
    return PipelineLoss(sum(s.count for s in result.snipped), sum(s.size for s in result.snipped), retention)
